"""The ``edits`` subgraph: a code change proposed as a patch checked against the indexed snapshot.

::

    project_edits_plan --(no repository / no model / nothing to change)--> project_edits_unavailable
        |                                                                   (or straight to delivery)
        v
    project_edits_hunks -> project_edits_self_check -> project_edits_deliver
             ^                        |
             +--(failing, attempts)---+

- ``project_edits_plan`` reads the code retrieval finds for the request (and
  the manifests declaring a package it names) and asks which files and places
  change, and why.
- ``project_edits_hunks`` asks, file by file, for a unified diff against the
  file's indexed text (shown with line numbers). On a later pass it asks
  again for the hunks that failed, with the reason each one failed.
- ``project_edits_self_check`` applies every hunk to the indexed text (see
  ``diffs``: the old lines must match exactly) and parses every changed
  Python file. Failing files go back to ``project_edits_hunks``, with the
  reasons, until ``MAX_ATTEMPTS`` tries per file. On the last pass the model
  reviews the patch that applies; what it flags is reported with the patch.
- ``project_edits_deliver`` renders the patch from the edited texts (so
  ``git apply`` accepts it on the uploaded tree), streams the answer with the
  patch in a ``diff`` block, and attaches it as a ``patch`` artifact. Hunks
  that still fail are listed in the answer with their reasons.

With the offline provider the graph says plainly that edits need a model, and
lists the code retrieval finds for the request so the change can be made by hand.
Results: ``state["answer"]``, ``state["artifacts"]``, ``state["citations"]``.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from chat.agent.citing import used_citations
from chat.agent.edits.diffs import (
    DiffParseError,
    FileCheck,
    FileDiff,
    apply_file_diff,
    extract_diff_text,
    parse_diff,
    path_problem,
    render_patch,
)
from chat.agent.events import AgentEvent
from chat.agent.turn import TurnServices
from chat.agent.writing import (
    IndexView,
    NoIndex,
    SectionPlan,
    Source,
    artifact_name,
    ask_json,
    ask_text,
    file_texts,
    numbered,
    open_index,
    recent_dialog,
    report_start,
    report_step,
    review_schema,
    section_sources,
    stripped_strings,
)
from database_pool import in_database_pool
from llm.graph import AgentContext, Graph, GraphBuilder, Runtime, node
from llm.providers.offline import CONFIGURE_MODEL_TEXT
from rag import services as rag

# Tries per file: the first diff plus regenerations of what failed.
MAX_ATTEMPTS = 3
MAX_FILES = 8
# Files up to this many lines are shown whole; longer ones as windows around the planned places.
WHOLE_FILE_LINES = 800
WINDOW_LINES = 60
# Places listed without a model, where the change would go.
OFFLINE_PLACES = 5

NEEDS_MODEL_TEXT = (
    "Proposing code changes needs a language model, and none is configured, so no patch was written. "
    f"{CONFIGURE_MODEL_TEXT}"
)
NO_REPOSITORY_TEXT = (
    "Code changes are written against a repository's index, and this chat has no repository. "
    "Start a chat on an uploaded repository to get patches."
)

PLAN_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "summary": {"type": "string"},
        "changes": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "path": {"type": "string", "minLength": 1},
                    "anchor": {"type": "string"},
                    "what": {"type": "string"},
                    "why": {"type": "string"},
                },
                "required": ["path", "what"],
            },
        },
        "tests": {"type": "array", "items": {"type": "string"}},
        "questions": {"type": "array", "items": {"type": "string"}},
    },
    "required": ["changes"],
}


REVIEW_SCHEMA = review_schema("path")


@dataclass(frozen=True)
class PlannedChange:
    path: str
    what: str
    why: str = ""
    anchor: str = ""


@dataclass(frozen=True)
class FileWork:
    """One file of the plan: its latest diff, what the check found, and how many tries it took."""

    path: str
    changes: tuple[PlannedChange, ...]
    is_new: bool
    diff: FileDiff | None = None
    check: FileCheck | None = None
    # Why the model's first answer could not be used at all (no diff for this file, unreadable diff).
    answer_problem: str = ""
    attempts: int = 0
    # Later answers that could not be used (the previous diff was kept), for the report.
    notes: tuple[str, ...] = ()

    @property
    def failures(self) -> list[str]:
        """Everything that is wrong with the file's latest diff, as sentences."""
        if self.answer_problem:
            return [self.answer_problem]
        if self.check is None:
            return []
        found = [f"hunk {f.index + 1}: {f.reason}" for f in self.check.failures]
        if self.check.syntax_error:
            found.append(self.check.syntax_error)
        return found


@dataclass(frozen=True)
class EditsRun:
    """What the edits nodes hand to each other (``state["edits"]``)."""

    view: IndexView
    summary: str = ""
    files: tuple[FileWork, ...] = ()
    sources: tuple[Source, ...] = ()
    tests: tuple[str, ...] = ()
    questions: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    # Paths of the files the next ``project_edits_hunks`` pass writes.
    pending: tuple[str, ...] = ()
    # What the model's review of the final patch found.
    review: tuple[str, ...] = ()

    def evolve(self, **changes: Any) -> EditsRun:
        return dataclasses.replace(self, **changes)


def _run(ctx: AgentContext[Any]) -> EditsRun:
    return ctx.state["edits"]


def _sources_text(sources: Sequence[Source]) -> str:
    if not sources:
        return "(retrieval found no code for this request)"
    return "\n\n".join(f"[{s.label}] {s.location}\n{numbered(s.text, s.start_line)}" for s in sources)


def indexed_path(path: str, view: IndexView) -> str:
    """A planned path as the index spells it, when the model wrote it as a diff or absolute path."""
    path = path.strip().removeprefix("./")
    if path not in view.line_counts:
        for prefix in ("a/", "b/", "/"):
            if path.startswith(prefix) and path[len(prefix) :] in view.line_counts:
                return path[len(prefix) :]
    return path


def _plan_sources(view: IndexView, request: str) -> tuple[Source, ...]:
    """The code retrieval finds for the request; first, the lines of the manifests that declare a package it
    names ("Bump jackson-databind to 2.17": the ``pom.xml`` that declares it)."""
    manifests = dict.fromkeys(dependency.path for dependency in rag.named_dependencies(view.repository, request, run=view.run))
    return section_sources(view, SectionPlan(title="", goal="", query=request), paths=list(manifests))


@node(name="project_edits_plan")
async def project_edits_plan(ctx: AgentContext[str], runtime: Runtime[TurnServices]) -> AgentContext[str]:
    services = runtime.services
    if services.toolbox is None:
        return ctx.with_state(edits_route="unavailable", edits_problem=NO_REPOSITORY_TEXT)
    try:
        view = await in_database_pool(open_index)(services.toolbox.repository)
    except NoIndex as exc:
        return ctx.with_state(edits_route="unavailable", edits_problem=f"Code changes need an index: {exc}.")
    sources = await in_database_pool(_plan_sources)(view, ctx.input)
    if services.offline:
        return ctx.with_state(
            edits_route="unavailable", edits_problem=_offline_text(sources), edits_spans=[s.span for s in sources]
        )
    dialog = recent_dialog(ctx.history)
    content = (
        (f"The conversation so far:\n{dialog}\n\n" if dialog else "")
        + f"The user's request:\n{ctx.input}\n\nRetrieved code (cite it as path:start-end):\n{_sources_text(sources)}"
    )
    await report_start(runtime, "plan_edits")
    answer = await ask_json(runtime, "project_edits_plan", content, PLAN_SCHEMA)
    run = EditsRun(view=view, sources=sources)
    if answer.value is None:
        note = f"the change could not be planned: the model's plan was unreadable ({answer.problem})"
        return ctx.with_state(edits_route="deliver", edits=run.evolve(notes=(note,)))
    value = answer.value
    by_path: dict[str, list[PlannedChange]] = {}
    notes: list[str] = []
    for change in value["changes"]:
        path = indexed_path(str(change["path"]), view)
        problem = path_problem(path)
        if not problem and path in view.undecodable:
            # Its indexed text has replacement characters, so hunks written against it would not apply.
            problem = "the file is not valid UTF-8, so a patch written against its indexed text would not apply"
        if problem:
            notes.append(f"the plan's change to {path!r} was skipped: {problem}")
            continue
        by_path.setdefault(path, []).append(
            PlannedChange(
                path=path, what=str(change["what"]), why=str(change.get("why") or ""), anchor=str(change.get("anchor") or "")
            )
        )
    paths = list(by_path)
    if len(paths) > MAX_FILES:
        notes.append(f"the plan touches {len(paths)} files; only the first {MAX_FILES} were changed: ask for the rest next")
        paths = paths[:MAX_FILES]
    files = tuple(
        FileWork(path=path, changes=tuple(by_path[path]), is_new=path not in view.line_counts) for path in paths
    )
    run = run.evolve(
        summary=str(value.get("summary") or "").strip(),
        files=files,
        tests=stripped_strings(value.get("tests")),
        questions=stripped_strings(value.get("questions")),
        notes=tuple(notes),
        pending=tuple(paths),
    )
    return ctx.with_state(edits_route="hunks" if files else "deliver", edits=run)


def _plan_route(ctx: AgentContext[Any]) -> str:
    return {
        "unavailable": "project_edits_unavailable",
        "deliver": "project_edits_deliver",
    }.get(ctx.state["edits_route"], "project_edits_hunks")


def _offline_text(sources: Sequence[Source]) -> str:
    """The plain notice, and where retrieval places the change, so the reader can make it by hand."""
    places = [
        f"- `{s.location}`: `{next((line.strip() for line in s.text.splitlines() if line.strip()), '')}`"
        for s in sources[:OFFLINE_PLACES]
    ]
    if not places:
        return NEEDS_MODEL_TEXT
    return f"{NEEDS_MODEL_TEXT}\n\nThe code the index finds for this request:\n\n" + "\n".join(places) + "\n"


@node(name="project_edits_unavailable")
async def project_edits_unavailable(ctx: AgentContext[str], runtime: Runtime[TurnServices]) -> AgentContext[str]:
    text = ctx.state["edits_problem"]
    await runtime.emit(AgentEvent(type="text", text=text))
    citations = used_citations(text, ctx.state.get("edits_spans", ()))
    if citations:
        await runtime.emit(AgentEvent(type="citations", citations=citations))
    return ctx.with_state(answer=text, citations=citations, artifacts=())


def _anchor_lines(anchor: str) -> tuple[int, int] | None:
    """The line range of an anchor ``path:start-end`` (or ``path:line``)."""
    _, _, lines = anchor.rpartition(":")
    start, _, end = lines.partition("-")
    if not start.strip().isdigit():
        return None
    first = int(start)
    last = int(end) if end.strip().isdigit() else first
    return (first, max(first, last))


def file_view(text: str, anchors: Sequence[str]) -> str:
    """The file with line numbers: whole when short, else windows around the anchors."""
    lines = text.splitlines()
    if len(lines) <= WHOLE_FILE_LINES:
        return numbered("\n".join(lines), 1) if lines else "(the file is empty)"
    windows: list[tuple[int, int]] = []
    for anchor in anchors:
        span = _anchor_lines(anchor)
        if span:
            windows.append((max(1, span[0] - WINDOW_LINES), min(len(lines), span[1] + WINDOW_LINES)))
    if not windows:
        windows = [(1, WHOLE_FILE_LINES)]
    windows.sort()
    merged: list[tuple[int, int]] = []
    for start, end in windows:
        if merged and start <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    parts = []
    for start, end in merged:
        parts.append(f"(lines {start}-{end} of {len(lines)})\n" + numbered("\n".join(lines[start - 1 : end]), start))
    return "\n...\n".join(parts)


def _changes_text(work: FileWork) -> str:
    return "\n".join(
        f"- {c.what}" + (f" (why: {c.why})" if c.why else "") + (f" [at {c.anchor}]" if c.anchor else "")
        for c in work.changes
    )


def _hunks_request(request: str, run: EditsRun, work: FileWork, text: str | None) -> str:
    if work.is_new:
        current = f"{work.path} does not exist yet: create it with `--- /dev/null` and `+++ b/{work.path}`."
    else:
        anchors = [c.anchor for c in work.changes if c.anchor]
        current = f"The current content of {work.path} (line numbers are not part of the file):\n{file_view(text or '', anchors)}"
    return (
        f"The user's request:\n{request}\n\nThe plan: {run.summary or '(no summary)'}\n\n"
        f"Changes to make in {work.path}:\n{_changes_text(work)}\n\n{current}"
    )


def _fix_request(request: str, run: EditsRun, work: FileWork, text: str | None) -> str:
    assert work.check is not None or work.answer_problem
    parts = [_hunks_request(request, run, work, text)]
    if work.answer_problem:
        parts.append(f"Your previous answer for {work.path} could not be used: {work.answer_problem}")
        return "\n\n".join(parts)
    check = work.check
    assert check is not None and work.diff is not None
    if check.syntax_error:
        parts.append(
            f"Your previous diff applied, but {check.syntax_error}. Write the whole diff for {work.path} again, "
            f"every hunk, so that the file parses.\n\nThe previous diff:\n```diff\n{_diff_text(work.diff)}\n```"
        )
        return "\n\n".join(parts)
    failed = "\n\n".join(f"Hunk {f.index + 1} failed: {f.reason}\n```diff\n{f.hunk}\n```" for f in check.failures)
    kept = [work.diff.hunks[i].text() for i in check.applied]
    parts.append(f"These hunks of your previous diff for {work.path} did not apply:\n\n{failed}")
    if kept:
        parts.append(
            "These hunks applied and are kept, so do not repeat them:\n```diff\n" + "\n".join(kept) + "\n```"
        )
    parts.append(f"Write only the corrected hunks, as a diff for {work.path}.")
    return "\n\n".join(parts)


def _diff_text(diff: FileDiff) -> str:
    old = f"a/{diff.old_path}" if diff.old_path else "/dev/null"
    new = f"b/{diff.new_path}" if diff.new_path else "/dev/null"
    return "\n".join((f"--- {old}", f"+++ {new}", *(hunk.text() for hunk in diff.hunks)))


def _read_answer(answer: str, work: FileWork) -> tuple[FileDiff | None, str]:
    """This file's section of the model's diff, or why there is none."""
    try:
        sections = parse_diff(extract_diff_text(answer))
    except DiffParseError as exc:
        return None, f"the answer is not a unified diff ({exc})"
    mine = [section for section in sections if section.path == work.path]
    if not mine:
        named = ", ".join(sorted({section.path for section in sections}))
        return None, f"the diff changes {named}, not {work.path}"
    hunks = tuple(hunk for section in mine for hunk in section.hunks)
    first = mine[0]
    if not hunks and not first.is_deleted:
        return None, f"the diff for {work.path} has no hunks"
    return FileDiff(old_path=first.old_path, new_path=first.new_path, hunks=hunks), ""


def _merge_fix(work: FileWork, fixed: FileDiff) -> FileDiff:
    """The kept hunks of the previous diff plus the corrected ones (all new ones after a syntax error)."""
    previous, check = work.diff, work.check
    if previous is None or check is None or check.syntax_error:
        return fixed
    kept = tuple(previous.hunks[i] for i in check.applied)
    # A model asked for the failed hunks only sometimes repeats the kept ones too.
    added = tuple(hunk for hunk in fixed.hunks if all(hunk.lines != old.lines for old in kept))
    return dataclasses.replace(previous, hunks=kept + added)


def _next_try(work: FileWork, answer: str) -> FileWork:
    diff, problem = _read_answer(answer, work)
    attempts = work.attempts + 1
    if diff is None and work.diff is not None:
        # An unusable fix keeps the previous diff, whose failures are asked about again.
        return dataclasses.replace(work, attempts=attempts, notes=work.notes + (f"try {attempts}: {problem}",))
    if diff is None:
        return dataclasses.replace(work, diff=None, check=None, answer_problem=problem, attempts=attempts)
    if work.diff is not None:
        diff = _merge_fix(work, diff)
    return dataclasses.replace(work, diff=diff, check=None, answer_problem="", attempts=attempts)


@node(name="project_edits_hunks")
async def project_edits_hunks(ctx: AgentContext[str], runtime: Runtime[TurnServices]) -> AgentContext[str]:
    run = _run(ctx)
    texts = await in_database_pool(file_texts)(run.view, run.pending)
    files = []
    for work in run.files:
        if work.path in run.pending:
            text = texts.get(work.path)
            if work.attempts == 0:
                content = _hunks_request(ctx.input, run, work, text)
            else:
                content = _fix_request(ctx.input, run, work, text)
            await report_start(runtime, "write_diff", path=work.path)
            started = time.perf_counter()
            work = _next_try(work, await ask_text(runtime, "project_edits_hunks", content, temperature=0.0))
            written = f"{len(work.diff.hunks)} hunks" if work.diff is not None else work.answer_problem
            await report_step(
                runtime, "write_diff", started, arguments={"path": work.path, "try": work.attempts}, result=written,
                ok=work.diff is not None,
            )
        files.append(work)
    return ctx.with_state(edits=run.evolve(files=tuple(files), pending=()))


@node(name="project_edits_self_check")
async def project_edits_self_check(ctx: AgentContext[str], runtime: Runtime[TurnServices]) -> AgentContext[str]:
    """Apply and parse every file's diff; once nothing is left to retry, have the model review the patch."""
    run = _run(ctx)
    # Only the diffs written in the last pass changed; the others keep their check.
    pending_before = {w.path for w in run.files if w.check is None}
    texts = await in_database_pool(file_texts)(run.view, pending_before)
    files = []
    retry = []
    for work in run.files:
        if work.diff is not None and not work.answer_problem and work.path in pending_before:
            started = time.perf_counter()
            work = dataclasses.replace(work, check=apply_file_diff(work.diff, texts))
            assert work.check is not None
            applied = f"{len(work.check.applied)} of {len(work.diff.hunks)} hunks applied"
            result = "; ".join([applied, *work.failures]) if work.failures else applied
            await report_step(
                runtime, "apply_diff", started, arguments={"path": work.path}, result=result, ok=not work.failures
            )
        files.append(work)
        if work.failures and work.attempts < MAX_ATTEMPTS:
            retry.append(work.path)
    run = run.evolve(files=tuple(files), pending=tuple(retry))
    if not retry:
        patch = render_patch(_shippable(run))
        if patch:
            run = run.evolve(review=await _review(runtime, ctx.input, run, patch))
    return ctx.with_state(edits=run)


async def _review(runtime: Runtime[TurnServices], request: str, run: EditsRun, patch: str) -> tuple[str, ...]:
    """The reviewer's issues with a patch that applies (empty when it found none)."""
    plan = "\n".join(f"- {w.path}: {_changes_text(w)}" for w in run.files)
    content = (
        f"The user's request:\n{request}\n\nThe plan: {run.summary or '(no summary)'}\n{plan}\n\n"
        f"The code it was planned from:\n{_sources_text(run.sources)}\n\nThe patch:\n```diff\n{patch}```"
    )
    await report_start(runtime, "review_patch")
    answer = await ask_json(runtime, "project_edits_self_check", content, REVIEW_SCHEMA)
    if answer.value is None:
        return (f"the review's answer could not be read ({answer.problem})",)
    issues = answer.value.get("issues") or ()
    found = tuple(
        (f"`{issue['path']}`: " if issue.get("path") else "") + issue["problem"]
        + (f" (fix: {issue['fix']})" if issue.get("fix") else "")
        for issue in issues
    )
    if not answer.value["ok"] and not found:
        return ("the reviewer found the patch incorrect without naming the problem",)
    return found


def _check_route(ctx: AgentContext[Any]) -> str:
    return "project_edits_hunks" if _run(ctx).pending else "project_edits_deliver"


def _usable(work: FileWork) -> FileCheck | None:
    """The file's applied edits when they can ship: every applied hunk, and the file still parses."""
    check = work.check
    if check is None or work.answer_problem or check.syntax_error or not check.changed:
        return None
    return check


def _shippable(run: EditsRun) -> list[FileCheck]:
    return [check for check in (_usable(work) for work in run.files) if check is not None]


def _failure_lines(work: FileWork) -> list[str]:
    tries = f"after {work.attempts} {'try' if work.attempts == 1 else 'tries'}"
    lines = [f"- `{work.path}`: {note}" for note in work.notes] if work.failures else []
    if work.answer_problem:
        lines.append(f"- `{work.path}` ({tries}): {work.answer_problem}")
        return lines
    check = work.check
    if check is None:
        return lines
    if check.syntax_error:
        lines.append(f"- `{work.path}` ({tries}): left out, because {check.syntax_error}")
    for failure in check.failures:
        lines.append(f"- `{work.path}`, hunk {failure.index + 1} ({tries}): {failure.reason}")
        if failure.hunk:
            lines += ["", "  ```diff", *(f"  {line}" for line in failure.hunk.splitlines()), "  ```"]
    return lines


def answer_text(run: EditsRun, patch: str, patch_name: str) -> str:
    """The answer: plan, the patch (or why there is none), what failed, open questions."""
    parts: list[str] = []
    if run.summary:
        parts.append(f"**Plan:** {run.summary}")
    if run.files:
        parts.append(
            "\n".join(
                f"- `{w.path}`{' (new file)' if w.is_new else ''}: " + "; ".join(c.what for c in w.changes)
                for w in run.files
            )
        )
    if patch:
        parts.append(
            f"Every hunk below was applied to the indexed files and every changed code file still parses with its language's grammar. "
            f"Download `{patch_name}` and run `git apply {patch_name}` at the repository's root."
        )
        parts.append(f"```diff\n{patch.rstrip()}\n```")
    elif run.files:
        parts.append("**No patch was produced:** no planned change could be applied to the indexed files.")
    else:
        parts.append("**No patch was produced:** the plan names no file to change.")
    failures = [line for work in run.files for line in _failure_lines(work)]
    if failures:
        parts.append("**Not in the patch** (these still failed the check):\n\n" + "\n".join(failures))
    if run.review:
        parts.append(
            "**The review of the patch flags** (check these before applying it):\n"
            + "\n".join(f"- {issue}" for issue in run.review)
        )
    if run.tests:
        parts.append("**Tests to add or update:**\n" + "\n".join(f"- {t}" for t in run.tests))
    if run.questions:
        parts.append("**Open questions:**\n" + "\n".join(f"- {q}" for q in run.questions))
    if run.notes:
        parts.append("**Notes:**\n" + "\n".join(f"- {n}" for n in run.notes))
    return "\n\n".join(parts) + "\n"


@node(name="project_edits_deliver")
async def project_edits_deliver(ctx: AgentContext[str], runtime: Runtime[TurnServices]) -> AgentContext[str]:
    run = _run(ctx)
    patch = render_patch(_shippable(run))
    indexed = run.view.run
    if patch and indexed.commit_sha:
        # git apply skips text before the first diff: the patch says which commit it was written against.
        patch = f"Written against {run.view.name} at commit {indexed.commit_sha} (index version {indexed.pk}).\n\n" + patch
    name = artifact_name(run.summary or ctx.input[:60] or "change", ".patch")
    text = answer_text(run, patch, name)
    await runtime.emit(AgentEvent(type="text", text=text))
    artifacts: tuple[dict[str, str], ...] = ()
    if patch:
        artifact = {"kind": "patch", "name": name, "content": patch}
        await runtime.emit(AgentEvent(type="artifact", detail=artifact))
        artifacts = (artifact,)
    citations = used_citations(text, [source.span for source in run.sources])
    if citations:
        await runtime.emit(AgentEvent(type="citations", citations=citations))
    return ctx.with_state(answer=text, citations=citations, artifacts=artifacts)


def build_edits_graph() -> Graph:
    return (
        GraphBuilder("edits")
        .entry(project_edits_plan)
        .route(
            project_edits_plan,
            _plan_route,
            targets=(project_edits_unavailable, project_edits_hunks, project_edits_deliver),
        )
        .edge(project_edits_hunks, project_edits_self_check)
        .route(project_edits_self_check, _check_route, targets=(project_edits_hunks, project_edits_deliver))
        .exit(project_edits_unavailable, project_edits_deliver)
        .build()
    )


EDITS_GRAPH = build_edits_graph()
