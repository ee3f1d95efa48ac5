"""Benchmarks of the rag app; their commands in ``rag/management/commands`` stay thin.

- ``index``: indexing throughput and retrieval latency against the raw floor (``manage.py bench_index``);
- ``analysis``: analysis speed alone on a tree (``python -m rag.benchmarks.analysis``);
- ``hostile_queries``: query texts built to make query analysis slow, timed (``manage.py bench_query_analysis``,
  and the fuzz tests that hold the growth to linear);
- ``hostile_files``: code files built to make a file's parse or queries slow or greedy, timed
  (``python -m rag.benchmarks.hostile_files``);
- ``same_names``: thousands of files defining and calling the same names, the analysis timed at N and 4N
  files (``python -m rag.benchmarks.same_names``);
- ``source_view``: the source view of a long file through the web server (``manage.py bench_source_view``);
- ``versions``: what a new version of a followed git repository costs (``manage.py bench_versions``).
"""
