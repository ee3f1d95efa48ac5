"""Request bodies refused while they stream, before any of them is stored.

Django's ASGI handler reads a request's whole body (to memory, then to a
temporary file) before any view or upload handler runs, so a limit checked
by a view comes after the upload has filled the disk. This ASGI middleware
answers 413 at once when the declared ``Content-Length`` is over the limit of
the path, and stops reading as soon as the bytes received pass it (a client
that sends no length or lies about it).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from django.template.defaultfilters import filesizeformat

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]


class BodyTooLarge(Exception):
    """The body passed its limit while it was read."""


def _size(n: int) -> str:
    return str(filesizeformat(n)).replace("\xa0", " ")


def _declared_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


class RequestBodyLimit:
    """ASGI middleware: ``limits`` maps a path to its body limit; every other path has ``default``."""

    def __init__(self, app, *, default: int, limits: Mapping[str, int]) -> None:
        self.app = app
        self.default = default
        self.limits = dict(limits)

    def limit_for(self, path: str) -> int:
        return self.limits.get(path, self.default)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.limit_for(scope["path"])
        declared = _declared_length(scope)
        if declared is not None and declared > limit:
            await _refuse(send, limit)
            return
        received = 0
        started = False

        async def limited_receive() -> dict[str, Any]:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise BodyTooLarge()
            return message

        async def tracking_send(message: dict[str, Any]) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, limited_receive, tracking_send)
        except BodyTooLarge:
            if not started:
                await _refuse(send, limit)


async def _refuse(send: Send, limit: int) -> None:
    body = (
        f"<!doctype html><title>Too large</title><p class=\"error\" role=\"alert\">"
        f"The request is larger than the limit of {_size(limit)}; nothing was stored.</p>"
    ).encode()
    await send({
        "type": "http.response.start",
        "status": 413,
        "headers": [(b"content-type", b"text/html; charset=utf-8"), (b"content-length", str(len(body)).encode()),
                    (b"connection", b"close")],
    })
    await send({"type": "http.response.body", "body": body})
