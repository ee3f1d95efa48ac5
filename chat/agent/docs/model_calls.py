"""Model calls of the writing graphs (docs and edits): structured answers and plain text.

``ask_json`` asks for a JSON object through the ``json_schema`` contract when
the provider supports it (the prompt asks for the same object anyway) and
validates the answer; an answer that is not valid JSON or breaks the schema
gives ``None`` with the reason, so each node decides its own fallback.
Provider failures (``LLMError``) are not caught here: a turn whose model is
unreachable fails as a whole, with the provider's message.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import jsonschema

from chat.agent.prompting import load_prompt, system_message, unfenced
from chat.agent.turn import TurnServices, limited_to_the_answer_reserve
from llm.graph import Runtime
from llm.types import ChatRequest, Completion, Message


@dataclass(frozen=True)
class JsonAnswer:
    """A validated object, or ``None`` and why not; ``text`` is the model's raw answer."""

    value: dict[str, Any] | None
    text: str
    problem: str = ""


def parse_json_object(text: str, schema: Mapping[str, Any]) -> tuple[dict[str, Any] | None, str]:
    """The JSON object in ``text`` if it follows ``schema``; else None and the reason."""
    cleaned = unfenced(text)
    if not cleaned.startswith("{"):
        # Some models put a sentence before the object; take the outermost braces.
        start, end = cleaned.find("{"), cleaned.rfind("}")
        if start >= 0 and end > start:
            cleaned = cleaned[start : end + 1]
    try:
        value = json.loads(cleaned)
    except ValueError as exc:
        return None, f"the answer is not valid JSON ({exc})"
    if not isinstance(value, dict):
        return None, "the answer is not a JSON object"
    try:
        jsonschema.validate(value, schema)
    except jsonschema.ValidationError as exc:
        return None, f"the answer does not follow the schema: {exc.message}"
    return value, ""


# The recent dialog a request may refer to ("do the same for checkout"), kept short.
def review_schema(location_field: str) -> dict[str, Any]:
    """The JSON a self-check answers: ``ok``, and issues each with a problem, a fix and where it is."""
    issue_fields = (location_field, "kind", "problem", "fix")
    return {
        "type": "object",
        "properties": {
            "ok": {"type": "boolean"},
            "issues": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {name: {"type": "string"} for name in issue_fields},
                    "required": ["problem"],
                },
            },
        },
        "required": ["ok"],
    }


DIALOG_MESSAGES = 4
DIALOG_MESSAGE_CHARS = 1500


def recent_dialog(history: Sequence[Message]) -> str:
    """The last messages of the chat as plain text for a prompt, each cut to a bounded length."""
    lines = []
    for message in history[-DIALOG_MESSAGES:]:
        text = message.content.strip()
        if len(text) > DIALOG_MESSAGE_CHARS:
            text = text[:DIALOG_MESSAGE_CHARS] + " [...]"
        if text:
            lines.append(f"{message.role}: {text}")
    return "\n\n".join(lines)


async def complete(
    runtime: Runtime[TurnServices],
    prompt_name: str,
    content: str,
    *,
    params: Mapping[str, Any] | None = None,
) -> Completion:
    """One non-streamed call: the product's system prompt plus ``prompt_name``, then ``content``."""
    services = runtime.services
    prompt = await load_prompt(prompt_name)
    request = ChatRequest(
        messages=(await system_message(prompt), Message("user", content)),
        model_params=dict(params or {}),
        prompt_name=prompt.name,
        prompt_version=prompt.version,
    )
    completion = await services.provider.complete(request)
    services.usage.add(completion.usage, completion.model)
    return completion


async def ask_json(
    runtime: Runtime[TurnServices],
    prompt_name: str,
    content: str,
    schema: Mapping[str, Any],
    *,
    temperature: float = 0.0,
) -> JsonAnswer:
    params: dict[str, Any] = {"temperature": temperature}
    if runtime.services.provider.supports_json_schema:
        params["json_schema"] = {"name": prompt_name, "schema": dict(schema)}
    completion = await complete(runtime, prompt_name, content, params=params)
    value, problem = parse_json_object(completion.text, schema)
    return JsonAnswer(value=value, text=completion.text, problem=problem)


async def ask_text(runtime: Runtime[TurnServices], prompt_name: str, content: str, *, temperature: float = 0.2) -> str:
    """Text the user reads (a section of a document): limited to the room left for an answer."""
    params = limited_to_the_answer_reserve({"temperature": temperature}, runtime.services)
    completion = await complete(runtime, prompt_name, content, params=params)
    return completion.text
