"""Benchmarks of the rag app; their commands in ``rag/management/commands`` stay thin.

- ``index``: indexing throughput and retrieval latency against the raw floor (``manage.py bench_index``);
- ``analysis``: analysis speed alone on a tree (``python -m rag.benchmarks.analysis``);
- ``hostile_queries``: query texts built to make query analysis slow, timed (``manage.py bench_query_analysis``,
  and the fuzz tests that hold the growth to linear);
- ``hostile_files``: code files built to make a file's parse or queries slow or greedy, timed
  (``python -m rag.benchmarks.hostile_files``);
- ``repository_pass``: uploads built to make the repository pass slow (thousands of files defining the same
  names, routers and commands chained thousands deep), timed (``python -m rag.benchmarks.repository_pass``);
- ``source_view``: the source view of a long file through the web server (``manage.py bench_source_view``);
- ``versions``: what a new version of a followed git repository costs (``manage.py bench_versions``).
"""
