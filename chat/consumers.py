"""The chat websocket: questions in, HTML frames out.

Every open page of a session listens to the chat's frames (``chat.streams``:
an in-process queue, fed by other server processes too when they share a
channel layer); answers run as tasks of their own (``chat.generations``), so
closing the page never stops one.
"""

from __future__ import annotations

import asyncio
import json
import math
import time
from urllib.parse import parse_qs

from autobahn.exception import Disconnected
from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.http import Http404

from database_pool import in_database_pool
from chat import frames, services, user_errors
from chat.agent.agent import TurnInput
from chat.conversations import dialog_length
from chat.generations import Generation, start_answer
from chat.streams import REGISTRY, Frame
from chat.models import ChatSession, Message
from chat.signals import user_group

# Most frames sent to a page as one websocket message.
RELAY_BATCH = 64
# The share of the frame interval a page's streamed text may come early by and still go at once.
RELAY_SLACK = 0.1
# Close code for a socket whose user lost access to the session mid-way.
CLOSE_FORBIDDEN = 4403


@in_database_pool
def _session_for(user, pk: int) -> ChatSession | None:
    try:
        return services.get_session_for_user(user, pk)
    except Http404:
        return None


def socket_message_limit() -> int:
    """The longest websocket message taken: a question of ``MAX_MESSAGE_CHARS``, each character escaped in JSON."""
    return 6 * settings.CHAT["MAX_MESSAGE_CHARS"] + 1024


class MessageRate:
    """A token bucket: ``per_second`` messages a second on average, bursts of ``burst``."""

    def __init__(self, per_second: float, burst: int) -> None:
        self.per_second, self.burst = per_second, burst
        self.tokens = float(burst)
        self.at = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.per_second)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


TOO_MANY = object()


@in_database_pool
def _begin_turn(user, session_id: int, text: str) -> tuple[ChatSession, Message, Message, TurnInput, int] | object | None:
    """Check access and store the question, in one trip to the database thread; None without access,
    ``TOO_MANY`` when the user already has the most answers being written.

    Also counts the dialog before the question, which tells whether this process's
    conversation manager of the chat is still in step with what is stored.
    """
    try:
        session, question, answer = services.start_turn(
            user, session_id, text, max_running=settings.CHAT["MAX_RUNNING_GENERATIONS"]
        )
    except Http404:
        return None
    except services.TooManyRunningAnswers:
        return TOO_MANY
    turn = TurnInput(
        session_id=session.pk,
        user_id=session.owner_id,
        repository_id=session.repository_id,
        text=text,
        # The chat's conversation manager supplies the history of each turn (chat.generations).
        history=(),
        correlation_id=services.correlation_id(answer.pk),
    )
    return session, question, answer, turn, dialog_length(session.pk, question.pk)


# Answers refreshed on every (re)connect besides the ones the page asks for: a
# page whose socket dropped may have missed the end of its latest answers.
REFRESHED_ON_CONNECT = 2


@in_database_pool
def _answers_to_refresh(session_id: int, watched: set[int]) -> list[Message]:
    services.interrupt_stale_answers(session_id)
    answers = Message.objects.filter(session_id=session_id, role=Message.Role.ASSISTANT, replaced_at__isnull=True)
    latest = set(answers.order_by("-id").values_list("id", flat=True)[:REFRESHED_ON_CONNECT])
    return list(answers.filter(id__in=watched | latest).order_by("id"))


class ChatConsumer(AsyncWebsocketConsumer):
    session: ChatSession | None = None
    # The chat's frames from this process, and the task sending them to the page.
    frames: asyncio.Queue[Frame]
    relay: asyncio.Task | None = None

    async def connect(self) -> None:
        user = self.scope.get("user")
        session = await _session_for(user, self.scope["url_route"]["kwargs"]["session_id"])
        if session is None:
            await self.close()
            return
        self.session = session
        # Deltas up to this sequence number are already in the snapshot this page got.
        self.joined_at_seq: dict[int, int] = {}
        self.frames = await REGISTRY.listen(session.pk)
        # Signing out or deactivation closes the socket (chat/signals.py).
        await self.channel_layer.group_add(user_group(session.owner_id), self.channel_name)
        chat = settings.CHAT
        self.rate = MessageRate(chat["SOCKET_MESSAGES_PER_SECOND"], chat["SOCKET_MESSAGE_BURST"])
        self.rate_noticed = False
        await self.accept()
        await self._catch_up()
        # Started after the catch-up so the snapshot reaches the page before the deltas queued behind it.
        self.relay = asyncio.create_task(self._relay())

    async def _catch_up(self) -> None:
        """Bring the page up to date: the running answer's text so far, and the
        final form of answers it may show as still streaming."""
        running = REGISTRY.for_session(self.session.pk)
        if running is not None:
            # No await between reading the text and the sequence number, so
            # every delta after the snapshot arrives through the queue.
            text, seq, is_safe, doing = running.text, running.seq, running.is_safe, running.activity
            self.joined_at_seq[running.message_id] = seq
            if is_safe is not None:
                await self.send(text_data=frames.verdict(running.message_id, is_safe))
            await self.send(text_data=frames.snapshot(running.message_id, text, doing))
        query = parse_qs(self.scope.get("query_string", b"").decode())
        watched = {int(raw) for raw in query.get("watch", []) if raw.isdigit()}
        for message in await _answers_to_refresh(self.session.pk, watched):
            if running is not None and message.pk == running.message_id:
                continue
            if message.is_streaming:
                # Written by another server process: the stored text is at most FLUSH_SECONDS old.
                await self.send(text_data=frames.snapshot(message.pk, message.content))
            else:
                await self.send(text_data=frames.done(message, self.session.repository_id))

    async def _relay(self) -> None:
        loop = asyncio.get_running_loop()
        text_sent_at = -math.inf
        while True:
            # A frame after a quiet spell goes at once (an answer's first token comes
            # after the model's own wait, so it normally does); streamed text that
            # comes within the interval after the last message of streamed text
            # waits out the rest of it, and what comes meanwhile goes in the same
            # message (htmx swaps each fragment in it). Each message costs the
            # server a send through the websocket stack, so a fast stream costs at
            # most about 1/interval sends per page. An answer's own frames come a
            # paced read apart (``chat.generations``), about an interval, so they
            # normally go as they come, without a timer each: a frame within the
            # last tenth of the interval is not held back for it. A message without
            # streamed text (the question, a finished step, a status line: a few
            # per answer) neither waits nor sets the interval, so the first token
            # after it is not held back.
            batch = [await self.frames.get()]
            if batch[0].seq:
                interval = REGISTRY.frame_interval()
                wait = text_sent_at + interval - loop.time()
                if wait > interval * RELAY_SLACK:
                    await asyncio.sleep(wait)
            while not self.frames.empty() and len(batch) < RELAY_BATCH:
                batch.append(self.frames.get_nowait())
            try:
                await self._deliver(*batch)
            except Disconnected:
                # The page closed its socket while the relay sent (the web server's error); the page's
                # disconnect, which follows, stops listening.
                return
            if any(frame.seq for frame in batch):
                text_sent_at = loop.time()

    async def _deliver(self, *frames: Frame) -> None:
        html = "".join(
            frame.html for frame in frames if not frame.seq or frame.seq > self.joined_at_seq.get(frame.message_id, 0)
        )
        if html:
            await self.send(text_data=html)

    async def disconnect(self, code: int) -> None:
        if self.session is None:
            return
        if self.relay is not None:
            self.relay.cancel()
        await REGISTRY.stop_listening(self.session.pk, self.frames)
        await self.channel_layer.group_discard(user_group(self.session.owner_id), self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        # Access is checked again on every message, before anything is done or
        # sent: the chat may have been deleted since the socket opened. A
        # question that starts an answer checks it in the same database trip
        # that stores it; every other path checks it first.
        if not self.rate.take():
            # One notice per burst: the messages past the rate are dropped unread.
            if not self.rate_noticed:
                self.rate_noticed = True
                await self._refuse(user_errors.TOO_MANY_SOCKET_MESSAGES)
            return
        self.rate_noticed = False
        if bytes_data is not None or len(text_data or "") > socket_message_limit():
            # Refused by its length before it is parsed.
            await self._refuse(user_errors.SOCKET_MESSAGE_TOO_LONG)
            return
        try:
            payload = json.loads(text_data or "")
        except ValueError:
            payload = None
        action = payload.get("action") if isinstance(payload, dict) else None
        if action == "send":
            await self._send_question(str(payload.get("text", "")).strip())
            return
        if not await self._still_allowed():
            return
        if action == "stop":
            # The answer may run in another server process: it is stopped there.
            await REGISTRY.stop_everywhere(self.session.pk)
        else:
            await self.send(text_data=frames.error(user_errors.UNKNOWN_ACTION))

    async def _still_allowed(self) -> bool:
        """Whether the user may still use this chat; closes the socket (no data) when not."""
        session = await _session_for(self.scope.get("user"), self.session.pk)
        if session is None:
            await self.close(code=CLOSE_FORBIDDEN)
            return False
        self.session = session
        return True

    async def _refuse(self, text: str, *, restore: str = "") -> None:
        if await self._still_allowed():
            await self.send(text_data=frames.error(text, restore=restore))

    async def _send_question(self, text: str) -> None:
        limit = settings.CHAT["MAX_MESSAGE_CHARS"]
        if not text:
            await self._refuse(user_errors.EMPTY_MESSAGE)
            return
        if len(text) > limit:
            await self._refuse(user_errors.MESSAGE_TOO_LONG.format(length=len(text), limit=limit), restore=text)
            return
        session_id = self.session.pk
        async with REGISTRY.lock(session_id):
            if REGISTRY.for_session(session_id) is not None:
                # A new question replaces the answer still being written in this chat.
                if not await self._still_allowed():
                    return
                await REGISTRY.cancel(session_id, reason=user_errors.STOPPED_BY_NEW_QUESTION)
            begun = await _begin_turn(self.scope.get("user"), session_id, text)
            if begun is None:
                await self.close(code=CLOSE_FORBIDDEN)
                return
            if begun is TOO_MANY:
                limit = settings.CHAT["MAX_RUNNING_GENERATIONS"]
                await self._refuse(user_errors.TOO_MANY_GENERATIONS.format(limit=limit), restore=text)
                return
            session, question, answer, turn, stored_length = begun
            self.session = session
            generation = Generation(
                session_id=session.pk,
                user_id=session.owner_id,
                message_id=answer.pk,
                repository_id=session.repository_id,
                question_id=question.pk,
                dialog_length=stored_length,
            )
            await REGISTRY.broadcast(session.pk, Frame(frames.start(session, question, answer)))
            start_answer(generation, turn)

    async def dispatch(self, message: dict) -> None:
        # Channels closes stale database connections before every handler, by a
        # hop through the process's one sync thread: under load that hop was half
        # the time of taking a question. This consumer never uses a connection of
        # that thread: its database work runs on the pool (``in_database_pool``),
        # which closes stale connections around each call.
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def websocket_disconnect(self, message: dict) -> None:
        # Channels ends a socket with the same hop (see ``dispatch``); the page's groups are left in ``disconnect``.
        await self.disconnect(message["code"])
        raise StopConsumer()

    async def chat_signed_out(self, event: dict) -> None:
        """The user signed out or was deactivated: the socket closes (answers already running go on)."""
        await self.close(code=CLOSE_FORBIDDEN)
