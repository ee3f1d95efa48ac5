"""The symbols a name may mean, read by what a reference knows of them, for the repository pass.

A method name thousands of classes define (Java's ``toString``, Ruby's ``initialize``) is looked up at
every call of it. ``CandidatesByName`` builds each name's list once for all the repository's files, as a
``Candidates``: the symbols in their order, with indexes by owner, parent, file, folder and qname built
when first asked. The lookups (``owned_by``, ``with_parent``, ``nearest``, ``select``, ``methods_of``, ``others_of``, ``plain``) take
any list of symbols and return what a scan of it would, in the same order: through the indexes for a
long ``Candidates``, by the scan itself for anything else.
"""

from __future__ import annotations

import bisect
import posixpath
from collections.abc import Callable, Iterable

from rag.analysis.records import Symbol

# Lists this short are read one by one: an index costs more than the few lookups most names get.
_SCANNED = 16


def owner_name(symbol: Symbol) -> str:
    """The short name of what ``symbol`` is a member of: its class, or its package or module."""
    parts = symbol.qname.rsplit(".", 2)
    return parts[-2] if len(parts) > 1 else ""


class Candidates(list[Symbol]):
    """The symbols of one name that one kind of reference may mean (a call: no constant; a base: a class),
    in their order, with their indexes; or another ``Candidates`` without the symbols named ``dropped``,
    which looks up through that one's indexes."""

    def __init__(self, symbols: Iterable[Symbol], of: Candidates | None = None, dropped: str = "") -> None:
        super().__init__(symbols)
        self._of, self._dropped = of, dropped
        self._indexes: dict[str, dict[str | None, list[int]]] = {}
        self._sorted_parents: list[str] | None = None
        self._kinds: tuple[list[Symbol], list[Symbol]] | None = None
        self._plain: bool | None = None

    def _positions(self, index: str, keys: Iterable[str | None], key: Callable[[Symbol], str | None]) -> list[int]:
        """The positions of the symbols whose ``key`` is one of ``keys``, in order, through the index of that
        name (built when first asked; a base list's)."""
        if index not in self._indexes:
            positions: dict[str | None, list[int]] = {}
            for position, symbol in enumerate(self):
                positions.setdefault(key(symbol), []).append(position)
            self._indexes[index] = positions
        found = [self._indexes[index].get(k, []) for k in keys]
        return found[0] if len(found) == 1 else sorted({p for some in found for p in some})

    def _found(self, *lookups: tuple[str, Iterable[str | None], Callable[[Symbol], str | None]]) -> list[Symbol]:
        """The symbols any of the lookups (index, keys, key) finds, in their order."""
        base = self._of if self._of is not None else self
        found = [base._positions(index, keys, key) for index, keys, key in lookups]
        positions = found[0] if len(found) == 1 else sorted({p for some in found for p in some})
        symbols = [base[position] for position in positions]
        return [s for s in symbols if s.qname != self._dropped] if self._of is not None else symbols

    def _under(self, parent_prefix: str) -> list[str]:
        """The parents that start with ``parent_prefix`` (a base list's, by bisection)."""
        if self._of is not None:
            return self._of._under(parent_prefix)
        if self._sorted_parents is None:
            self._sorted_parents = sorted({s.parent for s in self if s.parent})
        start = bisect.bisect_left(self._sorted_parents, parent_prefix)
        under = []
        for parent in self._sorted_parents[start:]:
            if not parent.startswith(parent_prefix):
                break
            under.append(parent)
        return under

    def without(self, qname: str) -> Candidates:
        """These symbols but those named ``qname`` (a definition does not call itself), copied in slices."""
        if self._of is not None:
            return Candidates(s for s in self if s.qname != qname)
        kept: list[Symbol] = []
        start = 0
        for position in self._positions("qname", (qname,), _qname):
            kept += self[start:position]
            start = position + 1
        kept += self[start:]
        return Candidates(kept, of=self, dropped=qname)


def _indexed(symbols: list[Symbol]) -> bool:
    return isinstance(symbols, Candidates) and len(symbols) > _SCANNED


def owned_by(symbols: list[Symbol], owners: set[str]) -> list[Symbol]:
    """The symbols whose owner (``owner_name``) is one of ``owners``, in their order."""
    if _indexed(symbols):
        return symbols._found(("owner", owners, owner_name))
    return [s for s in symbols if owner_name(s) in owners]


def with_parent(symbols: list[Symbol], parent: str) -> list[Symbol]:
    """The symbols whose parent is ``parent``, in their order."""
    if _indexed(symbols):
        return symbols._found(("parent", (parent,), _parent))
    return [s for s in symbols if s.parent == parent]


def nearest(symbols: list[Symbol], path: str) -> list[Symbol]:
    """The symbols in the file at ``path``, else in its folder, else all of them."""
    folder = posixpath.dirname(path)
    if _indexed(symbols):
        return symbols._found(("path", (path,), _path)) or symbols._found(("folder", (folder,), _folder)) or symbols
    return [s for s in symbols if s.path == path] or [s for s in symbols if posixpath.dirname(s.path) == folder] or symbols


def select(symbols: list[Symbol], parents: set[str], qnames: set[str], parent_prefix: str) -> list[Symbol]:
    """The symbols whose parent is one of ``parents`` or starts with ``parent_prefix`` (when given), or
    whose qname is one of ``qnames``, in their order."""
    if _indexed(symbols):
        by_parent = {*parents, *(symbols._under(parent_prefix) if parent_prefix else ())}
        return symbols._found(("parent", by_parent, _parent), ("qname", qnames, _qname))
    return [
        s for s in symbols
        if s.parent in parents or s.qname in qnames or (parent_prefix and (s.parent or "").startswith(parent_prefix))
    ]


def methods_of(symbols: list[Symbol]) -> list[Symbol]:
    """The methods among the symbols, in their order (a ``Candidates`` of them, for a ``Candidates``)."""
    return _kinds(symbols)[0]


def others_of(symbols: list[Symbol]) -> list[Symbol]:
    """The symbols that are no methods, in their order."""
    return _kinds(symbols)[1]


def _kinds(symbols: list[Symbol]) -> tuple[list[Symbol], list[Symbol]]:
    """The methods and the others, kept on a ``Candidates`` once read."""
    if isinstance(symbols, Candidates):
        if symbols._kinds is None:
            methods = (
                methods_of(symbols._of).without(symbols._dropped)  # type: ignore[attr-defined]
                if symbols._of is not None else Candidates(s for s in symbols if s.kind == "method")
            )
            symbols._kinds = (methods, [s for s in symbols if s.kind != "method"])
        return symbols._kinds
    return [s for s in symbols if s.kind == "method"], [s for s in symbols if s.kind != "method"]


def plain(symbols: list[Symbol]) -> bool:
    """No method among the symbols, and none inside another definition: a call with no receiver reaches each."""
    if isinstance(symbols, Candidates):
        if symbols._plain is None:
            symbols._plain = (symbols._of is not None and plain(symbols._of)) or not any(
                s.kind == "method" or s.parent for s in symbols
            )
        return symbols._plain
    return not any(s.kind == "method" or s.parent for s in symbols)


def _parent(symbol: Symbol) -> str | None:
    return symbol.parent


def _path(symbol: Symbol) -> str:
    return symbol.path


def _folder(symbol: Symbol) -> str:
    return posixpath.dirname(symbol.path)


def _qname(symbol: Symbol) -> str:
    return symbol.qname


class CandidatesByName:
    """``Candidates`` lists by language, name and what a reference may mean, built once for all files."""

    def __init__(self, by_name: dict[tuple[str, str], list[Symbol]]) -> None:
        self.by_name = by_name
        self._lists: dict[tuple[str, str, str], Candidates] = {}
        self._by_qname: dict[tuple[str, str], dict[str, list[Symbol]]] = {}

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

    def named(self, language: str, name: str, qname: str) -> list[Symbol]:
        """The symbols of the name that are ``qname`` (overloads share one), in the order of the name's list."""
        key = (language, name)
        if key not in self._by_qname:
            found: dict[str, list[Symbol]] = {}
            for symbol in self.by_name.get(key, ()):
                found.setdefault(symbol.qname, []).append(symbol)
            self._by_qname[key] = found
        return self._by_qname[key].get(qname, [])
