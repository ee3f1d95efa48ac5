"""The symbols a name may mean, read by what a reference knows of them, for the repository pass.

A method name thousands of classes define (Java's ``toString``, Ruby's ``initialize``) is looked up at
every call of it: ``Candidates`` keeps one name's symbols in their order with lookups by owner, parent,
file, folder and qname that read only what they find, and ``CandidatesByName`` builds each list once
for all the repository's files. Every lookup returns what a scan of the list would, in the same order.
"""

from __future__ import annotations

import bisect
import posixpath
from collections import Counter
from collections.abc import Callable, Iterable

from rag.analysis.records import Symbol


def owner_name(symbol: Symbol) -> str:
    """The short name of what ``symbol`` is a member of: its class, or its package or module."""
    parts = symbol.qname.rsplit(".", 2)
    return parts[-2] if len(parts) > 1 else ""


# Lists this short are read one by one: an index costs more than the few lookups most names get.
_SCANNED = 16


class Candidates(list[Symbol]):
    """The symbols of one name that one kind of reference may mean (a call: no constant; a base: a class),
    in their order, with lookups by owner and by parent that read only the symbols they find: a method
    name defined in thousands of classes (Java's ``toString``) is looked up at every call of it."""

    def __init__(self, symbols: Iterable[Symbol], of: Candidates | None = None, dropped: str = "") -> None:
        super().__init__(symbols)
        # A list that is another's without the symbols named ``dropped`` looks up through that one's index.
        self._of, self._dropped = of, dropped
        self._owners: dict[str, list[int]] | None = None
        self._parents: dict[str | None, list[int]] | None = None
        self._qnames: dict[str, list[int]] | None = None
        self._paths: dict[str | None, list[int]] | None = None
        self._folders: dict[str | None, list[int]] | None = None
        self._plain: bool | None = None
        self._methods: Candidates | None = None
        self._others: list[Symbol] | None = None
        self._sorted_parents: list[str] | None = None

    def owned_by(self, owners: set[str]) -> list[Symbol]:
        """The symbols whose owner (``owner_name``) is one of ``owners``, in their order."""
        if len(self) <= _SCANNED:
            return [s for s in self if owner_name(s) in owners]
        if self._of is not None:
            return [s for s in self._of.owned_by(owners) if s.qname != self._dropped]
        if self._owners is None:
            self._owners = _positions(self, owner_name)
        return [self[position] for position in sorted(p for owner in owners for p in self._owners.get(owner, ()))]

    def with_parent(self, parent: str) -> list[Symbol]:
        """The symbols whose parent is ``parent``, in their order."""
        if len(self) <= _SCANNED:
            return [s for s in self if s.parent == parent]
        if self._of is not None:
            return [s for s in self._of.with_parent(parent) if s.qname != self._dropped]
        if self._parents is None:
            self._parents = _positions(self, lambda symbol: symbol.parent)
        return [self[position] for position in self._parents.get(parent, ())]

    @property
    def plain(self) -> bool:
        """No method among the symbols, and none inside another definition: a call with no receiver reaches each."""
        if self._plain is None:
            self._plain = self._of.plain if self._of is not None and self._of.plain else not any(
                s.kind == "method" or s.parent for s in self
            )
        return self._plain

    def nearest(self, path: str) -> list[Symbol]:
        """``_nearest``: the symbols in the file at ``path``, else in its folder, else all of them."""
        if len(self) <= _SCANNED:
            folder = posixpath.dirname(path)
            return [s for s in self if s.path == path] or [s for s in self if posixpath.dirname(s.path) == folder] or self
        if self._of is not None:
            return (
                [s for s in self._of.in_file(path) if s.qname != self._dropped]
                or [s for s in self._of.in_folder(posixpath.dirname(path)) if s.qname != self._dropped]
                or self
            )
        return self.in_file(path) or self.in_folder(posixpath.dirname(path)) or self

    def in_file(self, path: str) -> list[Symbol]:
        if self._paths is None:
            self._paths = _positions(self, lambda symbol: symbol.path)
        return [self[position] for position in self._paths.get(path, ())]

    def in_folder(self, folder: str) -> list[Symbol]:
        if self._folders is None:
            self._folders = _positions(self, lambda symbol: posixpath.dirname(symbol.path))
        return [self[position] for position in self._folders.get(folder, ())]

    def methods(self) -> Candidates:
        """The methods among the symbols, in their order, indexed the same way."""
        if self._methods is None:
            if self._of is not None:
                self._methods = self._of.methods().without(self._dropped)
            else:
                self._methods = Candidates(s for s in self if s.kind == "method")
        return self._methods

    def others(self) -> list[Symbol]:
        """The symbols that are no methods, in their order."""
        if self._others is None:
            self._others = [s for s in self if s.kind != "method"]
        return self._others

    def select(self, parents: set[str], qnames: set[str], parent_prefix: str) -> list[Symbol]:
        """The symbols whose parent is one of ``parents`` or starts with ``parent_prefix`` (when given), or
        whose qname is one of ``qnames``, in their order."""
        if len(self) <= _SCANNED:
            return [
                s for s in self
                if s.parent in parents or s.qname in qnames or (parent_prefix and (s.parent or "").startswith(parent_prefix))
            ]
        if self._of is not None:
            return [s for s in self._of.select(parents, qnames, parent_prefix) if s.qname != self._dropped]
        if self._parents is None:
            self._parents = _positions(self, lambda symbol: symbol.parent)
        if self._qnames is None:
            self._qnames = _positions(self, lambda symbol: symbol.qname)
        chosen = {p for parent in parents for p in self._parents.get(parent, ())}
        chosen.update(p for qname in qnames for p in self._qnames.get(qname, ()))
        if parent_prefix:
            if self._sorted_parents is None:
                self._sorted_parents = sorted(parent for parent in self._parents if parent)
            start = bisect.bisect_left(self._sorted_parents, parent_prefix)
            for parent in self._sorted_parents[start:]:
                if not parent.startswith(parent_prefix):
                    break
                chosen.update(self._parents[parent])
        return [self[position] for position in sorted(chosen)]

    def without(self, qname: str) -> Candidates:
        """These symbols but those named ``qname`` (a definition does not call itself), copied in slices."""
        if self._of is not None:
            return Candidates((s for s in self if s.qname != qname))
        if self._qnames is None:
            self._qnames = _positions(self, lambda symbol: symbol.qname)
        dropped = self._qnames.get(qname, [])
        kept: list[Symbol] = []
        start = 0
        for position in dropped:
            kept += self[start:position]
            start = position + 1
        kept += self[start:]
        return Candidates(kept, of=self, dropped=qname)


def _positions(symbols: list[Symbol], key: Callable[[Symbol], str | None]) -> dict[str | None, list[int]]:
    """The positions of the symbols by ``key``."""
    found: dict[str | None, list[int]] = {}
    for position, symbol in enumerate(symbols):
        found.setdefault(key(symbol), []).append(position)
    return found


class CandidatesByName:
    """``Candidates`` lists by language, name and what a reference may mean, built once for all files."""

    def __init__(self, by_name: dict[tuple[str, str], list[Symbol]]) -> None:
        self.by_name = by_name
        self._lists: dict[tuple[str, str, str], Candidates] = {}
        self._counts: dict[tuple[str, str], Counter[str]] = {}
        self._firsts: dict[tuple[str, str], dict[str, Symbol]] = {}

    def of(self, language: str, name: str, kind: str) -> Candidates:
        key = (language, name, kind)
        if key not in self._lists:
            same_name = self.by_name.get((language, name), ())
            if kind == "calls":
                # A property or constant (PHP's, Kotlin's, C#'s) is read, not called: a call of its name is a function's.
                self._lists[key] = Candidates(s for s in same_name if s.kind != "const")
            elif kind == "inherits":
                self._lists[key] = Candidates(s for s in same_name if s.kind == "class")
            else:
                self._lists[key] = Candidates(same_name)
        return self._lists[key]

    def first(self, language: str, qname: str) -> Symbol | None:
        """The first symbol named ``qname``, as a scan of its name's symbols finds it."""
        name = qname.rsplit(".", 1)[-1]
        key = (language, name)
        if key not in self._firsts:
            firsts: dict[str, Symbol] = {}
            for symbol in self.by_name.get(key, ()):
                firsts.setdefault(symbol.qname, symbol)
            self._firsts[key] = firsts
        return self._firsts[key].get(qname)

    def defined(self, language: str, name: str, qname: str) -> int:
        """How many symbols of the name are ``qname`` (overloads share one)."""
        key = (language, name)
        if key not in self._counts:
            self._counts[key] = Counter(s.qname for s in self.by_name.get(key, ()))
        return self._counts[key][qname]
