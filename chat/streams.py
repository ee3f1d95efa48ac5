"""The chat's streaming registry: the answers running in this process and the pages that follow them.

A running answer's frames reach every open page of its chat. Pages served by
this process listen on an in-process queue (no copy, no trip through the
channel layer, never dropped). With a channel layer shared by several server
processes (Redis), the frames also go to the chat's group, where each other
process has one channel (``ProcessChannels``) that hands them to its own
pages' queues; Stop travels on a channel of its own, so it never waits
behind frames. The registry stores the text of all running answers at least
every ``CHAT["FLUSH_SECONDS"]``.

What an answer is and how it is written lives in ``chat.generations``; this
module knows a running answer only by the few fields ``RunningAnswer`` names.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
import uuid
import weakref
from collections import Counter
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any, Protocol

from channels.layers import BaseChannelLayer, InMemoryChannelLayer, get_channel_layer
from django.conf import settings
from django.core.signals import setting_changed

from chat import services
from database_pool import in_database_pool

log = logging.getLogger(__name__)

# How often a stopping answer is looked at, to cancel it again if it is still writing.
STOP_CHECK_SECONDS = 1.0

# Tags what this process sends through a shared channel layer, so it skips its own echoes.
PROCESS_ID = uuid.uuid4().hex

# How long an answer that starts here sends its frames to the other processes whatever they
# show, while their replies to "who shows this chat?" come in. A reply that comes later still
# counts: its process then gets the answer so far, and the frames after it.
WHO_SECONDS = 0.25


@dataclass(frozen=True)
class Frame:
    html: str
    # For text deltas: the answer and the delta's sequence number.
    message_id: int = 0
    seq: int = 0


class RunningAnswer(Protocol):
    session_id: int
    message_id: int
    task: asyncio.Task | None
    stop_note: str
    stored_length: int
    stored_at: float

    @property
    def text(self) -> str: ...

    def snapshot(self) -> Frame:
        """The answer so far, for pages that start following it (it replaces what they show of it)."""
        ...


@functools.cache
def shares_frames_across_processes() -> bool:
    """True with a channel layer other processes read (Redis); the in-memory layer is this process alone.

    Asked for every frame of every answer: known once per process (until ``CHANNEL_LAYERS`` changes)."""
    layer = get_channel_layer()
    return layer is not None and not isinstance(layer, InMemoryChannelLayer)


def group_name(session_id: int) -> str:
    """The chat's frames group: one channel of each process with a page of the chat."""
    return f"chat.session.{session_id}"


def stop_group_name(session_id: int) -> str:
    """The chat's Stop group: each process with a page of the chat stops the chat's answer if it runs there."""
    return f"chat.stop.{session_id}"


def frame_interval(running_answers: int) -> float:
    """Seconds a page's websocket messages are kept apart while ``running_answers`` stream in this process.

    ``FRAME_INTERVAL_MS`` while few answers run; beyond ``FRAMES_PER_SECOND``
    pages' worth, the interval stretches so all pages together get at most
    that many messages a second (each costs the server a send through the
    websocket stack, whatever its size), but never past ``FRAME_INTERVAL_MAX_MS``.
    Tokens are never dropped: a longer interval only puts more of them in one message.
    An answer reads its model's stream at the same pace (``chat.generations``).
    """
    base, frames_per_second, longest = _frame_settings()
    return max(base, min(running_answers / frames_per_second, longest))


@functools.cache
def _frame_settings() -> tuple[float, int, float]:
    """The base interval (s), the messages a second of all pages, the longest interval (s): read once per
    process (until ``CHAT`` changes), not for every paced read and every message of every answer."""
    chat = settings.CHAT
    return chat["FRAME_INTERVAL_MS"] / 1000, chat["FRAMES_PER_SECOND"], chat["FRAME_INTERVAL_MAX_MS"] / 1000


def _forget_settings(*, setting: str, **kwargs: object) -> None:
    if setting == "CHAT":
        _frame_settings.cache_clear()
    elif setting == "CHANNEL_LAYERS":
        shares_frames_across_processes.cache_clear()


setting_changed.connect(_forget_settings, dispatch_uid="chat.streams.settings")


class ChatLocks:
    """A lock per chat, of the running loop, that lives while someone holds or waits for it."""

    def __init__(self) -> None:
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._loop: asyncio.AbstractEventLoop | None = None

    def __call__(self, session_id: int) -> asyncio.Lock:
        loop = asyncio.get_running_loop()
        if self._loop is not loop:
            self._locks, self._loop = weakref.WeakValueDictionary(), loop
        lock = self._locks.get(session_id)
        if lock is None:
            lock = self._locks[session_id] = asyncio.Lock()
        return lock


@dataclass
class Audience:
    """Of a chat whose answer is written here: the other processes that show it, when they were
    asked, and whether one started showing it since the answer's last frame."""

    asked_at: float
    shown_by: set[str] = field(default_factory=set)
    newly_shown: bool = False


class ProcessChannels:
    """This process's two channels on a shared layer, each read by a task of its own.

    ``frames`` is in the frames group of every chat a page of this process
    shows and puts other processes' frames in the pages' queues; ``stops`` is
    in the Stop group of the same chats and of every chat whose answer is
    written here, so a Stop from anywhere reaches it even once the asking
    page is gone. Made afresh for a new event loop or layer.

    The Stop group also says which processes show a chat: a process says so
    when its first page of the chat opens and when its last one closes, and
    when an answer of the chat starts elsewhere and asks. The process writing
    the answer sends its frames to the group only while another process shows
    the chat (a group send costs several Redis commands), and sends the answer
    so far to a process that starts showing it.
    """

    def __init__(self, deliver: Callable[[int, Frame], None], cancel: Callable[[int], Any]) -> None:
        self._deliver = deliver
        self._cancel = cancel
        self._layer: BaseChannelLayer | None = None
        self._opened: asyncio.Task[tuple[str, str]] | None = None
        self._readers: list[asyncio.Task[None]] = []
        # Per chat: its pages served here, and its answers written here.
        self._pages: Counter[int] = Counter()
        self._answers: Counter[int] = Counter()
        # A chat's group changes one at a time, in the order asked: a join and a leave of one group
        # must reach the layer in that order.
        self._changing = ChatLocks()
        self._audiences: dict[int, Audience] = {}
        # Group changes, Stops and replies under way, kept referenced until they finish.
        self._pending: set[asyncio.Task[Any]] = set()

    async def watch(self, session_id: int) -> None:
        """A page of the chat opened here: from now on, other processes' frames of it reach this process."""
        await self.count(session_id, pages=1)

    async def unwatch(self, session_id: int) -> None:
        await self.count(session_id, pages=-1)

    async def count(self, session_id: int, *, pages: int = 0, answers: int = 0) -> None:
        """Pages of the chat opened (or closed, negative) here, and answers of it started (or ended) here."""
        async with self._changing(session_id):
            layer, (frames, stops) = await self._channels()
            if self._pages[session_id] + pages < 0 or self._answers[session_id] + answers < 0:
                # A page or answer of an earlier loop or layer, whose counts were dropped with it.
                return
            paged = self._pages[session_id] > 0
            followed = paged or self._answers[session_id] > 0
            self._pages[session_id] += pages
            self._answers[session_id] += answers
            now_paged = self._pages[session_id] > 0
            now_followed = now_paged or self._answers[session_id] > 0
            if not now_followed:
                del self._pages[session_id], self._answers[session_id]
            if now_paged != paged:
                await (layer.group_add if now_paged else layer.group_discard)(group_name(session_id), frames)
            if now_followed != followed:
                await (layer.group_add if now_followed else layer.group_discard)(stop_group_name(session_id), stops)
            if now_paged != paged:
                await self._say(layer, "chat.shows", session_id, shows=now_paged)
            if answers > 0 and self._answers.get(session_id) == answers:
                # The chat's first answer here: who shows the chat elsewhere?
                self._audiences[session_id] = Audience(asked_at=time.monotonic())
                await self._say(layer, "chat.who", session_id)
            elif not self._answers.get(session_id):
                self._audiences.pop(session_id, None)

    def sends_frames(self, session_id: int) -> bool:
        """Whether this process's frames of the chat go to the other processes.

        Always, unless an answer of the chat is written here: then while
        another process shows the chat, and until the replies to its question
        have had time to come.
        """
        audience = self._audiences.get(session_id)
        return audience is None or bool(audience.shown_by) or time.monotonic() - audience.asked_at < WHO_SECONDS

    def newly_shown(self, session_id: int) -> bool:
        """Whether another process started showing the chat since this was last asked (it then needs the answer so far)."""
        audience = self._audiences.get(session_id)
        if audience is None or not audience.newly_shown:
            return False
        audience.newly_shown = False
        return True

    @staticmethod
    async def _say(layer: BaseChannelLayer, kind: str, session_id: int, **fields: Any) -> None:
        message = {"type": kind, "origin": PROCESS_ID, "session_id": session_id, **fields}
        await layer.group_send(stop_group_name(session_id), message)

    async def _channels(self) -> tuple[BaseChannelLayer, tuple[str, str]]:
        layer = get_channel_layer()
        loop = asyncio.get_running_loop()
        if self._opened is None or self._layer is not layer or self._opened.get_loop() is not loop:
            for reader in self._readers:
                if not reader.get_loop().is_closed():
                    reader.cancel()
            self._layer, self._pages, self._answers, self._readers = layer, Counter(), Counter(), []
            self._audiences = {}
            self._opened = loop.create_task(self._open(layer))
        return layer, await asyncio.shield(self._opened)

    async def _open(self, layer: BaseChannelLayer) -> tuple[str, str]:
        frames, stops = await layer.new_channel(), await layer.new_channel()
        loop = asyncio.get_running_loop()
        self._readers = [
            loop.create_task(self._read(layer, frames, self._frame)),
            loop.create_task(self._read(layer, stops, self._control)),
        ]
        return frames, stops

    async def _read(self, layer: BaseChannelLayer, channel: str, handle: Callable[[dict], None]) -> None:
        while True:
            try:
                message = await layer.receive(channel)
            except Exception:
                # The layer is unreachable (Redis restarting): try again, without spinning.
                log.exception("receiving on %s failed; trying again", channel)
                await asyncio.sleep(1)
                continue
            if message.get("origin") != PROCESS_ID:
                handle(message)

    def _frame(self, message: dict) -> None:
        frame = Frame(message["html"], message.get("message_id", 0), message.get("seq", 0))
        self._deliver(message["session_id"], frame)

    def _control(self, message: dict) -> None:
        kind, session_id = message["type"], message["session_id"]
        if kind == "chat.stop":
            self.start(self._cancel(session_id))
        elif kind == "chat.who":
            if self._pages.get(session_id):
                self.start(self._say(self._layer, "chat.shows", session_id, shows=True))
        elif kind == "chat.shows" and (audience := self._audiences.get(session_id)) is not None:
            if not message["shows"]:
                audience.shown_by.discard(message["origin"])
            elif message["origin"] not in audience.shown_by:
                audience.shown_by.add(message["origin"])
                audience.newly_shown = True

    def start(self, work: Coroutine[Any, Any, Any]) -> None:
        """``work`` in a task of its own, kept referenced until it finishes."""
        task = asyncio.get_running_loop().create_task(work)
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)


class GenerationRegistry:
    def __init__(self) -> None:
        self._by_session: dict[int, RunningAnswer] = {}
        self._storer: asyncio.Task | None = None
        self._listeners: dict[int, set[asyncio.Queue[Frame]]] = {}
        self._elsewhere = ProcessChannels(self._deliver, self.cancel)
        # Serializes "cancel the old run, start the new one" per session across tabs.
        self.lock = ChatLocks()

    async def listen(self, session_id: int) -> asyncio.Queue[Frame]:
        """A queue that receives every frame of the chat from now on, from this process and the others."""
        queue: asyncio.Queue[Frame] = asyncio.Queue()
        self._listeners.setdefault(session_id, set()).add(queue)
        if shares_frames_across_processes():
            await self._elsewhere.watch(session_id)
        return queue

    async def stop_listening(self, session_id: int, queue: asyncio.Queue[Frame]) -> None:
        listeners = self._listeners.get(session_id)
        if listeners is not None and queue in listeners:
            listeners.discard(queue)
            if not listeners:
                del self._listeners[session_id]
            if shares_frames_across_processes():
                await self._elsewhere.unwatch(session_id)

    def writing(self, session_id: int) -> None:
        """An answer of the chat starts in this process: a Stop of the chat from any process reaches it
        once the groups are joined, in a task of its own, off the way to the answer's first token."""
        if shares_frames_across_processes():
            self._elsewhere.start(self._count_answer(session_id, 1))

    async def written(self, session_id: int) -> None:
        await self._count_answer(session_id, -1)

    async def _count_answer(self, session_id: int, change: int) -> None:
        if not shares_frames_across_processes():
            return
        try:
            await self._elsewhere.count(session_id, answers=change)
        except Exception:
            # The layer is unreachable. A failed join leaves the answer to this process's pages to
            # stop; a failed leave only brings this process Stops it has no answer for.
            log.exception("changing the Stop group of chat %s failed", session_id)

    def _deliver(self, session_id: int, frame: Frame) -> None:
        for queue in self._listeners.get(session_id, ()):
            queue.put_nowait(frame)

    async def broadcast(self, session_id: int, frame: Frame) -> None:
        """``frame`` to every page of the chat: this process's through their queues, the others' through the group."""
        self._deliver(session_id, frame)
        if not shares_frames_across_processes() or not self._elsewhere.sends_frames(session_id):
            return
        answer = self._by_session.get(session_id)
        if answer is not None and self._elsewhere.newly_shown(session_id):
            # Another process started showing the chat: the answer so far first, in the same order
            # as the frames. A text delta is already in it.
            await self._send_elsewhere(session_id, answer.snapshot())
            if frame.seq:
                return
        await self._send_elsewhere(session_id, frame)

    @staticmethod
    async def _send_elsewhere(session_id: int, frame: Frame) -> None:
        await get_channel_layer().group_send(
            group_name(session_id),
            {
                "type": "chat.frame", "origin": PROCESS_ID, "session_id": session_id,
                "html": frame.html, "message_id": frame.message_id, "seq": frame.seq,
            },
        )

    async def stop_everywhere(self, session_id: int) -> None:
        """Stop the chat's running answer, in this process or in the one writing it."""
        await self.cancel(session_id)
        if shares_frames_across_processes():
            await get_channel_layer().group_send(
                stop_group_name(session_id), {"type": "chat.stop", "origin": PROCESS_ID, "session_id": session_id}
            )

    def for_session(self, session_id: int) -> RunningAnswer | None:
        return self._by_session.get(session_id)

    def count(self) -> int:
        """Answers running in this process."""
        return len(self._by_session)

    def frame_interval(self) -> float:
        """How far apart a page's messages are kept now (``frame_interval`` of the answers running here)."""
        return frame_interval(len(self._by_session))

    def running(self) -> list[RunningAnswer]:
        return list(self._by_session.values())

    async def cancel(self, session_id: int, *, reason: str = "") -> None:
        """Stop the session's running answer (if any) and wait until its final state is stored.

        ``reason`` is a note shown in the stopped answer (why it was stopped, when the user did not press Stop).
        """
        answer = self._by_session.get(session_id)
        if answer is None or answer.task is None:
            return
        answer.stop_note = answer.stop_note or reason
        # Cancel once: a second cancel would interrupt the run while it stores its final state.
        if not answer.task.cancelling():
            answer.task.cancel()
        # Unless the cancellation was lost: a library can drop one (Python 3.11's ``asyncio.wait_for``
        # returns a result that arrived with it). An answer whose text still grows did not stop.
        length = len(answer.text)
        while not (await asyncio.wait([answer.task], timeout=STOP_CHECK_SECONDS))[0]:
            if len(answer.text) > length:
                log.warning("answer %s went on after it was cancelled; cancelling it again", answer.message_id)
                answer.task.cancel()
                length = len(answer.text)

    def add(self, answer: RunningAnswer) -> None:
        """``answer`` runs (its task started): it is the chat's running answer until ``finished``."""
        self._by_session[answer.session_id] = answer
        loop = asyncio.get_running_loop()
        if self._storer is None or self._storer.done() or self._storer.get_loop() is not loop:
            self._storer = loop.create_task(self._store_periodically())

    def finished(self, answer: RunningAnswer) -> None:
        if self._by_session.get(answer.session_id) is answer:
            del self._by_session[answer.session_id]

    async def _store_periodically(self) -> None:
        """While answers run: every FLUSH_SECONDS, store the text of every answer
        that grew (or is due a heartbeat) in one statement.

        One statement for all running answers rather than one per answer, so
        the database work of streaming stays flat however many answers run.
        """
        interval = settings.CHAT["FLUSH_SECONDS"]
        heartbeat = services.heartbeat_seconds()
        while self._by_session:
            await asyncio.sleep(interval)
            now = time.monotonic()
            due = [
                (answer, answer.text)
                for answer in self.running()
                if len(answer.text) != answer.stored_length or now - answer.stored_at >= heartbeat
            ]
            if not due:
                continue
            try:
                await in_database_pool(services.save_partial_answers)({answer.message_id: text for answer, text in due})
            except Exception:
                # The database is unreachable or the statement failed: the texts stay in
                # memory and the next tick tries again; the final state stores them whole.
                log.exception("storing the text of %d running answers failed; trying again", len(due))
                continue
            for answer, text in due:
                answer.stored_length, answer.stored_at = len(text), now


REGISTRY = GenerationRegistry()
