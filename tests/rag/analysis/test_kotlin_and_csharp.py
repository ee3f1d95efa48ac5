"""Kotlin and C# as their users write them: generics, members, extension functions, test projects."""

from __future__ import annotations

from rag.analysis.repository import analyze_repository


def _calls(files: dict[str, str]) -> dict[tuple[str, str, int], str | None]:
    """(calling symbol, called name, line) -> the edge's target, over the calls of ``files``."""
    analysis = analyze_repository(files)
    return {
        (edge.src, edge.raw, edge.line): edge.dst
        for file in analysis.files.values()
        for edge in file.edges
        if edge.kind == "calls"
    }


def test_csharp_generic_calls_and_constructors_are_resolved_by_their_type():
    calls = _calls({
        "Shop/Ledger.cs": (
            "namespace Shop.Core;\n\npublic class Ledger<T>\n{\n    public void Add<U>(U item) { }\n}\n\n"
            "public class Money { }\n"
        ),
        "Shop/Store.cs": "namespace Shop;\n\npublic class Store\n{\n    public void Add<U>(U item) { }\n}\n",
        "Shop/Cart.cs": (
            "using Shop.Core;\n\nnamespace Shop;\n\npublic class Cart\n{\n"
            "    private readonly Ledger<int> _ledger = new Ledger<int>();\n\n"
            "    public Money Total()\n    {\n"
            "        _ledger.Add<int>(3);\n"
            "        Make<int>();\n"
            "        return new Shop.Core.Money();\n    }\n\n"
            "    static T Make<T>() => default;\n}\n"
        ),
    })

    assert calls[("Shop.Cart", "Ledger", 7)] == "Shop.Core.Ledger"
    assert calls[("Shop.Cart.Total", "Add", 11)] == "Shop.Core.Ledger.Add"
    assert calls[("Shop.Cart.Total", "Make", 12)] == "Shop.Cart.Make"
    assert calls[("Shop.Cart.Total", "Money", 13)] == "Shop.Core.Money"
