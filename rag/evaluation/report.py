"""Printing an evaluation: Markdown tables (overall, per language, per repository; held-out folds) and JSON lines."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import IO

from rag.evaluation.crossval import SELECTION_CRITERION, Fold
from rag.evaluation.learning import FoldResult
from rag.evaluation.metrics import (
    CUTOFFS, Ranked, Scores, editing_functions, score, score_by_language, score_by_repository,
)
from rag.evaluation.runner import InstanceResult

_CUTOFF_NAMES = "/".join(str(k) for k in CUTOFFS)

# The subset of SWE-bench Lite that SweRank and LocAgent report (``editing_functions``).
EDITS_FUNCTION = "fix edits an existing function"


def _cells(scores: Scores) -> str:
    accuracy = " / ".join(f"{100 * scores.accuracy[k]:.1f}" for k in CUTOFFS)
    return f"{accuracy} | {scores.mrr:.3f}"


def _header(columns: Sequence[str], with_baseline: bool) -> list[str]:
    header = "| " + " | ".join(columns) + f" | n | Acc@{_CUTOFF_NAMES} | MRR |"
    rule = "|" + "---|" * len(columns) + "---:|---|---:|"
    if with_baseline:
        header += f" BM25 Acc@{_CUTOFF_NAMES} | BM25 MRR |"
        rule += "---|---:|"
    return [header, rule]


def _row(labels: Sequence[str], product: Scores, baseline: Scores | None) -> str:
    line = "| " + " | ".join(labels) + f" | {product.count} | {_cells(product)} |"
    if baseline is not None:
        line += f" {_cells(baseline)} |"
    return line


def _baseline_rankings(results: Sequence[InstanceResult]) -> list[Ranked] | None:
    """BM25's rankings when it ran for every instance (a partial column would not compare)."""
    rankings = [result.baseline_ranked() for result in results]
    if not rankings or any(ranked is None for ranked in rankings):
        return None
    return [ranked for ranked in rankings if ranked is not None]


def summary_table(results: Sequence[InstanceResult]) -> str:
    """Acc@1/3/5/10 (%) and MRR of the product, and of BM25 when it ran, side by side.

    Two tables: overall and per repository, then per language (the same instances grouped
    by the language of their repository).
    """
    ranked = [result.ranked() for result in results]
    baseline = _baseline_rankings(results)
    lines = _header(["repository"], baseline is not None)
    lines.append(_row(["**overall**"], score(ranked), score(baseline) if baseline is not None else None))
    subset = editing_functions(ranked)
    if subset:
        subset_baseline = score(editing_functions(baseline)) if baseline is not None else None
        lines.append(_row([f"**{EDITS_FUNCTION}**"], score(subset), subset_baseline))
    baseline_repos = score_by_repository(baseline) if baseline is not None else {}
    for name, scores in score_by_repository(ranked).items():
        lines.append(_row([name], scores, baseline_repos.get(name)))
    lines.append("")
    lines.extend(_language_rows(ranked, baseline))
    errors = [result for result in results if result.error]
    if errors:
        lines.append("")
        lines.append(f"{len(errors)} instance(s) could not be evaluated and count as misses:")
        lines.extend(f"- {result.instance.instance_id}: {result.error}" for result in errors)
    return "\n".join(lines)


def _language_rows(ranked: Sequence[Ranked], baseline: Sequence[Ranked] | None) -> list[str]:
    lines = _header(["language"], baseline is not None)
    baseline_languages = score_by_language(baseline) if baseline is not None else {}
    for name, scores in score_by_language(ranked).items():
        lines.append(_row([name], scores, baseline_languages.get(name)))
    return lines


def cross_validation_table(folds: Sequence[Fold], candidate_count: int) -> str:
    """Held-out figures per fold (with the candidate chosen on the other folds), pooled, and per language."""
    with_baseline = bool(folds) and all(fold.baseline_rankings is not None for fold in folds)
    lines = [
        f"Cross-validation by repository: {len(folds)} folds, {candidate_count} candidate(s); in each fold the "
        f"candidate with the best training {SELECTION_CRITERION} on the other folds' repositories, "
        "scored on the fold's own.",
        "",
        *_header(["fold", "held-out repositories", "chosen (train MRR)"], with_baseline),
    ]
    held_out: list[Ranked] = []
    baseline: list[Ranked] = []
    for fold in folds:
        held_out.extend(fold.held_out_rankings)
        if fold.baseline_rankings is not None:
            baseline.extend(fold.baseline_rankings)
        labels = [str(fold.number), ", ".join(fold.held_out), f"{fold.chosen} ({fold.train_scores.mrr:.3f})"]
        fold_baseline = score(fold.baseline_rankings) if with_baseline and fold.baseline_rankings is not None else None
        lines.append(_row(labels, score(fold.held_out_rankings), fold_baseline))
    lines.append(_row(["**held out**", "all", ""], score(held_out), score(baseline) if with_baseline else None))
    lines.append("")
    lines.extend(_language_rows(held_out, baseline if with_baseline else None))
    return "\n".join(lines)


def write_records(results: Sequence[InstanceResult], out: IO[str]) -> None:
    for result in results:
        out.write(json.dumps(result.as_record(), sort_keys=True) + "\n")


def write_features(results: Sequence[InstanceResult], out: IO[str]) -> None:
    """One JSON line per searched instance: its gold files and its candidate files' feature rows (``rag_train_ranker``)."""
    for result in results:
        if result.error or not result.file_features:
            continue
        instance = result.instance
        out.write(json.dumps({
            "instance_id": instance.instance_id, "repo": instance.repo, "language": instance.language_name,
            "gold_files": list(instance.gold_files), "edits_function": instance.edits_function,
            "candidates": [[path, [round(value, 6) for value in row]] for path, row in result.file_features],
        }, sort_keys=True) + "\n")


def timing_summary(results: Sequence[InstanceResult]) -> str:
    """Median index and search time and how much of each snapshot was reused (varies run to run)."""
    searched = [result for result in results if not result.error]
    if not searched:
        return "no instance was indexed"
    indexed = [result for result in searched if not result.reused_version]
    search_times = sorted(result.search_seconds for result in searched)
    parts = [f"median retrieval {1000 * search_times[len(search_times) // 2]:.0f} ms"]
    if indexed:
        index_times = sorted(result.index_seconds for result in indexed)
        unchanged = sum(result.files_unchanged for result in indexed)
        total = sum(result.files_total for result in indexed) or 1
        parts = [
            f"{len(indexed)} snapshots indexed: median index {index_times[len(indexed) // 2]:.2f} s",
            *parts,
            f"files reused from the previous version {100 * unchanged / total:.1f}%",
            f"total index {sum(index_times):.0f} s",
        ]
    reused = len(searched) - len(indexed)
    if reused:
        parts.append(f"{reused} snapshots searched in kept index versions")
    return ", ".join(parts)


def learned_ranking_table(folds: Sequence[FoldResult]) -> str:
    """Held-out figures of the learned file ranking per fold, pooled and per language, the fused order beside them."""
    columns = f"| n | learned Acc@{_CUTOFF_NAMES} | learned MRR | fused Acc@{_CUTOFF_NAMES} | fused MRR |"
    rule = "---:|---|---:|---|---:|"
    lines = [
        f"Learned file ranking, cross-validated by repository: {len(folds)} folds; in each fold the model is fitted "
        "on the other folds' repositories and ranks the fold's own candidates.",
        "",
        "| fold | held-out repositories " + columns,
        "|---|---|" + rule,
    ]
    learned: list[Ranked] = []
    fused: list[Ranked] = []
    for fold in folds:
        learned.extend(fold.learned)
        fused.extend(fold.fused)
        lines.append(f"| {fold.number} | {', '.join(fold.held_out)} | {len(fold.learned)} | {_cells(score(fold.learned))} | {_cells(score(fold.fused))} |")
    lines.append(f"| **held out** | all | {len(learned)} | {_cells(score(learned))} | {_cells(score(fused))} |")
    subset = editing_functions(learned)
    if subset:
        lines.append(
            f"| **held out** | {EDITS_FUNCTION} | {len(subset)} | {_cells(score(subset))} "
            f"| {_cells(score(editing_functions(fused)))} |"
        )
    lines += ["", "| language " + columns, "|---|" + rule]
    fused_languages = score_by_language(fused)
    for name, scores in score_by_language(learned).items():
        lines.append(f"| {name} | {scores.count} | {_cells(scores)} | {_cells(fused_languages[name])} |")
    return "\n".join(lines)
