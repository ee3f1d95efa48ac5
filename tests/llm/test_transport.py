"""The providers' HTTP client (httpx over aiohttp), against real loopback servers."""

from __future__ import annotations

import asyncio
import json
import socket
import ssl

import httpx
import pytest
import trustme

from llm.providers.transport import ProviderClient, raw_chunks


class KeepAliveServer:
    """Answers every request with a small JSON body (and a ``Set-Cookie`` header when asked); keeps the
    requests' heads, counts connections, and may close each after one answer."""

    def __init__(self, *, close_after_answer: bool = False, tls: ssl.SSLContext | None = None, cookie: bytes = b"") -> None:
        self.close_after_answer = close_after_answer
        self.tls = tls
        self.cookie = cookie
        self.heads: list[bytes] = []
        self.connections = 0
        self.server: asyncio.Server | None = None

    async def __aenter__(self) -> KeepAliveServer:
        self.server = await asyncio.start_server(self._connection, "127.0.0.1", 0, ssl=self.tls)
        return self

    async def __aexit__(self, *exc) -> None:
        self.server.close()

    @property
    def url(self) -> str:
        scheme = "https" if self.tls else "http"
        return f"{scheme}://127.0.0.1:{self.server.sockets[0].getsockname()[1]}/"

    async def _connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        number = self.connections
        try:
            while head := await reader.readuntil(b"\r\n\r\n"):
                self.heads.append(head)
                body = json.dumps({"connection": number}).encode()
                cookie = b"Set-Cookie: %s; Path=/\r\n" % self.cookie if self.cookie else b""
                writer.write(
                    b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n%sContent-Length: %d\r\n\r\n%s" % (cookie, len(body), body)
                )
                await writer.drain()
                if self.close_after_answer:
                    break
        except (asyncio.IncompleteReadError, ConnectionError, ssl.SSLError):
            pass
        finally:
            writer.close()


EVENT_STREAM_HEAD = b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"


async def send_event_parts(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, parts: list[bytes], interval: float) -> None:
    """Answer one request with the head of an event stream, then ``parts``, one HTTP chunk each, ``interval`` seconds apart."""
    await reader.readuntil(b"\r\n\r\n")
    writer.write(EVENT_STREAM_HEAD)
    for part in parts:
        writer.write(b"%x\r\n%s\r\n" % (len(part), part))
        await writer.drain()
        await asyncio.sleep(interval)


async def read_slowly(port: int, pause: float, received: list[bytes], **client_options) -> None:
    """Read the body at ``port`` raw into ``received``, pausing ``pause`` seconds after each chunk (the caller's own time)."""
    async with ProviderClient(**client_options) as client:
        async with client.stream("GET", f"http://127.0.0.1:{port}/") as response:
            async for chunk in raw_chunks(response):
                received.append(chunk)
                await asyncio.sleep(pause)


def tls_pair() -> tuple[ssl.SSLContext, ssl.SSLContext]:
    """A server context with a certificate for 127.0.0.1, and a client context that trusts it."""
    authority = trustme.CA()
    server_context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    authority.issue_cert("127.0.0.1").configure_cert(server_context)
    client_context = ssl.create_default_context()
    authority.configure_trust(client_context)
    return server_context, client_context


async def test_it_reuses_a_kept_alive_connection():
    async with KeepAliveServer() as server, ProviderClient() as client:
        answers = [(await client.get(server.url)).json() for _ in range(3)]
    assert answers == [{"connection": 1}] * 3
    assert server.connections == 1


async def test_cookies_a_provider_sets_are_not_sent_back():
    async with KeepAliveServer(cookie=b"session=abc") as server, ProviderClient() as client:
        first = await client.get(server.url)
        await client.get(server.url)
    assert first.headers["set-cookie"].startswith("session=abc")
    assert len(server.heads) == 2
    assert all(b"cookie" not in head.lower() for head in server.heads)
    assert not client.cookies


async def test_it_does_not_reuse_a_connection_the_server_closed_while_idle():
    async with KeepAliveServer(close_after_answer=True) as server, ProviderClient() as client:
        first = (await client.get(server.url)).json()
        # Let the server's close arrive while the connection sits in the pool.
        await asyncio.sleep(0.05)
        second = (await client.get(server.url)).json()
    assert (first, second) == ({"connection": 1}, {"connection": 2})


async def test_a_refused_connection_is_a_connect_error():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    async with ProviderClient() as client:
        with pytest.raises(httpx.ConnectError):
            await client.get(f"http://127.0.0.1:{port}/")


async def test_a_server_that_never_answers_is_a_read_timeout():
    async def silent(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.read(65536)
        await asyncio.sleep(5)
        writer.close()

    server = await asyncio.start_server(silent, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        async with ProviderClient(timeout=httpx.Timeout(5.0, read=0.2)) as client:
            with pytest.raises(httpx.ReadTimeout):
                await client.get(f"http://127.0.0.1:{port}/")
    finally:
        server.close()


async def test_a_transport_passed_in_is_used_as_given():
    transport = httpx.MockTransport(lambda request: httpx.Response(200, json={"mocked": True}))
    async with ProviderClient(transport=transport) as client:
        assert (await client.get("http://provider.invalid/")).json() == {"mocked": True}


async def test_it_speaks_tls_to_a_server_it_trusts_and_refuses_one_it_does_not():
    server_context, trusting = tls_pair()

    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            await reader.readuntil(b"\r\n\r\n")
            writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 6\r\nConnection: close\r\n\r\nsecret")
            await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError, ssl.SSLError):
            pass
        finally:
            writer.close()

    server = await asyncio.start_server(answer, "127.0.0.1", 0, ssl=server_context)
    url = f"https://127.0.0.1:{server.sockets[0].getsockname()[1]}/"
    try:
        async with ProviderClient(verify=trusting) as client:
            response = await client.get(url)
        assert response.text == "secret"
        async with ProviderClient() as client:
            with pytest.raises(httpx.ConnectError):
                await client.get(url)
    finally:
        server.close()


async def test_it_reuses_a_kept_alive_tls_connection():
    server_context, trusting = tls_pair()
    async with KeepAliveServer(tls=server_context) as server, ProviderClient(verify=trusting) as client:
        answers = [(await client.get(server.url)).json() for _ in range(3)]
    assert answers == [{"connection": 1}] * 3


def _read_as_httpx_does(response: httpx.Response):
    return response.aiter_raw()


@pytest.mark.parametrize("read", [_read_as_httpx_does, raw_chunks], ids=["aiter_raw", "raw_chunks"])
async def test_a_server_that_hangs_up_mid_answer_is_a_protocol_error_not_a_timeout(read):
    async def half(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readuntil(b"\r\n\r\n")
        writer.write(EVENT_STREAM_HEAD)
        writer.write(b"10\r\ndata: {\"a\": 1}\n\n\r\n")
        await writer.drain()
        writer.transport.abort()

    server = await asyncio.start_server(half, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    received = []
    try:
        async with ProviderClient() as client:
            with pytest.raises(httpx.TransportError) as raised:
                async with client.stream("GET", f"http://127.0.0.1:{port}/") as response:
                    async for chunk in read(response):
                        received.append(chunk)
    finally:
        server.close()
    assert b"".join(received) == b'data: {"a": 1}\n\n'
    assert isinstance(raised.value, httpx.RemoteProtocolError)
    assert not isinstance(raised.value, httpx.TimeoutException)


async def test_a_reader_slower_than_the_server_gets_what_came_before_the_server_hung_up():
    parts = [b"data: %d\n\n" % number for number in range(6)]

    async def then_hangs_up(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await send_event_parts(reader, writer, parts, 0.03)
        writer.transport.abort()

    server = await asyncio.start_server(then_hangs_up, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    received = []
    try:
        with pytest.raises(httpx.RemoteProtocolError):
            # A reader at a pace of its own: the rest, and the hang-up, come meanwhile.
            await read_slowly(port, 0.25, received)
    finally:
        server.close()
    # The first part at once, the rest in one read (aiohttp would fail it for the lost connection), then the error.
    assert b"".join(received) == b"".join(parts)
    assert len(received) == 2


async def test_a_stream_that_goes_silent_after_some_chunks_is_a_read_timeout_when_read_raw():
    async def stalls(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await send_event_parts(reader, writer, [b"data: %d\n\n" % number for number in range(3)], 0.05)
        await asyncio.sleep(5)
        writer.close()

    server = await asyncio.start_server(stalls, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    received = []
    try:
        async with ProviderClient(timeout=httpx.Timeout(5.0, read=0.2)) as client:
            with pytest.raises(httpx.ReadTimeout):
                async with client.stream("GET", f"http://127.0.0.1:{port}/") as response:
                    async for chunk in raw_chunks(response):
                        received.append(chunk)
    finally:
        server.close()
    assert b"".join(received) == b"data: 0\n\ndata: 1\n\ndata: 2\n\n"


async def test_a_reader_slower_than_the_read_timeout_is_no_timeout_when_read_raw():
    parts = [b"data: %d\n\n" % number for number in range(3)]

    async def steady(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await send_event_parts(reader, writer, parts, 0.1)
        writer.write(b"0\r\n\r\n")
        await writer.drain()
        await asyncio.sleep(1)
        writer.close()

    server = await asyncio.start_server(steady, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    received = []
    try:
        # The caller's own time between chunks is longer than the read timeout.
        await read_slowly(port, 0.3, received, timeout=httpx.Timeout(5.0, read=0.2))
    finally:
        server.close()
    assert b"".join(received) == b"".join(parts)


async def test_a_request_after_a_body_read_raw_on_the_same_connection_still_has_its_read_timeout():
    async def answers(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            await reader.readuntil(b"\r\n\r\n")
            writer.write(EVENT_STREAM_HEAD)
            writer.write(b"9\r\ndata: 1\n\n\r\n0\r\n\r\n")
            await writer.drain()
            # The second request on the connection gets its headers, then nothing.
            await reader.readuntil(b"\r\n\r\n")
            writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 10\r\n\r\n")
            await writer.drain()
            await asyncio.sleep(5)
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()

    server = await asyncio.start_server(answers, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        async with ProviderClient(timeout=httpx.Timeout(5.0, read=0.2)) as client:
            async with client.stream("GET", f"http://127.0.0.1:{port}/") as response:
                assert b"".join([chunk async for chunk in raw_chunks(response)]) == b"data: 1\n\n"
            with pytest.raises(httpx.ReadTimeout):
                await asyncio.wait_for(client.get(f"http://127.0.0.1:{port}/"), 3)
    finally:
        server.close()


async def test_a_body_read_raw_is_the_body_and_leaves_the_connection_for_the_next_request():
    async def chunked(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while await reader.readuntil(b"\r\n\r\n"):
                writer.write(EVENT_STREAM_HEAD)
                for part in (b"data: 1\n\n", b"data: \xc3", b"\xa9\n\n"):
                    writer.write(b"%x\r\n%s\r\n" % (len(part), part))
                    await writer.drain()
                writer.write(b"0\r\n\r\n")
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()

    connections = 0

    async def counted(reader, writer):
        nonlocal connections
        connections += 1
        await chunked(reader, writer)

    server = await asyncio.start_server(counted, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    bodies = []
    try:
        async with ProviderClient() as client:
            for _ in range(2):
                async with client.stream("GET", f"http://127.0.0.1:{port}/") as response:
                    bodies.append(b"".join([chunk async for chunk in raw_chunks(response)]))
    finally:
        server.close()
    assert bodies == ["data: 1\n\ndata: é\n\n".encode()] * 2
    assert connections == 1


async def test_a_response_of_another_transport_is_read_through_httpx():
    async def body():
        yield b"data: 1\n"
        yield b"\n"

    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=body())

    async with httpx.AsyncClient(transport=httpx.MockTransport(answer)) as client:
        async with client.stream("GET", "http://example.test/") as response:
            body = b"".join([chunk async for chunk in raw_chunks(response)])
    assert body == b"data: 1\n\n"
