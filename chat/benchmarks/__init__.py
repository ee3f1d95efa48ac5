"""Benchmarks of the chat app; their commands in ``chat/management/commands`` stay thin.

- ``load``: N concurrent websocket chats against one server process and a scripted model (``manage.py chat_load``).
- ``offline_answers``: how often the answer without a model points at the files a real fix changed, on
  ``rag_eval``'s evaluation sets (``manage.py bench_offline_answers``).
"""
