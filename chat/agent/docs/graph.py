"""The ``docs`` subgraph: documentation written from the index, section by section, with citations.

::

    docs_detect --(no repository / no index)--> docs_unavailable
        |  \\--(offline provider)--> docs_reference
        v
    docs_strategy -> docs_plan_sections -> docs_generation -> docs_self_check -> docs_execution_summary
                                                 ^                  |
                                                 +--(failing, once)-+

- ``docs_detect`` decides what is asked (a module, a feature, the whole
  repository, a README, an API reference) and pins the index version.
- ``docs_strategy`` sets audience, scope and style from the module catalog
  summary and the repository's documentation policy (both capped, see
  ``material``).
- ``docs_plan_sections`` plans the sections, each with a retrieval query.
- ``docs_generation`` writes each pending section from the spans retrieval
  finds for it, citing ``path:start-end`` (``SECTION_CONCURRENCY`` sections
  at a time; the self-check runs the same way).
- ``docs_self_check`` checks every citation against the index, then asks the
  model to check the section's claims against the cited lines. Failing
  sections go back to ``docs_generation`` once, with the problems found; what
  still fails after that is marked in the document and the summary.
- ``docs_execution_summary`` assembles the document (an API reference ends
  with the exact table of entrypoints from the index, a document of the
  repository or a README with the packages its manifests declare), streams a short summary
  and the document, and attaches it as a ``markdown`` artifact.

With the offline provider, ``docs_reference`` writes a reference from the
symbol catalog, entrypoints and docstrings, labelled as written without a model.

The context's ``input`` is the user's request; the result is in
``state["answer"]`` (the streamed text), ``state["citations"]`` and
``state["artifacts"]``; the same are emitted as ``AgentEvent``s.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import re
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from chat.agent.citing import parse_cited_ranges, used_citations
from chat.agent.docs import material
from chat.agent.docs.document import (
    DOC_KINDS,
    KIND_LABELS,
    DocKind,
    DocsRequest,
    SectionDraft,
    assemble,
    citation_problems,
    clean_section_body,
)
from chat.agent.docs.reference import dependency_tables, entrypoint_tables, reference_document
from chat.agent.events import AgentEvent
from chat.agent.prompting import load_prompt, system_message
from chat.agent.turn import TurnServices, limited_to_the_answer_reserve, stream_model
from chat.agent.writing import (
    IndexView,
    NoIndex,
    SectionPlan,
    Source,
    artifact_name,
    ask_json,
    ask_text,
    numbered,
    report_start,
    open_index,
    recent_dialog,
    report_step,
    review_schema,
    section_sources,
    stripped_strings,
)
from database_pool import in_database_pool
from llm.graph import AgentContext, Graph, GraphBuilder, Runtime, node
from llm.retry import LLMError
from llm.types import ChatRequest, Message
from rag import services as rag
from rag.analysis.filetypes import is_test_path, module_name
from rag.query_analysis import query_hints

MAX_SECTIONS = 8
# Sections written (and checked) at the same time: a document's latency is then
# about that of its slowest sections, not the sum of all of them.
SECTION_CONCURRENCY = 4
# Characters of cited code the self-check of one section may see.
CHECK_CODE_CHARS = 12_000

T = TypeVar("T")

# An API reference ends with the exact list of entrypoints from the index.
ENTRYPOINTS_NOTE = "_Listed from the index (every route, command and task it found), not written by the model._"
# A document of the whole repository, or a README, ends with the packages its manifests declare.
DEPENDENCIES_NOTE = "_Listed from the repository's manifests (every package they declare), not written by the model._"

NO_REPOSITORY_TEXT = (
    "Documentation is written from a repository's index, and this chat has no repository. "
    "Start a chat on an uploaded repository to get documentation."
)

DETECT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "kind": {"type": "string", "enum": list(DOC_KINDS)},
        "target": {"type": "string"},
        "title": {"type": "string"},
        "reason": {"type": "string"},
    },
    "required": ["kind"],
}
STRATEGY_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "audience": {"type": "string"},
        "include": {"type": "array", "items": {"type": "string"}},
        "exclude": {"type": "array", "items": {"type": "string"}},
        "paths": {"type": "array", "items": {"type": "string"}},
        "style": {"type": "string"},
    },
}
PLAN_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "title": {"type": "string"},
        "sections": {
            "type": "array",
            "minItems": 1,
            "items": {
                "type": "object",
                "properties": {
                    "heading": {"type": "string", "minLength": 1},
                    "purpose": {"type": "string"},
                    "query": {"type": "string"},
                    "paths": {"type": "array", "items": {"type": "string"}},
                },
                "required": ["heading"],
            },
        },
    },
    "required": ["sections"],
}
CHECK_SCHEMA = review_schema("where")

# Keyword detection, used offline and when the model's answer cannot be read.
_README = re.compile(r"\breadme\b", re.I)
_API = re.compile(r"\b(api\s+(reference|docs?|documentation)|reference\s+(docs?|documentation)|reference)\b", re.I)
_WHOLE = re.compile(r"\b(whole|entire|all of the|the)\s+(repo(sitory)?|project|codebase|code base)\b|\boverview\b|\barchitecture\b", re.I)


@dataclass(frozen=True)
class Strategy:
    audience: str = "developers new to the repository"
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    paths: tuple[str, ...] = ()
    style: str = ""


@dataclass(frozen=True)
class DocsRun:
    """Everything the docs nodes hand to each other (``state["docs"]``)."""

    view: IndexView
    request: DocsRequest
    catalog: str = ""
    policy: str = ""
    strategy: Strategy = field(default_factory=Strategy)
    title: str = ""
    plans: tuple[SectionPlan, ...] = ()
    section_paths: tuple[tuple[str, ...], ...] = ()
    drafts: tuple[SectionDraft, ...] = ()
    # Indexes of the sections the next generation or check works on.
    pending: tuple[int, ...] = ()
    regenerated: bool = False
    notes: tuple[str, ...] = ()

    def evolve(self, **changes: Any) -> DocsRun:
        return dataclasses.replace(self, **changes)


def _run(ctx: AgentContext[Any]) -> DocsRun:
    return ctx.state["docs"]


def _indexed_modules(view: IndexView) -> dict[str, str]:
    """Dotted module name -> path, for the Python files of the index."""
    modules = {}
    for path in view.line_counts:
        name, _ = module_name(path)
        if name:
            modules[name] = path
    return modules


# Names of a request looked up in the symbol catalog, longest first: a long request is not a search.
MAX_LOOKED_UP_NAMES = 8


def _named_definition(text: str, view: IndexView) -> rag.SymbolInfo | None:
    """The definition a request names in its language's form (``Jekyll::Commands::Build``,
    ``okhttp3.Dispatcher``, a ``CamelCase`` name), when the code defines it in one file only."""
    hints = query_hints(text)
    names = sorted(hints.dotted, key=len, reverse=True) + sorted(hints.names - hints.dotted, key=len, reverse=True)
    for name in names[:MAX_LOOKED_UP_NAMES]:
        found = [s for s in rag.find_symbol(view.repository, name, run=view.run) if not is_test_path(s.path)]
        if found and len({s.path for s in found}) == 1:
            return found[0]
    return None


def mentioned_file(text: str, paths: Iterable[str]) -> str | None:
    """The indexed file a request names: the longest path written whole in it (``src/index.ts``, not the
    root's ``index.ts`` it ends with, nor ``index.ts`` inside ``myindex.ts``)."""
    written = [
        path for path in paths
        if path in text and re.search(rf"(?<![\w./-]){re.escape(path)}(?![\w/-])", text)
    ]
    return max(written, key=len, default=None)


def keyword_request(text: str, view: IndexView) -> DocsRequest:
    """What is asked, from the words of the request and the names of the index (reads the database)."""
    if _README.search(text):
        return DocsRequest("readme", "", view.name, "keywords", "mentions a README")
    mentioned_path = mentioned_file(text, view.line_counts)
    if mentioned_path:
        return DocsRequest("module", mentioned_path, mentioned_path, "keywords", f"names the file {mentioned_path}")
    modules = _indexed_modules(view)
    words = set(re.findall(r"[\w.]+", text))
    named = sorted((m for m in modules if m in words), key=len, reverse=True)
    if named:
        return DocsRequest("module", modules[named[0]], f"The {named[0]} module", "keywords", f"names the module {named[0]}")
    definition = _named_definition(text, view)
    if definition is not None:
        return DocsRequest(
            "module", definition.path, f"The {definition.written} {definition.kind_word}", "keywords",
            f"names the {definition.kind_word} {definition.written}, defined in {definition.path}",
        )
    if _API.search(text):
        return DocsRequest("api_reference", "", f"{view.name} API reference", "keywords", "asks for a reference")
    if _WHOLE.search(text):
        return DocsRequest("repository", "", view.name, "keywords", "asks about the whole repository")
    return DocsRequest("feature", text.strip()[:200], "", "keywords", "documents a feature described in the request")


@node(name="docs_detect")
async def docs_detect(ctx: AgentContext[str], runtime: Runtime[TurnServices]) -> AgentContext[str]:
    services = runtime.services
    if services.toolbox is None:
        return ctx.with_state(docs_route="unavailable", docs_problem=NO_REPOSITORY_TEXT)
    try:
        view = await in_database_pool(open_index)(services.toolbox.repository)
    except NoIndex as exc:
        return ctx.with_state(docs_route="unavailable", docs_problem=f"Documentation needs an index: {exc}.")
    if services.offline:
        request = await in_database_pool(keyword_request)(ctx.input, view)
        return ctx.with_state(docs_route="reference", docs=DocsRun(view=view, request=request))
    catalog = await in_database_pool(material.module_catalog_summary)(view, ctx.input)
    dialog = recent_dialog(ctx.history)
    content = (
        f"Repository: {view.name}\n\nModules (the most relevant to the request first):\n{catalog or '(no modules)'}"
        + (f"\n\nThe conversation so far:\n{dialog}" if dialog else "")
        + f"\n\nThe user's request:\n{ctx.input}"
    )
    answer = await ask_json(runtime, "docs_detect", content, DETECT_SCHEMA)
    if answer.value is not None:
        value = answer.value
        kind: DocKind = value["kind"]
        request = DocsRequest(
            kind=kind,
            target=str(value.get("target") or "").strip(),
            title=str(value.get("title") or "").strip(),
            method="model",
            reason=str(value.get("reason") or ""),
        )
    else:
        # The words of the request decide only when the model's answer cannot.
        fallback = await in_database_pool(keyword_request)(ctx.input, view)
        request = dataclasses.replace(fallback, reason=f"{fallback.reason}; the model's answer: {answer.problem}")
    return ctx.with_state(docs_route="write", docs=DocsRun(view=view, request=request, catalog=catalog))


def _detect_route(ctx: AgentContext[Any]) -> str:
    return {"unavailable": "docs_unavailable", "reference": "docs_reference"}.get(ctx.state["docs_route"], "docs_strategy")


@node(name="docs_unavailable")
async def docs_unavailable(ctx: AgentContext[str], runtime: Runtime[TurnServices]) -> AgentContext[str]:
    text = ctx.state["docs_problem"]
    await runtime.emit(AgentEvent(type="text", text=text))
    return ctx.with_state(answer=text, citations=(), artifacts=())


@node(name="docs_reference")
async def docs_reference(ctx: AgentContext[str], runtime: Runtime[TurnServices]) -> AgentContext[str]:
    """The offline answer: a reference from the index (of one file when the request names it).

    Its sources are inline, so no separate citation list is reported.
    """
    run = _run(ctx)
    request = run.request
    only = request.target if request.kind == "module" and request.target in run.view.line_counts else None
    found = await in_database_pool(material.reference_material)(run.view, ctx.input, only=only)
    subject = run.view.name if only is None else f"{run.view.name}: {only}"
    document = reference_document(
        subject, found.symbols, found.entrypoints, found.module_docs, modules_left_out=found.modules_left_out,
        dependencies=found.dependencies,
    )
    artifact = {"kind": "markdown", "name": artifact_name(f"{subject} reference", ".md"), "content": document}
    await runtime.emit(AgentEvent(type="text", text=document))
    await runtime.emit(AgentEvent(type="artifact", detail=artifact))
    return ctx.with_state(answer=document, citations=(), artifacts=(artifact,))


@node(name="docs_strategy")
async def docs_strategy(ctx: AgentContext[str], runtime: Runtime[TurnServices]) -> AgentContext[str]:
    run = _run(ctx)
    request = run.request
    policy = await in_database_pool(material.policy_text)(run.view, ctx.input)
    content = (
        f"{_request_text(request, ctx.input)}\n\nModules (the most relevant first):\n{run.catalog or '(none)'}\n\n"
        f"The repository's documentation conventions:\n{policy or '(none found; use clear, plain Markdown)'}"
    )
    await report_start(runtime, "plan_document")
    answer = await ask_json(runtime, "docs_strategy", content, STRATEGY_SCHEMA)
    strategy = Strategy()
    notes = run.notes
    if answer.value is not None:
        value = answer.value
        strategy = Strategy(
            audience=str(value.get("audience") or strategy.audience),
            include=stripped_strings(value.get("include")),
            exclude=stripped_strings(value.get("exclude")),
            paths=tuple(p for p in stripped_strings(value.get("paths")) if p in run.view.line_counts),
            style=str(value.get("style") or ""),
        )
    else:
        notes += (f"the strategy answer could not be read ({answer.problem}); defaults were used",)
    return ctx.with_state(docs=run.evolve(policy=policy, strategy=strategy, notes=notes))


def _request_text(request: DocsRequest, original: str) -> str:
    target = f": {request.target}" if request.target else ""
    return f"The user's request:\n{original}\n\nDetected: {KIND_LABELS[request.kind]}{target}"


def _strategy_text(strategy: Strategy) -> str:
    lines = [f"Audience: {strategy.audience}"]
    if strategy.include:
        lines.append("Include: " + "; ".join(strategy.include))
    if strategy.exclude:
        lines.append("Leave out: " + "; ".join(strategy.exclude))
    if strategy.style:
        lines.append(f"Style: {strategy.style}")
    if strategy.paths:
        lines.append("Key files: " + ", ".join(strategy.paths))
    return "\n".join(lines)


DEFAULT_SECTIONS: dict[str, tuple[tuple[str, str], ...]] = {
    "module": (("Overview", "what the module is for"), ("Usage", "its main classes and functions and how to call them")),
    "feature": (("Overview", "what the feature does and where it lives"), ("How it works", "the code path step by step")),
    "repository": (("Overview", "what the project does"), ("Structure", "the main packages and entry points")),
    "readme": (("Overview", "what the project does"), ("Usage", "how to install and run it")),
    "api_reference": (("Entry points", "the routes and commands"), ("Classes and functions", "the public API")),
}


def _default_plan(run: DocsRun) -> tuple[SectionPlan, ...]:
    subject = run.request.target or run.view.name
    return tuple(SectionPlan(title, goal, f"{subject} {goal}") for title, goal in DEFAULT_SECTIONS[run.request.kind])


@node(name="docs_plan_sections")
async def docs_plan_sections(ctx: AgentContext[str], runtime: Runtime[TurnServices]) -> AgentContext[str]:
    run = _run(ctx)
    content = (
        f"{_request_text(run.request, ctx.input)}\n\n{_strategy_text(run.strategy)}\n\n"
        f"Modules (the most relevant first):\n{run.catalog or '(none)'}\n\n"
        f"Plan at most {MAX_SECTIONS} sections."
    )
    await report_start(runtime, "plan_sections")
    answer = await ask_json(runtime, "docs_plan_sections", content, PLAN_SCHEMA)
    notes = run.notes
    title = run.request.title or run.request.target or run.view.name
    if answer.value is not None:
        sections = answer.value["sections"][:MAX_SECTIONS]
        plans = tuple(
            SectionPlan(
                title=str(s["heading"]).strip(),
                goal=str(s.get("purpose") or "").strip(),
                query=str(s.get("query") or s.get("purpose") or s["heading"]).strip(),
            )
            for s in sections
        )
        paths = tuple(tuple(p for p in stripped_strings(s.get("paths")) if p in run.view.line_counts) for s in sections)
        title = str(answer.value.get("title") or "").strip() or title
    else:
        plans = _default_plan(run)
        paths = tuple(() for _ in plans)
        notes += (f"the section plan could not be read ({answer.problem}); a default plan was used",)
    paths = tuple(section + tuple(p for p in run.strategy.paths if p not in section) for section in paths)
    return ctx.with_state(
        docs=run.evolve(title=title, plans=plans, section_paths=paths, pending=tuple(range(len(plans))), notes=notes)
    )


def _sources_text(draft_sources: Sequence[Source]) -> str:
    if not draft_sources:
        return "(retrieval found no code for this section; say so briefly instead of guessing)"
    return "\n\n".join(
        f"[{s.label}] {s.location} ({s.layer})\n{numbered(s.text, s.start_line)}" for s in draft_sources
    )


def _generation_text(run: DocsRun, index: int, sources: Sequence[Source], previous: SectionDraft | None) -> str:
    plan = run.plans[index]
    outline = "\n".join(
        f"{number}. {p.title}" + (f": {p.goal}" if p.goal else "") for number, p in enumerate(run.plans, 1)
    )
    parts = [
        f"Document: {run.title} ({KIND_LABELS[run.request.kind]})",
        _strategy_text(run.strategy),
    ]
    if run.policy:
        parts.append(f"The repository's documentation conventions:\n{run.policy}")
    parts += [
        f"Sections of the document:\n{outline}",
        f"Write section {index + 1} only: {plan.title}" + (f" ({plan.goal})" if plan.goal else ""),
        "Sources (cite them as path:start-end with the line numbers shown):\n" + _sources_text(sources),
    ]
    if previous is not None:
        parts += [
            f"Your previous version of this section:\n<<<\n{previous.body}\n>>>",
            "A review found these problems in it; fix every one:\n" + "\n".join(f"- {p}" for p in previous.problems),
        ]
    return "\n\n".join(parts)


async def _bounded(calls: Sequence[Callable[[], Awaitable[T]]], limit: int) -> list[T]:
    """Run the calls at most ``limit`` at a time; results in the calls' order.

    The first failure cancels the others and is raised as itself (not as an
    exception group), so a provider error reaches the turn as that error.
    """
    semaphore = asyncio.Semaphore(limit)

    async def one(call: Callable[[], Awaitable[T]]) -> T:
        async with semaphore:
            return await call()

    try:
        async with asyncio.TaskGroup() as group:
            tasks = [group.create_task(one(call)) for call in calls]
    except BaseExceptionGroup as failed:
        raise failed.exceptions[0] from None
    return [task.result() for task in tasks]


@node(name="docs_generation")
async def docs_generation(ctx: AgentContext[str], runtime: Runtime[TurnServices]) -> AgentContext[str]:
    """Write every pending section, ``SECTION_CONCURRENCY`` at a time."""
    run = _run(ctx)
    drafts: list[SectionDraft | None] = list(run.drafts) or [None] * len(run.plans)

    async def write(index: int) -> SectionDraft:
        previous = drafts[index]
        if previous is not None:
            sources = previous.sources
        else:
            sources = await in_database_pool(section_sources)(
                run.view, run.plans[index], paths=run.section_paths[index]
            )
        await report_start(runtime, "write_section", section=run.plans[index].title)
        started = time.perf_counter()
        body = await ask_text(runtime, "docs_generation", _generation_text(run, index, sources, previous))
        cited = len(parse_cited_ranges(body))
        await report_step(
            runtime,
            "write_section",
            started,
            arguments={"section": run.plans[index].title, "try": 1 if previous is None else previous.attempts + 1},
            result=f"{len(sources)} sources, {cited} citations",
        )
        return SectionDraft(
            plan=run.plans[index],
            body=clean_section_body(body, run.plans[index].title),
            sources=tuple(sources),
            attempts=1 if previous is None else previous.attempts + 1,
            regenerated_for=() if previous is None else previous.problems,
        )

    written = await _bounded([functools.partial(write, index) for index in run.pending], SECTION_CONCURRENCY)
    for index, draft in zip(run.pending, written):
        drafts[index] = draft
    return ctx.with_state(docs=run.evolve(drafts=tuple(drafts)))


def _check_text(view: IndexView, draft: SectionDraft) -> str:
    pieces: list[str] = []
    used = 0
    for cited in parse_cited_ranges(draft.body):
        code = material.cited_text(view, cited.path, cited.start_line, cited.end_line)
        if not code or used + len(code) > CHECK_CODE_CHARS:
            continue
        used += len(code)
        pieces.append(f"[{cited.path}:{cited.start_line}-{cited.end_line}]\n{code}")
    return (
        f"Section: {draft.plan.title}" + (f" ({draft.plan.goal})" if draft.plan.goal else "")
        + f"\n\nThe section:\n<<<\n{draft.body}\n>>>\n\nThe code it cites:\n\n" + "\n\n".join(pieces)
    )


def _issue_text(issue: Mapping[str, Any]) -> str:
    where = f"{issue['where']}: " if issue.get("where") else ""
    fix = f" (fix: {issue['fix']})" if issue.get("fix") else ""
    return f"{where}{issue['problem']}{fix}"


@node(name="docs_self_check")
async def docs_self_check(ctx: AgentContext[str], runtime: Runtime[TurnServices]) -> AgentContext[str]:
    """Check every pending section: its citations first, then its claims by the model."""
    run = _run(ctx)
    drafts = list(run.drafts)

    async def check(index: int) -> tuple[list[str], str]:
        await report_start(runtime, "check_section", section=drafts[index].plan.title)
        started = time.perf_counter()
        problems, note = await check_section(drafts[index])
        outcome = "; ".join(problems) if problems else (note or "passed")
        await report_step(
            runtime, "check_section", started, arguments={"section": drafts[index].plan.title}, result=outcome,
            ok=not problems,
        )
        return problems, note

    async def check_section(draft: SectionDraft) -> tuple[list[str], str]:
        problems = citation_problems(draft.body, draft.sources, run.view.line_counts)
        if problems:
            # A citation the index contradicts fails the section without asking the model.
            return problems, ""
        content = await in_database_pool(_check_text)(run.view, draft)
        answer = await ask_json(runtime, "docs_self_check", content, CHECK_SCHEMA)
        if answer.value is None:
            return [], f"the self-check of “{draft.plan.title}” could not be read ({answer.problem})"
        if answer.value["ok"]:
            return [], ""
        issues = [_issue_text(issue) for issue in answer.value.get("issues") or ()]
        return issues or ["the reviewer found the section inaccurate without naming the problem"], ""

    outcomes = await _bounded([functools.partial(check, index) for index in run.pending], SECTION_CONCURRENCY)
    notes = run.notes
    failing: list[int] = []
    for index, (problems, note) in zip(run.pending, outcomes):
        drafts[index] = dataclasses.replace(drafts[index], problems=tuple(problems))
        if problems:
            failing.append(index)
        if note:
            notes += (note,)
    # A failing section is written again once; a second failure is reported, not retried.
    retry = tuple(failing) if not run.regenerated else ()
    return ctx.with_state(
        docs=run.evolve(drafts=tuple(drafts), pending=retry, regenerated=run.regenerated or bool(retry), notes=notes)
    )


def _check_route(ctx: AgentContext[Any]) -> str:
    return "docs_generation" if _run(ctx).pending else "docs_execution_summary"


def _run_record(run: DocsRun) -> str:
    request = run.request
    lines = [
        f"Document: {run.title} ({KIND_LABELS[request.kind]}" + (f" of {request.target})" if request.target else ")"),
        f"Request understood by: {request.method}" + (f" ({request.reason})" if request.reason else ""),
        f"Sections: {len(run.drafts)}",
    ]
    for number, draft in enumerate(run.drafts, 1):
        cited = len(parse_cited_ranges(draft.body))
        status = "passed the self-check"
        if draft.problems:
            status = "still has problems after one rewrite: " + "; ".join(draft.problems)
        elif draft.attempts > 1:
            status = "rewritten once after the self-check found: " + "; ".join(draft.regenerated_for) + "; now passes"
        lines.append(f"{number}. {draft.plan.title}: {len(draft.sources)} sources, {cited} citations; {status}")
    lines += [f"Note: {note}" for note in run.notes]
    return "\n".join(lines)


def _fallback_summary(run: DocsRun) -> str:
    failing = [d.plan.title for d in run.drafts if d.problems]
    rewritten = [d.plan.title for d in run.drafts if d.attempts > 1 and not d.problems]
    text = f"I wrote **{run.title}** ({len(run.drafts)} sections) from the index of {run.view.name}."
    if rewritten:
        text += f" Rewritten after the self-check: {', '.join(rewritten)}."
    if failing:
        text += f" Still flagged by the self-check: {', '.join(failing)}."
    return text


@node(name="docs_execution_summary")
async def docs_execution_summary(ctx: AgentContext[str], runtime: Runtime[TurnServices]) -> AgentContext[str]:
    run = _run(ctx)
    lead = (
        f"Written from the index of `{run.view.name}`. Citations `path:start-end` point at lines of the indexed files."
    )
    appendix = ""
    if run.request.kind == "api_reference":
        entries = await in_database_pool(material.entrypoints_under)(run.view, run.request.target)
        tables = entrypoint_tables(entries, level=3)
        if tables:
            appendix = "\n".join(["## Entry points", "", ENTRYPOINTS_NOTE, "", *tables])
    elif run.request.kind in ("repository", "readme"):
        declared = await in_database_pool(material.dependencies_under)(run.view, run.request.target)
        tables = dependency_tables(declared, level=3)
        if tables:
            appendix = "\n".join(["## Dependencies", "", DEPENDENCIES_NOTE, "", *tables])
    document = assemble(run.title, lead, run.drafts, run.view.line_counts, appendix=appendix)
    prompt = await load_prompt("docs_execution_summary")
    request = ChatRequest(
        messages=(await system_message(prompt), Message("user", f"Run record:\n{_run_record(run)}")),
        # Streamed to the user above the document: limited like every answer.
        model_params=limited_to_the_answer_reserve({"temperature": 0.2}, runtime.services),
        prompt_name=prompt.name,
        prompt_version=prompt.version,
    )
    try:
        summary = (await stream_model(runtime, request)).text.strip()
    except LLMError:
        # The document is written; a failed summary must not lose it.
        summary = ""
    if not summary:
        summary = _fallback_summary(run)
        await runtime.emit(AgentEvent(type="text", text=summary))
    body = f"\n\n---\n\n{document}"
    await runtime.emit(AgentEvent(type="text", text=body))
    artifact = {"kind": "markdown", "name": artifact_name(run.title, ".md"), "content": document}
    await runtime.emit(AgentEvent(type="artifact", detail=artifact))
    spans = [source.span for draft in run.drafts for source in draft.sources]
    citations = used_citations(document, spans)
    if citations:
        await runtime.emit(AgentEvent(type="citations", citations=citations))
    return ctx.with_state(answer=summary + body, citations=citations, artifacts=(artifact,))


def build_docs_graph() -> Graph:
    return (
        GraphBuilder("docs")
        .entry(docs_detect)
        .route(docs_detect, _detect_route, targets=(docs_unavailable, docs_reference, docs_strategy))
        .edge(docs_strategy, docs_plan_sections)
        .edge(docs_plan_sections, docs_generation)
        .edge(docs_generation, docs_self_check)
        .route(docs_self_check, _check_route, targets=(docs_generation, docs_execution_summary))
        .exit(docs_unavailable, docs_reference, docs_execution_summary)
        .build()
    )


DOCS_GRAPH = build_docs_graph()
