"""Benchmarks of the LLM layer, and what the product's benchmarks and tests share.

- ``stream``: the adapter's own overhead on a stream against raw httpx (``manage.py bench_llm_stream``);
- ``dialog``: time to first chunk over a long dialog, dual-context handover against
  summarizing on the critical path (``manage.py bench_dialog``);
- ``fake_server``: a local model server speaking the OpenAI, GigaChat and Gemini
  wire formats, scripted; the one fake model of the benchmarks and the tests;
- ``percentiles``: the one ``percentile`` of every benchmark.

May import ``llm`` and Django; nothing of ``rag``, ``chat`` or ``agentsite``.
Nothing of the product imports this package but the benchmark commands.
"""
