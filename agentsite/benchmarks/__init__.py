"""Benchmarks of the site as a whole (a real web process, its doors); their commands stay thin."""
