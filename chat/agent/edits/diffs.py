"""Unified diffs written by a model, checked against the indexed snapshot.

A model writes hunks whose ``@@`` line numbers and counts are often off by a
few lines, while their content (context and removed lines) is usually right.
So a hunk is read as an exact edit: its old lines (context plus removed) must
appear verbatim in the indexed file, and the match closest to the stated line
wins. Nothing is fuzzy: a hunk whose old lines do not appear is rejected with
the reason, and a hunk may not overlap another one of the same file.

The patch handed to the user is not the model's text: it is rendered again
from the indexed text and the edited text (``render_patch``), so its headers,
line numbers and counts are exact and ``git apply`` accepts it on the
uploaded tree.

A general-purpose diff parser (such as ``unidiff``) is not used on purpose:
it rejects a hunk whose header counts disagree with its body, which is the
most common slip of a model and costs nothing to tolerate here.
"""

from __future__ import annotations

import ast
import difflib
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from rag.analysis.languages.parsing import parses

DEV_NULL = "/dev/null"
CONTEXT_LINES = 3

_HUNK_HEADER = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
# Info strings of a fence that holds a diff (a bare fence counts).
_DIFF_FENCES = {"", "diff", "patch", "udiff"}
PYTHON_SUFFIXES = (".py", ".pyi")


class DiffParseError(ValueError):
    """The text is not a unified diff this module can read."""


@dataclass(frozen=True)
class Hunk:
    """One ``@@`` block: ``lines`` keep their ``' '``, ``'-'``, ``'+'`` prefixes."""

    old_start: int
    lines: tuple[str, ...]

    @property
    def old_lines(self) -> list[str]:
        return [line[1:] for line in self.lines if line[0] in " -"]

    @property
    def new_lines(self) -> list[str]:
        return [line[1:] for line in self.lines if line[0] in " +"]

    @property
    def changes(self) -> bool:
        return any(line[0] in "+-" for line in self.lines)

    def text(self) -> str:
        """The hunk as diff text, with a header recomputed from its body."""
        old, new = len(self.old_lines), len(self.new_lines)
        new_start = self.old_start if new else max(self.old_start - 1, 0)
        return "\n".join((f"@@ -{self.old_start},{old} +{new_start},{new} @@", *self.lines))


@dataclass(frozen=True)
class FileDiff:
    """The hunks for one file; ``old_path`` None for a new file, ``new_path`` None for a deleted one."""

    old_path: str | None
    new_path: str | None
    hunks: tuple[Hunk, ...] = ()

    @property
    def path(self) -> str:
        return self.new_path or self.old_path or ""

    @property
    def is_new(self) -> bool:
        return self.old_path is None

    @property
    def is_deleted(self) -> bool:
        return self.new_path is None


def extract_diff_text(answer: str) -> str:
    """The diff inside a model answer: the fenced ```diff blocks, else the whole answer.

    Read line by line, in one pass: a lazy pattern from each fence to the next
    closing one took time quadratic in an answer full of unclosed fences.
    """
    blocks: list[str] = []
    block: list[str] | None = None
    keep = False
    for line in answer.splitlines(keepends=True):
        bare = line.rstrip("\r\n")
        if block is None:
            if bare.startswith("```"):
                block, keep = [], bare[3:].strip(" \t") in _DIFF_FENCES
        elif bare.startswith("```") and not bare[3:].strip(" \t"):
            if keep:
                blocks.append("".join(block))
            block = None
        else:
            block.append(line)
    return "\n".join(blocks) if blocks else answer


def _header_path(raw: str) -> str | None:
    # "--- a/pkg/mod.py\t2024-01-01 ..." -> "pkg/mod.py"
    name = raw.split("\t", 1)[0].strip()
    if len(name) >= 2 and name[0] == name[-1] == '"':
        name = name[1:-1]
    if name == DEV_NULL:
        return None
    if name[:2] in ("a/", "b/"):
        name = name[2:]
    return name


def parse_diff(text: str) -> list[FileDiff]:
    """Read the file sections of a unified diff (git's or plain ``diff -u``'s).

    Header counts are ignored: a hunk's body runs until the next hunk or file
    header. A blank line inside a hunk is read as an empty context line, since
    models and editors drop the single space that should start it.
    """
    lines = text.replace("\r\n", "\n").split("\n")
    files: list[FileDiff] = []
    current: tuple[str | None, str | None] | None = None
    hunks: list[Hunk] = []
    body: list[str] | None = None
    start = 0

    def close_hunk() -> None:
        nonlocal body
        if body is not None:
            while body and body[-1] == " ":
                # Trailing blank lines come from the answer's layout, not from the file.
                body.pop()
            if body:
                hunks.append(Hunk(old_start=start, lines=tuple(body)))
            body = None

    def close_file() -> None:
        nonlocal current, hunks
        close_hunk()
        if current is not None:
            files.append(FileDiff(old_path=current[0], new_path=current[1], hunks=tuple(hunks)))
        current, hunks = None, []

    index = 0
    while index < len(lines):
        line = lines[index]
        if line.startswith("--- ") and index + 1 < len(lines) and lines[index + 1].startswith("+++ "):
            close_file()
            old, new = _header_path(line[4:]), _header_path(lines[index + 1][4:])
            if old is None and new is None:
                raise DiffParseError(f"line {index + 1}: both sides of the file header are {DEV_NULL}")
            current = (old, new)
            index += 2
            continue
        header = _HUNK_HEADER.match(line)
        if header:
            if current is None:
                raise DiffParseError(f"line {index + 1}: a hunk before any '--- a/path' / '+++ b/path' header")
            close_hunk()
            start, body = int(header.group(1)), []
        elif line.startswith("diff --git ") or line.startswith("index ") or line.startswith(
            ("new file mode", "deleted file mode", "similarity index", "old mode", "new mode")
        ):
            close_hunk()
        elif body is not None:
            if line == "":
                body.append(" ")
            elif line[0] in " +-":
                body.append(line)
            elif line.startswith("\\"):
                # "\ No newline at end of file": the newline is decided by the indexed file.
                pass
            else:
                close_hunk()
        index += 1
    close_file()
    if not files:
        raise DiffParseError("no '--- a/path' / '+++ b/path' file header was found")
    return files


@dataclass(frozen=True)
class HunkFailure:
    """Why one hunk (``index`` in its file, 0-based) could not be used."""

    path: str
    index: int
    reason: str
    hunk: str = ""


@dataclass
class FileCheck:
    """The outcome of applying one file's hunks to the indexed text."""

    path: str
    old_text: str | None
    new_text: str | None = None
    applied: list[int] = field(default_factory=list)
    failures: list[HunkFailure] = field(default_factory=list)
    syntax_error: str = ""

    @property
    def ok(self) -> bool:
        return not self.failures and not self.syntax_error

    @property
    def changed(self) -> bool:
        return self.new_text != self.old_text


def _split(text: str) -> tuple[list[str], str]:
    """Lines without their endings, and the newline the file uses."""
    newline = "\r\n" if "\r\n" in text else "\n"
    body = text[: -len(newline)] if text.endswith(newline) else text
    return (body.split(newline) if text else []), newline


def _find(haystack: Sequence[str], needle: Sequence[str], near: int) -> int | None:
    """Index of the occurrence of ``needle`` in ``haystack`` closest to ``near``."""
    size = len(needle)
    best: int | None = None
    for position in range(len(haystack) - size + 1):
        if haystack[position : position + size] == needle:
            if best is None or abs(position - near) < abs(best - near):
                best = position
    return best


def _mismatch(lines: Sequence[str], hunk: Hunk, near: int) -> str:
    """A reason a hunk's old lines were not found, naming the first line that differs."""
    expected = hunk.old_lines
    anchor = _find(lines, expected[:1], near) if expected else None
    position = near if anchor is None else anchor
    for offset, wanted in enumerate(expected):
        at = position + offset
        actual = lines[at] if 0 <= at < len(lines) else None
        if actual != wanted:
            found = "the end of the file" if actual is None else repr(actual)
            return (
                f"its context and removed lines do not appear in the indexed file: at line {at + 1} "
                f"the hunk expects {wanted!r} but the file has {found}"
            )
    return "its context and removed lines do not appear in the indexed file"


def check_python(path: str, text: str) -> str:
    """An empty string when ``text`` parses as Python, else the syntax error as a sentence."""
    try:
        ast.parse(text, filename=path)
    except SyntaxError as exc:
        where = f"line {exc.lineno}" + (f", column {exc.offset}" if exc.offset else "")
        return f"{path} no longer parses as Python ({where}): {exc.msg}"
    except ValueError as exc:
        return f"{path} no longer parses as Python: {exc}"
    return ""


def apply_file_diff(diff: FileDiff, snapshot: Mapping[str, str]) -> FileCheck:
    """Apply one file's hunks to the indexed text in ``snapshot`` ({path: text}).

    Every hunk is placed independently against the indexed text (as the
    line numbers of a unified diff refer to the original), hunks that overlap
    an earlier one are rejected, and the result must still parse (``check_syntax``).
    """
    path = diff.path
    problem = path_problem(path)
    old_text = snapshot.get(diff.old_path) if diff.old_path is not None else None
    check = FileCheck(path=path, old_text=old_text)

    def fail_all(reason: str) -> FileCheck:
        check.failures = [HunkFailure(path, i, reason, hunk.text()) for i, hunk in enumerate(diff.hunks)] or [
            HunkFailure(path, 0, reason)
        ]
        return check

    if problem:
        return fail_all(problem)
    if diff.is_new:
        if path in snapshot:
            return fail_all(f"{path} already exists in the indexed snapshot; change it with hunks against its text")
        added = [line for hunk in diff.hunks for line in hunk.lines]
        if any(line[0] != "+" for line in added):
            return fail_all(f"{path} is a new file, so its hunk may only add lines")
        if not added:
            return fail_all(f"the new file {path} has no lines")
        check.new_text = "\n".join(line[1:] for line in added) + "\n"
        check.applied = list(range(len(diff.hunks)))
    elif old_text is None:
        return fail_all(f"{diff.old_path} is not a file of the indexed snapshot")
    elif diff.is_deleted:
        check.new_text = None
        check.applied = list(range(len(diff.hunks)))
        return check
    else:
        _apply_hunks(diff, old_text, check)
    if check.new_text is not None and check.changed:
        check.syntax_error = check_syntax(path, check.new_text, old_text)
    return check


def check_syntax(path: str, text: str, old_text: str | None = None) -> str:
    """An empty string when the edited file still parses, else why not.

    Python with its own parser; other languages with their tree-sitter
    grammar, and then only when the file parsed before the edit (a grammar may
    not know every construct a compiler takes, and an edit must not be refused
    for what was already there).
    """
    if path.endswith(PYTHON_SUFFIXES):
        return check_python(path, text)
    problem = parses(path, text)
    if problem is None or (old_text is not None and parses(path, old_text) is not None):
        return ""
    return f"{path} no longer parses: {problem}"


def _apply_hunks(diff: FileDiff, old_text: str, check: FileCheck) -> None:
    lines, newline = _split(old_text)
    # Matching ignores a CR left by a CRLF file; the edited lines get the file's newline back.
    bare = [line.rstrip("\r") for line in lines]
    replacements: list[tuple[int, int, list[str], int]] = []
    for index, hunk in enumerate(diff.hunks):
        if not hunk.changes:
            check.failures.append(HunkFailure(diff.path, index, "the hunk changes nothing", hunk.text()))
            continue
        old = [line.rstrip("\r") for line in hunk.old_lines]
        near = max(hunk.old_start - 1, 0)
        if old:
            position = _find(bare, old, near)
            if position is None:
                check.failures.append(HunkFailure(diff.path, index, _mismatch(bare, hunk, near), hunk.text()))
                continue
        elif hunk.old_start > len(lines):
            reason = f"it inserts after line {hunk.old_start}, but the file has {len(lines)} lines"
            check.failures.append(HunkFailure(diff.path, index, reason, hunk.text()))
            continue
        else:
            # An insertion without context: "@@ -N,0" inserts after line N.
            position = hunk.old_start
        end = position + len(old)
        clash = next((r for r in replacements if position < r[1] and r[0] < end or position == end == r[0] == r[1]), None)
        if clash is not None:
            reason = f"it overlaps hunk {clash[3] + 1} of the same file (lines {clash[0] + 1}-{clash[1]})"
            check.failures.append(HunkFailure(diff.path, index, reason, hunk.text()))
            continue
        replacements.append((position, end, [line.rstrip("\r") for line in hunk.new_lines], index))
        check.applied.append(index)
    edited = list(bare)
    for start, end, new, _ in sorted(replacements, reverse=True):
        edited[start:end] = new
    ends_with_newline = old_text.endswith("\n") or not old_text
    text = newline.join(edited)
    check.new_text = text + newline if edited and ends_with_newline else text


def path_problem(path: str) -> str:
    """Why ``path`` may not be written by a patch (absolute, escaping, empty), or ``""``."""
    if not path:
        return "the file header names no path"
    pure = PurePosixPath(path)
    if pure.is_absolute() or ".." in pure.parts or "\\" in path:
        return f"{path!r} is not a relative path inside the repository"
    return ""


def _patch_lines(lines: Iterable[str]) -> Iterable[str]:
    """Diff body lines with git's marker after a line that has no newline."""
    for line in lines:
        if line.endswith("\n"):
            yield line
        else:
            yield line + "\n"
            yield "\\ No newline at end of file\n"


def render_file_patch(path: str, old_text: str | None, new_text: str | None) -> str:
    """One file's part of a git patch, from its old and new text (None: absent)."""
    old = (old_text or "").splitlines(keepends=True)
    new = (new_text or "").splitlines(keepends=True)
    head = [f"diff --git a/{path} b/{path}\n"]
    if old_text is None:
        head.append("new file mode 100644\n")
    elif new_text is None:
        head.append("deleted file mode 100644\n")
    head.append(f"--- {DEV_NULL if old_text is None else 'a/' + path}\n")
    head.append(f"+++ {DEV_NULL if new_text is None else 'b/' + path}\n")
    body = list(difflib.unified_diff(old, new, n=CONTEXT_LINES, lineterm="\n"))
    out: list[str] = []
    # body[:2] are difflib's own ---/+++ lines, replaced by git's headers above.
    for line in body[2:]:
        if line.startswith("@@"):
            out.append(line if line.endswith("\n") else line + "\n")
        else:
            out.extend(_patch_lines([line]))
    return "".join(head + out)


def render_patch(changes: Iterable[FileCheck]) -> str:
    """A patch ``git apply`` accepts, from the files whose edits were applied."""
    parts = [
        render_file_patch(check.path, check.old_text, check.new_text)
        for check in sorted(changes, key=lambda c: c.path)
        if check.changed
    ]
    return "".join(parts)
