"""What the writing subgraphs (``docs`` and ``edits``) share: the index they write from, and their model calls.

- the index pinned to one version (``open_index`` -> ``IndexView``), the
  indexed text of files (``file_texts``) and the numbered spans retrieval finds
  for a query (``section_sources``: ``SOURCE_CHARS`` at most, whole spans);
  these are synchronous Django code, called through
  ``database_pool.in_database_pool``;
- the model calls: ``ask_json`` asks for a JSON object through the
  ``json_schema`` contract when the provider supports it (the prompt asks for
  the same object anyway) and validates the answer; an answer that is not
  valid JSON or breaks the schema gives ``None`` with the reason, so each node
  decides its own fallback. Provider failures (``LLMError``) are not caught
  here: a turn whose model is unreachable fails as a whole, with the
  provider's message. ``ask_text`` is for text the user reads;
- trace steps below a node (``report_step``): a document or a patch takes
  several model calls inside one node; a step for each as it finishes shows
  the run's progress, in the same shape as the agent's tool steps;
- names of the artifacts they attach (``artifact_name``).
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import jsonschema

from chat.agent.citing import Span
from chat.agent.events import AgentEvent
from chat.agent.prompting import load_prompt, system_message, unfenced
from chat.agent.turn import TurnServices, limited_to_the_answer_reserve
from llm.graph import Runtime
from llm.types import ChatRequest, Completion, Message
from rag import services as rag
from rag.models import IndexRun, Repository, SourceFile

# Retrieved spans per section, and the characters they may take together.
SOURCES_PER_SECTION = 10
SOURCE_CHARS = 14_000
SOURCE_MAX_LINES = 80


class NoIndex(LookupError):
    """The repository has no ready index to write from."""


@dataclass(frozen=True)
class IndexView:
    """One repository at one index version, with each indexed file's line count.

    ``undecodable`` holds the files that were not valid UTF-8: their indexed
    text has replacement characters, so it differs from the uploaded bytes.
    """

    repository: Repository
    run: IndexRun
    line_counts: Mapping[str, int]
    undecodable: frozenset[str] = frozenset()

    @property
    def name(self) -> str:
        return self.repository.name


def open_index(repository: Repository) -> IndexView:
    """The repository's active index version, pinned for the whole run of a graph."""
    repository = Repository.objects.select_related("active_run").get(pk=repository.pk)
    run = repository.active_run
    if run is None:
        raise NoIndex(f"{repository.name} has no ready index yet; wait for indexing to finish")
    files = SourceFile.objects.in_version(run)
    counts = dict(files.values_list("path", "line_count"))
    undecodable = frozenset(files.filter(replaced_bytes=True).values_list("path", flat=True))
    return IndexView(repository=repository, run=run, line_counts=counts, undecodable=undecodable)


def file_texts(view: IndexView, paths: Iterable[str]) -> dict[str, str]:
    """The indexed text of these files (missing paths are left out)."""
    wanted = sorted(set(paths))
    return dict(SourceFile.objects.in_version(view.run).filter(path__in=wanted).values_list("path", "text"))


def numbered(text: str, first: int) -> str:
    lines = text.split("\n")
    width = len(str(first + len(lines) - 1))
    return "\n".join(f"{first + offset:>{width}} | {line}" for offset, line in enumerate(lines))


def _merge_spans(spans: Iterable[tuple[str, int, int, str, float]]) -> list[tuple[str, int, int, str, float]]:
    """Spans in rank order, dropping any contained in an earlier one."""
    kept: list[tuple[str, int, int, str, float]] = []
    for span in spans:
        path, start, end = span[0], span[1], span[2]
        if any(k[0] == path and k[1] <= start and end <= k[2] for k in kept):
            continue
        kept.append(span)
    return kept


@dataclass(frozen=True)
class SectionPlan:
    title: str
    goal: str
    # What to retrieve for this section.
    query: str


@dataclass(frozen=True)
class Source:
    """A span of an indexed file shown to the model, labelled ``S<n>`` in the prompt."""

    label: str
    path: str
    start_line: int
    end_line: int
    text: str
    layer: str = ""
    score: float = 0.0

    @property
    def span(self) -> Span:
        return Span(self.path, self.start_line, self.end_line, self.layer, self.score)

    @property
    def location(self) -> str:
        return f"{self.path}:{self.start_line}-{self.end_line}"


def section_sources(view: IndexView, plan: SectionPlan, *, paths: Sequence[str] = ()) -> tuple[Source, ...]:
    """Numbered spans of the indexed files for one section, as retrieval ranks them for its query.

    Spans come from the section's query and, when the plan names files, from
    those files first. Each is read from the indexed text (not the retrieval
    item) so the line numbers the model sees are the file's own.
    """
    query = " ".join(part for part in (plan.query, plan.title) if part).strip()
    found: list[tuple[str, int, int, str, float]] = []
    try:
        for path in paths:
            if path in view.line_counts:
                for item in rag.search(view.repository, query, mode="code", path_glob=path, limit=3, run=view.run):
                    found.append((item.path, item.start_line, item.end_line, item.layer, item.score))
        for item in rag.search(view.repository, query, mode="auto", limit=SOURCES_PER_SECTION, run=view.run):
            found.append((item.path, item.start_line, item.end_line, item.layer, item.score))
    except rag.SearchError:
        return ()
    spans = _merge_spans(found)
    texts = file_texts(view, [span[0] for span in spans])
    sources: list[Source] = []
    used = 0
    for path, start, end, layer, score in spans:
        text = texts.get(path)
        if text is None:
            continue
        lines = text.splitlines()
        end = min(end, len(lines), start + SOURCE_MAX_LINES - 1)
        if end < start:
            continue
        body = "\n".join(lines[start - 1 : end])
        if used + len(body) > SOURCE_CHARS:
            continue
        used += len(body)
        sources.append(
            Source(label=f"S{len(sources) + 1}", path=path, start_line=start, end_line=end, text=body, layer=layer, score=score)
        )
        if len(sources) >= SOURCES_PER_SECTION:
            break
    return tuple(sources)


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


# The recent dialog a request may refer to ("do the same for checkout"), kept short.
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


async def report_start(runtime: Runtime[TurnServices], action: str, **arguments: Any) -> None:
    """Say that sub-step ``action`` starts (the page's status line names it until it finishes or text follows)."""
    await runtime.emit(AgentEvent(type="tool", detail={"tool": action, "arguments": arguments}))


async def report_step(
    runtime: Runtime[TurnServices],
    action: str,
    started: float,
    *,
    arguments: Mapping[str, Any],
    result: str,
    ok: bool = True,
) -> None:
    """Emit a finished sub-step ``action`` (``write_section``, ``apply_diff``...) started at ``started`` (perf_counter)."""
    await runtime.emit(
        AgentEvent(
            type="step",
            node=f"{runtime.node}:{action}",
            depth=runtime.depth + 1,
            duration_ms=(time.perf_counter() - started) * 1000,
            detail={"tool": action, "arguments": dict(arguments), "result": result, "ok": ok},
        )
    )


def artifact_name(title: str, suffix: str) -> str:
    """A file name for a downloaded artifact: the title's words joined by dashes."""
    slug = re.sub(r"[^A-Za-z0-9]+", "-", title).strip("-").lower()[:80]
    return f"{slug or 'document'}{suffix}"


def stripped_strings(values: Any) -> tuple[str, ...]:
    """The non-blank items of a list in a model's JSON answer, as stripped strings."""
    return tuple(str(value).strip() for value in values or () if str(value).strip())
