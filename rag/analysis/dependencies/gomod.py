"""Go modules' ``go.mod``: ``require`` lines and blocks."""

from __future__ import annotations

from collections.abc import Iterator

from rag.analysis.records import Dependency

def go_mod(path: str, text: str, lines: list[str]) -> Iterator[Dependency]:
    in_block = False
    for number, line in enumerate(lines, 1):
        code, _, comment = line.partition("//")
        words = code.split()
        if in_block:
            if words[:1] == [")"]:
                in_block = False
                continue
        elif words[:1] == ["require"]:
            if words[1:2] == ["("]:
                in_block = True
                continue
            words = words[1:]
        else:
            continue
        if len(words) >= 2:
            scope = "indirect" if comment.strip() == "indirect" else "runtime"
            yield Dependency("go", words[0].strip('"`'), words[1], scope, path, number)
