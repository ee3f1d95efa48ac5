"""Template tags of the repository pages (``repository_words``); may import ``rag`` and Django."""
