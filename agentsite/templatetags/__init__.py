"""Template tags of the project's own pages (``relative_times``); may import Django only."""
