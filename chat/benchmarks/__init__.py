"""Benchmarks of the chat app; their commands in ``chat/management/commands`` stay thin.

- ``load``: N concurrent websocket chats against one server process and a scripted model (``manage.py chat_load``).
"""
