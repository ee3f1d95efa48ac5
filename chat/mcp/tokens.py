"""Making, checking and revoking personal access tokens (``chat.mcp.models.AccessToken``).

A secret is ``cba_`` and 43 URL-safe characters (256 random bits), so a
SHA-256 digest is enough to store it: nothing short enough to guess hides
behind it, and a lookup by digest takes one indexed query.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterable, Mapping
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Count, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from chat.mcp.models import AccessToken, ToolUse
from rag.models import Repository
from rag.services import repositories_for_user

SECRET_PREFIX = "cba_"
TOKENS_PAGE = "/settings/tokens/"
# last_used_at is written at most this often per token (a busy editor calls many times a second).
LAST_USED_RESOLUTION = timedelta(minutes=1)


class TokenError(ValueError):
    """A token could not be made as asked; the message says why."""


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def create_token(
    user, name: str, *, expires_in_days: int | None = None, repositories: Iterable[Repository] = ()
) -> tuple[AccessToken, str]:
    """A new token of ``user`` and its secret, which is not stored and cannot be shown again."""
    name = (name or "").strip()
    if not name:
        raise TokenError("a token needs a name")
    if expires_in_days is not None and expires_in_days < 1:
        raise TokenError("a token must live at least one day")
    chosen = list(repositories)
    visible = set(repositories_for_user(user).values_list("pk", flat=True))
    if any(repository.pk not in visible for repository in chosen):
        raise TokenError("a token can only be limited to repositories its user may see")
    secret = SECRET_PREFIX + secrets.token_urlsafe(32)
    token = AccessToken.objects.create(
        user=user,
        name=name[:100],
        prefix=secret[: len(SECRET_PREFIX) + 6],
        digest=digest(secret),
        expires_at=None if expires_in_days is None else timezone.now() + timedelta(days=expires_in_days),
    )
    token.repositories.set(chosen)
    return token, secret


def authenticate(secret: str) -> AccessToken | None:
    """The active token with this secret, with its user, or None (unknown, revoked, expired, inactive user)."""
    if not secret.startswith(SECRET_PREFIX):
        return None
    token = AccessToken.objects.select_related("user").filter(digest=digest(secret)).first()
    if token is None or not token.is_active or not token.user.is_active:
        return None
    now = timezone.now()
    if token.last_used_at is None or now - token.last_used_at >= LAST_USED_RESOLUTION:
        AccessToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now
    return token


def revoke(user, token_id: int) -> bool:
    """Revoke one of ``user``'s tokens; False when they have no such active token."""
    return bool(AccessToken.objects.filter(user=user, pk=token_id, revoked_at=None).update(revoked_at=timezone.now()))


def tokens_of(user) -> QuerySet[AccessToken]:
    return AccessToken.objects.filter(user=user).prefetch_related("repositories")


def repositories_for_token(token: AccessToken) -> QuerySet[Repository]:
    """What the token may see: what its user may see, narrowed to the token's repositories when it names some."""
    visible = repositories_for_user(token.user)
    # A token's repositories are chosen when it is made and never change: read them once per token object.
    limited = token.__dict__.get("limited_to")
    if limited is None:
        limited = token.__dict__["limited_to"] = tuple(token.repositories.values_list("pk", flat=True))
    return visible.filter(pk__in=limited) if limited else visible


def state_of(token: AccessToken) -> dict[str, Any]:
    """Expressions of the token's state now, to annotate any query with, so a call's own first statement
    also checks the token (``refusal_in``)."""
    now = timezone.now()
    this = AccessToken.objects.filter(pk=token.pk)
    recent = (
        ToolUse.objects.filter(token=token.pk, started_at__gte=now - timedelta(minutes=1))
        .values("token")
        .annotate(calls=Count("*"))
        .values("calls")
    )
    return {
        "token_revoked_at": Subquery(this.values("revoked_at")[:1]),
        "token_expires_at": Subquery(this.values("expires_at")[:1]),
        "token_user_active": Subquery(this.values("user__is_active")[:1]),
        "token_recent_calls": Coalesce(Subquery(recent), 0),
    }


def refusal_in(state: Mapping[str, Any]) -> str:
    """Why the token of ``state`` (a row annotated with ``state_of``) may not make a call ("" when it may)."""
    if state["token_revoked_at"] is not None or not state["token_user_active"]:
        return f"this token was revoked; make a new one at {TOKENS_PAGE}"
    if state["token_expires_at"] is not None and state["token_expires_at"] <= timezone.now():
        return f"this token has expired; make a new one at {TOKENS_PAGE}"
    if state["token_recent_calls"] >= settings.MCP_CALLS_PER_MINUTE:
        return f"rate limit: this token made {settings.MCP_CALLS_PER_MINUTE} calls in the last minute; wait a moment and retry"
    return ""


def refusal(token: AccessToken) -> str:
    """Why ``token`` may not make a call now ("" when it may), in one query: revoked or expired since it was
    authenticated, its user deactivated, or ``MCP_CALLS_PER_MINUTE`` calls made in the last minute (counted
    in the database, so the limit holds across server processes)."""
    state = state_of(token)
    row = AccessToken.objects.filter(pk=token.pk).annotate(**state).values(*state).first()
    if row is None:
        # Deleted since it was authenticated (with its user, say).
        return f"this token was revoked; make a new one at {TOKENS_PAGE}"
    return refusal_in(row)


def record_use(
    token: AccessToken, tool: str, repository: Repository | None, started_at, duration_ms: float, error: str = ""
) -> None:
    with transaction.atomic():
        # Not waiting for the WAL flush saves every call a few ms; a crash may lose the last records, nothing else.
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL synchronous_commit TO OFF")
        ToolUse.objects.create(
            token=token,
            user_id=token.user_id,
            tool=tool[:64],
            repository=repository,
            started_at=started_at,
            duration_ms=duration_ms,
            ok=not error,
            error=error[:2000],
        )
