"""The docs and edits graphs' test bed: the shopapp fixture indexed once for the package, and graph runs.

Tests are sync and run a graph with ``async_to_sync``. The graphs' database
calls run on the database pool's threads, each with a connection of its own, so
what they read must be committed: the repository indexed once for the package.
"""

from __future__ import annotations

import io
import subprocess
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from asgiref.sync import async_to_sync

from chat.agent.config import AgentConfig
from chat.agent.events import AgentEvent
from chat.agent.tools import ProjectToolbox
from chat.agent.turn import TurnServices
from llm.graph import AgentContext, Emitted, Graph, Runner
from llm.registry import get_provider
from llm.types import Message
from rag.models import IndexRun, Repository
from rag.services import run_index, start_index_run
from tests.chat.conftest import indexed_shopapp
from tests.llm.fakes import Reply, fake_llm_server  # noqa: F401 (fixtures)


def zip_of(files: dict[str, bytes | str], top: str) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for path, data in files.items():
            archive.writestr(f"{top}/{path}", data)
    return buffer.getvalue()


@pytest.fixture
def index_files(owner, settings, tmp_path):
    """Upload and index a small project given as ``{path: text}``; returns its repository."""
    settings.RAG = {**settings.RAG, "UPLOAD_DIR": str(tmp_path / "uploads")}

    def index(files: dict[str, bytes | str], name: str) -> Repository:
        run = start_index_run(owner=owner, name=name, archive=io.BytesIO(zip_of(files, name)), archive_name=f"{name}.zip", defer=False)
        run = run_index(run.pk)
        assert run.status == IndexRun.Status.READY, run.error
        return Repository.objects.get(pk=run.repository_id)

    return index


@pytest.fixture(scope="package")
def shopapp(django_db_setup, django_db_blocker, tmp_path_factory) -> Iterator[Repository]:
    """The shopapp project uploaded and indexed through the real pipeline, once for these tests."""
    with indexed_shopapp("docs-edits-owner", tmp_path_factory, django_db_blocker) as repository:
        yield repository


@pytest.fixture
def model(fake_llm_server, settings):
    """The fake OpenAI-compatible server as the active provider.

    The audit is off: storing a record closes the calling thread's connection
    (as after a request), which in a sync test is the test's own connection.
    """
    settings.LLM = {**fake_llm_server.llm_settings("openai"), "AUDIT": False}
    return fake_llm_server


def services_for(repository: Repository | None) -> TurnServices:
    provider = get_provider()
    config = AgentConfig.from_settings()
    toolbox = (
        None if repository is None else ProjectToolbox(repository, config, window_tokens=provider.context_window("main"))
    )
    return TurnServices(provider=provider, config=config, toolbox=toolbox, repository_name=repository.name if repository else "")


def run_graph(
    graph: Graph, text: str, repository: Repository | None, *, history: tuple[Message, ...] = ()
) -> tuple[AgentContext[Any], list[AgentEvent]]:
    """Run ``graph`` on the request ``text``; the final context and every ``AgentEvent`` it emitted."""
    events: list[AgentEvent] = []

    def collect(item: Emitted) -> None:
        if isinstance(item.event, AgentEvent):
            events.append(item.event)

    async def go() -> AgentContext[Any]:
        context = AgentContext(input=text, history=history)
        return await Runner(on_emit=collect).run(graph, context, services=services_for(repository))

    return async_to_sync(go)(), events


def texts(events: list[AgentEvent]) -> str:
    return "".join(event.text for event in events if event.type == "text")


def artifacts(events: list[AgentEvent]) -> list[dict[str, Any]]:
    return [event.detail for event in events if event.type == "artifact"]


def git_apply_check(files: dict[str, bytes], patch: str, workdir: Path) -> subprocess.CompletedProcess[str]:
    """``git apply --check`` of ``patch`` on a tree holding ``files``, in a fresh git repository."""
    for path, data in files.items():
        target = workdir / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    subprocess.run(["git", "init", "-q"], cwd=workdir, check=True)
    (workdir / "change.patch").write_text(patch)
    return subprocess.run(
        ["git", "apply", "--check", "-v", "change.patch"], cwd=workdir, capture_output=True, text=True, check=False
    )


__all__ = ["Reply", "fake_llm_server"]
