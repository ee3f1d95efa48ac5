"""The providers' HTTP client: httpx over plain asyncio streams.

httpx's default network layer (httpcore's anyio backend) switches the socket's
reader on and off around every read: two ``epoll_ctl`` calls and the selector
bookkeeping for each chunk of a streamed answer. With hundreds of answers
streaming into one process that was about a fifth of its CPU. An
``asyncio.StreamReader`` keeps reading while data comes and lets each read take
what is buffered, so a chunk costs one callback and one wake-up.

Only the socket layer changes: the HTTP/1.1 protocol, the connection pool,
timeouts, TLS, proxies taken from the environment and the exceptions
(httpcore's, mapped to httpx's) are httpx's and httpcore's own. Proxied
connections keep httpx's default transport.
"""

from __future__ import annotations

import asyncio
import select
import ssl
from collections.abc import Iterable
from typing import Any

import httpcore
import httpx

# What httpcore passes as ``socket_options`` (httpx's ``socket_options``).
SocketOption = tuple[int, int, int] | tuple[int, int, bytes | bytearray] | tuple[int, int, None, int]


class AsyncioStream(httpcore.AsyncNetworkStream):
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._reader = reader
        self._writer = writer

    async def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        try:
            async with asyncio.timeout(timeout):
                return await self._reader.read(max_bytes)
        except TimeoutError as exc:
            raise httpcore.ReadTimeout(str(exc)) from exc
        except OSError as exc:
            raise httpcore.ReadError(str(exc) or type(exc).__name__) from exc

    async def write(self, buffer: bytes, timeout: float | None = None) -> None:
        if not buffer:
            return
        try:
            async with asyncio.timeout(timeout):
                self._writer.write(buffer)
                await self._writer.drain()
        except TimeoutError as exc:
            raise httpcore.WriteTimeout(str(exc)) from exc
        except OSError as exc:
            raise httpcore.WriteError(str(exc) or type(exc).__name__) from exc

    async def aclose(self) -> None:
        # As anyio does: one loop turn lets the transport flush and close the
        # socket; then abort, so an abandoned stream never waits on its peer.
        self._writer.close()
        await asyncio.sleep(0)
        self._writer.transport.abort()

    async def start_tls(
        self, ssl_context: ssl.SSLContext, server_hostname: str | None = None, timeout: float | None = None
    ) -> AsyncioStream:
        try:
            async with asyncio.timeout(timeout):
                await self._writer.start_tls(ssl_context, server_hostname=server_hostname)
        except TimeoutError as exc:
            await self.aclose()
            raise httpcore.ConnectTimeout(str(exc)) from exc
        except (OSError, ssl.SSLError) as exc:
            await self.aclose()
            raise httpcore.ConnectError(str(exc) or type(exc).__name__) from exc
        return self

    def get_extra_info(self, info: str) -> Any:
        closed = self._writer.transport.is_closing()
        if info == "is_readable" and closed:
            return True
        if closed:
            # A closed TLS transport has let go of its connection's details.
            return None
        if info == "ssl_object":
            return self._writer.get_extra_info("ssl_object")
        if info == "client_addr":
            return self._writer.get_extra_info("sockname")
        if info == "server_addr":
            return self._writer.get_extra_info("peername")
        if info == "socket":
            return self._writer.get_extra_info("socket")
        if info == "is_readable":
            # Asked of an idle pooled connection: readable means the server closed
            # it (or sent something unasked), so it must not be reused. asyncio
            # reads eagerly, so an end already read shows in the reader, not the socket.
            if self._reader.at_eof() or self._reader.exception() is not None:
                return True
            return _readable(self._writer.get_extra_info("socket"))
        return None


def _readable(sock: Any) -> bool:
    """Whether a read would return at once (data or the end); a closed socket counts as readable."""
    fd = -1 if sock is None else sock.fileno()
    if fd < 0:
        return True
    poller = select.poll()
    poller.register(fd, select.POLLIN)
    return bool(poller.poll(0))


async def _connected(
    opening: Any, timeout: float | None, socket_options: Iterable[SocketOption] | None
) -> AsyncioStream:
    try:
        async with asyncio.timeout(timeout):
            reader, writer = await opening
    except TimeoutError as exc:
        raise httpcore.ConnectTimeout(str(exc)) from exc
    except OSError as exc:
        raise httpcore.ConnectError(str(exc) or type(exc).__name__) from exc
    sock = writer.get_extra_info("socket")
    for option in socket_options or ():
        sock.setsockopt(*option)
    return AsyncioStream(reader, writer)


class AsyncioBackend(httpcore.AsyncNetworkBackend):
    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[SocketOption] | None = None,
    ) -> AsyncioStream:
        local = (local_address, 0) if local_address else None
        return await _connected(asyncio.open_connection(host, port, local_addr=local), timeout, socket_options)

    async def connect_unix_socket(
        self, path: str, timeout: float | None = None, socket_options: Iterable[SocketOption] | None = None
    ) -> AsyncioStream:
        return await _connected(asyncio.open_unix_connection(path), timeout, socket_options)

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


class AsyncioHTTPTransport(httpx.AsyncHTTPTransport):
    """httpx's transport with httpcore's connection pool on ``AsyncioBackend``."""

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        # httpx 0.28 takes no network backend; the pool hands this one to every
        # connection it opens from now on.
        pool = self._pool
        if isinstance(pool, httpcore.AsyncConnectionPool):
            pool._network_backend = AsyncioBackend()


class ProviderClient(httpx.AsyncClient):
    """``httpx.AsyncClient`` whose direct connections use ``AsyncioHTTPTransport``.

    A transport passed in (tests pass ``httpx.MockTransport``) is used as given,
    and proxies configured in the environment keep httpx's own transport.
    """

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
        return AsyncioHTTPTransport(
            verify=verify, cert=cert, trust_env=trust_env, http1=http1, http2=http2, limits=limits
        )

