"""The symbols a name may mean, read by what a reference knows of them, for the repository pass.

A method name thousands of classes define (Java's ``toString``, Ruby's ``initialize``) is looked up at
every call of it. ``CandidatesByName`` builds each name's list once for all the repository's files, as a
``Candidates``: the symbols in their order, with indexes by owner, parent, file, folder and qname built
when first asked. The lookups (``owned_by``, ``with_parent``, ``nearest``, ``select``, ``methods_of``, ``others_of``, ``plain``, ``keyed``, ``any_of``, ``whole``, ``kept``) take
any list of symbols and return what a scan of it would, in the same order: through the indexes for a
long ``Candidates``, by the scan itself for anything else.
"""

from __future__ import annotations

import bisect
import posixpath
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TypeVar

from rag.analysis.languages.spec import name_space, shares_functions
from rag.analysis.records import Symbol

# Lists this short are read one by one: an index costs more than the few lookups most names get.
_SCANNED = 16

T = TypeVar("T")


class LookupWork:
    """How many symbols the lookups of one repository pass may still read. A lookup reads what it finds
    through a list's indexes (a part of the list: ``Candidates._at``), or the whole list it scans (one
    with no indexes), so a name defined in every file of a folder can cost each reference to it as many
    symbols as files, and an upload of one name repeated in thousands of files would take time growing
    with the square of its files. The allowance grows with the repository's symbols and references; once
    it is spent, the pass leaves the rest of the references unresolved (``unresolved`` counts them)
    instead of reading on."""

    def __init__(self, allowance: int) -> None:
        self.left = allowance
        self.unresolved = 0

    @property
    def spent(self) -> bool:
        return self.left <= 0


_work: ContextVar[LookupWork | None] = ContextVar("lookup_work", default=None)


@contextmanager
def lookup_work(allowance: int) -> Iterator[LookupWork]:
    """The lookups within the block share one ``LookupWork`` of ``allowance`` symbols."""
    work = LookupWork(allowance)
    token = _work.set(work)
    try:
        yield work
    finally:
        _work.reset(token)


def current_work() -> LookupWork | None:
    """The ``LookupWork`` of the repository pass running here, if any."""
    return _work.get()


def _charge(symbols: int) -> None:
    work = _work.get()
    if work is not None:
        work.left -= symbols


def owner_name(symbol: Symbol) -> str:
    """The short name of what ``symbol`` is a member of: its class, or its package or module."""
    parts = symbol.qname.rsplit(".", 2)
    return parts[-2] if len(parts) > 1 else ""


class Candidates(list[Symbol]):
    """The symbols of one name that one kind of reference may mean (a call: no constant; a base: a class),
    in their order, with their indexes; or a part of such a list (those symbols but one qname's, or those
    a lookup found), which looks up through that list's indexes and keeps what they find that it holds."""

    def __init__(
        self, symbols: Iterable[Symbol], of: Candidates | None = None,
        held: frozenset[int] | None = None, dropped: frozenset[int] = frozenset(),
    ) -> None:
        super().__init__(symbols)
        # The whole list a part is of, the positions of that list it holds (None: all) and those it drops.
        self._of, self._held, self._dropped = of, held, dropped
        self._indexes: dict[str, dict[str | None, list[int]]] = {}
        self._sorted_parents: list[str] | None = None
        self._sorted_qnames: list[tuple[str, int]] | None = None
        self._kinds: tuple[list[Symbol], list[Symbol]] | None = None
        self._plain: bool | None = None
        self._kept: dict[str, object] = {}

    @property
    def _base(self) -> Candidates:
        return self._of if self._of is not None else self

    def _positions(self, key: Callable[[Symbol], str | None], keys: Iterable[str | None]) -> list[int]:
        """The positions in the whole list of its symbols whose ``key`` is one of ``keys``, in order, through
        the index of that key (built when first asked, kept under the key function's full name)."""
        base = self._base
        index = f"{key.__module__}.{key.__qualname__}"
        if index not in base._indexes:
            positions: dict[str | None, list[int]] = {}
            for position, symbol in enumerate(base):
                positions.setdefault(key(symbol), []).append(position)
            base._indexes[index] = positions
        found = [base._indexes[index].get(k, []) for k in keys]
        return found[0] if len(found) == 1 else sorted({p for some in found for p in some})

    def _found(self, *lookups: tuple[Iterable[str | None], Callable[[Symbol], str | None]]) -> list[Symbol]:
        """The symbols any of the lookups (keys, key) finds, in their order."""
        found = [self._positions(key, keys) for keys, key in lookups]
        return self._at(found[0] if len(found) == 1 else sorted({p for some in found for p in some}))

    def _qname_positions(self, prefix: str) -> list[int]:
        """The positions in the whole list of the symbols whose qname starts with ``prefix``, by bisection."""
        base = self._base
        if base._sorted_qnames is None:
            base._sorted_qnames = sorted((s.qname, position) for position, s in enumerate(base))
        start = bisect.bisect_left(base._sorted_qnames, (prefix,))
        found = []
        for qname, position in base._sorted_qnames[start:]:
            if not qname.startswith(prefix):
                break
            found.append(position)
        return found

    def _at(self, positions: list[int]) -> list[Symbol]:
        """The symbols this list holds at these positions of the whole list, in order: a part of the whole
        list when there are many (so that what is looked up in them goes through its indexes)."""
        base = self._base
        _charge(len(positions))
        if self._held is not None:
            positions = sorted(self._held.intersection(positions))
        if not self._dropped.isdisjoint(positions):
            positions = list(positions)
            for dropped in self._dropped:
                at = bisect.bisect_left(positions, dropped)
                if at < len(positions) and positions[at] == dropped:
                    del positions[at]
        symbols = list(map(base.__getitem__, positions))
        return Candidates(symbols, of=base, held=frozenset(positions)) if len(symbols) > _SCANNED else symbols

    def _under(self, parent_prefix: str) -> list[str]:
        """The parents in the whole list that start with ``parent_prefix``, by bisection."""
        base = self._base
        if base._sorted_parents is None:
            base._sorted_parents = sorted({s.parent for s in base if s.parent})
        start = bisect.bisect_left(base._sorted_parents, parent_prefix)
        under = []
        for parent in base._sorted_parents[start:]:
            if not parent.startswith(parent_prefix):
                break
            under.append(parent)
        return under

    def without(self, qname: str) -> Candidates:
        """These symbols but those named ``qname`` (a definition does not call itself), copied in slices
        from a whole list."""
        dropped = self._dropped.union(self._positions(_qname, (qname,)))
        if self._of is not None:
            return Candidates((s for s in self if s.qname != qname), of=self._of, held=self._held, dropped=dropped)
        kept: list[Symbol] = []
        start = 0
        for position in sorted(dropped):
            kept += self[start:position]
            start = position + 1
        kept += self[start:]
        return Candidates(kept, of=self, dropped=dropped)


def _indexed(symbols: list[Symbol]) -> bool:
    return isinstance(symbols, Candidates) and len(symbols) > _SCANNED


def owned_by(symbols: list[Symbol], owners: set[str]) -> list[Symbol]:
    """The symbols whose owner (``owner_name``) is one of ``owners``, in their order."""
    if _indexed(symbols):
        return symbols._found((owners, owner_name))
    _charge(len(symbols))
    return [s for s in symbols if owner_name(s) in owners]


def with_parent(symbols: list[Symbol], parent: str) -> list[Symbol]:
    """The symbols whose parent is ``parent``, in their order."""
    if _indexed(symbols):
        return symbols._found(((parent,), _parent))
    _charge(len(symbols))
    return [s for s in symbols if s.parent == parent]


def nearest(symbols: list[Symbol], path: str) -> list[Symbol]:
    """The symbols in the file at ``path``, else in its folder, else all of them."""
    folder = posixpath.dirname(path)
    if _indexed(symbols):
        return symbols._found(((path,), _path)) or symbols._found(((folder,), symbol_folder)) or symbols
    _charge(len(symbols))
    return [s for s in symbols if s.path == path] or [s for s in symbols if posixpath.dirname(s.path) == folder] or symbols


def select(symbols: list[Symbol], parents: set[str], qnames: set[str], parent_prefix: str) -> list[Symbol]:
    """The symbols whose parent is one of ``parents`` or starts with ``parent_prefix`` (when given), or
    whose qname is one of ``qnames``, in their order."""
    if _indexed(symbols):
        by_parent = {*parents, *(symbols._under(parent_prefix) if parent_prefix else ())}
        return symbols._found((by_parent, _parent), (qnames, _qname))
    _charge(len(symbols))
    return [
        s for s in symbols
        if s.parent in parents or s.qname in qnames or (parent_prefix and (s.parent or "").startswith(parent_prefix))
    ]


def keyed(symbols: list[Symbol], keys: Iterable[str | None], key: Callable[[Symbol], str | None]) -> list[Symbol]:
    """The symbols whose ``key`` is one of ``keys``, in their order. ``key`` must give a symbol the same
    value wherever it is asked for the list: its index is kept on the list under the function's name."""
    if _indexed(symbols):
        return symbols._found((keys, key))
    keys = set(keys)
    _charge(len(symbols))
    return [s for s in symbols if key(s) in keys]


def any_of(
    symbols: list[Symbol],
    lookups: Iterable[tuple[Iterable[str | None], Callable[[Symbol], str | None]]],
    qnames: Iterable[str] = (),
    qname_prefixes: Iterable[str] = (),
) -> list[Symbol]:
    """The symbols that any lookup (keys, ``key`` as for ``keyed``) finds, that are one of ``qnames``, or
    whose qname starts with one of ``qname_prefixes``, in their order."""
    lookups = [(set(keys), key) for keys, key in lookups]
    qnames, qname_prefixes = set(qnames), tuple(qname_prefixes)
    if not _indexed(symbols):
        _charge(len(symbols))
        return [
            s for s in symbols
            if any(key(s) in keys for keys, key in lookups) or s.qname in qnames
            or (qname_prefixes and s.qname.startswith(qname_prefixes))
        ]
    positions = {p for keys, key in lookups for p in symbols._positions(key, keys)}
    positions.update(symbols._positions(_qname, qnames))
    positions.update(p for prefix in qname_prefixes for p in symbols._qname_positions(prefix))
    return symbols._at(sorted(positions))


def methods_of(symbols: list[Symbol]) -> list[Symbol]:
    """The methods among the symbols, in their order (a ``Candidates`` of them, for a ``Candidates``)."""
    return _kinds(symbols)[0]


def others_of(symbols: list[Symbol]) -> list[Symbol]:
    """The symbols that are no methods, in their order (a ``Candidates`` of them, for a ``Candidates``)."""
    return _kinds(symbols)[1]


def _kinds(symbols: list[Symbol]) -> tuple[list[Symbol], list[Symbol]]:
    """The methods and the others, kept on a ``Candidates`` once read."""
    if isinstance(symbols, Candidates):
        if symbols._kinds is None:
            symbols._kinds = (
                _as_candidates(symbols._found((("method",), _method))), _as_candidates(symbols._found(((None,), _method)))
            )
        return symbols._kinds
    return [s for s in symbols if s.kind == "method"], [s for s in symbols if s.kind != "method"]


def _as_candidates(symbols: list[Symbol]) -> Candidates:
    """A ``Candidates`` of a short list as it is (a whole list of its own, read by scans)."""
    return symbols if isinstance(symbols, Candidates) else Candidates(symbols)


def _method(symbol: Symbol) -> str | None:
    return "method" if symbol.kind == "method" else None


def plain(symbols: list[Symbol]) -> bool:
    """No method among the symbols, and none inside another definition: a call with no receiver reaches each."""
    if isinstance(symbols, Candidates):
        if symbols._plain is None:
            symbols._plain = (symbols._of is not None and plain(symbols._of)) or not any(
                s.kind == "method" or s.parent for s in symbols
            )
        return symbols._plain
    return not any(s.kind == "method" or s.parent for s in symbols)


def whole(symbols: list[Symbol]) -> list[Symbol]:
    """The whole list a part of a ``Candidates`` is of; any other list as it is."""
    return symbols._base if isinstance(symbols, Candidates) else symbols


def kept(symbols: list[Symbol], name: str, compute: Callable[[list[Symbol]], T]) -> T:
    """``compute(symbols)``, kept under ``name`` on a ``Candidates`` once computed: what a rule reads of a
    whole list (a class reopened in thousands of files) is read once, not at every reference."""
    if isinstance(symbols, Candidates):
        if name not in symbols._kept:
            symbols._kept[name] = compute(symbols)
        return symbols._kept[name]  # type: ignore[return-value]
    return compute(symbols)


def _parent(symbol: Symbol) -> str | None:
    return symbol.parent


def _path(symbol: Symbol) -> str:
    return symbol.path


def symbol_folder(symbol: Symbol) -> str:
    """A symbol's folder: a key of lookups (``keyed``, ``any_of``)."""
    return posixpath.dirname(symbol.path)


def symbol_module(symbol: Symbol) -> str:
    """A symbol's module: a key of lookups."""
    return symbol.module


def symbol_kind(symbol: Symbol) -> str:
    """A symbol's kind: a key of lookups."""
    return symbol.kind


def _qname(symbol: Symbol) -> str:
    return symbol.qname


class CandidatesByName:
    """``Candidates`` lists by the caller's language, name and what a reference may mean, built once for
    all files. ``by_name`` is keyed by name space (``name_space``: Java and Kotlin share one), and
    ``languages`` gives each file's language: a function at the top of a file is reached by name from the
    other languages of its name space when its language shares them (C's from C++; Kotlin's ``fun
    helper()`` is ``HelperKt.helper`` to Java: ``LanguageSpec.shared_functions``)."""

    def __init__(self, by_name: dict[tuple[str, str], list[Symbol]], languages: Mapping[str, str]) -> None:
        self.by_name = by_name
        self.languages = languages
        self._lists: dict[tuple[str, str, str], Candidates] = {}
        self._by_qname: dict[tuple[str, str], dict[str, list[Symbol]]] = {}

    def of(self, language: str, name: str, kind: str) -> Candidates:
        key = (language, name, kind)
        if key not in self._lists:
            space = name_space(language)
            same_name = self.by_name.get((space, name), ())
            if space != language:
                same_name = [s for s in same_name if s.kind != "function" or s.parent is not None or self._shares(s, language)]
            if kind == "calls":
                # A property or constant (PHP's, Kotlin's, C#'s) is read, not called: a call of its name is a function's.
                self._lists[key] = Candidates(s for s in same_name if s.kind != "const")
            elif kind == "inherits":
                self._lists[key] = Candidates(s for s in same_name if s.kind == "class")
            else:
                self._lists[key] = Candidates(same_name)
        return self._lists[key]

    def _shares(self, symbol: Symbol, language: str) -> bool:
        own = self.languages.get(symbol.path, language)
        return own == language or shares_functions(own)

    def named(self, language: str, name: str, qname: str) -> list[Symbol]:
        """The symbols of the name that are ``qname`` (overloads share one), in the order of the name's list
        (``language``: a language or its name space)."""
        key = (name_space(language), name)
        if key not in self._by_qname:
            found: dict[str, list[Symbol]] = {}
            for symbol in self.by_name.get(key, ()):
                found.setdefault(symbol.qname, []).append(symbol)
            self._by_qname[key] = found
        return self._by_qname[key].get(qname, [])
