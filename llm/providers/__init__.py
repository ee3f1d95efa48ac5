"""Provider adapters; find them through ``llm.registry``.

``base`` holds the one streaming method every adapter implements; ``openai``
(any OpenAI-compatible server), ``gigachat``, ``gemini`` and ``offline`` (no
model configured) implement it over ``transport``'s HTTP connections.

May import ``llm`` (types, params, retries, tokens, audit) and Django settings; nothing of ``rag`` or ``chat``.
"""
