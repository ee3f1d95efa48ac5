"""Manifests written as code: Elixir's ``mix.exs`` and Swift's ``Package.swift``, read with their comments and strings masked."""

from __future__ import annotations

import re
from collections.abc import Iterator

from rag.analysis.manifest_text import line_finder
from rag.analysis.records import Dependency

# Comments and strings of the two languages: masked (``_masked``) before brackets and commas are read.
_ELIXIR_TOKENS = re.compile(
    r"""(?P<comment>\#[^\n]*)|(?P<string>""\"[\s\S]*?(?:""\"|\Z)|"(?:[^"\\]|\\.)*"?|'(?:[^'\\\n]|\\.)*'?)""", re.DOTALL
)
_SWIFT_TOKENS = re.compile(r"""(?P<comment>//[^\n]*|/\*[\s\S]*?(?:\*/|\Z))|(?P<string>""\"[\s\S]*?(?:""\"|\Z)|"(?:[^"\\\n]|\\.)*"?)""")
_QUOTED = re.compile(r'"((?:[^"\\]|\\.)*)"', re.DOTALL)
_BRACKETS = {"(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1}


def _masked(text: str, tokens: re.Pattern[str]) -> tuple[str, str]:
    """The text with its comments blanked, and that again with each string's inside filled with ``_``:
    both as long as the text and with its line breaks, so that an offset in one is an offset in the
    others, and a bracket or comma in the second is the code's."""

    def blank(found: re.Match[str]) -> str:
        return re.sub(r"[^\n]", " ", found.group(0)) if found.lastgroup == "comment" else found.group(0)

    def fill(found: re.Match[str]) -> str:
        token = found.group(0)
        if found.lastgroup == "comment":
            return re.sub(r"[^\n]", " ", token)
        closing = token[-1] if len(token) > 1 and token[-1] == token[0] else ""
        return token[0] + re.sub(r"[^\n]", "_", token[1:len(token) - len(closing)]) + closing

    return tokens.sub(blank, text), tokens.sub(fill, text)


def _closing(masked: str, start: int, end: int) -> int:
    """The offset of the bracket that closes the one at ``start``; -1 when none does before ``end``."""
    depth = 0
    for index in range(start, end):
        depth += _BRACKETS.get(masked[index], 0)
        if depth == 0:
            return index
    return -1


def _elements(masked: str, start: int, end: int) -> list[tuple[int, int]]:
    """The spans of the comma-separated elements between ``start`` and ``end``, spaces stripped."""
    spans = []
    depth = 0
    begin = start
    for index in range(start, end + 1):
        char = masked[index] if index < end else ","
        if char == "," and depth == 0:
            piece = masked[begin:index]
            left = begin + len(piece) - len(piece.lstrip())
            right = index - (len(piece) - len(piece.rstrip()))
            if left < right:
                spans.append((left, right))
            begin = index + 1
        else:
            depth += _BRACKETS.get(char, 0)
    return spans


def _string_value(text: str) -> str | None:
    """The contents of a literal string written alone; None for anything else."""
    found = _QUOTED.fullmatch(text)
    return found.group(1) if found else None


_ELIXIR_DEPS = re.compile(r"\bdefp?\s+deps\b\s*(?:\(\s*\)\s*)?(?:(?P<block>do\b)(?!:)|,\s*do:\s*)")
_ELIXIR_BLOCK_WORD = re.compile(r"(?<![\w:.])(do|fn|end)\b(?![:?!])")
_ELIXIR_TUPLE = re.compile(r'\{\s*:(?:\w+[?!]?|"[^"\n]*")\s*,')
_ELIXIR_KEYWORD = re.compile(r"(\w+[?!]?):\s")
_ELIXIR_ATOMS = re.compile(r"(?<![\w:]):(\w+)")


def mix_exs(path: str, text: str, lines: list[str]) -> Iterator[Dependency]:
    clean, masked = _masked(text, _ELIXIR_TOKENS)
    start, end, strict = _elixir_deps_body(masked)
    line_of = line_finder(text)
    position = start
    while (found := _ELIXIR_TUPLE.search(masked, position, end)) is not None:
        close = _closing(masked, found.start(), end)
        if close < 0:
            break
        position = close + 1
        spans = _elements(masked, found.start() + 1, close)
        name = clean[spans[0][0] + 1:spans[0][1]].strip('"')
        version, options, second = "", {}, ""  # second: what the tuple's second element is
        for index, (left, right) in enumerate(spans[1:], 1):
            if masked[left] == "[" and masked[right - 1] == "]":
                items = _elements(masked, left + 1, right - 1)
            elif _ELIXIR_KEYWORD.match(masked, left, right):
                items = [(left, right)]
            else:
                if index == 1:
                    written = clean[left:right]
                    value = _string_value(written)
                    version, second = (value, "string") if value is not None else (" ".join(written.split()), "")
                continue
            for item_left, item_right in items:
                keyword = _ELIXIR_KEYWORD.match(masked, item_left, item_right)
                if keyword is not None:
                    options[keyword.group(1)] = clean[keyword.end():item_right].strip()
                    second = second or ("keywords" if index == 1 else "")
        if strict and not second:
            continue  # no deps function: a tuple is a dependency only when it looks like one
        if not version:
            sources = ((source, _string_value(options.get(source, ""))) for source in ("github", "git", "path"))
            version = next((f"{source} {value}" for source, value in sources if value is not None), "")
        only = _ELIXIR_ATOMS.findall(options.get("only", ""))
        yield Dependency("hex", name, version, ",".join(only) or "runtime", path, line_of(found.start()))


def _elixir_deps_body(masked: str) -> tuple[int, int, bool]:
    """The span of the ``deps`` function's body, and whether it is the whole file (no such function)."""
    found = _ELIXIR_DEPS.search(masked)
    if found is None:
        return 0, len(masked), True
    if found.group("block") is None:  # defp deps, do: [...]
        if masked[found.end():found.end() + 1] != "[":
            return 0, len(masked), True
        close = _closing(masked, found.end(), len(masked))
        return found.end(), (close if close >= 0 else len(masked)), False
    depth = 1
    for word in _ELIXIR_BLOCK_WORD.finditer(masked, found.end()):
        depth += -1 if word.group(1) == "end" else 1
        if depth == 0:
            return found.end(), word.start(), False
    return found.end(), len(masked), False


_SWIFT_PACKAGE = re.compile(r"\.package\s*\(")
_SWIFT_LABEL = re.compile(r"(\w+)\s*:(?!:)\s*")
_SWIFT_CALL = re.compile(r"\.(\w+)\s*\(")
# Arguments of .package(...) that say where the package is or what it is called, not its version.
_SWIFT_NOT_VERSION = frozenset({"name", "url", "path", "id", "traits"})


def package_swift(path: str, text: str, lines: list[str]) -> Iterator[Dependency]:
    clean, masked = _masked(text, _SWIFT_TOKENS)
    line_of = line_finder(text)
    position = 0
    while (found := _SWIFT_PACKAGE.search(masked, position)) is not None:
        close = _closing(masked, found.end() - 1, len(masked))
        if close < 0:
            break
        position = close + 1
        labelled, versions = {}, []
        for label, left, right in _swift_arguments(masked, found.end(), close):
            if label in _SWIFT_NOT_VERSION:
                labelled[label] = _string_value(clean[left:right])
            else:
                versions.append(_swift_requirement(clean, masked, label, left, right))
        location = labelled.get("url") or labelled.get("path") or ""
        name = labelled.get("name") or labelled.get("id") or re.split(r"[/:]", location.rstrip("/"))[-1].removesuffix(".git")
        if not name:
            continue
        version = " ".join(versions) or (f"path {labelled['path']}" if labelled.get("path") else "")
        yield Dependency("swift", name, version, "runtime", path, line_of(found.start()))


def _swift_arguments(masked: str, start: int, end: int) -> Iterator[tuple[str, int, int]]:
    """Each argument between ``start`` and ``end``: its label ("" for none) and its value's span."""
    for left, right in _elements(masked, start, end):
        label = _SWIFT_LABEL.match(masked, left, right)
        yield (label.group(1), label.end(), right) if label else ("", left, right)


def _swift_requirement(clean: str, masked: str, label: str, left: int, right: int, nested: bool = False) -> str:
    """A version requirement in words: ``from 2.0.0``, ``upToNextMajor from 1.0.0``, ``exact 1.2.3``, a range
    as written (a call's arguments read one level down, no further)."""
    call = None if nested else _SWIFT_CALL.match(masked, left, right)
    if call is not None and _closing(masked, call.end() - 1, right) == right - 1:
        words = [call.group(1)] + [
            _swift_requirement(clean, masked, inner, inner_left, inner_right, nested=True)
            for inner, inner_left, inner_right in _swift_arguments(masked, call.end(), right - 1)
        ]
    else:
        written = clean[left:right]
        value = _string_value(written)
        words = [value if value is not None else " ".join(written.split())]
    return " ".join([label, *words] if label else words)
