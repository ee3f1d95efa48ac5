"""Talking to models: providers, prompts, audit.

Entry points for the rest of the product:

- ``llm.registry.get_provider(name=None)``: the shared provider (None: the
  active one from settings). Its ``stream(request)`` yields ``StreamEvent``s
  and ends with ``done`` or ``error`` (keeping the partial text);
  ``complete(request)``, ``embed(texts)``, ``count_tokens(messages)``,
  ``context_window(purpose)``; capability flags ``supports_*`` and
  ``generates_text`` (False for the offline provider).
- ``llm.prompts.get_prompt(name)`` / ``aget_prompt(name)``: a prompt's text
  and version (file, admin override, or the fallback).
- ``llm.audit.correlation``: a context variable whose value is stored with
  every call made while it is set.

Also here: the graph engine (``graph/``), the conversation manager
(``conversation/``), retries, token budgeting, and the benchmarks
(``benchmarks/``: the stream and dialog benchmarks and the fake model server).

May import Django and ``database_pool``; nothing of ``agentsite``, ``rag`` or
``chat`` (no chat sessions, no repositories).
"""
