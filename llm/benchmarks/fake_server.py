"""A local fake model server speaking the OpenAI, GigaChat and Gemini wire formats.

It listens on 127.0.0.1 (a random port) in its own thread, so sync tests,
async tests, benchmarks and child processes of the product (through
``server.env(...)``) can all use it. Answers are scripted; the real adapters
parse them. The tests' fixtures around it are in ``tests/llm/fakes.py``;
``python -m llm.benchmarks.fake_server`` runs it as a process of its own.

``FakeProviderServer``:

- ``script(*replies, kind="chat")``: queue answers, used in order. ``kind`` is
  ``"chat"``, ``"embeddings"``, ``"tokens"`` (token counting) or ``"oauth"``
  (GigaChat token requests). Chat replies are shared by all three wire formats.
- ``fallback``: the chat answer when the queue is empty: a ``Reply`` or a
  function ``(RecordedRequest) -> Reply`` for answers that depend on the prompt
  (``request.last_user_text`` is the last user message in any wire format).
  Default: ``Reply.text("ok")``.
- ``requests`` (all), ``chat_requests``, ``requests_to(path_part)``: what
  arrived, as ``RecordedRequest(method, path, headers, json, form, query, client_port)``,
  with when it arrived (``received_at``, ``received_wall``) and when each
  payload of its streamed answer was written (``sent_at``).
- ``disconnects``: one entry per stream the client abandoned (``chunks_sent``
  before the client went away); ``completed_streams`` counts streams sent whole.
- ``embedding_dims`` (8): size of the deterministic fake vectors.
- ``backlog`` (128): connections the socket queues before they are accepted.
- GigaChat OAuth: ``gigachat_key`` is the accepted authorization key,
  ``token_ttl`` the lifetime of issued tokens (s), ``oauth_delay`` a delay
  before answering a token request, ``expire_tokens()`` makes every issued
  token answer 401; ``oauth_calls`` counts token requests.
- URLs: ``openai_base_url``, ``gigachat_auth_url``, ``gigachat_api_url``,
  ``gemini_base_url``. ``llm_settings(provider)`` returns a copy of
  ``settings.LLM`` pointed at this server; ``env(provider)`` the environment
  variables doing the same for a child process.

``Reply`` (build with the constructors):

- ``Reply.text(text, chunk_size=8, interval=0.0, usage=None)``: streamed in
  chunks of ``chunk_size`` characters, ``interval`` seconds apart (an absolute
  schedule from the first payload); ``Reply.stream(pieces, ...)`` streams the
  pieces as given.
- ``Reply.tool_call(name, arguments, text="", call_id=None)`` and
  ``Reply.tool_calls([(name, arguments), ...])``: the model calls tools
  (GigaChat sends only the first: it calls one function per answer).
- ``Reply.error(status, message="...", retry_after=None)``: an HTTP error in the
  provider's error format, with ``Retry-After`` when given.
- options on any reply (keyword arguments of the constructors):
  ``delay`` seconds before the response starts (for timeouts), ``cut_after``
  chunks after which the connection is dropped mid-stream, ``malformed_at``
  chunk index before which a non-JSON ``data:`` line is sent.
  ``reasoning_tokens``: of the completion tokens, a thinking model's thoughts
  (OpenAI ``completion_tokens_details``, Gemini ``thoughtsTokenCount``).
  ``thought_signature`` (Gemini): a thinking model's ``thoughtSignature`` on the
  first function-call part. ``refusal`` (OpenAI): the model declines in
  ``delta.refusal`` (``message.refusal`` whole) and sends no content.
  ``other_choices`` (OpenAI): the texts of choices 1, 2, ... streamed
  interleaved with the answer's deltas, as with ``n > 1``. ``null_errors``
  (OpenAI): every chunk carries ``"error": null``, as some compatible servers send.
- ``Reply.vectors([[...], ...])`` for ``kind="embeddings"`` scripts exact
  vectors; ``Reply.count(n)`` for ``kind="tokens"`` makes Gemini's count ``n``
  and GigaChat's count of the first input ``n`` (other inputs: their word count).

Every provider call also writes an audit row (``LLMCall``) from the async
ORM's worker thread: tests that do not want rows (or have no database) set
``settings.LLM = {**settings.LLM, "AUDIT": False}`` before requesting the
fixtures of ``tests/llm/fakes.py``, which copy ``settings.LLM``; tests that
read the rows need ``django_db(transaction=True)``.

Unscripted embeddings are deterministic per text; unscripted token counts are
word counts. Streams end with the provider's own terminator (``[DONE]`` for
OpenAI and GigaChat, a ``finishReason`` for Gemini) and carry usage.
"""

from __future__ import annotations

import asyncio
import base64
import copy
import hashlib
import json
import threading
import time
import uuid
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web
from multidict import CIMultiDict

DEFAULT_GIGACHAT_KEY = base64.b64encode(b"client-id:client-secret").decode()


@dataclass(frozen=True)
class Reply:
    """One scripted answer; build it with the constructors below."""

    content: str = ""
    # The stream's text pieces as given (``Reply.stream``); empty: ``content`` cut every ``chunk_size`` characters.
    pieces: tuple[str, ...] = ()
    calls: tuple[tuple[str, Mapping[str, Any], str], ...] = ()
    status: int = 200
    error_message: str = ""
    retry_after: str | None = None
    chunk_size: int = 8
    interval: float = 0.0
    delay: float = 0.0
    cut_after: int | None = None
    malformed_at: int | None = None
    usage: tuple[int, int] | None = None
    embedding_vectors: tuple[tuple[float, ...], ...] | None = None
    token_count: int | None = None
    # The OpenAI wire's finish reason of a text answer ("length": stopped at max_tokens).
    finish_reason: str = "stop"
    # Gemini: before this stream payload, an error document (code ``status_in_stream``) ends the stream.
    error_document_at: int | None = None
    status_in_stream: int = 503
    # Of the completion tokens, the ones a thinking model spent on thoughts (OpenAI's
    # completion_tokens_details.reasoning_tokens, Gemini's thoughtsTokenCount).
    reasoning_tokens: int = 0
    # Gemini: the thoughtSignature a thinking model puts on its (first) function-call part.
    thought_signature: str = ""
    # OpenAI: the model's refusal, streamed in delta.refusal instead of content.
    refusal: str = ""
    # OpenAI: the texts of the further choices (indexes 1, 2, ...) of an n > 1 request.
    other_choices: tuple[str, ...] = ()
    # OpenAI: every chunk carries "error": null.
    null_errors: bool = False

    @classmethod
    def text(cls, text: str, **options: Any) -> Reply:
        return cls(content=text, **options)

    @classmethod
    def stream(cls, pieces: Sequence[str], **options: Any) -> Reply:
        return cls(content="".join(pieces), pieces=tuple(pieces), **options)

    @classmethod
    def tool_call(cls, name: str, arguments: Mapping[str, Any], *, text: str = "", call_id: str | None = None, **options: Any) -> Reply:
        return cls(content=text, calls=((name, dict(arguments), call_id or f"call_{uuid.uuid4().hex[:8]}"),), **options)

    @classmethod
    def tool_calls(cls, calls: list[tuple[str, Mapping[str, Any]]], *, text: str = "", **options: Any) -> Reply:
        return cls(
            content=text,
            calls=tuple((name, dict(args), f"call_{index}_{uuid.uuid4().hex[:6]}") for index, (name, args) in enumerate(calls)),
            **options,
        )

    @classmethod
    def error(cls, status: int, message: str = "scripted failure", *, retry_after: float | str | None = None, **options: Any) -> Reply:
        return cls(status=status, error_message=message, retry_after=None if retry_after is None else str(retry_after), **options)

    @classmethod
    def vectors(cls, vectors: list[list[float]]) -> Reply:
        return cls(embedding_vectors=tuple(tuple(v) for v in vectors))

    @classmethod
    def count(cls, tokens: int) -> Reply:
        return cls(token_count=tokens)

    def chunks(self) -> list[str]:
        if self.pieces:
            return list(self.pieces)
        size = max(1, self.chunk_size)
        return [self.content[i : i + size] for i in range(0, len(self.content), size)]

    def usage_counts(self, prompt_text: str) -> tuple[int, int]:
        if self.usage is not None:
            return self.usage
        completion = len(self.content.split()) if self.content else len(self.calls)
        return max(1, len(prompt_text.split())), max(1, completion)


@dataclass
class RecordedRequest:
    method: str
    path: str
    headers: Mapping[str, str]
    json: Any = None
    form: dict[str, str] = field(default_factory=dict)
    query: dict[str, str] = field(default_factory=dict)
    # The client's port: equal ports mean one kept-alive connection served both requests.
    client_port: int = 0
    # When it arrived (``time.perf_counter`` and ``time.time``), and when each payload of a streamed
    # answer was written (``perf_counter``, taken just before the write; in the OpenAI wire the first
    # payload is the role's, then one a text piece).
    received_at: float = 0.0
    received_wall: float = 0.0
    sent_at: list[float] = field(default_factory=list)

    @property
    def wire(self) -> str:
        if self.path.startswith("/api/"):
            return "gigachat"
        if self.path.startswith("/v1beta/"):
            return "gemini"
        return "openai"

    @property
    def last_user_text(self) -> str:
        """The last user message's text, whatever the wire format."""
        body = self.json or {}
        if self.wire == "gemini":
            for content in reversed(body.get("contents", [])):
                if content.get("role") == "user":
                    return "".join(part.get("text", "") for part in content.get("parts", []))
            return ""
        for message in reversed(body.get("messages", [])):
            if message.get("role") == "user":
                return message.get("content") or ""
        return ""


def _fake_vector(text: str, dims: int) -> list[float]:
    digest = hashlib.sha256(text.encode()).digest()
    return [round((digest[i % len(digest)] - 127.5) / 127.5, 6) for i in range(dims)]


class FakeProviderServer:
    def __init__(self) -> None:
        self.requests: list[RecordedRequest] = []
        self.fallback: Reply | Callable[[RecordedRequest], Reply] = Reply.text("ok")
        self.disconnects: list[dict[str, Any]] = []
        self.completed_streams = 0
        self.embedding_dims = 8
        # Connections the listening socket queues before they are accepted (a load generator opens hundreds).
        self.backlog = 128
        self.gigachat_key = DEFAULT_GIGACHAT_KEY
        self.token_ttl = 1800.0
        self.oauth_delay = 0.0
        self.oauth_calls = 0
        self.oauth_request_ids: list[str] = []
        # Answer as llama.cpp's OpenAI-compatible server does: a response_format of these types is
        # refused with its 500 and validation message, before any scripted reply is used.
        self.refused_formats: set[str] = set()
        self._valid_tokens: set[str] = set()
        self._queues: dict[str, deque[Reply]] = {kind: deque() for kind in ("chat", "embeddings", "tokens", "oauth")}
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._runner: web.AppRunner | None = None
        self._thread: threading.Thread | None = None
        self.port = 0

    # --- lifecycle ---------------------------------------------------------------

    def start(self) -> FakeProviderServer:
        ready = threading.Event()
        errors: list[BaseException] = []

        def run() -> None:
            loop = asyncio.new_event_loop()
            self._loop = loop
            asyncio.set_event_loop(loop)
            try:
                loop.run_until_complete(self._serve())
            except BaseException as exc:  # noqa: BLE001 - reported to the starting thread
                errors.append(exc)
                ready.set()
                return
            ready.set()
            loop.run_forever()
            loop.run_until_complete(self._runner.cleanup())
            # Handlers still sleeping in a scripted delay are cancelled, not left pending.
            pending = asyncio.all_tasks(loop)
            for task in pending:
                task.cancel()
            loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
            loop.close()

        self._thread = threading.Thread(target=run, name="fake-llm-server", daemon=True)
        self._thread.start()
        if not ready.wait(10):
            raise RuntimeError("the fake provider server did not start within 10 s")
        if errors:
            raise errors[0]
        return self

    async def _serve(self) -> None:
        app = web.Application()
        app.router.add_route("*", "/{tail:.*}", self._dispatch)
        self._runner = web.AppRunner(app, handle_signals=False, shutdown_timeout=0.5, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0, backlog=self.backlog)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    def stop(self) -> None:
        if self._loop is not None and self._thread is not None:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(10)
            self._loop = None

    def __enter__(self) -> FakeProviderServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # --- scripting -----------------------------------------------------------------

    def script(self, *replies: Reply, kind: str = "chat") -> None:
        with self._lock:
            self._queues[kind].extend(replies)

    def _next(self, kind: str, request: RecordedRequest) -> Reply | None:
        with self._lock:
            if self._queues[kind]:
                return self._queues[kind].popleft()
        if kind == "chat":
            return self.fallback(request) if callable(self.fallback) else self.fallback
        return None

    def expire_tokens(self) -> None:
        with self._lock:
            self._valid_tokens.clear()

    @property
    def chat_requests(self) -> list[RecordedRequest]:
        return [r for r in self.requests if "chat/completions" in r.path or "enerateContent" in r.path]

    def requests_to(self, path_part: str) -> list[RecordedRequest]:
        return [r for r in self.requests if path_part in r.path]

    # --- addresses and configuration ---------------------------------------------------

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def openai_base_url(self) -> str:
        return f"{self.url}/v1"

    @property
    def gigachat_auth_url(self) -> str:
        return f"{self.url}/api/v2/oauth"

    @property
    def gigachat_api_url(self) -> str:
        return f"{self.url}/api/v1"

    @property
    def gemini_base_url(self) -> str:
        return f"{self.url}/v1beta"

    def llm_settings(self, provider: str, base: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """A copy of ``settings.LLM`` (or ``base``) using this server for ``provider``, with fast retries."""
        if base is None:
            from django.conf import settings

            base = settings.LLM
        llm = copy.deepcopy(dict(base))
        llm["PROVIDER"] = provider
        llm["RETRY_INITIAL_INTERVAL"] = 0.01
        llm["RETRY_MAX_INTERVAL"] = 0.5
        providers = llm.setdefault("PROVIDERS", {})
        if provider == "openai":
            providers["openai"] = {**providers.get("openai", {}), "BASE_URL": self.openai_base_url, "API_KEY": "test-key"}
        elif provider == "gigachat":
            providers["gigachat"] = {
                **providers.get("gigachat", {}),
                "AUTH_URL": self.gigachat_auth_url,
                "API_URL": self.gigachat_api_url,
                "TOKEN": self.gigachat_key,
            }
        elif provider == "gemini":
            providers["gemini"] = {**providers.get("gemini", {}), "BASE_URL": self.gemini_base_url, "API_KEY": "test-key"}
        return llm

    def env(self, provider: str) -> dict[str, str]:
        """Environment variables pointing a child process of the product at this server."""
        env = {"LLM_PROVIDER": provider, "LLM_RETRY_INITIAL_INTERVAL": "0.01"}
        if provider == "openai":
            env.update(OPENAI_BASE_URL=self.openai_base_url, OPENAI_API_KEY="test-key")
        elif provider == "gigachat":
            env.update(GIGACHAT_AUTH_URL=self.gigachat_auth_url, GIGACHAT_API_URL=self.gigachat_api_url, GIGACHAT_TOKEN=self.gigachat_key)
        elif provider == "gemini":
            env.update(GEMINI_BASE_URL=self.gemini_base_url, GEMINI_API_KEY="test-key")
        return env

    # --- HTTP ----------------------------------------------------------------------------

    async def _dispatch(self, request: web.Request) -> web.StreamResponse:
        received_at, received_wall = time.perf_counter(), time.time()
        body = await request.read()
        peer = request.transport.get_extra_info("peername") if request.transport is not None else None
        recorded = RecordedRequest(
            method=request.method,
            path=request.path,
            # Header names are case-insensitive on the wire; so are they here.
            headers=CIMultiDict(request.headers),
            query=dict(request.query),
            client_port=peer[1] if peer else 0,
            received_at=received_at,
            received_wall=received_wall,
        )
        if request.content_type == "application/x-www-form-urlencoded":
            recorded.form = dict((await request.post()).items())  # type: ignore[arg-type]
        elif body:
            try:
                recorded.json = json.loads(body)
            except ValueError:
                recorded.json = body.decode("utf-8", "replace")
        with self._lock:
            self.requests.append(recorded)
        path = request.path
        if path == "/api/v2/oauth":
            return await self._oauth(request, recorded)
        if path.startswith("/api/v1/"):
            unauthorized = self._check_gigachat_token(recorded)
            if unauthorized is not None:
                return unauthorized
            if path == "/api/v1/chat/completions":
                return await self._chat(request, recorded, "gigachat")
            if path == "/api/v1/embeddings":
                return await self._embeddings(recorded, "gigachat")
            if path == "/api/v1/tokens/count":
                return await self._token_count(recorded, "gigachat")
        if path == "/_fake/requests":
            # What arrived, for a test driving this server in its own process (``python -m llm.benchmarks.fake_server``).
            with self._lock:
                seen = [{"method": r.method, "path": r.path, "json": r.json} for r in self.requests if r is not recorded]
            return web.json_response(seen)
        if path == "/v1/chat/completions":
            return await self._chat(request, recorded, "openai")
        if path == "/v1/embeddings":
            return await self._embeddings(recorded, "openai")
        if path.startswith("/v1beta/models/"):
            action = path.rsplit(":", 1)[-1]
            if action in ("streamGenerateContent", "generateContent"):
                return await self._chat(request, recorded, "gemini")
            if action in ("batchEmbedContents", "embedContent"):
                return await self._embeddings(recorded, "gemini")
            if action == "countTokens":
                return await self._token_count(recorded, "gemini")
        return web.json_response({"error": {"message": f"no route {path}"}}, status=404)

    def _error_response(self, reply: Reply, wire: str) -> web.Response:
        if wire == "gigachat":
            body: dict[str, Any] = {"status": reply.status, "message": reply.error_message}
        elif wire == "gemini":
            body = {"error": {"code": reply.status, "message": reply.error_message, "status": "ERROR"}}
        else:
            body = {"error": {"message": reply.error_message, "type": "scripted", "code": reply.status}}
        headers = {"Retry-After": reply.retry_after} if reply.retry_after is not None else None
        return web.json_response(body, status=reply.status, headers=headers)

    async def _oauth(self, request: web.Request, recorded: RecordedRequest) -> web.Response:
        with self._lock:
            self.oauth_calls += 1
            self.oauth_request_ids.append(recorded.headers.get("RqUID", ""))
        if self.oauth_delay:
            await asyncio.sleep(self.oauth_delay)
        reply = self._next("oauth", recorded)
        if reply is not None and reply.status >= 400:
            return self._error_response(reply, "gigachat")
        if recorded.headers.get("Authorization") != f"Basic {self.gigachat_key}":
            return web.json_response({"code": 6, "message": "credentials doesn't match db data"}, status=401)
        if not recorded.form.get("scope"):
            return web.json_response({"code": 7, "message": "scope is empty"}, status=400)
        token = f"token-{uuid.uuid4().hex}"
        with self._lock:
            self._valid_tokens.add(token)
        return web.json_response({"access_token": token, "expires_at": int((time.time() + self.token_ttl) * 1000)})

    def _check_gigachat_token(self, recorded: RecordedRequest) -> web.Response | None:
        auth = recorded.headers.get("Authorization", "")
        token = auth.removeprefix("Bearer ")
        with self._lock:
            valid = auth.startswith("Bearer ") and token in self._valid_tokens
        if valid:
            return None
        return web.json_response({"status": 401, "message": "Unauthorized"}, status=401)

    async def _embeddings(self, recorded: RecordedRequest, wire: str) -> web.Response:
        reply = self._next("embeddings", recorded)
        if reply is not None and reply.delay:
            await asyncio.sleep(reply.delay)
        if reply is not None and reply.status >= 400:
            return self._error_response(reply, wire)
        body = recorded.json or {}
        if wire == "gemini":
            texts = ["".join(p.get("text", "") for p in r["content"]["parts"]) for r in body.get("requests", [])]
        else:
            texts = list(body.get("input") or [])
        vectors = [list(v) for v in reply.embedding_vectors] if reply is not None and reply.embedding_vectors is not None else [
            _fake_vector(text, self.embedding_dims) for text in texts
        ]
        if wire == "gemini":
            return web.json_response({"embeddings": [{"values": v} for v in vectors]})
        data = [{"object": "embedding", "embedding": v, "index": i} for i, v in enumerate(vectors)]
        if wire == "gigachat":
            # GigaChat reports usage per embedding (its SDK's Embedding model requires it).
            for item, text in zip(data, texts):
                item["usage"] = {"prompt_tokens": max(1, len(text.split()))}
        return web.json_response(
            {"object": "list", "data": data, "model": body.get("model", ""), "usage": {"prompt_tokens": len(texts), "total_tokens": len(texts)}}
        )

    async def _token_count(self, recorded: RecordedRequest, wire: str) -> web.Response:
        reply = self._next("tokens", recorded)
        if reply is not None and reply.status >= 400:
            return self._error_response(reply, wire)
        body = recorded.json or {}
        if wire == "gemini":
            text = json.dumps(body.get("contents", []))
            count = reply.token_count if reply is not None and reply.token_count is not None else len(text.split())
            return web.json_response({"totalTokens": count})
        inputs = list(body.get("input") or [])
        return web.json_response(
            [
                {
                    "object": "tokens",
                    "tokens": reply.token_count if reply is not None and reply.token_count is not None and i == 0 else len(text.split()),
                    "characters": len(text),
                }
                for i, text in enumerate(inputs)
            ]
        )

    async def _chat(self, request: web.Request, recorded: RecordedRequest, wire: str) -> web.StreamResponse:
        requested_format = ((recorded.json if isinstance(recorded.json, dict) else {}).get("response_format") or {}).get("type")
        if wire == "openai" and requested_format in self.refused_formats:
            return web.json_response(
                {"error": {"code": 500, "type": "server_error",
                           "message": "1 validation error for ChatCompletionRequest\nresponse_format.type\n  "
                                      "Input should be 'text' or 'json_object'"}},
                status=500,
            )
        reply = self._next("chat", recorded)
        assert reply is not None
        if reply.delay:
            await asyncio.sleep(reply.delay)
        if reply.status >= 400:
            return self._error_response(reply, wire)
        body = recorded.json if isinstance(recorded.json, dict) else {}
        streaming = bool(body.get("stream")) if wire != "gemini" else request.path.endswith(":streamGenerateContent")
        model = body.get("model") or request.path.rsplit("/", 1)[-1].split(":", 1)[0]
        prompt_counts = reply.usage_counts(recorded.last_user_text)
        if not streaming:
            return web.json_response(self._whole(reply, wire, model, prompt_counts))
        payloads = list(self._stream_payloads(reply, wire, model, prompt_counts, body))
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache"})
        await response.prepare(request)
        sent = 0
        started = time.perf_counter()
        try:
            for index, payload in enumerate(payloads):
                if reply.cut_after is not None and sent >= reply.cut_after:
                    # Drop the connection mid-answer, as a crashed upstream would.
                    request.transport.abort()  # type: ignore[union-attr]
                    return response
                if reply.malformed_at == index:
                    await response.write(b"data: {this is not json\n\n")
                if reply.error_document_at == index:
                    # As Gemini reports an error mid-stream: a JSON document line by line, not an event.
                    document = {"error": {"code": reply.status_in_stream, "message": reply.error_message, "status": "UNAVAILABLE"}}
                    await response.write(json.dumps(document, indent=2).encode() + b"\n")
                    await response.write_eof()
                    return response
                recorded.sent_at.append(time.perf_counter())
                await response.write(f"data: {payload}\n\n".encode())
                sent += 1
                if reply.interval:
                    # An absolute schedule: the rate holds however long a write took.
                    await asyncio.sleep(max(0.0, started + sent * reply.interval - time.perf_counter()))
            await response.write_eof()
        except (ConnectionError, asyncio.CancelledError) as exc:
            with self._lock:
                self.disconnects.append({"chunks_sent": sent, "chunks_total": len(payloads), "path": recorded.path})
            if isinstance(exc, asyncio.CancelledError):
                raise
            return response
        with self._lock:
            self.completed_streams += 1
        return response

    # --- wire formats ------------------------------------------------------------------------

    def _stream_payloads(self, reply: Reply, wire: str, model: str, counts: tuple[int, int], body: Mapping[str, Any]) -> Iterator[str]:
        created = int(time.time())
        if wire == "gemini":
            yield from self._gemini_stream(reply, model, counts)
            return
        if wire == "gigachat":
            for piece in reply.chunks():
                yield json.dumps(
                    {"choices": [{"delta": {"content": piece, "role": "assistant"}, "index": 0}], "created": created, "model": f"{model}:1.0", "object": "chat.completion"},
                    ensure_ascii=False,
                )
            # As recorded from the real API: the last delta is an empty content without the role.
            final_delta: dict[str, Any] = {"content": ""}
            finish = "stop"
            if reply.calls:
                name, arguments, _ = reply.calls[0]
                final_delta = {"content": "", "role": "assistant", "function_call": {"name": name, "arguments": arguments}, "functions_state_id": str(uuid.uuid4())}
                finish = "function_call"
            yield json.dumps(
                {
                    "choices": [{"delta": final_delta, "index": 0, "finish_reason": finish}],
                    "created": created,
                    "model": f"{model}:1.0",
                    "object": "chat.completion",
                    "usage": {"prompt_tokens": counts[0], "completion_tokens": counts[1], "total_tokens": sum(counts),
                              "precached_prompt_tokens": 0},
                },
                ensure_ascii=False,
            )
            yield "[DONE]"
            return

        def chunk(delta: dict[str, Any], finish: str | None = None, index: int = 0) -> str:
            data: dict[str, Any] = {"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": created, "model": model,
                                    "choices": [{"index": index, "delta": delta, "finish_reason": finish}]}
            if reply.null_errors:
                data["error"] = None
            return json.dumps(data, ensure_ascii=False)

        if reply.refusal:
            # As OpenAI declines (json_schema mode included): the refusal in its own field, no content.
            yield chunk({"role": "assistant", "content": None, "refusal": ""})
            for piece in Reply(content=reply.refusal, chunk_size=reply.chunk_size).chunks():
                yield chunk({"refusal": piece})
            yield chunk({}, "stop")
            yield from self._openai_usage(reply, body, created, model, counts)
            yield "[DONE]"
            return
        # With n > 1 each chunk carries one choice's delta; the choices' deltas come interleaved.
        others = [Reply(content=text, chunk_size=reply.chunk_size).chunks() for text in reply.other_choices]
        yield chunk({"role": "assistant", "content": ""})
        for index in range(len(others)):
            yield chunk({"role": "assistant", "content": ""}, index=index + 1)
        for position, piece in enumerate(reply.chunks()):
            yield chunk({"content": piece})
            for index, pieces in enumerate(others):
                if position < len(pieces):
                    yield chunk({"content": pieces[position]}, index=index + 1)
        for index, pieces in enumerate(others):
            for piece in pieces[len(reply.chunks()):]:
                yield chunk({"content": piece}, index=index + 1)
        for index, (name, arguments, call_id) in enumerate(reply.calls):
            text = json.dumps(arguments, ensure_ascii=False)
            half = len(text) // 2
            yield chunk({"tool_calls": [{"index": index, "id": call_id, "type": "function", "function": {"name": name, "arguments": ""}}]})
            yield chunk({"tool_calls": [{"index": index, "function": {"arguments": text[:half]}}]})
            yield chunk({"tool_calls": [{"index": index, "function": {"arguments": text[half:]}}]})
        yield chunk({}, "tool_calls" if reply.calls else reply.finish_reason)
        for index in range(len(others)):
            yield chunk({}, "stop", index=index + 1)
        yield from self._openai_usage(reply, body, created, model, counts)
        yield "[DONE]"

    @staticmethod
    def _openai_usage(reply: Reply, body: Mapping[str, Any], created: int, model: str, counts: tuple[int, int]) -> Iterator[str]:
        if not (body.get("stream_options") or {}).get("include_usage"):
            return
        usage: dict[str, Any] = {"prompt_tokens": counts[0], "completion_tokens": counts[1], "total_tokens": sum(counts)}
        if reply.reasoning_tokens:
            usage["completion_tokens_details"] = {"reasoning_tokens": reply.reasoning_tokens}
        data: dict[str, Any] = {"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": created, "model": model,
                                "choices": [], "usage": usage}
        if reply.null_errors:
            data["error"] = None
        yield json.dumps(data)

    def _gemini_stream(self, reply: Reply, model: str, counts: tuple[int, int]) -> Iterator[str]:
        pieces = reply.chunks()
        parts_per_chunk: list[list[dict[str, Any]]] = [[{"text": piece}] for piece in pieces]
        if reply.calls:
            parts_per_chunk.append(self._gemini_call_parts(reply))
        if not parts_per_chunk:
            parts_per_chunk.append([{"text": ""}])
        for index, parts in enumerate(parts_per_chunk):
            data: dict[str, Any] = {"candidates": [{"content": {"parts": parts, "role": "model"}, "index": 0}], "modelVersion": model}
            if index == len(parts_per_chunk) - 1:
                data["candidates"][0]["finishReason"] = "STOP"
                # Gemini counts thoughts apart from the answer's tokens.
                data["usageMetadata"] = {"promptTokenCount": counts[0], "candidatesTokenCount": counts[1] - reply.reasoning_tokens,
                                         "totalTokenCount": sum(counts)}
                if reply.reasoning_tokens:
                    data["usageMetadata"]["thoughtsTokenCount"] = reply.reasoning_tokens
            yield json.dumps(data, ensure_ascii=False)

    @staticmethod
    def _gemini_call_parts(reply: Reply) -> list[dict[str, Any]]:
        parts: list[dict[str, Any]] = [{"functionCall": {"name": name, "args": args}} for name, args, _ in reply.calls]
        if reply.thought_signature and parts:
            # A thinking model signs its first function call of a turn (parallel calls: the first only).
            parts[0]["thoughtSignature"] = reply.thought_signature
        return parts

    def _whole(self, reply: Reply, wire: str, model: str, counts: tuple[int, int]) -> dict[str, Any]:
        usage = {"prompt_tokens": counts[0], "completion_tokens": counts[1], "total_tokens": sum(counts)}
        if wire == "gemini":
            parts: list[dict[str, Any]] = [{"text": reply.content}] if reply.content else []
            parts += self._gemini_call_parts(reply)
            return {
                "candidates": [{"content": {"parts": parts, "role": "model"}, "finishReason": "STOP", "index": 0}],
                "usageMetadata": {"promptTokenCount": counts[0], "candidatesTokenCount": counts[1], "totalTokenCount": sum(counts)},
                "modelVersion": model,
            }
        message: dict[str, Any] = {"role": "assistant", "content": reply.content}
        finish = "stop"
        if reply.calls and wire == "gigachat":
            name, arguments, _ = reply.calls[0]
            message["function_call"] = {"name": name, "arguments": arguments}
            message["functions_state_id"] = str(uuid.uuid4())
            finish = "function_call"
        if wire == "gigachat":
            # As recorded from the real API: no id, "chat.completions", cached prompt tokens in the usage.
            return {
                "choices": [{"message": message, "index": 0, "finish_reason": finish}],
                "created": int(time.time()),
                "model": f"{model}:1.0",
                "object": "chat.completions",
                "usage": {**usage, "precached_prompt_tokens": 0},
            }
        if reply.calls:
            message["tool_calls"] = [
                {"id": call_id, "type": "function", "function": {"name": n, "arguments": json.dumps(a)}} for n, a, call_id in reply.calls
            ]
            finish = "tool_calls"
        if reply.refusal:
            message = {"role": "assistant", "content": None, "refusal": reply.refusal}
        choices = [{"index": 0, "message": message, "finish_reason": finish}]
        choices += [
            {"index": index, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}
            for index, text in enumerate(reply.other_choices, start=1)
        ]
        whole: dict[str, Any] = {
            "id": "chatcmpl-fake",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": model,
            "choices": choices,
            "usage": usage,
        }
        if reply.null_errors:
            whole["error"] = None
        return whole


def main(argv: list[str] | None = None) -> None:
    """Run the fake server as its own process; ``--as llama.cpp`` answers as llama.cpp's server does.

    Prints ``port <n>`` once listening; ``GET /_fake/requests`` lists what arrived.
    """
    import argparse

    parser = argparse.ArgumentParser(prog="python -m llm.benchmarks.fake_server")
    parser.add_argument("--as", dest="server", choices=["openai", "llama.cpp"], default="openai")
    parser.add_argument("--answer", default="ok", help="the answer to every chat request")
    options = parser.parse_args(argv)
    server = FakeProviderServer()
    server.fallback = Reply.text(options.answer)
    if options.server == "llama.cpp":
        server.refused_formats = {"json_schema"}
    stop = threading.Event()
    with server:
        print(f"port {server.port}", flush=True)
        try:
            stop.wait()
        except KeyboardInterrupt:
            pass


if __name__ == "__main__":
    main()
