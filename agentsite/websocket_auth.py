"""Who a websocket belongs to: the signed-in user of its session cookie, as ``scope["user"]``.

Channels' ``AuthMiddlewareStack`` does this too, and also wraps every message
the consumer sends, to save a session changed while an HTTP response was
written. The chat's sockets never change the session, and streamed answers
send thousands of messages a second, each of which paid for that check. Here
the session and its user are read once, when the socket connects, in the
database pool, and the consumer's messages go straight to the server.
"""

from __future__ import annotations

from importlib import import_module
from types import SimpleNamespace

from django.conf import settings
from django.contrib import auth
from django.http.cookie import parse_cookie

from database_pool import in_database_pool


@in_database_pool
def _signed_in(session_key: str | None):
    """The session of ``session_key`` and its user (``AnonymousUser`` when nobody is signed in)."""
    session = import_module(settings.SESSION_ENGINE).SessionStore(session_key)
    return session, auth.get_user(SimpleNamespace(session=session))


class SessionUserMiddleware:
    def __init__(self, inner) -> None:
        self.inner = inner

    async def __call__(self, scope, receive, send):
        cookies: dict[str, str] = {}
        for name, value in scope.get("headers", ()):
            if name == b"cookie":
                cookies = parse_cookie(value.decode("latin1"))
                break
        session, user = await _signed_in(cookies.get(settings.SESSION_COOKIE_NAME))
        return await self.inner({**scope, "cookies": cookies, "session": session, "user": user}, receive, send)
