"""Reading a manifest's text: its JSON or TOML value, and where in its lines a key, a table or a value is.

Each place is found from an index of the file's lines built in one pass, so a manifest with tens of
thousands of entries costs what its size says (a search of the lines from each entry on would cost their
square). The commands a manifest declares (``console_scripts``) and the packages it depends on
(``dependencies``) both read manifests through here.
"""

from __future__ import annotations

import bisect
import json
import re
import tomllib
from collections.abc import Callable, Iterable
from typing import Any


def toml_tables(text: str) -> dict[str, Any] | None:
    """A TOML manifest's tables; None when it is not TOML, or nested deeper than the parser's recursion
    goes (an upload may be)."""
    try:
        return tomllib.loads(text)
    except (ValueError, RecursionError):  # tomllib.TOMLDecodeError is a ValueError
        return None


def json_value(text: str) -> Any:
    """A JSON manifest's value; None when it is not JSON, or nested deeper than the parser's recursion goes."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


def line_finder(text: str) -> Callable[[int], int]:
    """The 1-based line of an offset in ``text``, its lines counted as ``str.splitlines`` counts them."""
    starts = [found.end() for found in re.finditer(r"\r\n|[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]", text)]
    return lambda offset: bisect.bisect_right(starts, offset) + 1


def python_lines(text: str) -> Callable[[int], int]:
    """The 1-based line, as ``str.splitlines`` counts lines, of a line number Python's parser gives (which
    ends lines at ``\n``, ``\r\n`` and ``\r`` only, not at a form feed or a Unicode line separator)."""
    starts = [0] + [found.end() for found in re.finditer(r"\r\n|\r|\n", text)]
    line_of = line_finder(text)
    return lambda number: line_of(starts[min(max(number, 1), len(starts)) - 1])


def places(found: Iterable[tuple[int, str]]) -> dict[str, list[int]]:
    """Line indexes by value, in file order, from (line index, value) pairs in file order."""
    indexed: dict[str, list[int]] = {}
    for index, value in found:
        indexed.setdefault(value, []).append(index)
    return indexed


def find_after(indexed: dict[str, list[int]], value: str, cursor: int) -> int | None:
    """The line index of the first place of ``value`` at or after line index ``cursor``; None when there is none."""
    indexes = indexed.get(value, [])
    at = bisect.bisect_left(indexes, cursor)
    return indexes[at] if at < len(indexes) else None


def line_after(indexed: dict[str, list[int]], value: str, cursor: int) -> tuple[int, int]:
    """The 1-based line of the first place of ``value`` at or after line index ``cursor``, and the cursor at
    that line (another entry may share it); the cursor's line, and the cursor, when there is none."""
    index = find_after(indexed, value, cursor)
    return (index + 1, index) if index is not None else (cursor + 1, cursor)


# A key set at a line's start: ``name = ...``, ``"name": ...``, ``'name' = ...``, ``a.b = ...`` (TOML's dotted keys).
_KEY = re.compile(r"""\s*(?:"((?:[^"\\\n]|\\.)*)"|'([^'\n]*)'|([^\s"'=:\[\]{}#,]+))\s*[=:]""")


class KeyLines:
    """The lines that set each key at their start, in JSON, TOML and YAML alike."""

    def __init__(self, lines: list[str]) -> None:
        found_keys: list[tuple[int, str]] = []
        for index, line in enumerate(lines):
            if (found := _KEY.match(line)) is not None:
                key = next(group for group in found.groups() if group is not None)
                if found.group(1) is not None and "\\" in key:
                    key = _unescaped(key)
                found_keys.append((index, key))
                if found.group(3) is not None and "." in key:
                    # A dotted key (``tokio.workspace = true``) sets its first part too.
                    found_keys.append((index, key.partition(".")[0]))
        self._places = places(found_keys)

    def find(self, name: str, after: int = 0) -> int | None:
        """The 1-based line at or below line index ``after`` that sets ``name``; None when none does."""
        index = find_after(self._places, name, after)
        return index + 1 if index is not None else None

    def line(self, name: str, after: int = 0) -> int:
        """The line ``find`` gives, or ``after + 1`` (the line after the table's header) when none sets it."""
        found = self.find(name, after)
        return found if found is not None else after + 1


def _unescaped(key: str) -> str:
    """A double-quoted key's escapes read as JSON (and TOML's basic strings) read them: ``monolog\\/monolog``."""
    try:
        value = json.loads(f'"{key}"')
    except ValueError:
        return key
    return value if isinstance(value, str) else key


# A TOML table's header: ``[dependencies]``, ``[target.'cfg(unix)'.dependencies]`` (not ``[[bin]]``).
_HEADER = re.compile(r"\s*\[(?!\[)([^\[\]\n]*)\]")
_NOT_IN_HEADER_KEYS = re.compile(r"[\s\"']")


class TomlHeaders:
    """The line of each TOML table's header, by the table's keys."""

    def __init__(self, lines: list[str]) -> None:
        self._lines: dict[str, int] = {}
        for index, line in enumerate(lines):
            if (found := _HEADER.match(line)) is not None:
                self._lines.setdefault(_NOT_IN_HEADER_KEYS.sub("", found.group(1)), index + 1)

    def line(self, *keys: str) -> int:
        """The 1-based line of the header of the table at ``keys`` (``"target", "cfg(unix)", "dependencies"``);
        0 when the table is written inline or with dotted keys."""
        return self._lines.get(_NOT_IN_HEADER_KEYS.sub("", ".".join(keys)), 0)


