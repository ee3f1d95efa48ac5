"""Chat sessions and messages: the pages, the websocket consumer, the answers' streaming, admin.

- ``services``: access (``get_session_for_user``) and the workflows that store questions and answers;
- ``consumers``, ``frames``, ``generations``: the websocket, its closed set of HTML frames, the answer tasks;
- ``conversations``: the conversation manager wired to the chat's messages;
- ``agent/``: the agent graph and its subgraphs, which answer a turn.

May import ``rag``, ``llm`` and ``database_pool``; never ``agentsite``.
"""
