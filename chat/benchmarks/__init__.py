"""Benchmarks of the chat app's doors; their commands in ``chat/management/commands`` stay thin."""
