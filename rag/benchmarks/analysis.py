"""Analysis speed on a real tree: ``python -m rag.benchmarks.analysis [DIRECTORY] [--repeat N] [--languages]``.

Without a directory it analyses the installed Django package. Prints files/s
and chunks/s of a full analysis, the time of the repository (resolution) pass
alone, and a rerun where every file is unchanged (the incremental case), as
medians over the runs, with counts per layer.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from rag.analysis.repository import analyze_repository, extract_file, resolve_repository
from rag.analysis.results import RepositoryAnalysis

SKIPPED_DIRECTORIES = frozenset({".git", "node_modules", "__pycache__", ".venv", "venv", "build", "dist"})


def default_tree() -> Path:
    import django

    return Path(django.__file__).resolve().parent


def read_tree(root: Path) -> dict[str, str]:
    """Text files under ``root`` keyed by POSIX path relative to ``root``'s parent (``django/...``)."""
    files: dict[str, str] = {}
    for path in sorted(root.rglob("*")):
        if not path.is_file() or SKIPPED_DIRECTORIES.intersection(path.relative_to(root).parts):
            continue
        data = path.read_bytes()
        if b"\x00" in data[:8192]:
            continue
        files[path.relative_to(root.parent).as_posix()] = data.decode("utf-8", errors="replace")
    return files


def _median_seconds(action: Callable[[], object], repeat: int) -> tuple[float, float, object]:
    """Median wall-clock and CPU seconds of ``action`` (CPU time is steadier on a busy machine)."""
    wall, cpu = [], []
    result = None
    for _ in range(repeat):
        started, started_cpu = time.perf_counter(), time.process_time()
        result = action()
        wall.append(time.perf_counter() - started)
        cpu.append(time.process_time() - started_cpu)
    return statistics.median(wall), statistics.median(cpu), result


def run_benchmark(root: Path, repeat: int = 3, python_only: bool = False) -> dict[str, float]:
    """Measure and print; returns the figures for callers that want them."""
    started = time.perf_counter()
    files = read_tree(root)
    if python_only:
        files = {path: text for path, text in files.items() if path.endswith(".py")}
    read_seconds = time.perf_counter() - started
    python_files = sum(1 for path in files if path.endswith(".py"))
    lines = sum(text.count("\n") + 1 for text in files.values())

    full_wall, full_cpu, full = _median_seconds(lambda: analyze_repository(files), repeat)
    assert isinstance(full, RepositoryAnalysis)
    extracted = {path: extract_file(path, text) for path, text in files.items()}
    resolve_wall, resolve_cpu, _ = _median_seconds(lambda: resolve_repository(extracted), repeat)
    rerun_wall, rerun_cpu, rerun = _median_seconds(lambda: analyze_repository(files, previous=full.files), repeat)
    assert isinstance(rerun, RepositoryAnalysis)

    chunks = full.chunks()
    edges = full.edges()
    resolved = sum(1 for edge in edges if edge.dst is not None)
    layers = Counter(chunk.layer for chunk in chunks)
    entry_kinds = Counter(f"{e.entry_type}/{e.framework}" for e in full.entrypoints())
    errors = sum(1 for analysis in full.files.values() if analysis.error)

    print(f"tree: {root} ({len(files)} files, {python_files} Python, {lines} lines); read in {read_seconds:.2f} s")
    print(f"median of {repeat} runs, one process:        wall s   CPU s   files/s  chunks/s (by CPU time)")
    print(
        f"  full analysis                          {full_wall:6.2f}  {full_cpu:6.2f}  {len(files) / full_cpu:8.0f}"
        f"  {len(chunks) / full_cpu:8.0f}"
    )
    print(f"  of which the repository pass           {resolve_wall:6.2f}  {resolve_cpu:6.2f}")
    print(
        f"  rerun with every file unchanged        {rerun_wall:6.2f}  {rerun_cpu:6.2f}  {len(files) / rerun_cpu:8.0f}"
        f"  ({len(rerun.reused)} files reused; {full_cpu / rerun_cpu:.1f}x less CPU than full)"
    )
    print(f"layers: {dict(sorted(layers.items()))}")
    print(f"symbols: {len(full.symbols())}; edges: {len(edges)} ({resolved / max(len(edges), 1):.0%} resolved)")
    print(f"entrypoints: {dict(sorted(entry_kinds.items()))}; files with parse errors: {errors}")
    return {
        "files": len(files),
        "full_wall_seconds": full_wall,
        "full_cpu_seconds": full_cpu,
        "resolve_cpu_seconds": resolve_cpu,
        "rerun_cpu_seconds": rerun_cpu,
        "files_per_cpu_second": len(files) / full_cpu,
    }


def run_language_benchmark(root: Path, repeat: int = 3) -> dict[str, dict[str, float]]:
    """Per language: files/s and lines/s of the per-file analysis against the bare tree-sitter parse
    of the same files (the floor), by CPU time, medians of ``repeat`` runs."""
    from rag.analysis.languages.spec import _grammar, spec_for, spec_named

    files = read_tree(root)
    by_language: dict[str, dict[str, str]] = {}
    for path, text in files.items():
        spec = spec_for(path, text)
        if spec is not None:
            by_language.setdefault(spec.name, {})[path] = text
    print(f"tree: {root} ({len(files)} files); CPU seconds, median of {repeat} runs")
    print(f"{'language':12} {'files':>6} {'lines':>8} {'parse s':>8} {'analyse s':>9} {'files/s':>8} {'lines/s':>9} {'x parse':>8}")
    figures: dict[str, dict[str, float]] = {}
    for name, group in sorted(by_language.items()):
        encoded = [(path, text.encode("utf-8", "surrogatepass")) for path, text in group.items()]
        parser, _ = _grammar(spec_named(name))  # type: ignore[arg-type]
        _, parse_cpu, _ = _median_seconds(lambda: [parser.parse(data) for _, data in encoded], repeat)
        _, analyse_cpu, _ = _median_seconds(lambda: [extract_file(path, text) for path, text in group.items()], repeat)
        lines = sum(text.count("\n") + 1 for text in group.values())
        figures[name] = {"files": len(group), "lines": lines, "parse_cpu": parse_cpu, "analyse_cpu": analyse_cpu}
        print(
            f"{name:12} {len(group):6d} {lines:8d} {parse_cpu:8.2f} {analyse_cpu:9.2f} {len(group) / analyse_cpu:8.0f}"
            f" {lines / analyse_cpu:9.0f} {analyse_cpu / max(parse_cpu, 1e-9):7.1f}x"
        )
    return figures


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m rag.benchmarks.analysis", description=__doc__)
    parser.add_argument("directory", nargs="?", type=Path, help="tree to analyse (default: the installed Django)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per measurement (median is printed)")
    parser.add_argument("--python-only", action="store_true", help="analyse only the .py files of the tree")
    parser.add_argument(
        "--languages", action="store_true",
        help="per tree-sitter language: analysis throughput against the bare parse of the same files",
    )
    args = parser.parse_args(argv)
    root = (args.directory or default_tree()).resolve()
    if args.languages:
        run_language_benchmark(root, max(1, args.repeat))
        return
    run_benchmark(root, max(1, args.repeat), args.python_only)


if __name__ == "__main__":
    main()
