"""The provider interface every adapter implements, and the machinery they share.

An adapter implements one streaming method, ``_stream``, yielding typed
events; everything a caller uses is built on it here:

- ``stream(request)`` retries failures that happen before the first event
  (the policy in ``llm/retry.py``), turns any provider failure into a final
  ``error`` event that keeps the text received so far, and records the call
  for audit. It raises only on cancellation and programming errors.
- ``complete(request)`` drains ``stream`` and raises the ``LLMError`` of an
  ``error`` event.
- ``embed(texts)`` and ``count_tokens(messages)`` go through the same client
  and retry policy.

Each provider keeps one ``httpx.AsyncClient`` per event loop (in a server
process that is exactly one), with keep-alive and the configured timeouts.
Upstream responses are opened with ``async with``, so a cancelled or
abandoned stream closes its connection at once and stops reading tokens.
"""

from __future__ import annotations

import asyncio
import contextvars
import json
import logging
import weakref
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import aclosing, contextmanager
from typing import Any, ClassVar, Protocol

import httpx
import jiter
from django.conf import settings

from llm import audit
from llm.providers.event_stream import EventStreamDecoder
from llm.providers.transport import ProviderClient, raw_chunks
from llm.retry import (
    LLMError,
    NotConfigured,
    ProviderConnectionError,
    ProviderHTTPError,
    ProviderProtocolError,
    ProviderTimeout,
    RetryPolicy,
    parse_retry_after,
)
from llm.tokens import estimate_message_tokens
from llm.types import ChatRequest, Completion, CompletionState, Message, StreamEvent

logger = logging.getLogger("llm")

DEFAULT_CONTEXT_WINDOW = 8192


# How far apart a streamed answer's reads are kept (seconds, asked after each read that
# brought text), or None to read every chunk as it comes. A task that shows an answer at a
# pace of its own (a chat page gets one websocket message per frame interval) sets it: the
# tokens that arrive meanwhile wait in the socket's buffer, then are read, parsed and handed
# on as one delta, instead of each token waking every layer above the socket on its own.
# The read that brings the first text is not held back; ``complete`` reads unpaced.
stream_pace: contextvars.ContextVar[Callable[[], float] | None] = contextvars.ContextVar("stream_pace", default=None)


class StreamParser(Protocol):
    """Turns one provider's stream payloads into events; pure, so replay can re-run it."""

    finished: bool

    def feed(self, data: str) -> list[StreamEvent]:
        """Events for one SSE ``data`` payload (or one whole JSON body)."""

    def finish(self) -> list[StreamEvent]:
        """Events once the stream ended: pending tool calls and ``done``.

        Raises ``ProviderProtocolError`` when the stream ended before the
        provider said the answer was complete.
        """


class Provider(ABC):
    """One model provider. Capabilities are class attributes so callers can check before calling."""

    name: ClassVar[str] = ""
    supports_streaming: ClassVar[bool] = True
    supports_tools: ClassVar[bool] = False
    supports_json_schema: ClassVar[bool] = False
    supports_embeddings: ClassVar[bool] = False
    # True when ``count_tokens`` asks the provider instead of estimating.
    supports_token_count: ClassVar[bool] = False
    # False only for the offline provider, whose answers are a notice, not model output.
    generates_text: ClassVar[bool] = True

    def __init__(
        self,
        config: Mapping[str, Any] | None = None,
        *,
        retry_policy: RetryPolicy | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self.config: dict[str, Any] = dict(config or {})
        self.retry_policy = retry_policy or RetryPolicy()
        self._transport = transport
        # One client per event loop: an httpx connection pool belongs to the loop that opened it.
        self._clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, httpx.AsyncClient] = (
            weakref.WeakKeyDictionary()
        )
        # Per loop: the async generator that closes its client when the loop shuts down.
        self._closers: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, AsyncIterator[None]] = (
            weakref.WeakKeyDictionary()
        )

    # --- models and windows -------------------------------------------------

    def model_for(self, purpose: str = "main") -> str:
        models = self.config.get("MODELS", {})
        return str(models.get(purpose) or models.get("main") or "")

    def context_window(self, purpose: str = "main") -> int:
        """Tokens the model used for ``purpose`` accepts (prompt and answer together)."""
        windows = self.config.get("CONTEXT_WINDOWS", {})
        return int(windows.get(purpose) or windows.get("main") or DEFAULT_CONTEXT_WINDOW)

    def is_configured(self) -> bool:
        return True

    # --- the HTTP client ----------------------------------------------------

    def _client_options(self) -> dict[str, Any]:
        """Keyword arguments for this provider's ``httpx.AsyncClient``."""
        timeout = float(self.config.get("TIMEOUT", 90.0))
        return {"timeout": httpx.Timeout(timeout, connect=min(timeout, 10.0))}

    def http(self) -> httpx.AsyncClient:
        loop = asyncio.get_running_loop()
        client = self._clients.get(loop)
        if client is None or client.is_closed:
            options = self._client_options()
            if self._transport is not None:
                options["transport"] = self._transport
            # Every streaming answer holds a connection for its whole length, so the pool
            # must fit all answers in flight (a full pool makes new answers wait).
            connections = int(settings.LLM.get("MAX_CONNECTIONS", 256))
            client = ProviderClient(
                limits=httpx.Limits(max_connections=connections, max_keepalive_connections=min(connections, 32)),
                **options,
            )
            self._clients[loop] = client
            self._closers[loop] = _close_when_loop_ends(loop, client)
        return client

    async def aclose(self) -> None:
        """Close this loop's client; clients of loops that are gone are dropped."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        for client_loop, client in list(self._clients.items()):
            if client_loop is loop:
                await client.aclose()
        self._clients.clear()
        # Their closers go too: a dropped one finishes at once, its client already closed or gone.
        self._closers.clear()

    # --- streaming ------------------------------------------------------------

    @abstractmethod
    def _stream(self, request: ChatRequest, model: str, trace: audit.CallTrace) -> AsyncIterator[StreamEvent]:
        """The adapter's stream: events, raising ``LLMError`` on failure."""

    def new_parser(self, request: ChatRequest | None = None) -> StreamParser:
        """A fresh parser of this provider's stream payloads (used live and by replay)."""
        raise NotImplementedError(f"{self.name} has no stream parser")

    async def stream(self, request: ChatRequest) -> AsyncIterator[StreamEvent]:
        model = request.model or self.model_for(request.purpose)
        trace = audit.CallTrace.begin(provider=self.name, model=model, kind="chat", request=request)
        text_parts: list[str] = []

        def retrying(attempt: int, exc: BaseException, wait: float) -> None:
            logger.warning("%s: attempt %d failed (%s); retrying in %.2f s", self.name, attempt, exc, wait)
            trace.retries += 1

        attempts = self.retry_policy.stream(lambda: self._stream(request, model, trace), on_retry=retrying)
        try:
            try:
                async with aclosing(attempts) as events:
                    async for event in events:
                        if event.type == "text":
                            text_parts.append(event.text)
                        trace.add_event(event)
                        yield event
            except LLMError as exc:
                error_event = StreamEvent(type="error", error=exc, text="".join(text_parts), model=model)
                trace.add_event(error_event)
                yield error_event
        except (asyncio.CancelledError, GeneratorExit):
            # A reader that stops after the final event has not cancelled anything.
            trace.cancelled = not trace.finished
            raise
        finally:
            await audit.finish(trace)

    async def complete(self, request: ChatRequest) -> Completion:
        """The whole answer; raises the ``LLMError`` the stream ended with."""
        state = CompletionState()
        # Nobody watches this answer arrive: it is read as fast as it comes, whatever pace the caller's task set.
        unpaced = stream_pace.set(None)
        try:
            async with aclosing(self.stream(request)) as events:
                async for event in events:
                    if event.type == "error":
                        assert event.error is not None
                        raise event.error
                    state.add(event)
        finally:
            stream_pace.reset(unpaced)
        if state.done is None:
            raise ProviderProtocolError("the stream ended without a done event", provider=self.name)
        return state.completion()

    # --- embeddings and token counts -------------------------------------------

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """One vector per text, in order; batched and retried by the adapter."""
        if not self.supports_embeddings:
            raise NotConfigured(f"{self.name} does not provide embeddings", provider=self.name)
        if not texts:
            return []
        trace = audit.CallTrace.begin(provider=self.name, model=self.model_for("embeddings"), kind="embeddings")
        trace.wire_request = {"texts": len(texts)}
        vectors: list[list[float]] = []
        batch_size = max(1, int(self.config.get("EMBED_BATCH_SIZE", 32)))
        try:
            for start in range(0, len(texts), batch_size):
                batch = list(texts[start : start + batch_size])
                vectors.extend(await self.retry_policy.run(lambda batch=batch: self._embed_batch(batch)))
            trace.result = {"vectors": len(vectors), "dimensions": len(vectors[0]) if vectors else 0}
            return vectors
        except LLMError as exc:
            trace.fail(exc)
            raise
        finally:
            await audit.finish(trace)

    async def _embed_batch(self, texts: list[str]) -> list[list[float]]:
        raise NotConfigured(f"{self.name} does not provide embeddings", provider=self.name)

    async def count_tokens(self, messages: Iterable[Message]) -> int:
        """Tokens the messages take; an estimate unless the provider has a counting endpoint."""
        return estimate_message_tokens(messages)

    # --- shared wire code -------------------------------------------------------

    def _error_message(self, body: bytes) -> str:
        """The provider's own message from an error body."""
        try:
            data = json.loads(body)
        except ValueError:
            return body.decode("utf-8", "replace")[:500]
        if isinstance(data, dict):
            error = data.get("error")
            if isinstance(error, dict) and error.get("message"):
                return str(error["message"])
            if isinstance(error, str):
                return error
            if data.get("message"):
                return str(data["message"])
        return json.dumps(data)[:500]

    def _http_error(self, response: httpx.Response, body: bytes) -> LLMError:
        return ProviderHTTPError(
            f"{self.name} refused the request",
            status=response.status_code,
            provider=self.name,
            provider_message=self._error_message(body),
            retry_after=parse_retry_after(response.headers.get("retry-after")),
        )

    def _transport_error(self, exc: httpx.HTTPError) -> LLMError:
        if isinstance(exc, httpx.TimeoutException):
            return ProviderTimeout(provider=self.name, provider_message=type(exc).__name__)
        return ProviderConnectionError(provider=self.name, provider_message=str(exc) or type(exc).__name__)

    async def _post_json(self, url: str, payload: Any, *, headers: Mapping[str, str] | None = None, timeout: float | None = None) -> Any:
        """POST and decode a JSON answer, raising typed errors."""
        try:
            response = await self.http().post(
                url, json=payload, headers=dict(headers or {}), timeout=timeout if timeout else httpx.USE_CLIENT_DEFAULT
            )
        except httpx.HTTPError as exc:
            raise self._transport_error(exc) from exc
        if response.status_code >= 400:
            raise self._http_error(response, response.content)
        try:
            return response.json()
        except ValueError as exc:
            raise ProviderProtocolError(
                f"{self.name} answered with something that is not JSON", provider=self.name
            ) from exc

    # True for providers that report an error inside an event stream as a plain JSON document
    # sent line by line instead of as events (Gemini): such lines are gathered into one payload.
    errors_as_json_lines: ClassVar[bool] = False

    def _event_stream(self, response: httpx.Response) -> EventStreamDecoder:
        """The decoder of ``response``'s events (``llm.providers.event_stream``); raises when it is not an event stream."""
        if not self.errors_as_json_lines:
            content_type = response.headers.get("content-type", "").partition(";")[0]
            if "text/event-stream" not in content_type:
                raise ProviderProtocolError(
                    f"expected an event stream (text/event-stream), got {content_type!r}", provider=self.name
                )
        return EventStreamDecoder(keep_plain_lines=self.errors_as_json_lines)

    async def _stream_sse(
        self,
        url: str,
        payload: Mapping[str, Any],
        parser: StreamParser,
        trace: audit.CallTrace,
        *,
        headers: Mapping[str, str] | None = None,
    ) -> AsyncIterator[StreamEvent]:
        """POST ``payload`` and parse the SSE answer (or a whole JSON body from a server that does not stream)."""
        trace.wire_request = {"url": url, "json": payload}
        # The record keeps the payloads of the attempt that answered, so replay parses exactly those.
        trace.raw.clear()
        request_headers = {"Accept": "text/event-stream", **(headers or {})}
        try:
            async with self.http().stream("POST", url, json=payload, headers=request_headers) as response:
                trace.status = response.status_code
                if response.status_code >= 400:
                    raise self._http_error(response, await response.aread())
                content_type = response.headers.get("content-type", "")
                with wire_format_errors(self.name):
                    if "application/json" in content_type:
                        body = (await response.aread()).decode("utf-8", "replace")
                        trace.add_raw(body)
                        for event in parser.feed(body):
                            yield event
                    else:
                        decoder = self._event_stream(response)
                        # The raw chunks (fewer layers per chunk, that is per token), unless the body is
                        # compressed or already in memory.
                        whole = response.is_stream_consumed or response.headers.get("content-encoding")
                        chunks = response.aiter_bytes() if whole else raw_chunks(response)
                        pace = stream_pace.get()
                        loop = asyncio.get_running_loop()
                        async for chunk in chunks:
                            read_at, shown = loop.time(), False
                            events = _parsed(decoder.feed(chunk), parser, trace)
                            for event in events if pace is None else _text_joined(events):
                                shown = shown or event.type == "text"
                                yield event
                            if pace is not None and shown and (rest := read_at + pace() - loop.time()) > 0:
                                await asyncio.sleep(rest)
                        for event in _parsed(decoder.finish(), parser, trace):
                            yield event
                    for event in parser.finish():
                        yield event
        except httpx.HTTPError as exc:
            raise self._transport_error(exc) from exc


def _parsed(payloads: list[str], parser: StreamParser, trace: audit.CallTrace) -> Iterator[StreamEvent]:
    """The events of a chunk's payloads, each as soon as it is parsed. After the terminator the rest of
    the body is still read (servers end it at once), so the connection goes back to the pool instead of
    being closed; it is not parsed."""
    for data in payloads:
        if not parser.finished:
            trace.add_raw(data)
            yield from parser.feed(data)


def _text_joined(events: Iterable[StreamEvent]) -> Iterator[StreamEvent]:
    """The events of one paced read (``stream_pace``: several tokens), each run of text deltas joined
    into one delta, so what the read brought is handed on at once. Text before a failure in the
    middle of the read is still handed on, then the failure raised."""
    text: list[str] = []
    try:
        for event in events:
            if event.type == "text":
                text.append(event.text)
                continue
            if text:
                yield StreamEvent(type="text", text="".join(text))
                text = []
            yield event
    except Exception:
        if text:
            yield StreamEvent(type="text", text="".join(text))
        raise
    if text:
        yield StreamEvent(type="text", text="".join(text))


def _close_when_loop_ends(loop: asyncio.AbstractEventLoop, client: httpx.AsyncClient) -> AsyncIterator[None]:
    """Have ``client`` closed when ``loop`` shuts down; returns the generator to keep referenced.

    Sync code reaches the providers through short-lived loops (``async_to_sync``
    runs one per call through ``asyncio.run``, e.g. for embeddings). Such a loop
    finalises its async generators before closing, which runs this one's
    ``finally``: the client's connections are closed in their own loop instead
    of being left to the garbage collector. The server's loop, which never ends
    that way, closes its clients through ``close_providers()``.
    """

    async def hold() -> AsyncIterator[None]:
        try:
            yield
        finally:
            if not client.is_closed:
                await client.aclose()

    closer = hold()

    async def start() -> None:
        # The first step registers the generator with the loop (asyncio's async generator hooks).
        await closer.__anext__()

    loop.create_task(start())
    return closer


@contextmanager
def wire_format_errors(provider: str) -> Iterator[None]:
    """Payloads of the wrong shape (a list where the format has an object, a string for a choice) are
    the provider's protocol error: the parsers read valid JSON of any shape without checking each field.
    """
    try:
        yield
    except (TypeError, AttributeError, KeyError, IndexError) as exc:
        raise ProviderProtocolError(
            f"{provider} sent a payload that is not its wire format ({type(exc).__name__}: {exc})", provider=provider
        ) from exc


def parse_json_payload(data: str, provider: str) -> Any | None:
    """One stream payload as JSON; a malformed one is logged and skipped (None).

    Parsed by jiter (a third of ``json.loads``'s time on a chunk of an answer, which is per token);
    what it refuses is read by ``json.loads``, which also takes escaped lone surrogates.
    """
    try:
        return jiter.from_json(data.encode("utf-8", "surrogatepass"))
    except ValueError:
        pass
    try:
        return json.loads(data)
    except ValueError:
        logger.warning("%s: skipped a malformed stream line: %s", provider, audit.truncate(data, 200))
        return None


def parse_arguments(raw: Any) -> tuple[Mapping[str, Any], str]:
    """Tool-call arguments as a mapping plus their raw text (kept when they are not valid JSON)."""
    if isinstance(raw, Mapping):
        return dict(raw), json.dumps(raw, ensure_ascii=False)
    text = raw if isinstance(raw, str) else ""
    if not text.strip():
        return {}, text
    try:
        value = json.loads(text)
    except ValueError:
        return {}, text
    return (value if isinstance(value, dict) else {"value": value}), text
