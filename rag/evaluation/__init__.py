"""Retrieval measured against localization datasets: real issues and the files their fixes touched.

``dataset`` reads them, ``snapshots`` reads each repository at the issue's
commit from a git mirror, ``indexing`` indexes the snapshots through the
product's own index runs, ``runner`` retrieves and scores each instance
(``metrics``) against ``baseline`` (BM25 over whole files); ``candidates``,
``crossval`` and ``learning`` choose ranking parameters and fit the learned file
ranker on held-out repositories; ``report`` prints the figures. The
``rag_eval`` command drives it. ``history`` makes a set from any repository's own
commits (``rag_history_set``), to measure the ranking where no issue set exists.

May import ``rag`` (``rag.services`` and its modules, models, analysis, terms);
nothing of ``chat``, ``llm`` or ``agentsite``.
"""
