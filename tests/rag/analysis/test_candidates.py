"""The candidate lookups of the repository pass answer through their indexes what a scan would."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rag.analysis.candidates import (
    Candidates,
    any_of,
    keyed,
    methods_of,
    nearest,
    others_of,
    owned_by,
    plain,
    select,
    with_parent,
)
from rag.analysis.records import Symbol

FOLDERS = ("a", "a/b", "c")
MODULES = ("a", "a.b", "a.b.c", "c")


@st.composite
def symbols(draw) -> Symbol:
    module = draw(st.sampled_from(MODULES))
    owner = draw(st.sampled_from((None, "A", "B", "A.Inner")))
    parent = f"{module}.{owner}" if owner else None
    qname = f"{parent or module}.run"
    folder = draw(st.sampled_from(FOLDERS))
    return Symbol(
        qname=qname, name="run", kind=draw(st.sampled_from(("function", "method", "class"))),
        path=f"{folder}/f{draw(st.integers(0, 3))}.x", module=module, start_line=1, end_line=2, parent=parent,
    )


def _module(symbol: Symbol) -> str:
    return symbol.module


# More symbols than a list short enough to be scanned: the lookups go through the indexes.
lists = st.lists(symbols(), min_size=17, max_size=60)
keys = st.sets(st.sampled_from((*MODULES, "a.b.c.A", "zzz")), max_size=3)


def _views(whole: list[Symbol], dropped: str) -> list[tuple[list[Symbol], list[Symbol]]]:
    """(an indexed list, the plain list it holds): the whole list, a part without one qname, and a part a
    lookup found, and a part of that part."""
    indexed = Candidates(whole)
    without = indexed.without(dropped)
    found = indexed._found(((None, "method"), lambda s: "method" if s.kind == "method" else None))
    views = [(indexed, list(whole)), (without, [s for s in whole if s.qname != dropped])]
    if isinstance(found, Candidates):
        views.append((found, list(found)))
        views.append((found.without(dropped), [s for s in found if s.qname != dropped]))
    return views


@settings(max_examples=150, deadline=None)
@given(lists, st.sampled_from(("a.run", "a.A.run", "c.B.run")), keys, st.sampled_from(FOLDERS))
def test_each_lookup_finds_through_the_indexes_what_a_scan_of_the_list_finds(whole, dropped, names, folder):
    for indexed, scanned in _views(whole, dropped):
        assert list(indexed) == scanned
        assert owned_by(indexed, {"A", "Inner"}) == owned_by(scanned, {"A", "Inner"})
        assert with_parent(indexed, "a.b.A") == with_parent(scanned, "a.b.A")
        assert nearest(indexed, f"{folder}/f1.x") == nearest(scanned, f"{folder}/f1.x")
        assert select(indexed, {"a.A"}, names, "a.b") == select(scanned, {"a.A"}, names, "a.b")
        assert list(methods_of(indexed)) == methods_of(scanned)
        assert list(others_of(indexed)) == others_of(scanned)
        assert plain(indexed) == plain(scanned)
        assert keyed(indexed, names, _module) == keyed(scanned, names, _module)
        prefixes = [name + "." for name in names]
        assert any_of(indexed, [(names, _module)], qnames=names, qname_prefixes=prefixes) == any_of(
            scanned, [(names, _module)], qnames=names, qname_prefixes=prefixes
        )
