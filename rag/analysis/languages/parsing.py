"""Parses in bounded time and memory: a file too big, nested too deep, with too many runs of tokens or
whose parse runs past its time (``PARSE_SECONDS``, and ``parse_budget`` for a whole analysis) is
``NotParsed`` and read as lines. C and C++ macros the grammar cannot read (``macros`` in ``language.toml``)
are blanked byte for byte before the parse (``_source``), so every offset stays the file's.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

import tree_sitter

from rag.analysis import parse_guard
from rag.analysis.languages.spec import LanguageSpec, _grammar, code_of

# Files larger than this are windowed instead of parsed (generated or vendored code).
MAX_PARSED_BYTES = 2 * 1024 * 1024
# Files whose syntax tree is deeper than this are windowed too: tree-sitter finds a node's parent (and
# its previous sibling) by walking down from the root, so each such step costs the node's depth. The
# deepest of 7,716 files of 21 projects in 9 languages is 75 levels (p99 36).
MAX_NESTING = 256
# A file's parse gets this long, then the file is read as lines: a grammar's scanner may read the rest
# of the file again from every place it starts (Rust's raw strings: 600 KB of ``r#"`` took minutes).
# A real file of the size cap parses in well under a second.
PARSE_SECONDS = 5.0
# tree-sitter's query cursor, at each node, looks along the node's later siblings for a named one
# (``ts_tree_cursor_current_status``): a run of k unnamed tokens side by side costs about k² steps of
# every query. Error recovery leaves such runs (300 KB of unclosed TypeScript ``${`` held one file's
# queries 98 s), so a file whose runs' k² add up past this is read as lines: about 10 ms of each query.
# The most of 4,012 files of 10 projects in 7 languages is 19,679.
MAX_TOKEN_RUNS = 1 << 24
# Only nodes with more children than this are looked at for runs: below it a node's runs cost no more
# than its own parse did.
_WIDE = 64


# All the parses of one analysis (``analyze_repository``) get this long, and this much more per million
# characters of the files it reads; then its remaining files are read as lines. A file's own limits bound one file, not the
# 50,000 files an upload may hold (20 KB of Kotlin's ``/*`` repeated takes 4 s to parse, twice). Real code
# parses at 0.05-0.15 s per MB by language (one file at most 0.5 s per MB) over rails' 4,885 files and
# 4,012 files of 10 other projects.
PARSE_BUDGET_SECONDS = 30.0
PARSE_BUDGET_SECONDS_PER_MILLION = 1.0


class ParseBudget:
    """The parse time left to one analysis."""

    def __init__(self, characters: int) -> None:
        self.left = PARSE_BUDGET_SECONDS + PARSE_BUDGET_SECONDS_PER_MILLION * characters / 1e6


_budget: ContextVar[ParseBudget | None] = ContextVar("parse_budget", default=None)


@contextmanager
def parse_budget(characters: int) -> Iterator[ParseBudget]:
    """Parses within the block share one ``ParseBudget``, for files of that many characters in all."""
    budget = ParseBudget(characters)
    token = _budget.set(budget)
    try:
        yield budget
    finally:
        _budget.reset(token)


class NotParsed(ValueError):
    """A file read as lines instead of parsed: its parse ran past ``PARSE_SECONDS`` or took more memory
    than any real file's (``parse_guard``), or its tree is one whose queries could not end in time
    (``_unqueryable``)."""


def _parsed(spec: LanguageSpec, data: bytes) -> tree_sitter.Tree:
    """``data``'s syntax tree, or ``NotParsed`` when its parse would run past ``PARSE_SECONDS`` (or the
    analysis's ``ParseBudget``) or take more memory than any real file's (tried first in the guard's
    process: ``rag.analysis.parse_guard``)."""
    budget = _budget.get()
    if budget is not None and budget.left <= 0:
        raise NotParsed("the analysis's parse time ran out")
    seconds = PARSE_SECONDS if budget is None else min(PARSE_SECONDS, budget.left)
    reason, took = parse_guard.refusal(spec.grammar, spec.function, data, seconds)
    started = time.monotonic()
    tree = None if reason is not None else _grammar(spec)[0].parse(data)
    if budget is not None:
        budget.left -= took + time.monotonic() - started
    if tree is None:
        raise NotParsed(reason)
    return tree


def _source(spec: LanguageSpec, code: str) -> bytes:
    """The bytes the grammar reads of ``code``: the code, its ``macros`` blanked byte for byte, so every
    node keeps its place in the code as written."""
    data = code.encode("utf-8", "surrogatepass")
    if spec.macros is None:
        return data
    return spec.macros.sub(_blanked, data)


def _blanked(macro: re.Match[bytes]) -> bytes:
    """A match of ``macros`` as spaces: all of it, or its group ``blank`` when it has one (the macro after ``class``)."""
    whole = macro.group(0)
    if "blank" not in macro.re.groupindex or macro.start("blank") < 0:
        return b" " * len(whole)
    start, end = macro.start("blank") - macro.start(), macro.end("blank") - macro.start()
    return whole[:start] + b" " * (end - start) + whole[end:]


def parse_ahead(spec: LanguageSpec, code: str) -> None:
    """Ask the parse guard for this code's parse before ``extract_tree_sitter`` wants it."""
    data = _source(spec, code)
    if len(data) <= MAX_PARSED_BYTES:
        parse_guard.ahead(spec.grammar, spec.function, data)


def parses(path: str, text: str) -> str | None:
    """None when ``text`` parses cleanly with the grammar of ``path``'s language (a component's scripts
    with theirs), else where it does not."""
    read = code_of(path, text)
    if read is None:
        return None
    spec, code = read
    try:
        root = _parsed(spec, _source(spec, code)).root_node
    except NotParsed as error:
        return f"{spec.name} does not parse ({error})"
    if not root.has_error:
        return None
    bad = _first_error(root)
    line = bad.start_point[0] + 1 if bad is not None else 1
    return f"{spec.name} does not parse (near line {line})"


def _first_error(node: tree_sitter.Node) -> tree_sitter.Node | None:
    """The first error or missing node under ``node``, down the first child that has one at each level
    (a loop: an edit may nest deeper than Python's recursion goes)."""
    while not (node.is_error or node.is_missing):
        child = next((child for child in node.children if child.has_error or child.is_missing), None)
        if child is None:
            return None
        node = child
    return node


def _unqueryable(root: tree_sitter.Node) -> str | None:
    """Why the tree's queries could not end in time, if they could not: a node more than ``MAX_NESTING``
    levels below ``root``, or runs of unnamed tokens past ``MAX_TOKEN_RUNS``. One walk of a cursor,
    which keeps its path: no step up costs the depth."""
    cursor = root.walk()
    # How many children of the cursor's node's parent the walk has passed; above, those of its ancestors'.
    passed, above = 1, []
    runs = 0
    while True:
        if cursor.goto_first_child():
            if cursor.depth > MAX_NESTING:
                return f"nested more than {MAX_NESTING} levels deep"
            above.append(passed)
            passed = 1
            continue
        while not cursor.goto_next_sibling():
            if not cursor.goto_parent():
                return None
            passed = above.pop()
        passed += 1
        if passed == _WIDE + 1:
            runs += _token_runs(cursor.node.parent)
            if runs > MAX_TOKEN_RUNS:
                return "its runs of unnamed tokens are too long to query"


def _token_runs(node: tree_sitter.Node) -> int:
    """The sum of k² over the runs of k unnamed tokens among ``node``'s children."""
    total = run = 0
    for child in node.children:
        if child.is_named:
            total += run * run
            run = 0
        else:
            run += 1
    return total + run * run
