"""GigaChat: OAuth access tokens, SSE chat with functions, embeddings, token counting.

The access token comes from ``POST GIGACHAT_AUTH_URL`` (form ``scope``,
``Authorization: Basic <key>``, a fresh ``RqUID`` per request). It is cached
until shortly before ``expires_at``; when many calls need a new one at once,
exactly one request fetches it and the others wait for it. A 401 from the API
refreshes the token once and repeats the request; a second 401 is an
``AuthenticationError``.

GigaChat's message rules: the system message may only come first (later
system texts are merged into it), consecutive messages of the same role are
merged, a function result is a ``function`` message whose content is JSON, and
an answer calls at most one function.
"""

from __future__ import annotations

import asyncio
import json
import ssl
import time
import uuid
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping
from typing import Any, TypeVar

import httpx

from llm import audit
from llm.params import JsonSchemaSpec, translate_gigachat
from llm.providers.base import Provider, parse_arguments, parse_json_payload
from llm.retry import AuthenticationError, LLMError, NotConfigured, ProviderHTTPError, ProviderProtocolError
from llm.tokens import MESSAGE_OVERHEAD_TOKENS
from llm.types import ChatRequest, Message, StreamEvent, ToolCall, ToolSpec, Usage

T = TypeVar("T")

# Refresh this long before the provider's expiry so a token never dies mid-request.
TOKEN_REFRESH_MARGIN = 60.0
SCHEMA_FUNCTION_DESCRIPTION = "Return the answer as arguments of this function, following its parameter schema exactly."


def _function_content(text: str) -> str:
    """GigaChat wants a function result as a JSON object; plain text is wrapped."""
    try:
        value = json.loads(text)
    except ValueError:
        return json.dumps({"result": text}, ensure_ascii=False)
    return text if isinstance(value, dict) else json.dumps({"result": value}, ensure_ascii=False)


def wire_messages(messages: Iterable[Message]) -> list[dict[str, Any]]:
    """Neutral messages in GigaChat's shape, applying its message rules."""
    messages = list(messages)
    system = "\n\n".join(m.content for m in messages if m.role == "system" and m.content)
    wire: list[dict[str, Any]] = [{"role": "system", "content": system}] if system else []
    for message in messages:
        if message.role == "system":
            continue
        if message.role == "tool":
            wire.append({"role": "function", "name": message.name or "", "content": _function_content(message.content)})
            continue
        if message.role == "assistant" and message.tool_calls:
            call = message.tool_calls[0]
            entry: dict[str, Any] = {
                "role": "assistant",
                "content": message.content,
                "function_call": {"name": call.name, "arguments": dict(call.arguments)},
            }
            if call.signature:
                # Only an id the server gave: one made up here would name no state of its own.
                entry["functions_state_id"] = call.signature
            wire.append(entry)
            continue
        previous = wire[-1] if wire else None
        if (
            previous is not None
            and previous["role"] == message.role
            and "function_call" not in previous
            and previous["role"] != "function"
        ):
            previous["content"] = f"{previous['content']}\n\n{message.content}" if previous["content"] else message.content
            continue
        wire.append({"role": message.role, "content": message.content})
    return wire


# The schema keywords GigaChat's own SDK sends in function parameters (its FunctionParameters
# models); others (additionalProperties, minLength, minimum, ...) are left out.
_SCHEMA_KEYWORDS = frozenset({"type", "description", "properties", "items", "enum", "required"})


def gigachat_schema(schema: Any) -> Any:
    """A JSON schema with only the keywords GigaChat's SDK sends, at every level."""
    if not isinstance(schema, Mapping):
        return schema
    kept: dict[str, Any] = {}
    for key, value in schema.items():
        if key not in _SCHEMA_KEYWORDS:
            continue
        if key == "properties" and isinstance(value, Mapping):
            kept[key] = {name: gigachat_schema(child) for name, child in value.items()}
        elif key == "items":
            kept[key] = gigachat_schema(value)
        else:
            kept[key] = value
    return kept


def wire_function(tool: ToolSpec) -> dict[str, Any]:
    function: dict[str, Any] = {
        "name": tool.name, "description": tool.description, "parameters": gigachat_schema(tool.parameters),
    }
    if tool.few_shot_examples:
        function["few_shot_examples"] = [dict(example) for example in tool.few_shot_examples]
    return function


class GigaChatStreamParser:
    """GigaChat chunks to events; a call of the schema function becomes JSON text."""

    def __init__(self, schema_function: str | None = None) -> None:
        self.schema_function = schema_function
        self.finished = False
        self._text: list[str] = []
        self._finish_reason: str | None = None
        self._model: str | None = None

    def feed(self, data: str) -> list[StreamEvent]:
        if data.strip() == "[DONE]":
            self.finished = True
            return []
        chunk = parse_json_payload(data, "gigachat")
        if not isinstance(chunk, dict):
            return []
        self._model = chunk.get("model") or self._model
        events: list[StreamEvent] = []
        for choice in chunk.get("choices") or ():
            delta = choice.get("delta") or choice.get("message") or {}
            # "function_in_progress" messages report a built-in function's progress, not answer text.
            content = delta.get("content") if delta.get("role") != "function_in_progress" else None
            if content:
                self._text.append(content)
                events.append(StreamEvent(type="text", text=content))
            call = delta.get("function_call")
            if isinstance(call, dict) and call.get("name"):
                arguments, raw = parse_arguments(call.get("arguments"))
                if call["name"] == self.schema_function:
                    self._text.append(raw)
                    events.append(StreamEvent(type="text", text=raw))
                else:
                    state_id = str(delta.get("functions_state_id") or "")
                    events.append(
                        StreamEvent(
                            type="tool_call",
                            tool_call=ToolCall(
                                id=state_id or f"call_{uuid.uuid4().hex[:12]}", name=call["name"], arguments=arguments,
                                raw_arguments=raw, signature=state_id,
                            ),
                        )
                    )
            if choice.get("finish_reason"):
                self._finish_reason = choice["finish_reason"]
        usage = chunk.get("usage")
        if isinstance(usage, dict):
            events.append(
                StreamEvent(
                    type="usage",
                    usage=Usage(
                        prompt_tokens=int(usage.get("prompt_tokens") or 0),
                        completion_tokens=int(usage.get("completion_tokens") or 0),
                    ),
                )
            )
        if "choices" in chunk and any("message" in choice for choice in chunk["choices"]):
            self.finished = True
        return events

    def finish(self) -> list[StreamEvent]:
        if not self.finished and self._finish_reason is None:
            raise ProviderProtocolError(
                "the stream ended before the answer was complete", provider="gigachat", retryable=True
            )
        finish_reason = self._finish_reason
        if finish_reason == "function_call" and self.schema_function is not None:
            finish_reason = "stop"
        return [StreamEvent(type="done", text="".join(self._text), finish_reason=finish_reason, model=self._model)]


class GigaChatProvider(Provider):
    name = "gigachat"
    supports_streaming = True
    supports_tools = True
    supports_json_schema = True
    supports_embeddings = True
    supports_token_count = True

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._token: str | None = None
        self._expires_at = 0.0
        self._token_locks: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Lock] = (
            weakref.WeakKeyDictionary()
        )

    @property
    def api_url(self) -> str:
        return str(self.config.get("API_URL", "")).rstrip("/")

    def is_configured(self) -> bool:
        return bool(self.config.get("TOKEN"))

    def _client_options(self) -> dict[str, Any]:
        options = super()._client_options()
        if not self.config.get("SSL_VERIFY", True):
            options["verify"] = False
        elif self.config.get("CA_BUNDLE"):
            # The endpoints are signed by the Russian Trusted Root CA, which system stores often lack.
            try:
                options["verify"] = ssl.create_default_context(cafile=self.config["CA_BUNDLE"])
            except (OSError, ssl.SSLError) as exc:
                raise NotConfigured(
                    f"GIGACHAT_CA_BUNDLE={self.config['CA_BUNDLE']!r} cannot be used: {exc}", provider=self.name
                ) from exc
        return options

    # --- OAuth ------------------------------------------------------------------

    def _token_is_fresh(self) -> bool:
        return self._token is not None and time.time() < self._expires_at - TOKEN_REFRESH_MARGIN

    async def access_token(self, *, stale: str | None = None) -> str:
        """A valid access token; ``stale`` is one the API just refused, so it is replaced."""
        if self._token_is_fresh() and self._token != stale:
            return self._token  # type: ignore[return-value]
        loop = asyncio.get_running_loop()
        lock = self._token_locks.setdefault(loop, asyncio.Lock())
        async with lock:
            # Whoever held the lock before us may have fetched a token already.
            if self._token_is_fresh() and self._token != stale:
                return self._token  # type: ignore[return-value]
            self._token, self._expires_at = await self._fetch_token()
            return self._token

    async def _fetch_token(self) -> tuple[str, float]:
        key = self.config.get("TOKEN")
        if not key:
            raise NotConfigured("GIGACHAT_TOKEN (the authorization key) is not set", provider=self.name)
        try:
            response = await self.http().post(
                self.config["AUTH_URL"],
                data={"scope": self.config.get("SCOPE", "GIGACHAT_API_PERS")},
                headers={"Authorization": f"Basic {key}", "RqUID": str(uuid.uuid4()), "Accept": "application/json"},
                timeout=float(self.config.get("AUTH_TIMEOUT", 30.0)),
            )
        except httpx.HTTPError as exc:
            raise self._transport_error(exc) from exc
        if response.status_code in (401, 403):
            raise AuthenticationError(
                "GigaChat refused the authorization key",
                provider=self.name,
                status=response.status_code,
                provider_message=self._error_message(response.content),
            )
        if response.status_code >= 400:
            raise self._http_error(response, response.content)
        try:
            data = response.json()
            token = str(data["access_token"])
            expires_at = float(data["expires_at"])
        except (ValueError, KeyError, TypeError) as exc:
            raise ProviderProtocolError("GigaChat's token answer has no access_token/expires_at", provider=self.name) from exc
        # expires_at is in milliseconds since the epoch.
        return token, expires_at / 1000 if expires_at > 1e11 else expires_at

    async def _authorized(self, send: Callable[[str], Awaitable[T]]) -> T:
        """Run ``send(token)``; on a 401 refresh the token once and run it again."""
        token = await self.access_token()
        try:
            return await send(token)
        except ProviderHTTPError as exc:
            if exc.status != 401:
                raise
        token = await self.access_token(stale=token)
        try:
            return await send(token)
        except ProviderHTTPError as exc:
            if exc.status == 401:
                raise AuthenticationError(
                    "GigaChat refused a freshly issued token", provider=self.name, status=401, provider_message=exc.provider_message
                ) from exc
            raise

    # --- chat ---------------------------------------------------------------------

    def payload(self, request: ChatRequest, model: str) -> tuple[dict[str, Any], JsonSchemaSpec | None]:
        translated = translate_gigachat(request.model_params)
        payload: dict[str, Any] = {"model": model, "messages": wire_messages(request.messages), "stream": True}
        functions = [wire_function(tool) for tool in request.tools]
        functions += list(translated.payload.pop("functions", []))
        payload.update(translated.payload)
        schema = translated.json_schema
        if schema is not None:
            functions.append(
                {
                    "name": schema.name,
                    "description": schema.description or SCHEMA_FUNCTION_DESCRIPTION,
                    "parameters": gigachat_schema(schema.schema),
                }
            )
            payload["function_call"] = {"name": schema.name}
        elif functions:
            payload.setdefault("function_call", "auto")
        if functions:
            payload["functions"] = functions
        return payload, schema

    def new_parser(self, request: ChatRequest | None = None) -> GigaChatStreamParser:
        schema = translate_gigachat(request.model_params).json_schema if request is not None else None
        return GigaChatStreamParser(schema.name if schema is not None else None)

    async def _stream(self, request: ChatRequest, model: str, trace: audit.CallTrace) -> AsyncIterator[StreamEvent]:
        payload, _ = self.payload(request, model)
        url = f"{self.api_url}/chat/completions"
        token = await self.access_token()
        for attempt in (1, 2):
            try:
                async for event in self._stream_sse(
                    url, payload, self.new_parser(request), trace, headers={"Authorization": f"Bearer {token}"}
                ):
                    yield event
                return
            except ProviderHTTPError as exc:
                # A 401 arrives before any event, so repeating the request cannot duplicate text.
                if exc.status != 401:
                    raise
                if attempt == 2:
                    raise AuthenticationError(
                        "GigaChat refused a freshly issued token", provider=self.name, status=401, provider_message=exc.provider_message
                    ) from exc
                token = await self.access_token(stale=token)

    # --- embeddings and tokens --------------------------------------------------------

    async def _embed_batch(self, texts: list[str]) -> list[list[float]]:
        async def send(token: str) -> Any:
            return await self._post_json(
                f"{self.api_url}/embeddings",
                {"model": self.model_for("embeddings"), "input": texts},
                headers={"Authorization": f"Bearer {token}"},
                timeout=float(self.config.get("EMBEDDINGS_TIMEOUT", 90.0)),
            )

        data = await self._authorized(send)
        items = sorted(data.get("data") or (), key=lambda item: item.get("index", 0))
        if len(items) != len(texts):
            raise ProviderProtocolError(f"asked for {len(texts)} embeddings, got {len(items)}", provider=self.name)
        return [list(map(float, item["embedding"])) for item in items]

    async def count_tokens(self, messages: Iterable[Message]) -> int:
        wire = wire_messages(messages)
        texts = [m["content"] for m in wire if m.get("content")]
        if not texts:
            return MESSAGE_OVERHEAD_TOKENS * len(wire)

        async def send(token: str) -> Any:
            return await self._post_json(
                f"{self.api_url}/tokens/count",
                {"model": self.model_for("main"), "input": texts},
                headers={"Authorization": f"Bearer {token}"},
            )

        try:
            counts = await self.retry_policy.run(lambda: self._authorized(send))
        except LLMError:
            # Budgeting must go on when the counting endpoint is down; an estimate is close enough.
            return await super().count_tokens(messages)
        return sum(int(item.get("tokens", 0)) for item in counts) + MESSAGE_OVERHEAD_TOKENS * len(wire)
