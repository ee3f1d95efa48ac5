"""Choosing what kind of turn this is: ``general``, ``project_qa``, ``docs`` or ``edits``.

With a model, in a chat with a repository, the ``router_intent`` prompt asks
for a JSON object through the ``json_schema`` contract. An answer that is not
valid JSON, or not one of the intents, falls back to the keyword router, which
is also what runs with the offline provider and in a chat without a repository
(nothing to choose there but the general answer, or the message that docs and
edits need one). The keyword router is transparent: it says which rule
decided, and that reason is shown in the turn's trace.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

import jsonschema

from chat.agent.events import Intent
from chat.agent.prompting import load_prompt, unfenced
from chat.agent.turn import TurnServices
from llm.retry import LLMError
from llm.types import ChatRequest, Message

INTENTS: tuple[Intent, ...] = ("general", "project_qa", "docs", "edits")

INTENT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "intent": {"type": "string", "enum": list(INTENTS)},
        "reason": {"type": "string"},
    },
    "required": ["intent"],
    "additionalProperties": False,
}
SCHEMA_NAME = "route_intent"

# Checked in this order; the first rule that matches decides.
EDIT_WORDS = re.compile(
    r"\b(fix|refactor|rename|patch|diff|modify|rewrite|implement|change the code|"
    r"add (?:a|an|the) (?:test|function|method|class|option|flag|endpoint|field)|"
    r"make (?:it|the \w+) (?:use|support|return|accept))\b",
    re.IGNORECASE,
)
# A request that starts by telling what to do to the code ("Change GetItemById to return NotFound ...",
# "Remove the retry loop", "Make the parser accept tabs"): an edit, unless it asks a question or is about
# documentation.
EDIT_IMPERATIVE = re.compile(
    r"^\W*+(?:please\s++)?(change|replace|remove|delete|extract|convert|move|add|update|make|raise|return|handle|"
    r"support|use|switch|drop|split|merge|inline|wrap)\s++(?!(?:me|us)\b)(?=\S)",
    re.IGNORECASE,
)
DOC_WORDS = re.compile(
    r"\b(document(?:ation)?|docs|readme|docstrings?|write (?:a |the )?(?:guide|tutorial|overview|changelog))\b",
    re.IGNORECASE,
)
PROJECT_WORDS = re.compile(
    r"\b(where|which tests?|defined|definition|implemented|implementation|call(?:s|ed|ers?|ees?)?|"
    r"endpoints?|routes?|views?|handlers?|commands?|entry ?points?|modules?|functions?|methods?|class(?:es)?|files?|"
    r"repo(?:sitory)?|"
    r"codebase|project|this code|our code|in the code|how does|what does)\b",
    re.IGNORECASE,
)
# Small talk: a greeting, thanks, an acknowledgement or a question about the assistant itself, and nothing else.
SMALL_TALK = re.compile(
    r"^\W*+(?:(?:hi|hello|hey|hiya|good (?:morning|afternoon|evening|night)|thanks?(?: you)?(?: (?:a lot|so much|very much))?|"
    r"thx|cheers|ok(?:ay)?|great|cool|nice|bye|goodbye|see you|who are you|what can you do|how are you)\b[\s\W]*+)++"
    r"(?:there|again|all|everyone|for (?:that|this|the (?:help|answer)))?\W*+$",
    re.IGNORECASE,
)
# Identifiers: CamelCase, snake_case, dotted names, file paths. A path is
# looked for only from the start of a run of name characters: from every word
# boundary inside ``a-a-a-...`` each attempt scanned the rest of the run for a
# slash, quadratic in the message's length.
IDENTIFIER = re.compile(
    r"\b(?:[A-Z][a-z0-9]++[A-Z]\w*|[a-z0-9]++_[a-z0-9_]+|\w++\.\w+(?:\.\w+)*|(?<![\w-])[\w-]++/[\w./-]+)\b"
)


@dataclass(frozen=True)
class RouteDecision:
    intent: Intent
    # "model" or "keywords"
    method: str
    reason: str


def keyword_intent(text: str, *, has_repository: bool) -> RouteDecision:
    """The keyword router: edits, docs, then project questions; everything else is general.

    In a chat with a repository a message is a question about it unless it is small talk: a
    team asks a code assistant about its code in words the rules cannot all know ("how is a date
    string parsed?"), and without a model only the repository's index can answer anything.
    """
    if match := EDIT_WORDS.search(text):
        return RouteDecision("edits", "keywords", f"asks to change code ({match.group(0)!r})")
    docs = DOC_WORDS.search(text)
    if docs is None and has_repository and "?" not in text and (match := EDIT_IMPERATIVE.match(text)):
        return RouteDecision("edits", "keywords", f"tells what to change ({match.group(1)!r})")
    if match := docs:
        return RouteDecision("docs", "keywords", f"asks for documentation ({match.group(0)!r})")
    if not has_repository:
        return RouteDecision("general", "keywords", "the chat has no repository")
    if match := PROJECT_WORDS.search(text) or IDENTIFIER.search(text):
        return RouteDecision("project_qa", "keywords", f"asks about the code ({match.group(0)!r})")
    if SMALL_TALK.match(text) or not text.strip():
        return RouteDecision("general", "keywords", "small talk, not a question about the repository")
    return RouteDecision("project_qa", "keywords", "a message in a chat with a repository, answered from it")


# Built once: ``jsonschema.validate`` checks the schema itself on every call,
# which cost more than the rest of routing a question.
_INTENT_VALIDATOR = jsonschema.validators.validator_for(INTENT_SCHEMA)({**INTENT_SCHEMA, "additionalProperties": True})


def parse_intent(text: str) -> tuple[Intent, str]:
    """The intent in a model's JSON answer; raises ``ValueError`` for anything else."""
    cleaned = unfenced(text)
    try:
        value = json.loads(cleaned)
    except ValueError as exc:
        raise ValueError(f"not valid JSON: {exc}") from exc
    error = jsonschema.exceptions.best_match(_INTENT_VALIDATOR.iter_errors(value))
    if error is not None:
        raise ValueError(f"does not follow the schema: {error.message}")
    return value["intent"], str(value.get("reason") or "")


async def route_intent(services: TurnServices, text: str, history: tuple[Message, ...], *, has_repository: bool) -> RouteDecision:
    """Ask the model when there is one and a choice to make; fall back to keywords on any failure to get a valid answer.

    A chat without a repository has no choice to make: its questions get the general answer, and a
    request for documentation or a change the message the keywords already give (no repository to
    write from). Asking the model would only hold back the answer's first word by a whole model call.
    """
    fallback = keyword_intent(text, has_repository=has_repository)
    provider = services.provider
    if services.offline or not provider.supports_json_schema or not has_repository:
        return fallback
    prompt = await load_prompt("router_intent")
    context = "The chat has a repository." if has_repository else "The chat has no repository."
    request = ChatRequest(
        messages=(
            Message("system", f"{prompt.text}\n\n{context}"),
            *history[-4:],
            Message("user", text),
        ),
        model_params={"temperature": 0, "json_schema": {"name": SCHEMA_NAME, "schema": INTENT_SCHEMA}},
        prompt_name=prompt.name,
        prompt_version=prompt.version,
    )
    try:
        completion = await provider.complete(request)
    except LLMError as exc:
        # The reason is shown in the trace: name the failure, not the provider's raw message.
        reason = f"{fallback.reason}; the model could not route ({type(exc).__name__})"
        return RouteDecision(fallback.intent, "keywords", reason)
    services.usage.add(completion.usage, completion.model)
    try:
        intent, reason = parse_intent(completion.text)
    except ValueError as exc:
        return RouteDecision(fallback.intent, "keywords", f"{fallback.reason}; the model's answer was {exc}")
    if intent == "project_qa" and not has_repository:
        return RouteDecision("general", "model", "a project question, but the chat has no repository")
    return RouteDecision(intent, "model", reason)
