"""The MCP door: the repository tools, the agent's ``ask`` and indexed files, served to editors' agents.

- ``models.py``, ``tokens.py``: personal access tokens (hashed, per user,
  revocable, optionally limited to some repositories) and the record of
  every call made with one;
- ``server.py``: the tools and resources on the official ``mcp`` SDK's
  low-level server, from the same ``rag.tools`` definitions the chat agent
  uses, plus ``list_repositories`` and ``ask`` (the agent itself);
- ``endpoint.py``: the ASGI application mounted at ``/mcp`` in
  ``agentsite/asgi.py``: the bearer token, the limits, and the SDK's
  streamable HTTP transport;
- ``views.py``: the pages where a person makes and revokes tokens and finds
  the configuration for their editor.

May import: ``chat.agent``, ``rag``, ``llm``, ``database_pool``.
"""
