"""The ``model_params`` contract: portable parameters translated per adapter.

``model_params`` is not a raw payload escape hatch. Each adapter accepts the
keys its API understands (listed below), translates the portable ones
(``temperature``, ``max_tokens``, ``json_schema``), always drops keys that
belong to other tools (``max_depth``, ``claude_cli_path``) and ignores
anything else with a debug log line, so switching providers never turns into
a 400. Reasoning models: ``reasoning_effort`` and ``max_completion_tokens``
go to OpenAI-compatible servers only. With ``reasoning=True`` (the provider's
``REASONING_MODEL`` setting) the portable ``max_tokens`` is sent as
``max_completion_tokens`` and the sampling keys those models refuse
(``NOT_FOR_REASONING_MODELS``) are dropped; without it ``reasoning_effort``
is dropped, which other models refuse. ``stream: False`` is understood
by every adapter: the answer then arrives as one body (Gemini:
``generateContent``) and is parsed by the same stream parser.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

logger = logging.getLogger(__name__)

ALWAYS_DROPPED = frozenset({"max_depth", "claude_cli_path"})

OPENAI_PASSTHROUGH = frozenset(
    {
        "temperature",
        "max_tokens",
        "top_p",
        "n",
        "stream",
        "stop",
        "presence_penalty",
        "frequency_penalty",
        "logit_bias",
        "user",
        "seed",
        "tools",
        "tool_choice",
        "response_format",
        "logprobs",
        "top_logprobs",
        "parallel_tool_calls",
        "max_completion_tokens",
        "reasoning_effort",
    }
)

# OpenAI's reasoning models (o-series, gpt-5) answer 400 "Unsupported parameter" to these; other
# models answer the same to reasoning_effort.
NOT_FOR_REASONING_MODELS = frozenset(
    {"temperature", "top_p", "presence_penalty", "frequency_penalty", "logprobs", "top_logprobs", "logit_bias"}
)
ONLY_FOR_REASONING_MODELS = frozenset({"reasoning_effort"})

GIGACHAT_PASSTHROUGH = frozenset(
    {
        "temperature",
        "top_p",
        "n",
        "max_tokens",
        "repetition_penalty",
        "update_interval",
        "profanity_check",
        "function_call",
        "functions",
        "stream",
    }
)

# Gemini's top-level request fields, by API name and snake-case alias.
GEMINI_TOP_LEVEL = {
    "safetySettings": "safetySettings",
    "safety_settings": "safetySettings",
    "tools": "tools",
    "toolConfig": "toolConfig",
    "tool_config": "toolConfig",
    "systemInstruction": "systemInstruction",
    "system_instruction": "systemInstruction",
    "cachedContent": "cachedContent",
    "cached_content": "cachedContent",
}

# Gemini's generationConfig fields, by API name and snake-case alias;
# ``max_tokens`` is the portable name for the output limit.
GEMINI_GENERATION_CONFIG = {
    "candidateCount": "candidateCount",
    "candidate_count": "candidateCount",
    "stopSequences": "stopSequences",
    "stop_sequences": "stopSequences",
    "maxOutputTokens": "maxOutputTokens",
    "max_output_tokens": "maxOutputTokens",
    "max_tokens": "maxOutputTokens",
    "temperature": "temperature",
    "topP": "topP",
    "top_p": "topP",
    "topK": "topK",
    "top_k": "topK",
    "responseMimeType": "responseMimeType",
    "response_mime_type": "responseMimeType",
    "responseSchema": "responseSchema",
    "response_schema": "responseSchema",
}

@dataclass(frozen=True)
class JsonSchemaSpec:
    """A requested output schema: ``model_params["json_schema"]``.

    Accepted as a bare JSON schema or as ``{"name", "schema", "strict",
    "description"}`` (OpenAI's shape).
    """

    name: str
    schema: Mapping[str, Any]
    strict: bool = False
    description: str = ""

    @classmethod
    def parse(cls, value: Any) -> JsonSchemaSpec:
        if not isinstance(value, Mapping):
            raise ValueError("model_params['json_schema'] must be a JSON schema object")
        if isinstance(value.get("schema"), Mapping):
            return cls(
                name=str(value.get("name") or "answer"),
                schema=value["schema"],
                strict=bool(value.get("strict", False)),
                description=str(value.get("description") or ""),
            )
        return cls(name="answer", schema=value)


@dataclass
class Translated:
    """What an adapter puts into its payload, plus what needs special handling."""

    payload: dict[str, Any] = field(default_factory=dict)
    # Gemini only: fields that go into ``generationConfig``.
    generation_config: dict[str, Any] = field(default_factory=dict)
    json_schema: JsonSchemaSpec | None = None
    # Gemini only: False asks ``generateContent`` for the whole answer at once.
    stream: bool = True
    ignored: list[str] = field(default_factory=list)


def _ignore(provider: str, key: str, translated: Translated) -> None:
    translated.ignored.append(key)
    logger.debug("model_params: %s ignores %r", provider, key)


def _split_schema(params: Mapping[str, Any]) -> tuple[dict[str, Any], JsonSchemaSpec | None]:
    rest = {key: value for key, value in params.items() if key not in ALWAYS_DROPPED}
    raw = rest.pop("json_schema", None)
    return rest, (JsonSchemaSpec.parse(raw) if raw is not None else None)


def translate_openai(params: Mapping[str, Any], *, reasoning: bool = False) -> Translated:
    rest, schema = _split_schema(params)
    translated = Translated(json_schema=schema)
    refused = NOT_FOR_REASONING_MODELS if reasoning else ONLY_FOR_REASONING_MODELS
    for key, value in rest.items():
        if key in OPENAI_PASSTHROUGH and key not in refused:
            translated.payload[key] = value
        else:
            _ignore("openai", key, translated)
    if reasoning and "max_tokens" in translated.payload:
        # Reasoning models refuse max_tokens; their limit counts the reasoning tokens too.
        translated.payload.setdefault("max_completion_tokens", translated.payload.pop("max_tokens"))
        translated.payload.pop("max_tokens", None)
    if schema is not None:
        body: dict[str, Any] = {"name": schema.name, "schema": dict(schema.schema), "strict": schema.strict}
        if schema.description:
            body["description"] = schema.description
        translated.payload["response_format"] = {"type": "json_schema", "json_schema": body}
    return translated


def translate_gigachat(params: Mapping[str, Any]) -> Translated:
    """GigaChat has no response format; a schema becomes a forced function call (see the adapter)."""
    rest, schema = _split_schema(params)
    translated = Translated(json_schema=schema)
    for key, value in rest.items():
        if key in GIGACHAT_PASSTHROUGH:
            translated.payload[key] = value
        else:
            _ignore("gigachat", key, translated)
    return translated


def translate_gemini(params: Mapping[str, Any]) -> Translated:
    rest, schema = _split_schema(params)
    translated = Translated(json_schema=schema)
    for key, value in rest.items():
        if key == "stream":
            translated.stream = bool(value)
        elif key in GEMINI_TOP_LEVEL:
            translated.payload[GEMINI_TOP_LEVEL[key]] = value
        elif key in GEMINI_GENERATION_CONFIG:
            translated.generation_config[GEMINI_GENERATION_CONFIG[key]] = value
        else:
            _ignore("gemini", key, translated)
    if schema is not None:
        translated.generation_config["responseMimeType"] = "application/json"
        # responseJsonSchema takes JSON Schema as it is; responseSchema is an OpenAPI subset.
        translated.generation_config["responseJsonSchema"] = dict(schema.schema)
    return translated
