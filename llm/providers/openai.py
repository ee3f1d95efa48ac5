"""OpenAI-compatible chat completions: OpenAI, OpenRouter, vLLM, Ollama, llama.cpp server.

Streams ``POST {base}/chat/completions`` as SSE, accumulating tool-call
deltas into whole calls and taking usage from the final chunk
(``stream_options.include_usage``). Embeddings through ``POST {base}/embeddings``.
"""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator, Mapping
from contextlib import aclosing
from typing import Any

from llm import audit
from llm.params import translate_openai
from llm.providers.base import Provider, parse_arguments, parse_json_payload
from llm.retry import ModelRefusal, NotConfigured, ProviderHTTPError, ProviderProtocolError
from llm.types import ChatRequest, Message, StreamEvent, ToolCall, ToolSpec, Usage

logger = logging.getLogger(__name__)

DEFAULT_BASE_URL = "https://api.openai.com/v1"


def wire_message(message: Message) -> dict[str, Any]:
    if message.role == "tool":
        return {"role": "tool", "tool_call_id": message.tool_call_id or "", "content": message.content}
    data: dict[str, Any] = {"role": message.role, "content": message.content}
    if message.tool_calls:
        data["tool_calls"] = [
            {
                "id": call.id,
                "type": "function",
                "function": {
                    "name": call.name,
                    "arguments": call.raw_arguments or json.dumps(dict(call.arguments), ensure_ascii=False),
                },
            }
            for call in message.tool_calls
        ]
    return data


def wire_tool(tool: ToolSpec) -> dict[str, Any]:
    return {
        "type": "function",
        "function": {"name": tool.name, "description": tool.description, "parameters": dict(tool.parameters)},
    }


class OpenAIStreamParser:
    """Chat-completion chunks (or one whole chat.completion body) to events."""

    def __init__(self, provider: str = "openai") -> None:
        self.provider = provider
        self.finished = False
        self._text: list[str] = []
        # Tool-call deltas by index: id, name and argument fragments.
        self._calls: dict[int, dict[str, Any]] = {}
        self._calls_emitted = False
        self._finish_reason: str | None = None
        self._model: str | None = None
        self._usage_seen = False
        # A refusal comes in its own field (in json_schema mode it replaces the content).
        self._refusal: list[str] = []

    def feed(self, data: str) -> list[StreamEvent]:
        if data.strip() == "[DONE]":
            self.finished = True
            return []
        chunk = parse_json_payload(data, self.provider)
        if not isinstance(chunk, dict):
            return []
        if chunk.get("error"):
            # Some servers send "error": null in every chunk; only a real error ends the stream.
            error = chunk["error"]
            message = error.get("message") if isinstance(error, dict) else str(error)
            raise ProviderProtocolError(
                "the provider reported an error mid-stream", provider=self.provider, provider_message=str(message)
            )
        self._model = chunk.get("model") or self._model
        events: list[StreamEvent] = []
        for choice in chunk.get("choices") or ():
            if choice.get("index", 0) != 0:
                # With n > 1 every choice streams in its own deltas: the answer is the first one.
                continue
            # A whole (non-streamed) completion carries "message" instead of "delta".
            delta = choice.get("delta") or choice.get("message") or {}
            content = delta.get("content")
            if content:
                self._text.append(content)
                events.append(StreamEvent(type="text", text=content))
            if delta.get("refusal"):
                self._refusal.append(delta["refusal"])
            for call in delta.get("tool_calls") or ():
                slot = self._calls.setdefault(call.get("index", len(self._calls)), {"id": "", "name": "", "args": []})
                if call.get("id"):
                    slot["id"] = call["id"]
                function = call.get("function") or {}
                if function.get("name"):
                    slot["name"] += function["name"]
                if function.get("arguments"):
                    slot["args"].append(function["arguments"])
            if choice.get("finish_reason"):
                self._finish_reason = choice["finish_reason"]
                events.extend(self._emit_calls())
        usage = chunk.get("usage")
        if isinstance(usage, dict):
            self._usage_seen = True
            events.append(
                StreamEvent(
                    type="usage",
                    usage=Usage(
                        prompt_tokens=int(usage.get("prompt_tokens") or 0),
                        completion_tokens=int(usage.get("completion_tokens") or 0),
                        # Reasoning models count their hidden reasoning inside completion_tokens.
                        reasoning_tokens=int((usage.get("completion_tokens_details") or {}).get("reasoning_tokens") or 0),
                    ),
                )
            )
        if "object" in chunk and chunk["object"] == "chat.completion":
            self.finished = True
        return events

    def _emit_calls(self) -> list[StreamEvent]:
        if self._calls_emitted:
            return []
        self._calls_emitted = True
        events = []
        for index in sorted(self._calls):
            slot = self._calls[index]
            arguments, raw = parse_arguments("".join(slot["args"]))
            events.append(
                StreamEvent(
                    type="tool_call",
                    tool_call=ToolCall(id=slot["id"] or f"call_{index}", name=slot["name"], arguments=arguments, raw_arguments=raw),
                )
            )
        return events

    def finish(self) -> list[StreamEvent]:
        if not self.finished and self._finish_reason is None:
            raise ProviderProtocolError(
                "the stream ended before the answer was complete", provider=self.provider, retryable=True
            )
        if self._refusal and not self._text:
            raise ModelRefusal(provider=self.provider, provider_message="".join(self._refusal))
        events = self._emit_calls()
        events.append(
            StreamEvent(type="done", text="".join(self._text), finish_reason=self._finish_reason, model=self._model)
        )
        return events


# How an OpenAI-compatible server takes a requested output schema, best first: OpenAI, vLLM and
# LM Studio take ``json_schema``; llama.cpp's server takes ``json_object`` with a ``schema``; some
# take neither, and then the schema goes into the prompt.
STRUCTURED_MODES = ("json_schema", "json_object", "prompt")
# The mode each (server, model) was found to take, learnt from its first refusal, for the process.
_structured_mode: dict[tuple[str, str], str] = {}


def refuses_output_format(error: ProviderHTTPError) -> bool:
    """Whether a refused request was refused for its ``response_format`` (any retry would be refused again)."""
    if error.status not in (400, 422, 500, 501):
        return False
    message = (error.provider_message or "").lower()
    return "response_format" in message or "json_schema" in message or "json_object" in message


def schema_instruction(schema: Mapping[str, Any]) -> str:
    return (
        "Answer with exactly one JSON object and nothing else, following this JSON schema:\n"
        + json.dumps(dict(schema), ensure_ascii=False)
    )


def without_system_role(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """System messages folded into the first user message, for models whose chat template has no
    system role (Gemma's drops them: the retrieved material would never reach the model)."""
    system = "\n\n".join(m["content"] for m in messages if m["role"] == "system" and m.get("content"))
    rest = [m for m in messages if m["role"] != "system"]
    if not system:
        return rest
    for index, message in enumerate(rest):
        if message["role"] == "user":
            rest[index] = {**message, "content": f"{system}\n\n{message.get('content') or ''}"}
            return rest
    return [{"role": "user", "content": system}, *rest]


class OpenAIProvider(Provider):
    name = "openai"
    supports_streaming = True
    supports_tools = True
    supports_json_schema = True
    supports_embeddings = True

    @property
    def base_url(self) -> str:
        return (self.config.get("BASE_URL") or DEFAULT_BASE_URL).rstrip("/")

    def is_configured(self) -> bool:
        return bool(self.config.get("API_KEY") or self.config.get("BASE_URL"))

    def _client_options(self) -> dict[str, Any]:
        options = super()._client_options()
        headers = {}
        if self.config.get("API_KEY"):
            headers["Authorization"] = f"Bearer {self.config['API_KEY']}"
        options["headers"] = headers
        return options

    def structured_mode(self, model: str) -> str:
        return _structured_mode.get((self.base_url, model), STRUCTURED_MODES[0])

    def payload(self, request: ChatRequest, model: str) -> dict[str, Any]:
        params = request.model_params
        effort = self.config.get("REASONING_EFFORT")
        if effort and "reasoning_effort" not in params:
            # The deployment's effort for every call; a caller's own reasoning_effort wins.
            params = {**params, "reasoning_effort": effort}
        translated = translate_openai(params, reasoning=bool(self.config.get("REASONING_MODEL")))
        messages = [wire_message(m) for m in request.messages]
        schema = translated.json_schema
        mode = self.structured_mode(model) if schema is not None else None
        if mode == "json_object":
            translated.payload["response_format"] = {"type": "json_object", "schema": dict(schema.schema)}
        elif mode == "prompt":
            translated.payload.pop("response_format", None)
            messages.insert(0, {"role": "system", "content": schema_instruction(schema.schema)})
        if not self.config.get("SYSTEM_ROLE", True):
            messages = without_system_role(messages)
        payload: dict[str, Any] = {"model": model, "messages": messages, "stream": True}
        if request.tools:
            payload["tools"] = [wire_tool(t) for t in request.tools]
        extra = dict(translated.payload)
        if "tools" in extra and "tools" in payload:
            payload["tools"] = payload["tools"] + list(extra.pop("tools"))
        payload.update(extra)
        if payload["stream"]:
            payload["stream_options"] = {"include_usage": True}
        return payload

    def new_parser(self, request: ChatRequest | None = None) -> OpenAIStreamParser:
        return OpenAIStreamParser(self.name)

    async def _stream(self, request: ChatRequest, model: str, trace: audit.CallTrace) -> AsyncIterator[StreamEvent]:
        if not model:
            raise NotConfigured("no model is configured for the OpenAI-compatible provider", provider=self.name)
        wants_schema = "json_schema" in request.model_params
        refused: list[str] = []
        while True:
            mode = self.structured_mode(model)
            try:
                async with aclosing(
                    self._stream_sse(f"{self.base_url}/chat/completions", self.payload(request, model), self.new_parser(), trace)
                ) as events:
                    async for event in events:
                        yield event
                return
            except ProviderHTTPError as exc:
                if not wants_schema or mode == STRUCTURED_MODES[-1] or not refuses_output_format(exc):
                    raise
                # The same request would be refused again: the next way of asking, remembered for this server.
                refused.append(mode)
                fallback = STRUCTURED_MODES[STRUCTURED_MODES.index(mode) + 1]
                _structured_mode[(self.base_url, model)] = fallback
                logger.warning("%s (%s) refused response_format %s; asking with %s from now on", self.name, model, mode, fallback)
            finally:
                if wants_schema:
                    # The call's record says how the schema was asked for, and which forms this call saw refused.
                    trace.wire_request["structured_output"] = {"mode": mode, "refused": list(refused)}

    async def _embed_batch(self, texts: list[str]) -> list[list[float]]:
        data = await self._post_json(
            f"{self.base_url}/embeddings",
            {"model": self.model_for("embeddings"), "input": texts},
            timeout=float(self.config.get("EMBEDDINGS_TIMEOUT", self.config.get("TIMEOUT", 90.0))),
        )
        items = sorted(data.get("data") or (), key=lambda item: item.get("index", 0))
        if len(items) != len(texts):
            raise ProviderProtocolError(
                f"asked for {len(texts)} embeddings, got {len(items)}", provider=self.name
            )
        return [list(map(float, item["embedding"])) for item in items]
