"""Workflows of the chat: sessions, turns and their stored answers.

Views and the websocket consumer both go through these; access always goes
through ``get_session_for_user``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Count, Max, Q, QuerySet
from django.http import Http404
from django.utils import timezone

from chat import user_errors
from chat.conversations import CONVERSATIONS, conversation_key
from chat.models import DEFAULT_TITLE, TITLE_MAX_LENGTH, ChatSession, Message
from llm import audit
from llm.conversation.store import forget_summaries
from rag.models import IndexRun, Repository


def sessions_for_user(user) -> QuerySet[ChatSession]:
    shown = Q(messages__replaced_at__isnull=True)
    return (
        ChatSession.objects.filter(owner=user)
        .annotate(
            message_count=Count("messages", filter=shown), last_message_at=Max("messages__created_at", filter=shown)
        )
        .order_by("-last_activity_at", "-id")
    )


def get_session_for_user(user, pk: int) -> ChatSession:
    """The session ``pk`` if ``user`` owns it; ``Http404`` otherwise (also for anonymous users)."""
    if user is None or not user.is_authenticated:
        raise Http404("No such chat")
    try:
        # The owner's current state is read with the session: a socket opened before the
        # account was deactivated holds a user object that still says it is active.
        return ChatSession.objects.get(pk=pk, owner=user, owner__is_active=True)
    except ChatSession.DoesNotExist:
        raise Http404("No such chat") from None


def shown_messages(session: ChatSession) -> QuerySet[Message]:
    """The chat's messages as its page shows them: oldest first, replaced ones left out."""
    return session.messages.filter(replaced_at__isnull=True).order_by("created_at", "id")


class AnswerStillRunning(Exception):
    """A message to replace is an answer still being written: it is stopped first."""


def replace_from(session: ChatSession, question_id: int) -> list[int]:
    """Mark the question ``question_id`` and every later message of the chat replaced, and return their ids.

    Regenerate and edit-and-resend go through here before the page asks again:
    the replaced messages leave the chat page and the model's history (the
    dialog is read without them, ``chat.conversations``) and stay stored for
    audit. ``Http404`` unless it is a question of this chat still shown;
    ``AnswerStillRunning`` while one of them is being written.
    """
    with transaction.atomic():
        question = (
            Message.objects.select_for_update()
            .filter(pk=question_id, session=session, role=Message.Role.USER, replaced_at__isnull=True)
            .first()
        )
        if question is None:
            raise Http404("No such question")
        interrupt_stale_answers(session.pk)
        # Locked, and then replaced by id: a turn stored meanwhile (another tab) is not swept up with them.
        later = list(
            Message.objects.select_for_update()
            .filter(session=session, id__gte=question.pk, replaced_at__isnull=True)
            .values_list("id", "status")
        )
        if any(status == Message.Status.STREAMING for _, status in later):
            raise AnswerStillRunning()
        ids = [pk for pk, _ in later]
        Message.objects.filter(pk__in=ids).update(replaced_at=timezone.now())
        session_id = session.pk
        # This process's conversation manager of the chat holds the old dialog: it is rebuilt without them.
        transaction.on_commit(lambda: CONVERSATIONS.forget_soon(session_id))
    return ids


def clean_title(title: str) -> str:
    return " ".join(title.split())[:TITLE_MAX_LENGTH] or DEFAULT_TITLE


def default_repository(user) -> Repository | None:
    """The user's indexed repository when there is exactly one: new chats are about it unless told otherwise."""
    indexed = list(Repository.objects.filter(owner=user, active_run__status=IndexRun.Status.READY)[:2])
    return indexed[0] if len(indexed) == 1 else None


def create_session(user, *, title: str = "", repository=None) -> ChatSession:
    """A new chat, or the user's chat on the same repository that has no messages yet (renamed when
    ``title`` is given): pressing "Start chat" again opens that one instead of piling up empty chats."""
    empty = (
        ChatSession.objects.filter(owner=user, repository=repository, messages__isnull=True)
        .order_by("-last_activity_at", "-id")
        .first()
    )
    if empty is not None:
        return rename_session(empty, title) if title.strip() else empty
    session = ChatSession(owner=user, title=clean_title(title))
    if repository is not None:
        session.repository = repository
    session.save()
    return session


def rename_session(session: ChatSession, title: str) -> ChatSession:
    session.title = clean_title(title)
    session.save(update_fields=["title"])
    return session


def delete_session(session: ChatSession) -> None:
    """Delete the chat with its messages, the summaries of its dialog and the records of its model calls
    (they all hold its content)."""
    session_id = session.pk
    with transaction.atomic():
        # The model calls made for its answers hold its questions, and code of its repository.
        audit.forget(message_correlation_ids(Message.objects.filter(session_id=session_id)))
        session.delete()
        forget_summaries(conversation_key(session_id))
        transaction.on_commit(lambda: CONVERSATIONS.forget_soon(session_id))


def correlation_id(message_id: int) -> str:
    """What the audit records of the model calls made for an answer are correlated by."""
    return f"message:{message_id}"


def message_correlation_ids(messages: QuerySet[Message]) -> list[str]:
    return [correlation_id(pk) for pk in messages.values_list("pk", flat=True)]


def forget_repository_calls(repository_id: int) -> int:
    """Delete the records of the model calls of chats on a repository, which quote its code."""
    return audit.forget(message_correlation_ids(Message.objects.filter(session__repository_id=repository_id)))


class TooManyRunningAnswers(Exception):
    """The user already has the most answers being written at once."""


# The first key of the advisory locks that serialize one user's new answers.
_USER_ANSWERS_LOCK = 7301


def _insert_rows_sql(model, objects: Sequence, *, source: str, overrides: Mapping[str, str]) -> tuple[str, str, list]:
    """(column list, SELECT of the rows, parameters) inserting ``objects`` in their order, one row of the
    SELECT per row of ``source`` and object; each column's value is the one Django would store, typed
    by the column's own type, but for the columns of ``overrides`` (SQL over ``source``)."""
    fields = [field for field in model._meta.concrete_fields if not field.primary_key]
    quote = connection.ops.quote_name
    rows, params = [], []
    for order, obj in enumerate(objects):
        values = [field.get_db_prep_save(field.pre_save(obj, True), connection) for field in fields]
        rows.append("(%s, " + ", ".join(f"%s::{field.cast_db_type(connection)}" for field in fields) + ")")
        params += [order, *values]
    columns = ", ".join(quote(field.column) for field in fields)
    chosen = ", ".join(overrides.get(field.column, f"v.{quote(field.column)}") for field in fields)
    select = (
        f"SELECT {chosen} FROM {source}, (VALUES {', '.join(rows)}) AS v(_order, {columns}) ORDER BY v._order"
    )
    return columns, select, params


def start_turn(user, session_id: int, text: str, *, max_running: int | None = None) -> tuple[ChatSession, Message, Message]:
    """Store the user's question in the chat ``session_id`` and an empty ``streaming`` answer, at once.

    Access is checked by the same statement (``Http404`` when ``user`` may not
    use the chat, as ``get_session_for_user``). The first question of a chat
    with the default title becomes its title. With ``max_running``, raises
    ``TooManyRunningAnswers`` (and stores nothing) when the chat's owner would
    have more answers being written than that: counted in the database under
    a lock per user, so the cap holds across chats and server processes.

    The lock, the count and the writes go to PostgreSQL as one message of two
    statements, which it runs as one transaction: the lock is held only while
    PostgreSQL works, never while this process waits for its turn to read a
    reply (under load that wait, not the work, queued every other question of
    the user behind it). The second statement starts after the lock is granted,
    so its count sees every answer committed before, by any process.
    """
    if user is None or not user.is_authenticated:
        raise Http404("No such chat")
    quote = connection.ops.quote_name
    session_table, owner_table = quote(ChatSession._meta.db_table), quote(type(user)._meta.db_table)
    message_table = quote(Message._meta.db_table)
    question = Message(session_id=session_id, role=Message.Role.USER, content=text)
    answer = Message(session_id=session_id, role=Message.Role.ASSISTANT, status=Message.Status.STREAMING)
    columns, rows, row_params = _insert_rows_sql(
        Message, [question, answer], source="touched", overrides={"session_id": "touched.id"}
    )
    session_fields = ChatSession._meta.concrete_fields
    lock, under_cap, cap_params = "", "", []
    if max_running is not None:
        lock = f"SELECT pg_advisory_xact_lock({_USER_ANSWERS_LOCK}, %s);"
        # The user's answers being written now, by any server process (stored recently enough to be alive).
        under_cap = (
            f" AND (SELECT count(*) FROM {message_table} m JOIN {session_table} o ON o.id = m.session_id "
            "WHERE o.owner_id = %s AND m.role = %s AND m.status = %s AND m.updated_at >= %s) < %s"
        )
        alive_since = timezone.now() - timedelta(seconds=stale_after_seconds())
        cap_params = [user.pk, Message.Role.ASSISTANT, Message.Status.STREAMING, alive_since, max_running]
    now = timezone.now()
    sql = (
        f"{lock} WITH allowed AS (SELECT s.id FROM {session_table} s JOIN {owner_table} u ON u.id = s.owner_id "
        "WHERE s.id = %s AND s.owner_id = %s AND u.is_active), "
        f"touched AS (UPDATE {session_table} s SET last_activity_at = %s, "
        "title = CASE WHEN s.title = %s THEN %s ELSE s.title END "
        f"FROM allowed WHERE s.id = allowed.id{under_cap} RETURNING s.*), "
        f"added AS (INSERT INTO {message_table} ({columns}) {rows} RETURNING id) "
        f"SELECT (SELECT count(*) FROM allowed), (SELECT array_agg(id ORDER BY id) FROM added), "
        + ", ".join(f"t.{quote(field.column)}" for field in session_fields)
        + " FROM (SELECT 1) AS one LEFT JOIN touched t ON true"
    )
    params = [
        *([user.pk] if lock else []), session_id, user.pk, now, DEFAULT_TITLE, clean_title(text),
        *cap_params, *row_params,
    ]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        if lock:
            cursor.nextset()
        allowed, ids, *session_values = cursor.fetchone()
    if not allowed:
        raise Http404("No such chat")
    if not ids:
        raise TooManyRunningAnswers()
    session = ChatSession.from_db(connection.alias, [field.attname for field in session_fields], session_values)
    question.pk, answer.pk = ids
    for message in (question, answer):
        message.session = session
        message._state.adding, message._state.db = False, connection.alias
    return session, question, answer


def heartbeat_seconds() -> float:
    """A running answer is stored at least this often (chat.generations), grown or not."""
    return settings.CHAT["ANSWER_HEARTBEAT_SECONDS"]


def stale_after_seconds() -> float:
    """An answer not stored for this long lost its process (a crash or a restart)."""
    return 3 * heartbeat_seconds()


def interrupt_stale_answers(session_id: int) -> int:
    """Give up on answers whose run is gone: status error, the text so far kept.

    Silence can also mean that the run lives but could not store its text (the
    database was unreachable for a while): such an answer stays completable,
    by a later store of its text (``save_partial_answers``) or its final state
    (``finish_answer``), which both take it back from the interrupted state.
    """
    cutoff = timezone.now() - timedelta(seconds=stale_after_seconds())
    return Message.objects.filter(
        session_id=session_id, status=Message.Status.STREAMING, updated_at__lt=cutoff
    ).update(status=Message.Status.ERROR, error=user_errors.INTERRUPTED, updated_at=timezone.now())


def save_partial_answers(texts: Mapping[int, str]) -> None:
    """Store the text so far of several answers still streaming, in one statement.

    The texts go to PostgreSQL as two arrays joined back up by ``unnest``: the
    statement costs the same few microseconds of Python however many answers
    run, where one ``CASE WHEN`` per answer would be built and resolved by the
    ORM every time (it runs every second while answers stream, on the thread
    the questions are stored by).
    """
    if not texts:
        return
    table = connection.ops.quote_name(Message._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} AS m SET content = t.content, updated_at = %s, status = %s, error = '' "
            "FROM unnest(%s::bigint[], %s::text[]) AS t(id, content) "
            "WHERE m.id = t.id AND (m.status = %s OR (m.status = %s AND m.error = %s))",
            [
                timezone.now(), Message.Status.STREAMING, list(texts), list(texts.values()), Message.Status.STREAMING,
                Message.Status.ERROR, user_errors.INTERRUPTED,
            ],
        )


def is_completable(message: Message) -> bool:
    """Still streaming, or given up on as interrupted while its run may yet finish it."""
    return message.status == Message.Status.STREAMING or (
        message.status == Message.Status.ERROR and message.error == user_errors.INTERRUPTED
    )


def finish_answer(
    message_id: int,
    *,
    status: str,
    content: str,
    intent: str = "",
    metrics: Mapping[str, Any] | None = None,
    citations: Sequence[Mapping[str, Any]] = (),
    steps: Sequence[Mapping[str, Any]] = (),
    artifacts: Sequence[Mapping[str, Any]] = (),
    error: str = "",
    is_safe: bool | None = None,
) -> Message | None:
    """Give a streaming answer its final status and fields; a finished answer is never changed again.

    An answer marked interrupted while its run was still alive (see
    ``interrupt_stale_answers``) is finished all the same, with its whole text.

    None when the answer no longer exists (its chat was deleted while it ran).
    """
    if status not in Message.FINAL_STATUSES:
        raise ValueError(f"not a final status: {status}")
    now = timezone.now()
    quote = connection.ops.quote_name
    tables = {name: quote(model._meta.db_table) for name, model in (("m", Message), ("s", ChatSession), ("r", Repository))}
    with transaction.atomic():
        # The answer, locked, with the index version its citations name (the one serving as the answer
        # is stored, so a citation's link opens the lines as they were, after later pushes too).
        # Written out, as the two statements after it: this runs for every answer.
        found = list(
            Message.objects.raw(
                "SELECT m.*, r.active_run_id AS serving_version FROM {m} m JOIN {s} s ON s.id = m.session_id "
                "LEFT JOIN {r} r ON r.id = s.repository_id WHERE m.id = %s FOR UPDATE OF m".format(**tables),
                [message_id],
            )
        )
        if not found:
            return None
        message = found[0]
        if not is_completable(message):
            return message
        version = message.serving_version
        message.status = status
        message.content = content
        message.intent = intent
        message.metrics = dict(metrics or {})
        message.citations = [{**c, "version": c.get("version", version)} if version else dict(c) for c in citations]
        message.steps = list(steps)
        message.artifacts = list(artifacts)
        message.error = error
        message.is_safe = is_safe
        message.updated_at = now
        fields = [
            Message._meta.get_field(name)
            for name in ("status", "content", "intent", "metrics", "citations", "steps", "artifacts", "error", "is_safe", "updated_at")
        ]
        with connection.cursor() as cursor:
            cursor.execute(
                "UPDATE {m} SET {assignments} WHERE id = %s".format(
                    assignments=", ".join(f"{quote(field.column)} = %s" for field in fields), **tables
                ),
                [*(field.get_db_prep_save(getattr(message, field.attname), connection) for field in fields), message.pk],
            )
            cursor.execute("UPDATE {s} SET last_activity_at = %s WHERE id = %s".format(**tables), [now, message.session_id])
    return message


def export_session(session: ChatSession) -> dict[str, Any]:
    """A session and all its messages as plain JSON-ready data."""
    return {
        "id": session.pk,
        "title": session.title,
        "owner": session.owner.get_username(),
        "repository": None if session.repository_id is None else str(session.repository),
        "created_at": session.created_at.isoformat(),
        "last_activity_at": session.last_activity_at.isoformat(),
        "messages": [
            {
                "id": m.pk,
                "uuid": str(m.uuid),
                "role": m.role,
                "status": m.status,
                "intent": m.intent,
                "content": m.content,
                "error": m.error,
                "metrics": m.metrics,
                "citations": m.citations,
                "steps": m.steps,
                "artifacts": m.artifacts,
                "is_safe": m.is_safe,
                "replaced_at": m.replaced_at.isoformat() if m.replaced_at else None,
                "created_at": m.created_at.isoformat(),
                "updated_at": m.updated_at.isoformat(),
            }
            for m in session.messages.order_by("created_at", "id")
        ],
    }
