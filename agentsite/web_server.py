"""The web server: daphne, with a bound on what is kept for a websocket client that does not read.

``python -m agentsite.web_server`` takes daphne's own arguments; ``serve`` runs it.

Twisted writes to a socket until the kernel's buffer is full and keeps the rest
in memory without a limit, and daphne passes nothing of that back to the
application: a page that stops reading (or a client that never does, while it
keeps its chat busy) would have every frame sent to it kept in the web process.
Daphne's pings do not catch it: they go only to a socket that has sent nothing
for a while. Here each websocket is its transport's push producer, so it
learns when the transport's buffer is full (paused) and when it has drained
(resumed); what is sent while it is full is counted, and past
``CHAT_SOCKET_MAX_UNREAD_BYTES`` the connection is dropped. A page that
connects again catches up from the stored answers and the running answer's
text (``chat.consumers.ChatConsumer._catch_up``), so it loses nothing it shows.

Twisted also buffers every write and sends it on a later turn of the reactor,
registering the socket for writing and unregistering it once sent: two
``epoll_ctl`` calls and a reactor turn per websocket message, which streamed
answers send by the thousand each second. A websocket's writes here go to the
socket at once when nothing waits in the transport's buffer, as asyncio's own
transports do; what the socket does not take goes to twisted as before (and
counts against the limit above).

The event loop under daphne's twisted reactor is uvloop's (libuv, in C): every
token of every streamed answer is a socket read, a few callbacks and a socket
write, and asyncio's own loop did that work in Python.
"""

from __future__ import annotations

import asyncio
import logging

import uvloop

# Before daphne's server module makes its event loop (at import), so that loop is uvloop's.
asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())

from daphne.cli import CommandLineInterface  # noqa: E402
from daphne.server import Server  # noqa: E402
from daphne.ws_protocol import WebSocketProtocol  # noqa: E402
from django.conf import settings  # noqa: E402
from twisted.internet import reactor  # noqa: E402  (after daphne.server, which installs the asyncio reactor)

logger = logging.getLogger(__name__)


class ImmediateWrites:
    """A plain TCP transport whose writes try the socket first (module docstring); everything else is the transport's."""

    def __init__(self, transport) -> None:
        self._transport = transport

    def __getattr__(self, name: str):
        return getattr(self._transport, name)

    def write(self, data: bytes) -> None:
        transport = self._transport
        # Nothing of earlier writes is waiting (else this would overtake it), and the connection is open.
        if data and transport.connected and not (transport.disconnecting or transport._writeDisconnected or transport._tempDataLen) and (
            transport.offset >= len(transport.dataBuffer)
        ):
            try:
                sent = transport.socket.send(data)
            except OSError:
                # Full (or failed: twisted's own write meets the same error and closes the connection its way).
                sent = 0
            data = data[sent:]
        if data:
            transport.write(data)

    @staticmethod
    def suits(transport) -> bool:
        """Only a plain TCP connection: a TLS one must encrypt what it writes."""
        return not getattr(transport, "TLS", True) and hasattr(transport, "socket") and hasattr(transport, "_tempDataLen")


class BoundedWebSocketProtocol(WebSocketProtocol):
    """A websocket dropped when more than its limit waits unread behind a full transport."""

    unread_limit = 0
    sent_while_full = 0
    transport_full = False
    dropped = False

    def connectionMade(self) -> None:
        super().connectionMade()
        self.unread_limit = settings.CHAT["SOCKET_MAX_UNREAD_BYTES"]
        # A websocket starts as an HTTP request: twisted's HTTP channel is still the transport's
        # producer, and a transport takes one. The channel is done with this connection.
        if getattr(self.transport, "producer", None) is not None:
            self.transport.unregisterProducer()
        self.transport.registerProducer(self, True)
        if ImmediateWrites.suits(self.transport):
            self.transport = ImmediateWrites(self.transport)

    # The transport's push-producer calls.
    def pauseProducing(self) -> None:
        self.transport_full = True

    def resumeProducing(self) -> None:
        self.transport_full, self.sent_while_full = False, 0

    def stopProducing(self) -> None:
        pass

    def serverSend(self, content, binary: bool = False) -> None:
        if self.dropped:
            return
        if self.transport_full:
            # Characters of text frames: at most their bytes, which is close enough for a bound.
            self.sent_while_full += len(content)
            if self.sent_while_full > self.unread_limit:
                self.dropped = True
                logger.warning(
                    "websocket %s dropped: more than %d bytes unread behind a full socket",
                    self.client_addr, self.unread_limit,
                )
                self.transport.abortConnection()
                return
        super().serverSend(content, binary)

    def sendData(self, data: bytes, sync: bool = False, chopsize: int | None = None) -> None:
        # An open socket's plain write, as autobahn's sendData makes it, without the arguments of
        # its debug line (coloured type and peer names), which it formats for every message whether
        # or not debug logging is on. Queued, chopped and handshake writes stay autobahn's.
        if sync or chopsize or self.send_queue or self.logOctets or self.state != WebSocketProtocol.STATE_OPEN:
            super().sendData(data, sync, chopsize)
            return
        self.transport.write(data)
        self.trafficStats.outgoingOctetsWireLevel += len(data)


class WebServer(Server):
    def run(self) -> None:
        # Daphne makes its websocket factory inside run(); the protocol is set when the reactor
        # starts, before it accepts a connection.
        reactor.callWhenRunning(self._bound_websockets)
        super().run()

    def _bound_websockets(self) -> None:
        self.ws_factory.protocol = BoundedWebSocketProtocol


class WebServerCommandLine(CommandLineInterface):
    server_class = WebServer


if __name__ == "__main__":
    WebServerCommandLine.entrypoint()
