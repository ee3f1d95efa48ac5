"""Query texts built to make text analysis slow, and a timer for the analysis of one.

Each shape repeats a short unit that a once-careless pattern of query
analysis backtracked over (a run of commas in an environment report, capital
letters before an underscore, ``a-a-a...`` before a missing slash, unclosed
route parameters, blank lines under a prompt pattern, unclosed traceback
paths ...). ``bench_query_analysis`` prints how long the analysis of each
takes as it grows, and the fuzz tests hold the growth to linear.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from rag.query_analysis import lexical_words, query_hints, template_lines, without_boilerplate


@dataclass(frozen=True)
class HostileShape:
    name: str
    prefix: str
    unit: str
    suffix: str

    def text(self, size: int) -> str:
        """The shape at about ``size`` characters."""
        repeats = max(1, (size - len(self.prefix) - len(self.suffix)) // len(self.unit))
        return f"{self.prefix}{self.unit * repeats}{self.suffix}"


SHAPES: tuple[HostileShape, ...] = (
    HostileShape("report line, commas", "x: ", "a,", "("),
    HostileShape("report line, comma-spaces", "numpy: ", "a, ", "(]"),
    HostileShape("CamelCase before an underscore", "Ab", "C", "_"),
    HostileShape("camelCase words", "", "aB", "_"),
    HostileShape("snake_case before a capital", "", "a_", "A"),
    HostileShape("dashes, no slash", "", "a-", "!"),
    HostileShape("unclosed route parameters", "", "/<", ""),
    HostileShape("unclosed route braces", "", "/{", ""),
    HostileShape("route segments", "", "/a", "<"),
    HostileShape("blank lines", "", "\n", "x"),
    HostileShape("indented blank lines", "", " \n", "x"),
    HostileShape("unclosed traceback paths", "", 'File "', ""),
    HostileShape("traceback lines", "", 'File "a", line 1, in ', "("),
    HostileShape("dotted names", "", "a.", "1"),
    HostileShape("qualified names", "", "a::", "1"),
    HostileShape("colons and hashes", "", "a:#", ":"),
    HostileShape("file paths", "", "a/", ".p"),
    HostileShape("calls", "", "a(", ""),
    HostileShape("headings", "", "#a:\n", ""),
    HostileShape("one long word", "", "a", "("),
    HostileShape("addresses of files", "https://h/o/r/blob/", "a/", "#L"),
    HostileShape("many addresses", "", "https://h/o/r/src/x/a.py#L1 ", ""),
    HostileShape("source lines", "/", "a/", ".rs:"),
    HostileShape("many source lines", "", "(/a/b.go:1) ", ""),
    HostileShape("spaces inside a line", "**a", " ", "b**"),
    HostileShape("unclosed comments", "", "<!--", ""),
    HostileShape("comments", "", "<!-- a -->", "-->"),
)


# Lines an issue template might have: the hostile shapes are also read as issues written from it.
_TEMPLATE = template_lines("**Describe the bug**\nA clear and concise description of what the bug is.\n")


def analyse(query: str) -> None:
    """Everything retrieval derives from a query's text before it touches the database."""
    text = without_boilerplate(query, _TEMPLATE) or query
    query_hints(text)
    lexical_words(text, repeats=True)


def fastest_seconds(work: Callable[[str], object], text: str, repeats: int = 3) -> float:
    """The fastest of ``repeats`` runs of ``work(text)`` (the least disturbed by other work)."""
    best = float("inf")
    for _ in range(repeats):
        started = time.perf_counter()
        work(text)
        best = min(best, time.perf_counter() - started)
    return best


def analysis_seconds(query: str, repeats: int = 3) -> float:
    return fastest_seconds(analyse, query, repeats)
