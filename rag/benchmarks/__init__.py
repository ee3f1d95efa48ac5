"""Benchmarks of the rag app; their commands in ``rag/management/commands`` stay thin.

- ``index``: indexing throughput and retrieval latency against the raw floor (``manage.py bench_index``);
- ``analysis``: analysis speed alone on a tree (``python -m rag.benchmarks.analysis``);
- ``hostile_queries``: query texts built to make query analysis slow, timed (``manage.py bench_query_analysis``,
  and the fuzz tests that hold the growth to linear);
- ``source_view``: the source view of a long file through the web server (``manage.py bench_source_view``).
"""
