"""The conversation manager of each active chat, per server process.

Every answer of a chat goes through its ``ConversationManager``
(``llm.conversation``), which keeps the dialog inside the model's window by
warming a summarized standby context and handing over to it. Managers are
made at a chat's first question in this process and kept for the most
recently used chats (``CHAT["ACTIVE_CONVERSATIONS"]``); one pushed out is shut
down, and is rebuilt from the stored messages when its chat is used again
(its summaries are stored, so nothing is summarized twice).
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from itertools import islice

from django.conf import settings
from django.db import connection

from database_pool import in_database_pool
from chat.agent.config import AgentConfig
from chat.models import Message
from llm.conversation.manager import ConversationManager
from llm.registry import get_provider
from llm.types import Message as LLMMessage

log = logging.getLogger(__name__)


def conversation_key(session_id: int) -> str:
    """The chat's key in the conversation layer (its summaries are stored under it)."""
    return f"chat-session:{session_id}"


def _dialog_rows(select: str, session_id: int, question_id: int, order: str = "") -> list[tuple]:
    """``select`` over the dialog before the question ``question_id``: its messages not replaced by a
    regenerated answer, and with text (an answer stopped before its first token is no part of it).

    Written out: the dialog is counted for every question asked, where the ORM's
    query cost the server several times PostgreSQL's work on it.
    """
    table = connection.ops.quote_name(Message._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {select} FROM {table} WHERE session_id = %s AND id < %s AND replaced_at IS NULL AND content <> ''{order}",
            [session_id, question_id],
        )
        return cursor.fetchall()


def dialog_length(session_id: int, question_id: int) -> int:
    """How many messages of the dialog come before the question ``question_id``."""
    return _dialog_rows("count(*)", session_id, question_id)[0][0]


def dialog_before(session_id: int, question_id: int) -> tuple[LLMMessage, ...]:
    """The whole dialog before the question, oldest first, with the texts exactly as stored (summaries hash them)."""
    rows = _dialog_rows("role, content", session_id, question_id, " ORDER BY id")
    return tuple(LLMMessage(role=role, content=content) for role, content in rows)


class ConversationRegistry:
    """This process's managers, least recently used first; a chat's turns are serialized by the consumer."""

    def __init__(self) -> None:
        self._managers: OrderedDict[int, ConversationManager] = OrderedDict()
        self._busy: set[int] = set()
        self._loop: asyncio.AbstractEventLoop | None = None
        # Shutdowns scheduled from other threads, kept referenced until they finish.
        self._closing: set[asyncio.Task[None]] = set()

    def __contains__(self, session_id: int) -> bool:
        return session_id in self._managers

    @asynccontextmanager
    async def turn(self, session_id: int, question_id: int, stored_length: int) -> AsyncIterator[ConversationManager]:
        """The chat's manager for one turn, in step with the ``stored_length`` messages stored before the question."""
        self._adopt_running_loop()
        manager = self._managers.get(session_id)
        if manager is not None and manager.dialog_length != stored_length:
            # Another process answered in this chat, or a message was deleted: start again from the database.
            del self._managers[session_id]
            await manager.shutdown()
            manager = None
        if manager is None:
            # A chat's first question needs no trip to the database: nothing came before it.
            dialog = await in_database_pool(dialog_before)(session_id, question_id) if stored_length else ()
            window = int(get_provider().context_window("main") * AgentConfig.from_settings().history_share)
            # The agent parses structured answers call by call (CHAT["STRUCTURED_ANSWERS"]); the manager
            # sees the visible text only, so its own structured mode stays off.
            manager = ConversationManager(
                conversation_key(session_id), history=dialog, system_prompt="", window=window, structured_mode=False
            )
            self._managers[session_id] = manager
        self._managers.move_to_end(session_id)
        self._busy.add(session_id)
        try:
            await self._evict()
            yield manager
        except BaseException:
            # The turn stopped before its last chunk (Stop, a newer question, a failure): the manager
            # may hold text that never reached the chat's stored answer. The next turn starts again
            # from the stored dialog, so the model sees what the user saw and summaries hash it.
            if self._managers.get(session_id) is manager:
                del self._managers[session_id]
            await manager.shutdown()
            raise
        finally:
            self._busy.discard(session_id)

    async def _evict(self) -> None:
        """Shut down the least recently used managers past the bound, never one whose chat is answering."""
        excess = len(self._managers) - settings.CHAT["ACTIVE_CONVERSATIONS"]
        if excess <= 0:
            # The common case, at every turn: no walk over every chat of the process.
            return
        idle = list(islice((session_id for session_id in self._managers if session_id not in self._busy), excess))
        for session_id in idle:
            await self._managers.pop(session_id).shutdown()

    def _adopt_running_loop(self) -> None:
        # Managers hold tasks of the loop they ran on; one from another (finished) loop cannot be reused.
        loop = asyncio.get_running_loop()
        if self._loop is not loop:
            self._loop = loop
            self._managers.clear()
            self._busy.clear()

    async def forget(self, session_id: int) -> None:
        manager = self._managers.pop(session_id, None)
        if manager is not None:
            await manager.shutdown()

    def forget_soon(self, session_id: int) -> None:
        """Shut the chat's manager down from any thread (a deleted chat); it runs on the managers' loop."""
        loop = self._loop
        if loop is None or loop.is_closed() or session_id not in self._managers:
            return

        def schedule() -> None:
            task = loop.create_task(self.forget(session_id))
            self._closing.add(task)
            task.add_done_callback(self._closing.discard)

        try:
            loop.call_soon_threadsafe(schedule)
        except RuntimeError:
            # The loop closed in the meantime: its managers are gone with it.
            log.debug("conversation %s: its loop is closed", session_id)


CONVERSATIONS = ConversationRegistry()
