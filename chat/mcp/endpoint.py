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
process answers any request and nothing is held between them. A request is
answered with one JSON body, or with an event stream when it may send
notifications first (``Managers``). The SDK's session managers need task
groups that outlive requests; daphne has no ASGI lifespan, so the first
request starts them in a task of its own.
"""

from __future__ import annotations

import asyncio
import json
import logging
from dataclasses import dataclass

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


@dataclass(frozen=True)
class Managers:
    """The SDK's transport twice: one answers a request with one JSON body, the other with an event
    stream, which a call that reports progress (``ask``) needs. A JSON body costs the web process a few
    ms less than a stream; the client takes either, as the transport's specification asks."""

    answering: StreamableHTTPSessionManager
    streaming: StreamableHTTPSessionManager


# Tools whose calls send notifications (progress) before their result.
STREAMING_TOOLS = frozenset({"ask"})


async def _read_body(receive, limit: int) -> bytes | None:
    """The request's body, or None past ``limit`` bytes (read no further)."""
    chunks, size = [], 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            break
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            return None
        chunks.append(chunk)
        if not message.get("more_body", False):
            break
    return b"".join(chunks)


def _replay(body: bytes, receive):
    """A ``receive`` that gives ``body`` once, then what the client sends next (its disconnect)."""
    sent = False

    async def replayed():
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replayed


def _may_stream(body: bytes) -> bool:
    """Whether the request may need an event stream: a call of a streaming tool, or anything not plainly one
    JSON-RPC message of another kind (the SDK answers what it cannot read)."""
    try:
        message = json.loads(body)
    except ValueError:
        return True
    if not isinstance(message, dict):
        return True
    if message.get("method") != "tools/call":
        return False
    params = message.get("params")
    return not isinstance(params, dict) or params.get("name") in STREAMING_TOOLS


class McpEndpoint:
    """The ASGI application for ``/mcp``."""

    def __init__(self) -> None:
        self._managers: Managers | None = None
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

    async def _running_managers(self) -> Managers:
        if self._ready is None:
            self._ready = asyncio.Event()
            server = build_server()
            managers = Managers(
                *(
                    StreamableHTTPSessionManager(
                        app=server, stateless=True, json_response=json_response,
                        max_request_body_size=settings.MAX_REQUEST_BODY_BYTES,
                    )
                    for json_response in (True, False)
                )
            )
            self._task = asyncio.get_running_loop().create_task(self._run(managers), name="mcp-session-managers")
        await self._ready.wait()
        if self._managers is None:
            raise RuntimeError("the MCP session managers did not start (see the log)")
        return self._managers

    async def _run(self, managers: Managers) -> None:
        assert self._ready is not None
        try:
            async with managers.answering.run(), managers.streaming.run():
                self._managers = managers
                self._ready.set()
                # Lives as long as the process: the managers' task groups run every request's server.
                await asyncio.Event().wait()
        except BaseException:
            logger.exception("the MCP session managers stopped")
            raise
        finally:
            self._managers = None
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
        managers = await self._running_managers()
        manager, receive = managers.answering, receive
        if scope.get("method") == "POST":
            body = await _read_body(receive, settings.MAX_REQUEST_BODY_BYTES)
            if body is None:
                await _refuse(send, 413, f"the request is larger than {settings.MAX_REQUEST_BODY_BYTES} bytes")
                return
            if _may_stream(body):
                manager = managers.streaming
            receive = _replay(body, receive)
        else:
            manager = managers.streaming
        reset = CALLER.set(token)
        try:
            await manager.handle_request(scope, receive, send)
        finally:
            CALLER.reset(reset)
