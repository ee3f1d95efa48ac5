"""The MCP server: ``rag.tools`` for one repository per call, ``list_repositories``, ``ask``, and files as resources.

Every handler acts as the token's user (``CALLER``, set by the endpoint for
the request): it sees the repositories ``tokens.repositories_for_token``
gives, nothing else. A tool that cannot do what was asked answers with an MCP
tool error whose text says what to change; every call is counted against the
token's rate limit and recorded (``ToolUse``).
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import logging
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, unquote

import anyio
from cachetools import LRUCache
from django.conf import settings
from django.db.models import Q
from django.utils import timezone
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError
from mcp_types import (
    INVALID_PARAMS,
    CallToolRequestParams,
    CallToolResult,
    ListResourcesResult,
    ListResourceTemplatesResult,
    ListToolsResult,
    PaginatedRequestParams,
    ReadResourceRequestParams,
    ReadResourceResult,
    Resource,
    ResourceTemplate,
    TextContent,
    TextResourceContents,
    Tool,
    ToolAnnotations,
)

from chat.agent.agent import TurnInput, stream_turn
from chat.agent.events import AgentEvent
from chat.mcp import tokens
from chat.mcp.models import AccessToken
from database_pool import in_database_pool
from llm.types import ToolCall
from rag import services as rag
from rag.models import IndexRun, Repository, SourceFile, in_version_q
from rag.tools import Caps, RepositoryToolbox, ToolResult, argument_problems, schema_validator, tool_definitions, version_label

logger = logging.getLogger(__name__)

SERVER_NAME = "codebase-assistant"
INSTRUCTIONS = (
    "Tools over the team's self-hosted code index. Start with list_repositories; pass a repository's name "
    "to the other tools. search_code finds code by words or identifiers, get_symbol / find_references / "
    "callers / callees follow the symbol graph, read_file reads exact lines, and ask has the assistant "
    "answer a question with citations. Results cite path:start-end in the named index version."
)
# An editor asks for results one call at a time: room for more than a chat turn's share.
MCP_CAPS = Caps(items=12, files=10, result_chars=40_000)
RESOURCES_PAGE = 500
RESOURCE_MAX_LINES = 20_000
URI_SCHEME = "repo://"

# The token the current request was made with; set by the endpoint before the SDK handles it.
CALLER: contextvars.ContextVar[AccessToken | None] = contextvars.ContextVar("mcp_caller", default=None)


class CallRefused(Exception):
    """The call cannot run as asked; the message is for the person at the editor."""


class TokenRefused(CallRefused):
    """The token may not call now (revoked, expired, over its rate); such a call is not recorded."""


@dataclass(frozen=True)
class Outcome:
    """What one tool call produced, for the MCP result and the record."""

    text: str
    error: bool = False
    repository: Repository | None = None
    structured: dict[str, Any] | None = None


def _caller() -> AccessToken:
    token = CALLER.get()
    if token is None:
        # The endpoint authenticates every request before the SDK sees it.
        raise CallRefused("this request carries no access token")
    return token


def _repository(token: AccessToken, reference: str, *, checks_token: bool = False) -> Repository:
    """The repository the token may see, by name (or id when several share the name).

    ``checks_token``: the same statement checks the token too (``tokens.refusal_in``), and a refusal
    raises ``TokenRefused``: a repository tool's call costs one statement before its work, not two.
    """
    reference = (reference or "").strip()
    # The index version comes from the process's cache of versions (``_with_run``), not from this statement.
    visible = tokens.repositories_for_token(token).select_related(None).select_related("owner")
    if checks_token:
        visible = visible.annotate(**tokens.state_of(token))
    named = list(visible.filter(name=reference)[:10])
    if not named and reference.isdigit():
        named = list(visible.filter(pk=int(reference)))
    if checks_token:
        refused = tokens.refusal_in(vars(named[0])) if named else tokens.refusal(token)
        if refused:
            raise TokenRefused(refused)
    if not named:
        names = ", ".join(visible.values_list("name", flat=True)[:20]) or "none"
        raise CallRefused(f"no repository named {reference!r} is visible to this token; yours: {names}")
    if len(named) > 1:
        own = [repository for repository in named if repository.owner_id == token.user_id]
        if len(own) == 1:
            return _with_run(own[0])
        ids = ", ".join(f"{repository.pk} (owner {repository.owner.username})" for repository in named)
        raise CallRefused(f"several repositories are named {reference!r}: pass one of these ids instead: {ids}")
    return _with_run(named[0])


# Index versions by id. What a search reads of a version (its embedder, common words, statistics) is fixed
# once it is built, and a version row carries kilobytes of JSON: read once per process, not once per call.
_RUNS: LRUCache[int, IndexRun] = LRUCache(maxsize=256)
_RUNS_LOCK = threading.Lock()


def _with_run(repository: Repository) -> Repository:
    """``repository`` with its serving version attached from the cache (read on a miss)."""
    run_id = repository.active_run_id
    if run_id is None:
        return repository
    with _RUNS_LOCK:
        run = _RUNS.get(run_id)
    if run is None:
        run = IndexRun.objects.get(pk=run_id)
        with _RUNS_LOCK:
            _RUNS[run_id] = run
    repository.active_run = run
    return repository


def _indexed(repository: Repository) -> Repository:
    if repository.active_run_id is None:
        raise CallRefused(f"{repository.name} has no finished index yet; try again when indexing is done")
    return repository


def _structured(repository: Repository, result: ToolResult) -> dict[str, Any]:
    return {
        "repository": repository.name,
        "index_version": version_label(repository.active_run),
        "spans": [{"path": s.path, "start_line": s.start_line, "end_line": s.end_line, "layer": s.layer} for s in result.spans],
    }


def _run_repository_tool(token: AccessToken, name: str, arguments: dict[str, Any]) -> Outcome:
    repository = _indexed(_repository(token, str(arguments.pop("repository", "")), checks_token=True))
    result = RepositoryToolbox(repository, MCP_CAPS).call_sync(ToolCall(id="mcp", name=name, arguments=arguments))
    header = f"{repository.name} ({version_label(repository.active_run)})"
    return Outcome(
        text=f"{header}\n{result.content}",
        error=result.error,
        repository=repository,
        structured=_structured(repository, result),
    )


def _list_repositories(token: AccessToken) -> Outcome:
    rows = []
    for repository in tokens.repositories_for_token(token).order_by("name"):
        run = repository.active_run
        state = "not indexed yet" if run is None else (
            f"{version_label(run)}, {run.counts.get('files', 0)} files, indexed {run.finished_at:%Y-%m-%d %H:%M} UTC"
            if run.finished_at
            else version_label(run)
        )
        rows.append({"id": repository.pk, "name": repository.name, "owner": repository.owner.username, "index": state})
    if not rows:
        return Outcome(text="No repositories are visible to this token.", structured={"repositories": []})
    lines = [f"{len(rows)} repositories:"] + [f"- {row['name']} (id {row['id']}, owner {row['owner']}): {row['index']}" for row in rows]
    return Outcome(text="\n".join(lines), structured={"repositories": rows})


def _failure(tool: str, exc: BaseException) -> str:
    if isinstance(exc, CallRefused):
        return str(exc)
    if isinstance(exc, TimeoutError):
        return f"the answer took longer than {settings.MCP_ASK_TIMEOUT_SECONDS:g} s and was stopped; ask a narrower question"
    logger.error("MCP call %s failed", tool, exc_info=exc)
    return f"{tool} failed on the server ({type(exc).__name__}); the error is in the server's log"


def _record(token: AccessToken, tool: str, outcome: Outcome | None, started_at, seconds: float, error: str) -> None:
    tokens.record_use(
        token,
        tool,
        outcome.repository if outcome else None,
        started_at,
        seconds * 1000,
        error or (outcome.text[:500] if outcome and outcome.error else ""),
    )


Record = Callable[[], None]


def _metered(
    token: AccessToken, tool: str, run: Callable[[], Outcome], *, run_checks_token: bool = False
) -> tuple[Outcome | None, str, Record | None]:
    """The token's check and the call in one trip to a database thread: (outcome, error, the call's record to write).

    ``run_checks_token``: ``run`` checks the token itself in its first statement (raising ``TokenRefused``).
    """
    started_at, started = timezone.now(), time.perf_counter()
    # Refused calls are not recorded, so a client that retries too soon does not extend its wait.
    refused = "" if run_checks_token else tokens.refusal(token)
    if refused:
        return None, refused, None
    outcome, error = None, ""
    try:
        outcome = run()
    except TokenRefused as exc:
        return None, str(exc), None
    except Exception as exc:
        error = _failure(tool, exc)
    return outcome, error, functools.partial(_record, token, tool, outcome, started_at, time.perf_counter() - started, error)


# Records being written after their call was answered (a reference each, until written).
_RECORDING: set[asyncio.Task] = set()


def _written(task: asyncio.Task) -> None:
    _RECORDING.discard(task)
    if not task.cancelled() and task.exception() is not None:
        logger.error("an MCP call's record was not written", exc_info=task.exception())


async def _metered_call(
    token: AccessToken, tool: str, run: Callable[[], Outcome], *, run_checks_token: bool = False
) -> tuple[Outcome | None, str]:
    """``_metered`` on the database pool; the record is written beside the answer, not before it."""
    outcome, error, record = await in_database_pool(_metered)(token, tool, run, run_checks_token=run_checks_token)
    if record is not None:
        task = asyncio.get_running_loop().create_task(in_database_pool(record)())
        _RECORDING.add(task)
        task.add_done_callback(_written)
    return outcome, error


# --- tools ------------------------------------------------------------------------------

REPOSITORY_ARGUMENT = {"type": "string", "minLength": 1, "description": "The repository's name (or id), from list_repositories."}
READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False)


def _with_repository(parameters: dict[str, Any]) -> dict[str, Any]:
    schema = dict(parameters)
    schema["properties"] = {"repository": REPOSITORY_ARGUMENT, **parameters["properties"]}
    schema["required"] = ["repository", *parameters.get("required", [])]
    return schema


def _tools() -> list[Tool]:
    tools = [
        Tool(
            name="list_repositories",
            description="The repositories this token may read, with their index version and state.",
            input_schema={"type": "object", "properties": {}, "additionalProperties": False},
            annotations=READ_ONLY,
        )
    ]
    tools += [
        Tool(
            name=tool.spec.name,
            description=tool.spec.description,
            input_schema=_with_repository(tool.spec.parameters),
            annotations=READ_ONLY,
        )
        for tool in tool_definitions()
    ]
    tools.append(
        Tool(
            name="ask",
            description=(
                "Ask the assistant a question about a repository: it searches and reads the code itself and "
                "answers with citations (path:start-end). Slower than the other tools; reports progress."
            ),
            input_schema={
                "type": "object",
                "properties": {
                    "repository": REPOSITORY_ARGUMENT,
                    "question": {"type": "string", "minLength": 1, "maxLength": settings.CHAT["MAX_MESSAGE_CHARS"]},
                },
                "required": ["repository", "question"],
                "additionalProperties": False,
            },
            annotations=ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=False, open_world_hint=False),
        )
    )
    return tools


TOOLS = _tools()
REPOSITORY_TOOLS = frozenset(tool.spec.name for tool in tool_definitions())
# The repository tools check their own arguments (rag.tools); these are the door's own tools.
VALIDATORS = {tool.name: schema_validator(tool.input_schema) for tool in TOOLS if tool.name not in REPOSITORY_TOOLS}


def _checked_arguments(name: str, arguments: dict[str, Any]) -> str:
    """What is wrong with a call's arguments to one of the door's own tools ("" when nothing)."""
    validator = VALIDATORS.get(name)
    return argument_problems(name, validator, arguments) if validator is not None else ""


async def list_tools(ctx: ServerRequestContext, params: PaginatedRequestParams | None) -> ListToolsResult:
    return ListToolsResult(tools=TOOLS)


def _progress_message(event: AgentEvent) -> str | None:
    if event.type == "intent":
        return f"answering as {event.intent}"
    if event.type == "step" and event.detail.get("tool"):
        return f"{event.detail['tool']}: {event.detail.get('result', '')}".strip()
    return None


async def _ask(ctx: ServerRequestContext, token: AccessToken, arguments: dict[str, Any]) -> Outcome:
    question = str(arguments.get("question", "")).strip()
    if not question:
        raise CallRefused("the question is empty")
    repository = await in_database_pool(lambda: _indexed(_repository(token, str(arguments.get("repository", "")))))()
    turn = TurnInput(
        session_id=0,
        user_id=token.user_id,
        repository_id=repository.pk,
        text=question,
        history=(),
        correlation_id=f"mcp-{uuid.uuid4().hex}",
    )
    parts: list[str] = []
    cited: dict[tuple[str, int, int], None] = {}
    steps = 0
    await ctx.session.report_progress(0, None, f"reading {repository.name}")
    with anyio.fail_after(settings.MCP_ASK_TIMEOUT_SECONDS):
        async for event in stream_turn(turn):
            if event.type == "text":
                parts.append(event.text)
            elif event.type == "citations":
                cited.update({(c.path, c.start_line, c.end_line): None for c in event.citations})
            elif event.type == "error":
                return Outcome(text=event.text, error=True, repository=repository)
            elif (message := _progress_message(event)) is not None:
                steps += 1
                await ctx.session.report_progress(steps, None, message)
    answer = "".join(parts).strip()
    sources = [f"{path}:{start}-{end}" for path, start, end in cited]
    text = answer + ("\n\nSources:\n" + "\n".join(f"- {source}" for source in sources) if sources else "")
    label = await in_database_pool(lambda: version_label(repository.active_run))()
    return Outcome(
        text=f"{repository.name} ({label})\n{text}",
        repository=repository,
        structured={
            "repository": repository.name,
            "index_version": label,
            "answer": answer,
            "citations": [{"path": p, "start_line": s, "end_line": e} for p, s, e in cited],
        },
    )


async def _metered_ask(ctx: ServerRequestContext, token: AccessToken, arguments: dict[str, Any]) -> tuple[Outcome | None, str]:
    started_at, started = timezone.now(), time.perf_counter()
    refused = await in_database_pool(tokens.refusal)(token)
    if refused:
        return None, refused
    outcome, error = None, ""
    try:
        outcome = await _ask(ctx, token, arguments)
    except Exception as exc:
        error = _failure("ask", exc)
    await in_database_pool(_record)(token, "ask", outcome, started_at, time.perf_counter() - started, error)
    return outcome, error


def _unknown_tool(name: str) -> Outcome:
    known = ", ".join(tool.name for tool in TOOLS)
    raise CallRefused(f"there is no tool named {name!r}; the tools are: {known}")


async def call_tool(ctx: ServerRequestContext, params: CallToolRequestParams) -> CallToolResult:
    token = _caller()
    name = params.name
    arguments = dict(params.arguments or {})
    invalid = _checked_arguments(name, arguments)
    if invalid:
        return CallToolResult(content=[TextContent(type="text", text=f"Error: {invalid}")], is_error=True)
    if name == "ask":
        outcome, error = await _metered_ask(ctx, token, arguments)
    else:
        if name == "list_repositories":
            run = functools.partial(_list_repositories, token)
        elif name in REPOSITORY_TOOLS:
            run = functools.partial(_run_repository_tool, token, name, arguments)
        else:
            run = functools.partial(_unknown_tool, name)
        outcome, error = await _metered_call(token, name, run, run_checks_token=name in REPOSITORY_TOOLS)
    if error:
        return CallToolResult(content=[TextContent(type="text", text=f"Error: {error}")], is_error=True)
    assert outcome is not None
    return CallToolResult(
        content=[TextContent(type="text", text=outcome.text)],
        structured_content=outcome.structured,
        is_error=outcome.error,
    )


# --- resources --------------------------------------------------------------------------


def resource_uri(repository: Repository, path: str) -> str:
    return f"{URI_SCHEME}{quote(repository.name, safe='')}/{quote(path)}"


def _parse_uri(uri: str) -> tuple[str, str]:
    if not uri.startswith(URI_SCHEME) or "/" not in uri[len(URI_SCHEME):]:
        raise CallRefused(f"{uri!r} is not a file of this server; its files are {URI_SCHEME}<repository>/<path>")
    repository, _, path = uri[len(URI_SCHEME):].partition("/")
    return unquote(repository), unquote(path)


def _list_files(token: AccessToken, cursor: str | None) -> ListResourcesResult:
    """The indexed files of every repository the token sees, RESOURCES_PAGE at a time (cursor: an offset)."""
    refused = tokens.refusal(token)
    if refused:
        raise CallRefused(refused)
    offset = int(cursor) if cursor and cursor.isdigit() else 0
    # A store belongs to one repository, so the store names the repository of each file.
    stores = {
        repository.active_run.store_id: repository
        for repository in tokens.repositories_for_token(token).select_related("active_run")
        if repository.active_run_id and repository.active_run.store_id
    }
    visible = Q(pk__in=[])
    for repository in stores.values():
        visible |= in_version_q(repository.active_run)
    files = (
        SourceFile.objects.filter(visible)
        .order_by("store__repository__name", "path")
        .values_list("store_id", "path", "language", "size")[offset : offset + RESOURCES_PAGE + 1]
    )
    rows = list(files)
    resources = [
        Resource(
            name=f"{stores[store_id].name}/{path}",
            uri=resource_uri(stores[store_id], path),
            mime_type="text/plain",
            description=f"{language}, {size} bytes",
            size=size,
        )
        for store_id, path, language, size in rows[:RESOURCES_PAGE]
    ]
    more = len(rows) > RESOURCES_PAGE
    return ListResourcesResult(resources=resources, next_cursor=str(offset + RESOURCES_PAGE) if more else None)


def _read_file(token: AccessToken, uri: str) -> Outcome:
    name, path = _parse_uri(uri)
    repository = _indexed(_repository(token, name, checks_token=True))
    try:
        piece = rag.read_source(repository, path, 1, RESOURCE_MAX_LINES, max_lines=RESOURCE_MAX_LINES)
    except rag.SourceNotFound as exc:
        raise CallRefused(str(exc)) from exc
    cut = f"\n... (cut at {RESOURCE_MAX_LINES} lines of {piece.total_lines})" if piece.total_lines > piece.end_line else ""
    return Outcome(text=piece.text + cut, repository=repository)


async def list_resources(ctx: ServerRequestContext, params: PaginatedRequestParams | None) -> ListResourcesResult:
    token = _caller()
    try:
        return await in_database_pool(_list_files)(token, params.cursor if params else None)
    except CallRefused as exc:
        raise MCPError(code=INVALID_PARAMS, message=str(exc)) from exc


async def list_resource_templates(ctx: ServerRequestContext, params: PaginatedRequestParams | None) -> ListResourceTemplatesResult:
    return ListResourceTemplatesResult(
        resource_templates=[
            ResourceTemplate(
                name="repository file",
                uri_template=f"{URI_SCHEME}{{repository}}/{{+path}}",
                description="An indexed file of a repository, by the repository's name and the file's path.",
                mime_type="text/plain",
            )
        ]
    )


async def read_resource(ctx: ServerRequestContext, params: ReadResourceRequestParams) -> ReadResourceResult:
    token = _caller()
    read = functools.partial(_read_file, token, params.uri)
    outcome, error = await _metered_call(token, "read_resource", read, run_checks_token=True)
    if error:
        raise MCPError(code=INVALID_PARAMS, message=error, data={"uri": params.uri})
    assert outcome is not None
    return ReadResourceResult(contents=[TextResourceContents(uri=params.uri, mime_type="text/plain", text=outcome.text)])


def build_server() -> Server:
    return Server(
        SERVER_NAME,
        version="1",
        instructions=INSTRUCTIONS,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        on_list_resources=list_resources,
        on_list_resource_templates=list_resource_templates,
        on_read_resource=read_resource,
    )

