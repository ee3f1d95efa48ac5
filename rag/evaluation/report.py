"""Printing an evaluation: a Markdown table (overall, then per repository) and JSON lines per instance."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import IO

from rag.evaluation.metrics import CUTOFFS, Scores, score, score_by_repository
from rag.evaluation.runner import InstanceResult


def _cells(scores: Scores) -> str:
    accuracy = " / ".join(f"{100 * scores.accuracy[k]:.1f}" for k in CUTOFFS)
    return f"{accuracy} | {scores.mrr:.3f}"


def summary_table(results: Sequence[InstanceResult]) -> str:
    """Acc@1/3/5/10 (%) and MRR of the product, and of BM25 when it ran, side by side."""
    with_baseline = bool(results) and all(result.baseline_top_files is not None for result in results)
    cutoffs = "/".join(str(k) for k in CUTOFFS)
    header = f"| repository | n | Acc@{cutoffs} | MRR |"
    rule = "|---|---:|---|---:|"
    if with_baseline:
        header += f" BM25 Acc@{cutoffs} | BM25 MRR |"
        rule += "---|---:|"
    ranked = [result.ranked() for result in results]
    product_rows = {"overall": score(ranked), **score_by_repository(ranked)}
    baseline_rows = {}
    if with_baseline:
        baseline_ranked = [result.baseline_ranked() for result in results]
        baseline_rows = {"overall": score(baseline_ranked), **score_by_repository(baseline_ranked)}
    lines = [header, rule]
    for name, scores in product_rows.items():
        line = f"| {'**overall**' if name == 'overall' else name} | {scores.count} | {_cells(scores)} |"
        if with_baseline:
            line += f" {_cells(baseline_rows[name])} |"
        lines.append(line)
    errors = [result for result in results if result.error]
    if errors:
        lines.append("")
        lines.append(f"{len(errors)} instance(s) could not be evaluated and count as misses:")
        lines.extend(f"- {result.instance.instance_id}: {result.error}" for result in errors)
    return "\n".join(lines)


def write_records(results: Sequence[InstanceResult], out: IO[str]) -> None:
    for result in results:
        out.write(json.dumps(result.as_record(), sort_keys=True) + "\n")


def timing_summary(results: Sequence[InstanceResult]) -> str:
    """Median index and search time and how much of each snapshot was reused (varies run to run)."""
    indexed = [result for result in results if not result.error]
    if not indexed:
        return "no instance was indexed"
    index_times = sorted(result.index_seconds for result in indexed)
    search_times = sorted(result.search_seconds for result in indexed)
    unchanged = sum(result.files_unchanged for result in indexed)
    total = sum(result.files_total for result in indexed) or 1
    middle = len(indexed) // 2
    return (
        f"{len(indexed)} snapshots indexed: median index {index_times[middle]:.2f} s, "
        f"median retrieval {1000 * search_times[middle]:.0f} ms, "
        f"files reused from the previous version {100 * unchanged / total:.1f}%, "
        f"total index {sum(index_times):.0f} s"
    )
