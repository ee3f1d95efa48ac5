"""Structured answers: the model answers ``{internal_thought, is_safe, answer}`` as JSON.

``StructuredAnswerParser`` reads the JSON as it streams (jiter's partial mode
re-parses the growing buffer) and releases only the ``answer`` text, as it
arrives. Re-parsing on every piece would cost time quadratic in the answer's
length (a provider streaming 256 KiB four bytes at a time: 15 s of CPU), so
past a small buffer a piece is parsed only when the buffer has grown by a
fraction of itself or a frame's time has passed since the last parse: the
work stays linear in the answer and the text still reaches the page within
one frame. Nothing is released before ``is_safe`` is
known, so the first chunk the user sees carries the verdict; the
``internal_thought`` is kept for the record and never released.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import jiter

RESPONSE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "internal_thought": {"type": "string", "description": "Private reasoning; never shown to the user."},
        "is_safe": {"type": "boolean", "description": "False when the answer would be harmful or unsafe to show."},
        "answer": {"type": "string", "description": "The answer shown to the user, in Markdown."},
    },
    "required": ["internal_thought", "is_safe", "answer"],
    "additionalProperties": False,
}

FORMAT_INSTRUCTION = (
    "Respond with exactly one JSON object and nothing else, with these keys in this order:\n"
    '- "internal_thought": your private reasoning (the user never sees it);\n'
    '- "is_safe": false if answering would be harmful, unsafe or against policy, else true;\n'
    '- "answer": the answer for the user, in Markdown (when is_safe is false, a short refusal).'
)


# Shown instead of a structured answer whose JSON could not be read at all.
UNREADABLE_ANSWER = "The model's answer came back in a broken format and cannot be shown. Ask again."


def model_params() -> dict[str, Any]:
    """The portable ``model_params`` asking the provider for this schema."""
    return {"json_schema": {"name": "structured_answer", "schema": RESPONSE_SCHEMA}}


@dataclass(frozen=True)
class StructuredUpdate:
    """What a new piece of model output released: answer text, and ``is_safe`` once it is known."""

    answer_delta: str = ""
    is_safe: bool | None = None


# Below this many bytes every piece is parsed (cheap); above it, a piece is
# parsed when the buffer has grown by 1/REPARSE_GROWTH of its size since the
# last parse, or REPARSE_SECONDS have passed (the page's frame interval).
REPARSE_ALWAYS_BYTES = 8 * 1024
REPARSE_GROWTH = 16
REPARSE_SECONDS = 0.05


class StructuredAnswerParser:
    def __init__(self) -> None:
        self._buffer = bytearray()
        self._parsed_size = 0
        self._parsed_at = 0.0
        self._released = 0
        self.answer = ""
        self.is_safe: bool | None = None
        self.internal_thought = ""
        self.finished = False

    def _parse(self, *, final: bool) -> dict[str, Any]:
        start = self._buffer.find(b"{")
        if start < 0:
            return {}
        data = bytes(self._buffer[start:])
        try:
            value = jiter.from_json(data, partial_mode="off" if final else "trailing-strings")
        except ValueError:
            if not final:
                return {}
            # A model that broke the format mid-way: keep what a partial parse can still read.
            try:
                value = jiter.from_json(data, partial_mode="trailing-strings")
            except ValueError:
                return {}
        return value if isinstance(value, dict) else {}

    def _release(self, value: dict[str, Any], *, final: bool) -> StructuredUpdate:
        if isinstance(value.get("internal_thought"), str):
            self.internal_thought = value["internal_thought"]
        if isinstance(value.get("is_safe"), bool):
            self.is_safe = value["is_safe"]
        if isinstance(value.get("answer"), str):
            self.answer = value["answer"]
        if self.is_safe is None and not final:
            # The verdict must travel with the first chunk: hold the answer back until it is known.
            return StructuredUpdate()
        delta = self.answer[self._released :]
        self._released = len(self.answer)
        return StructuredUpdate(answer_delta=delta, is_safe=self.is_safe)

    def feed(self, text: str) -> StructuredUpdate:
        self._buffer.extend(text.encode("utf-8"))
        size, now = len(self._buffer), time.monotonic()
        if (
            size > REPARSE_ALWAYS_BYTES
            and (size - self._parsed_size) * REPARSE_GROWTH < size
            and now - self._parsed_at < REPARSE_SECONDS
        ):
            return StructuredUpdate()
        self._parsed_size, self._parsed_at = size, now
        return self._release(self._parse(final=False), final=False)

    def finish(self) -> StructuredUpdate:
        """The rest once the model is done. A model that ignored the format has its raw text as the answer."""
        self.finished = True
        value = self._parse(final=True)
        # A JSON object with none of the schema's keys (code in a plain answer) is no structured answer either.
        if not value.keys() & RESPONSE_SCHEMA["properties"].keys() and self._buffer.strip():
            if b"internal_thought" in self._buffer:
                # An attempt at the format that cannot be read: its raw text would show the private reasoning.
                value = {"answer": UNREADABLE_ANSWER}
            else:
                value = {"answer": self._buffer.decode("utf-8", "replace")}
        return self._release(value, final=True)

    def record(self) -> dict[str, Any]:
        """The whole structured answer, for storage and audit (``internal_thought`` included)."""
        return {"internal_thought": self.internal_thought, "is_safe": self.is_safe, "answer": self.answer}
