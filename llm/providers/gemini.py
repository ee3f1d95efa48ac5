"""Gemini (Generative Language API): ``streamGenerateContent`` as SSE (``generateContent``
with ``model_params["stream"] = False``), embeddings, token counting.

System messages go to ``systemInstruction``; assistant turns are ``model``
contents; tool results are ``functionResponse`` parts. Gemini gives function
calls no ids, so the adapter numbers them and answers by function name.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterable
from typing import Any

from llm import audit
from llm.params import translate_gemini
from llm.providers.base import Provider, parse_arguments, parse_json_payload
from llm.retry import LLMError, ModelRefusal, NotConfigured, ProviderHTTPError, ProviderProtocolError
from llm.types import ChatRequest, Message, StreamEvent, ToolCall, ToolSpec, Usage

DEFAULT_BASE_URL = "https://generativelanguage.googleapis.com/v1beta"


def _function_response(content: str) -> dict[str, Any]:
    try:
        value = json.loads(content)
    except ValueError:
        return {"result": content}
    return value if isinstance(value, dict) else {"result": value}


def _function_call_part(call: ToolCall) -> dict[str, Any]:
    part: dict[str, Any] = {"functionCall": {"name": call.name, "args": dict(call.arguments)}}
    if call.signature:
        # Thinking models refuse a history whose function calls lost their signature.
        part["thoughtSignature"] = call.signature
    return part


def wire_contents(messages: Iterable[Message]) -> tuple[list[dict[str, Any]], str]:
    """Gemini ``contents`` (consecutive turns of one role merged) and the system text."""
    system: list[str] = []
    contents: list[dict[str, Any]] = []
    for message in messages:
        if message.role == "system":
            if message.content:
                system.append(message.content)
            continue
        if message.role == "tool":
            role = "user"
            parts: list[dict[str, Any]] = [
                {"functionResponse": {"name": message.name or "", "response": _function_response(message.content)}}
            ]
        else:
            role = "model" if message.role == "assistant" else "user"
            parts = [{"text": message.content}] if message.content else []
            parts += [_function_call_part(call) for call in message.tool_calls]
        if not parts:
            continue
        if contents and contents[-1]["role"] == role:
            contents[-1]["parts"].extend(parts)
        else:
            contents.append({"role": role, "parts": parts})
    return contents, "\n\n".join(system)


def wire_tools(tools: Iterable[ToolSpec]) -> list[dict[str, Any]]:
    # parametersJsonSchema takes the tools' JSON Schema as it is (``parameters`` is an OpenAPI subset).
    declarations = [
        {"name": t.name, "description": t.description, "parametersJsonSchema": dict(t.parameters)} for t in tools
    ]
    return [{"functionDeclarations": declarations}] if declarations else []


# Gemini's finish reasons in the names the rest of the product uses (OpenAI's).
FINISH_REASONS = {"STOP": "stop", "MAX_TOKENS": "length"}
# Reasons for which Gemini withheld or cut the answer on purpose: another attempt gets the same.
REFUSED_FINISH_REASONS = frozenset(
    {"SAFETY", "RECITATION", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII", "IMAGE_SAFETY", "LANGUAGE"}
)


class GeminiStreamParser:
    def __init__(self) -> None:
        self.finished = False
        self._text: list[str] = []
        self._finish_reason: str | None = None
        self._model: str | None = None
        self._usage: Usage | None = None
        self._calls = 0

    def feed(self, data: str) -> list[StreamEvent]:
        chunk = parse_json_payload(data, "gemini")
        if isinstance(chunk, list) and chunk and isinstance(chunk[0], dict):
            # An error document may come as a one-element array.
            chunk = chunk[0]
        if not isinstance(chunk, dict):
            return []
        if isinstance(chunk.get("error"), dict):
            error = chunk["error"]
            message = str(error.get("message") or error.get("status") or "no message")
            status = error.get("code")
            if isinstance(status, int) and status >= 400:
                # As the HTTP error it stands for: a 503 "model is overloaded" is retried like one.
                raise ProviderHTTPError("Gemini reported an error mid-stream", status=status, provider="gemini",
                                        provider_message=message)
            raise ProviderProtocolError("Gemini reported an error mid-stream", provider="gemini", provider_message=message)
        blocked = (chunk.get("promptFeedback") or {}).get("blockReason")
        if blocked:
            raise ModelRefusal("Gemini refused the prompt", provider="gemini", provider_message=f"blocked: {blocked}")
        self._model = chunk.get("modelVersion") or self._model
        events: list[StreamEvent] = []
        for candidate in (chunk.get("candidates") or ())[:1]:
            for part in (candidate.get("content") or {}).get("parts") or ():
                if part.get("thought"):
                    continue
                if part.get("text"):
                    self._text.append(part["text"])
                    events.append(StreamEvent(type="text", text=part["text"]))
                call = part.get("functionCall")
                if isinstance(call, dict) and call.get("name"):
                    arguments, raw = parse_arguments(call.get("args") or {})
                    self._calls += 1
                    events.append(
                        StreamEvent(
                            type="tool_call",
                            tool_call=ToolCall(
                                id=call.get("id") or f"call_{self._calls}", name=call["name"], arguments=arguments,
                                raw_arguments=raw, signature=str(part.get("thoughtSignature") or ""),
                            ),
                        )
                    )
            if candidate.get("finishReason"):
                self._finish_reason = candidate["finishReason"]
        usage = chunk.get("usageMetadata")
        if isinstance(usage, dict):
            # Counts are cumulative per chunk; the last one is the call's usage. A thinking
            # model's thoughts are output tokens too (billed and counted against the limit).
            self._usage = Usage(
                prompt_tokens=int(usage.get("promptTokenCount") or 0),
                completion_tokens=int(usage.get("candidatesTokenCount") or 0) + int(usage.get("thoughtsTokenCount") or 0),
                reasoning_tokens=int(usage.get("thoughtsTokenCount") or 0),
            )
        return events

    def finish(self) -> list[StreamEvent]:
        if self._finish_reason is None:
            raise ProviderProtocolError("the stream ended before the answer was complete", provider="gemini", retryable=True)
        reason = self._finish_reason.upper()
        if reason in REFUSED_FINISH_REASONS:
            raise ModelRefusal("Gemini stopped the answer", provider="gemini", provider_message=f"finish reason {reason}")
        if reason == "MALFORMED_FUNCTION_CALL":
            # The model wrote a call it could not encode; another attempt usually writes it right.
            raise ProviderProtocolError(
                "Gemini produced a malformed function call", provider="gemini", provider_message=reason, retryable=True
            )
        events = [StreamEvent(type="usage", usage=self._usage)] if self._usage is not None else []
        finish_reason = FINISH_REASONS.get(reason, reason.lower())
        if self._calls and finish_reason == "stop":
            finish_reason = "tool_calls"
        events.append(StreamEvent(type="done", text="".join(self._text), finish_reason=finish_reason, model=self._model))
        return events


class GeminiProvider(Provider):
    name = "gemini"
    errors_as_json_lines = True
    supports_streaming = True
    supports_tools = True
    supports_json_schema = True
    supports_embeddings = True
    supports_token_count = True

    @property
    def base_url(self) -> str:
        return (self.config.get("BASE_URL") or DEFAULT_BASE_URL).rstrip("/")

    def is_configured(self) -> bool:
        return bool(self.config.get("API_KEY"))

    def _client_options(self) -> dict[str, Any]:
        options = super()._client_options()
        options["headers"] = {"x-goog-api-key": str(self.config.get("API_KEY", ""))}
        return options

    def payload(self, request: ChatRequest) -> dict[str, Any]:
        translated = translate_gemini(request.model_params)
        contents, system = wire_contents(request.messages)
        payload: dict[str, Any] = {"contents": contents}
        if system:
            payload["systemInstruction"] = {"parts": [{"text": system}]}
        tools = wire_tools(request.tools)
        extra = dict(translated.payload)
        if tools:
            payload["tools"] = tools + list(extra.pop("tools", []))
        payload.update(extra)
        if translated.generation_config:
            payload["generationConfig"] = translated.generation_config
        return payload

    def new_parser(self, request: ChatRequest | None = None) -> GeminiStreamParser:
        return GeminiStreamParser()

    def _stream(self, request: ChatRequest, model: str, trace: audit.CallTrace) -> AsyncIterator[StreamEvent]:
        if not self.config.get("API_KEY"):
            raise NotConfigured("GEMINI_API_KEY is not set", provider=self.name)
        if translate_gemini(request.model_params).stream:
            url = f"{self.base_url}/models/{model}:streamGenerateContent?alt=sse"
        else:
            url = f"{self.base_url}/models/{model}:generateContent"
        return self._stream_sse(url, self.payload(request), self.new_parser(), trace)

    async def _embed_batch(self, texts: list[str]) -> list[list[float]]:
        model = self.model_for("embeddings")
        data = await self._post_json(
            f"{self.base_url}/models/{model}:batchEmbedContents",
            {"requests": [{"model": f"models/{model}", "content": {"parts": [{"text": text}]}} for text in texts]},
            timeout=float(self.config.get("EMBEDDINGS_TIMEOUT", 90.0)),
        )
        embeddings = data.get("embeddings") or []
        if len(embeddings) != len(texts):
            raise ProviderProtocolError(f"asked for {len(texts)} embeddings, got {len(embeddings)}", provider=self.name)
        return [list(map(float, item["values"])) for item in embeddings]

    async def count_tokens(self, messages: Iterable[Message]) -> int:
        messages = list(messages)
        contents, system = wire_contents(messages)
        if system:
            contents.insert(0, {"role": "user", "parts": [{"text": system}]})
        if not contents:
            return 0
        try:
            data = await self.retry_policy.run(
                lambda: self._post_json(f"{self.base_url}/models/{self.model_for('main')}:countTokens", {"contents": contents})
            )
            return int(data["totalTokens"])
        except (LLMError, KeyError, TypeError, ValueError):
            # Budgeting must go on when the counting endpoint is down; an estimate is close enough.
            return await super().count_tokens(messages)
