"""Code files built to make the analysis slow or greedy, and what each costs.

``python -m rag.benchmarks.hostile_files [--size BYTES] [--languages ts,java,...] [--slowest N]`` analyses
every shape in every language's file, one file per ``analyze_repository`` call, and prints the slowest
files with the seconds they took, how the file was read (parsed, or read as lines and why), and how much
the peak memory of this process grew. Each shape repeats one short unit that a grammar's error recovery,
its scanner or tree-sitter's queries once made quadratic or worse (unclosed generics, template
substitutions, raw strings, comments ...). A file's parse is tried first in the parse guard's process
(``rag.analysis.parse_guard``), under ``PARSE_SECONDS`` and ``PARSE_MEMORY``, then done again here: a
file takes at most about twice ``PARSE_SECONDS`` and this process's memory stays that of real files.
"""

from __future__ import annotations

import argparse
import resource
import time

from rag.analysis.repository import analyze_repository

SUFFIXES = ("ts", "tsx", "js", "go", "java", "kt", "scala", "rs", "c", "cpp", "cs", "rb", "php", "vue", "swift", "dart", "ex", "lua", "sh")
# What a file of the suffix starts with before the units: PHP's opening tag, a component's script.
OPENINGS = {"php": "<?php\n", "vue": "<script>\n"}
UNITS = (
    "(", "{", "[", "<", "`${", "template<", "#if x\n", "/*", "'", '"', 'r#"', "<<", "fn ", "class ", "@", "$",
    "#[", "<?php ", "=>", "::", "...", "a<", "f(", "x.", "if ", "->", "|", "\\", "%", "?", "<<<EOT\n", "#",
    "do ", "begin ", "func(", "impl<", "case ", "<T", "<div>", "{{", "#{", "=begin\n", "a<b,", "T<", "x<y>",
    "(a<", "new a<", "List<", "f<", "a::<", "&", "*", "a*", "(*", "int a<",
)


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=20_000, help="bytes of each file (default 20,000)")
    parser.add_argument("--languages", default=",".join(SUFFIXES), help="file suffixes, comma-separated")
    parser.add_argument("--slowest", type=int, default=15, help="how many of the slowest files to print")
    options = parser.parse_args()
    rows = []
    start_peak = _peak_mb()
    for suffix in options.languages.split(","):
        for unit in UNITS:
            path = f"src/hostile.{suffix}"
            text = OPENINGS.get(suffix, "") + unit * (options.size // len(unit))
            started = time.perf_counter()
            analysis = analyze_repository({path: text}).files[path]
            rows.append((time.perf_counter() - started, suffix, unit, analysis.error or "parsed"))
    rows.sort(reverse=True)
    print(f"{len(rows)} files of {options.size:,} bytes; total {sum(row[0] for row in rows):.1f} s")
    print(f"peak memory of this process: {start_peak:.0f} MB before, {_peak_mb():.0f} MB after")
    print(f"{'seconds':>8}  {'file':<6} {'unit':<12} read")
    for seconds, suffix, unit, read in rows[: options.slowest]:
        print(f"{seconds:8.2f}  {suffix:<6} {unit!r:<12} {read}")


if __name__ == "__main__":
    main()
