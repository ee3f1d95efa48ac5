"""The agent that answers a turn: a graph whose router picks ``general``, ``project_qa``, ``docs`` or ``edits``.

- ``agent``: ``TurnInput`` and ``stream_turn``, the entry point (services prepared, graph run, ``AgentEvent`` stream);
- ``graph``, ``router``: the agent graph and the intent router; ``general``, ``project_qa``: two of its subgraphs;
- ``docs/``, ``edits/``: the documentation and edit subgraphs; ``writing``: what those two share (the
  pinned index view, their model calls and progress steps);
- ``tools``: the repository tools bound to the chat's repository; ``offline``: extractive answers with no model;
- ``events``, ``turn``, ``config``, ``prompting``, ``citing``, ``summarize``: what the subgraphs share.

May import ``rag`` (its public ``rag.services`` and ``rag.tools``), ``llm`` and ``database_pool``;
of ``chat`` only ``chat.user_errors`` and its own modules: the consumer and the answer tasks drive it.
"""
