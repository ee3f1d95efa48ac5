"""Ruby's ``Gemfile`` and ``*.gemspec``, read statement by statement (comments and strings told apart)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from rag.analysis.records import Dependency

# gem "name", "~> 1.0", ">= 1.0.1", group: :test  (parentheses optional)
_GEM = re.compile(r"""gem\s*(?:\(\s*)?(?P<quote>["'])(?P<name>[^"'\s]+)(?P=quote)(?P<rest>.*)""")
_RUBY_VERSION = re.compile(r"""\s*,\s*(?P<quote>["'])(?P<version>[^"']*)(?P=quote)""")
# group: :test, groups: [:development, :test], :group => "test"
_RUBY_GROUP_OPTION = re.compile(r"""(?:\bgroups?\s*:|:groups?\s*=>)\s*(?P<value>\[[^\][]*\]|:\w+|"[^"]*"|'[^']*')""")
_RUBY_SOURCE_OPTION = re.compile(r"""(?:\b(?P<key>github|git|path)\s*:|:(?P<rocket>github|git|path)\s*=>)\s*(?P<quote>["'])(?P<value>[^"']*)(?P=quote)""")
_RUBY_NAMES = re.compile(r"""(?<![\w:]):(\w+)|(["'])([^"']+)\2""")
_RUBY_GROUP_BLOCK = re.compile(r"group[\s(]")  # group :development, :test do
_RUBY_DO = re.compile(r"\bdo\s*(\|[^|]*\|)?$")
_RUBY_OPENER = re.compile(r"(if|unless|case|while|until|for|begin|def|class|module)\b")
_RUBY_END = re.compile(r"end\b")
_RUBY_ONE_LINE_END = re.compile(r"[\s;]end$")
# spec.add_dependency "rails", ">= 6", s.add_development_dependency(%q<rspec>.freeze, ["~> 3.0"])
# A string left open runs to the line's end: a pattern that needed its closing quote would try again from every
# quote inside it, and cost the square of a line of them.
_RUBY_STRING = re.compile(r""""(?P<double>(?:[^"\\]|\\.)*)"?|'(?P<single>(?:[^'\\]|\\.)*)'?|%q(?:<(?P<angle>[^>]*)>?|\{(?P<brace>[^}]*)\}?|\((?P<paren>[^)]*)\)?|\[(?P<square>[^\]]*)\]?)""")
_GEMSPEC_DEPENDENCY = re.compile(
    rf"""\b\w+\s*\.\s*add_(?P<kind>runtime_|development_)?dependency\b\s*(?:\(\s*)?(?P<name>{_RUBY_STRING.pattern})(?P<rest>.*)"""
)


def _ruby_code(line: str) -> str:
    """The line without its comment (a ``#`` outside a string)."""
    quote = ""
    escaped = False
    for index, char in enumerate(line):
        if quote:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == quote:
                quote = ""
        elif char in "\"'":
            quote = char
        elif char == "#":
            return line[:index]
    return line


def _ruby_statements(lines: list[str]) -> Iterator[tuple[int, str]]:
    """Each statement's first line and its code: comments and ``=begin``/``=end`` blocks dropped, a line
    ending in a comma, an opening parenthesis or a backslash joined to the next."""
    statement, start, documentation = "", 0, False
    for number, line in enumerate(lines, 1):
        if documentation:
            documentation = not line.startswith("=end")
            continue
        if line.startswith("=begin"):
            documentation = True
            continue
        code = _ruby_code(line).strip()
        if not code:
            continue
        if not statement:
            start = number
        if code.endswith("\\"):
            statement += code[:-1] + " "
        elif code.endswith((",", "(")):
            statement += code + " "
        else:
            yield start, statement + code
            statement = ""
    if statement:
        yield start, statement.strip()


def _ruby_names(text: str) -> list[str]:
    """The symbols and strings of ``:development, "test"``."""
    return [found.group(1) or found.group(3) for found in _RUBY_NAMES.finditer(text)]


# The most group names a gem's scope says (Bundler's own Gemfiles nest two).
MAX_GROUPS = 8


def gemfile(path: str, text: str, lines: list[str]) -> Iterator[Dependency]:
    # The groups of the open blocks, innermost last: each entry the groups of every block up to it (a
    # group block's names, none for other blocks), at most ``MAX_GROUPS`` of them, so a gem deep in blocks
    # costs no more than one at the top.
    blocks: list[tuple[str, ...]] = []
    for number, code in _ruby_statements(lines):
        if _RUBY_END.match(code):
            if blocks:
                blocks.pop()
            continue
        gem = _GEM.match(code)
        if gem is not None:
            rest, position, versions = gem.group("rest"), 0, []
            while (version := _RUBY_VERSION.match(rest, position)) is not None:
                versions.append(version.group("version"))
                position = version.end()
            rest = rest[position:]
            source = _RUBY_SOURCE_OPTION.search(rest)
            if not versions and source is not None:
                versions.append(f"{source.group('key') or source.group('rocket')} {source.group('value')}")
            groups = list(blocks[-1]) if blocks else []
            option = _RUBY_GROUP_OPTION.search(rest)
            if option is not None:
                groups += _ruby_names(option.group("value"))[:MAX_GROUPS]
            scope = ",".join(list(dict.fromkeys(groups))[:MAX_GROUPS]) or "runtime"
            yield Dependency("rubygems", gem.group("name"), ", ".join(versions), scope, path, number)
        elif (block := _RUBY_DO.search(code)) is not None or (_RUBY_OPENER.match(code) and not _RUBY_ONE_LINE_END.search(code)):
            names = _ruby_names(code[len("group"):block.start()]) if block is not None and _RUBY_GROUP_BLOCK.match(code) else []
            outer = blocks[-1] if blocks else ()
            blocks.append(tuple(dict.fromkeys((*outer, *names[:MAX_GROUPS])))[:MAX_GROUPS] if names else outer)


def _ruby_string(found: re.Match[str]) -> str:
    return next((value for value in found.group("double", "single", "angle", "brace", "paren", "square") if value is not None), "")


def gemspec(path: str, text: str, lines: list[str]) -> Iterator[Dependency]:
    seen = set()  # generated gemspecs declare each gem again in the branches of a version check
    for number, code in _ruby_statements(lines):
        found = _GEMSPEC_DEPENDENCY.search(code)
        if found is None:
            continue
        name = _ruby_string(_RUBY_STRING.match(found.group("name")))
        scope = "dev" if found.group("kind") == "development_" else "runtime"
        if not name or (name, scope) in seen:
            continue
        seen.add((name, scope))
        versions = [_ruby_string(version) for version in _RUBY_STRING.finditer(found.group("rest"))]
        yield Dependency("rubygems", name, ", ".join(versions), scope, path, number)
