"""The providers' HTTP client: httpx's API over aiohttp's connections.

Hundreds of answers stream into one web server process at once, each chunk of
each answer a separate read. httpx's own stack (httpcore and h11, both pure
Python) cost about a third of the process's time per chunk, and its pool
polled every idle connection before each request. aiohttp parses HTTP in C
(llhttp) and keeps its pool without polling; httpx-aiohttp (from httpx's
maintainer, the transport the OpenAI SDK offers for the same reason) plugs it
in under httpx, so requests, responses, timeouts and the providers' code stay
httpx's.

What this module adds: the httpx exception each aiohttp failure becomes, and
``raw_chunks``, a streamed body read straight from aiohttp's reader. The
library maps every lost connection to a connect timeout; here a server that
hangs up mid-answer is a protocol error, a refused or untrusted connection a
connect error, a silent server a read timeout — the provider adapters turn
these into the user's message (a timeout, or a lost connection). Proxied
connections (from the environment) keep httpx's default transport.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import ssl
from collections.abc import AsyncIterator, Iterator
from typing import Any

import aiohttp
import httpx
from httpx_aiohttp import AiohttpTransport

# aiohttp's failures, most specific first, and the httpx exception each one is.
_ERRORS: tuple[tuple[type[BaseException], type[httpx.TransportError]], ...] = (
    (aiohttp.ConnectionTimeoutError, httpx.ConnectTimeout),
    (aiohttp.SocketTimeoutError, httpx.ReadTimeout),
    (aiohttp.ClientProxyConnectionError, httpx.ProxyError),
    (aiohttp.ClientHttpProxyError, httpx.ProxyError),
    (aiohttp.ClientConnectorError, httpx.ConnectError),
    (aiohttp.ServerTimeoutError, httpx.ReadTimeout),
    (asyncio.TimeoutError, httpx.ReadTimeout),
    (aiohttp.ServerDisconnectedError, httpx.RemoteProtocolError),
    (aiohttp.ClientPayloadError, httpx.RemoteProtocolError),
    (aiohttp.ClientResponseError, httpx.RemoteProtocolError),
    (aiohttp.InvalidURL, httpx.UnsupportedProtocol),
    (aiohttp.ClientConnectionError, httpx.ReadError),
    (OSError, httpx.ReadError),
)


def _as_httpx_error(exc: BaseException) -> httpx.TransportError | None:
    """The httpx exception for an aiohttp failure (as raised, or wrapped by httpx-aiohttp); None for others."""
    cause = exc.__cause__ if isinstance(exc, httpx.TransportError) and exc.__cause__ is not None else exc
    for aiohttp_error, httpx_error in _ERRORS:
        if isinstance(cause, aiohttp_error):
            return httpx_error(str(cause) or type(cause).__name__)
    return None


@contextlib.contextmanager
def _httpx_errors() -> Iterator[None]:
    try:
        yield
    except (aiohttp.ClientError, asyncio.TimeoutError, OSError, httpx.TransportError) as exc:
        mapped = _as_httpx_error(exc)
        if mapped is None:
            raise
        raise mapped from (exc.__cause__ or exc)


# Where ``AiohttpProviderTransport`` puts a response's aiohttp response, in the httpx response's extensions.
_AIOHTTP_RESPONSE = "aiohttp_response"


class _ResponseStream(httpx.AsyncByteStream):
    def __init__(self, stream: httpx.AsyncByteStream) -> None:
        self._stream = stream

    async def __aiter__(self) -> AsyncIterator[bytes]:
        with _httpx_errors():
            async for chunk in self._stream:
                yield chunk

    async def aclose(self) -> None:
        with _httpx_errors():
            await self._stream.aclose()


class AiohttpProviderTransport(AiohttpTransport):
    """httpx-aiohttp's transport with httpx's exceptions chosen per aiohttp failure (module docstring)."""

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        with _httpx_errors():
            response = await super().handle_async_request(request)
        assert isinstance(response.stream, httpx.AsyncByteStream)
        # httpx-aiohttp's stream keeps the aiohttp response it reads; without it (another version of
        # the library) bodies are read through httpx as before.
        aiohttp_response = getattr(response.stream, "_aiohttp_response", None)
        if isinstance(aiohttp_response, aiohttp.ClientResponse):
            response.extensions[_AIOHTTP_RESPONSE] = aiohttp_response
        response.stream = _ResponseStream(response.stream)
        return response


async def raw_chunks(response: httpx.Response) -> AsyncIterator[bytes]:
    """The body of a streamed ``response`` as it arrives, undecoded, as ``response.aiter_raw()`` gives it.

    A response of this module's transport is read from aiohttp's reader
    directly, each chunk as the socket delivered it: httpx's response, its
    bound stream and httpx-aiohttp's stream are three layers of async
    generators, each resumed for every chunk, and a streamed answer's chunk is
    one token. The response is still closed by httpx (``aclose``, or leaving
    ``client.stream(...)``), which hands the connection back to the pool.

    The read timeout is kept here too. aiohttp keeps it by cancelling a timer
    and making a new one for every chunk the socket delivers; here one timer
    per response looks at how long the current wait for a chunk has lasted,
    and sets itself again for the rest of the time when it is not over. A wait
    past the timeout fails the read as aiohttp's own timer would (a read
    timeout), and time spent by the caller between chunks is no wait.

    What arrived before a lost connection is still handed on, then the error
    raised (aiohttp fails every read once the connection is lost, even with
    data still buffered, and a reader that reads at a pace of its own often
    has some).
    """
    aiohttp_response = response.extensions.get(_AIOHTTP_RESPONSE)
    if aiohttp_response is None:
        async for chunk in response.aiter_raw():
            yield chunk
        return
    reader = aiohttp_response.content
    connection = aiohttp_response.connection
    protocol = connection.protocol if connection is not None else None
    limit = protocol.read_timeout if protocol is not None else None
    if limit:
        # aiohttp's next chunk drops its own timer; the one below replaces it.
        protocol.read_timeout = None
    loop = asyncio.get_running_loop()
    waiting_since: float | None = None
    timer: asyncio.TimerHandle | None = None

    def check() -> None:
        nonlocal timer
        waited = 0.0 if waiting_since is None else loop.time() - waiting_since
        if waited >= limit:
            reader.set_exception(aiohttp.SocketTimeoutError("Timeout on reading data from socket"))
        else:
            timer = loop.call_later(limit - waited, check)

    if limit:
        timer = loop.call_later(limit, check)
    try:
        with _httpx_errors():
            while True:
                waiting_since = loop.time()
                try:
                    chunk = await reader.readany()
                except Exception:
                    if kept := _left_unread(reader):
                        # What came before the connection broke: handed on first.
                        yield kept
                    raise
                waiting_since = None
                if not chunk:
                    return
                yield chunk
    finally:
        if timer is not None:
            timer.cancel()


def _left_unread(reader: aiohttp.StreamReader) -> bytes:
    """The bytes a failed reader still holds. aiohttp fails every read once the connection is lost,
    even with data that arrived before the loss still buffered; only ``readany`` reads here, so
    the buffer holds whole chunks."""
    buffered = getattr(reader, "_buffer", None)
    if not buffered:
        return b""
    kept = b"".join(buffered)
    buffered.clear()
    return kept


class _UnkeptCookies(httpx.Cookies):
    def extract_cookies(self, response: httpx.Response) -> None:
        """Nothing is kept: httpx reads each response's cookies through ``urllib``'s request
        and cookie jar, about a fifth of what a request costs the client."""


class ProviderClient(httpx.AsyncClient):
    """``httpx.AsyncClient`` whose direct connections go through ``AiohttpProviderTransport``.

    A transport passed in (tests pass ``httpx.MockTransport``) is used as given,
    and proxies configured in the environment keep httpx's own transport.
    Cookies a provider's server sets are not kept or sent back: every provider
    authenticates with a header.
    """

    @functools.cached_property
    def cookies(self) -> httpx.Cookies:  # type: ignore[override]
        return _UnkeptCookies()

    def _init_transport(
        self,
        verify: ssl.SSLContext | str | bool = True,
        cert: Any = None,
        trust_env: bool = True,
        http1: bool = True,
        http2: bool = False,
        limits: httpx.Limits = httpx.Limits(max_connections=100, max_keepalive_connections=20),
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> httpx.AsyncBaseTransport:
        if transport is not None:
            return transport
        return AiohttpProviderTransport(verify=verify, cert=cert, trust_env=trust_env, limits=limits)
