"""``/mcp``: the MCP server over the SDK's streamable HTTP transport, behind personal access tokens.

Each request is checked before the SDK reads it: the Host header against
``ALLOWED_HOSTS`` (as Django checks its own requests), then
``Authorization: Bearer <token>``. A request without a valid token gets 401
and no data. The token is handed to the server's handlers through
``server.CALLER``.

A token found valid is remembered for ``AUTH_CACHE_SECONDS``, so an editor's
burst of calls does not look it up each time; every call that reads data
checks again, in the same query as the rate limit, that it is neither
revoked nor expired (``tokens.refusal``).

The transport runs stateless: every request stands alone, so any server
process answers any request and nothing is held between them. The SDK's
session manager needs a task group that outlives requests; daphne has no
ASGI lifespan, so the first request starts it in a task of its own.
"""

from __future__ import annotations

import asyncio
import json
import logging

from cachetools import TTLCache
from django.conf import settings
from django.http.request import split_domain_port, validate_host
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager

from chat.mcp import tokens
from chat.mcp.models import AccessToken
from chat.mcp.tokens import TOKENS_PAGE
from chat.mcp.server import CALLER, build_server
from database_pool import in_database_pool

logger = logging.getLogger(__name__)

AUTH_CACHE_SECONDS = 30


async def _refuse(send, status: int, message: str, *, challenge: bool = False) -> None:
    body = json.dumps({"error": message}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if challenge:
        headers.append((b"www-authenticate", b'Bearer realm="mcp", error="invalid_token"'))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def _header(scope, name: bytes) -> str:
    for key, value in scope.get("headers", ()):
        if key == name:
            return value.decode("latin-1")
    return ""


def _bearer(scope) -> str:
    scheme, _, secret = _header(scope, b"authorization").partition(" ")
    return secret.strip() if scheme.lower() == "bearer" else ""


class McpEndpoint:
    """The ASGI application for ``/mcp``."""

    def __init__(self) -> None:
        self._manager: StreamableHTTPSessionManager | None = None
        self._ready: asyncio.Event | None = None
        self._task: asyncio.Task | None = None
        # digest -> token; read and written on the event loop only.
        self._known: TTLCache[str, AccessToken] = TTLCache(maxsize=4096, ttl=AUTH_CACHE_SECONDS)

    async def _token(self, secret: str) -> AccessToken | None:
        key = tokens.digest(secret)
        token = self._known.get(key)
        if token is None:
            token = await in_database_pool(tokens.authenticate)(secret)
            if token is not None:
                self._known[key] = token
        return token

    async def _running_manager(self) -> StreamableHTTPSessionManager:
        if self._ready is None:
            self._ready = asyncio.Event()
            manager = StreamableHTTPSessionManager(
                app=build_server(),
                stateless=True,
                json_response=False,
                max_request_body_size=settings.MAX_REQUEST_BODY_BYTES,
            )
            self._task = asyncio.get_running_loop().create_task(self._run(manager), name="mcp-session-manager")
        await self._ready.wait()
        if self._manager is None:
            raise RuntimeError("the MCP session manager did not start (see the log)")
        return self._manager

    async def _run(self, manager: StreamableHTTPSessionManager) -> None:
        assert self._ready is not None
        try:
            async with manager.run():
                self._manager = manager
                self._ready.set()
                # Lives as long as the process: the manager's task group runs every request's server.
                await asyncio.Event().wait()
        except BaseException:
            logger.exception("the MCP session manager stopped")
            raise
        finally:
            self._manager = None
            self._ready.set()

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await _refuse(send, 404, "MCP is served over HTTP only")
            return
        domain, _port = split_domain_port(_header(scope, b"host"))
        if not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
            await _refuse(send, 400, "this host name is not served here (ALLOWED_HOSTS)")
            return
        secret = _bearer(scope)
        if not secret:
            await _refuse(
                send, 401, f"send a personal access token as 'Authorization: Bearer <token>'; make one at {TOKENS_PAGE}", challenge=True
            )
            return
        token = await self._token(secret)
        if token is None:
            await _refuse(send, 401, f"this token is unknown, revoked or expired; make a new one at {TOKENS_PAGE}", challenge=True)
            return
        manager = await self._running_manager()
        reset = CALLER.set(token)
        try:
            await manager.handle_request(scope, receive, send)
        finally:
            CALLER.reset(reset)
