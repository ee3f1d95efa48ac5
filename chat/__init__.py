"""Chat sessions and messages: the pages, the websocket consumer, the answers' streaming, admin.

- ``services``: access (``get_session_for_user``) and the workflows that store questions and answers;
- ``consumers``, ``frames``: the websocket and its closed set of HTML frames;
- ``generations``: the answer task (one per question: the agent's events in, frames out) and the answer's state;
- ``streams``: the streaming registry (running answers, the pages' queues, other processes' frames and Stop);
- ``conversations``: the conversation manager wired to the chat's messages;
- ``agent/``: the agent graph and its subgraphs, which answer a turn.

May import ``rag``, ``llm`` and ``database_pool``; never ``agentsite``.
"""
