"""How often the answer without a model points at the code a real fix changed (``manage.py bench_offline_answers``).

Each instance of an evaluation set (``rag_eval``'s JSON lines: issue text, repository, base commit,
gold files) is asked as a chat question would be: its title alone, a line such as "URLField throws
ValueError instead of ValidationError on clean". The repository is indexed at the issue's commit
through ``rag.evaluation`` (with ``keep``, a version kept by an earlier ``rag_eval --keep`` run is
searched instead), and ``extractive_answer`` answers the title. Three hits are counted: the best
match's file is one the fix changed, one of the definitions it names is, and the first span under
"Code worth reading" is.
"""

from __future__ import annotations

import statistics
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from asgiref.sync import async_to_sync

from chat.agent.config import AgentConfig
from chat.agent.offline import extractive_answer
from chat.agent.tools import ProjectToolbox
from llm.registry import get_provider
from rag.evaluation.dataset import Instance
from rag.evaluation.indexing import evaluation_owner, index_snapshot
from rag.evaluation.snapshots import read_snapshot, resolve_mirror

@dataclass(frozen=True)
class AnswerHits:
    instance_id: str
    repo: str
    best_match: bool  # the best match is defined in a gold file
    any_definition: bool  # one of the definitions the answer names is
    first_code: bool  # the first span worth reading is in one
    seconds: float
    error: str = ""


def question_of(instance: Instance) -> str:
    """The issue's title: the first line of its text that says something."""
    return next((line.strip() for line in instance.query.splitlines() if line.strip()), "")


def answer_hits(instances: Sequence[Instance], mirrors: str | Path, *, keep: bool, out: Callable[[str], object]) -> list[AnswerHits]:
    """Ask each instance's title of its repository at the issue's commit; the hits of each answer."""
    owner = evaluation_owner()
    # Sized as a chat turn without a model sizes its tools.
    window = get_provider("offline").context_window("main")
    hits: list[AnswerHits] = []
    by_repo: dict[str, list[Instance]] = {}
    for instance in instances:
        by_repo.setdefault(instance.repo, []).append(instance)
    for repo, group in sorted(by_repo.items()):
        previous = None
        for instance in group:
            try:
                snapshot = read_snapshot(resolve_mirror(mirrors, instance.mirror), instance.base_commit, previous)
                previous = snapshot
                indexed = index_snapshot(repo, snapshot, owner, reuse=keep)
            except Exception as exc:  # recorded on the instance; the run goes on with the next one
                hits.append(AnswerHits(instance.instance_id, repo, False, False, False, 0.0, str(exc)))
                continue
            # The repository as it was at the commit: every tool of the answer reads its active version.
            repository = indexed.repository
            repository.active_run = indexed.run
            toolbox = ProjectToolbox(repository, AgentConfig(), window_tokens=window)
            started = time.perf_counter()
            answer = async_to_sync(extractive_answer)(toolbox, question_of(instance))
            seconds = time.perf_counter() - started
            gold = set(instance.gold_files)
            definitions = [span.path for span in answer.spans if span.layer == "C1_SYMBOL_CATALOG"]
            code = [span.path for span in answer.spans if span.layer == "C0_SOURCE_CHUNKS"]
            hit = AnswerHits(
                instance.instance_id, repo, bool(definitions) and definitions[0] in gold, bool(gold & set(definitions)),
                bool(code) and code[0] in gold, seconds,
            )
            hits.append(hit)
            out(f"{instance.instance_id}: best match {'hit' if hit.best_match else 'miss'} ({seconds:.2f} s)")
    return hits


def format_report(hits: Sequence[AnswerHits]) -> str:
    answered = [hit for hit in hits if not hit.error]
    if not answered:
        return "no instance was answered"
    counts = Counter()
    for hit in answered:
        counts.update(best=hit.best_match, any=hit.any_definition, code=hit.first_code)

    def share(key: str) -> str:
        return f"{100 * counts[key] / len(answered):.1f}% ({counts[key]} of {len(answered)})"

    seconds = sorted(hit.seconds for hit in answered)
    lines = [
        f"{len(answered)} answered, {len(hits) - len(answered)} failed to index or read",
        f"best match in a file the fix changed: {share('best')}",
        f"a named definition in one: {share('any')}",
        f"first span worth reading in one: {share('code')}",
        f"answer time: median {statistics.median(seconds) * 1000:.0f} ms, p95 {seconds[int(0.95 * (len(seconds) - 1))] * 1000:.0f} ms",
    ]
    return "\n".join(lines)
