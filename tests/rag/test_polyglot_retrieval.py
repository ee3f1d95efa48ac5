"""Search of a repository in several languages, indexed through the real pipeline."""

from __future__ import annotations

import pytest

from rag.models import IndexRun, Symbol
from rag.services import search
from tests.rag.conftest import index_zip, make_zip

POLYGLOT = {
    "services/billing/invoice.go": (
        "package billing\n\n// Invoice is a bill sent to a customer.\ntype Invoice struct {\n\tLines []int\n}\n\n"
        "// ApplyDiscount lowers every line of the invoice by a percentage coupon.\n"
        "func (i *Invoice) ApplyDiscount(percent int) {\n\tfor n := range i.Lines {\n"
        "\t\ti.Lines[n] = i.Lines[n] * (100 - percent) / 100\n\t}\n}\n"
    ),
    "backend/src/main/java/com/shop/WarehouseInventory.java": (
        "package com.shop;\n\n/** Keeps how many units of each product are in stock in the warehouse. */\n"
        "public class WarehouseInventory {\n    /** Reserves units of a product for an order. */\n"
        "    public boolean reserveStock(String sku, int units) { return units > 0; }\n}\n"
    ),
    "web/src/components/ShoppingBasket.tsx": (
        "import React from 'react';\n\n/** Shows the products in the basket with their quantities and a checkout button. */\n"
        "export function ShoppingBasket(props: { items: string[] }) {\n"
        "  return <ul>{props.items.map((item) => <li key={item}>{item}</li>)}</ul>;\n}\n"
    ),
    "engine/src/shipping.rs": (
        "/// How much it costs to ship a parcel.\npub trait ShippingCost {\n    fn cost(&self, grams: u32) -> u32;\n}\n\n"
        "pub struct ExpressCourier;\n\n/// Express delivery charges by weight, with a fixed pickup fee.\n"
        "impl ShippingCost for ExpressCourier {\n    fn cost(&self, grams: u32) -> u32 {\n        500 + grams / 10\n    }\n}\n"
    ),
    "README.md": "# Shop\n\nA shop in several languages.\n",
}


@pytest.fixture
def polyglot(owner, upload_dir):
    run = index_zip(owner, make_zip(POLYGLOT), name="polyglot")
    assert run.status == IndexRun.Status.READY, run.error
    return run.repository


def _top_paths(repository, query: str, k: int = 3) -> list[str]:
    return list(dict.fromkeys(result.path for result in search(repository, query, mode="code", limit=10)))[:k]


@pytest.mark.parametrize(
    ("query", "path"),
    [
        ("ApplyDiscount", "services/billing/invoice.go"),
        ("WarehouseInventory", "backend/src/main/java/com/shop/WarehouseInventory.java"),
        ("ShoppingBasket component", "web/src/components/ShoppingBasket.tsx"),
        ("ExpressCourier ShippingCost impl", "engine/src/shipping.rs"),
    ],
)
def test_code_in_each_language_is_found_by_name(polyglot, query, path):
    assert _top_paths(polyglot, query, k=1) == [path]


@pytest.mark.parametrize(
    ("query", "path"),
    [
        ("lower the invoice lines by a percentage coupon", "services/billing/invoice.go"),
        ("reserve units of a product in stock for an order", "backend/src/main/java/com/shop/WarehouseInventory.java"),
        ("show the products in the basket with their quantities", "web/src/components/ShoppingBasket.tsx"),
        ("how much does express delivery of a parcel cost by weight", "engine/src/shipping.rs"),
    ],
)
def test_code_in_each_language_is_found_by_what_it_does(polyglot, query, path):
    assert path in _top_paths(polyglot, query, k=2)


def test_the_catalog_holds_each_languages_symbols_with_their_parents(polyglot):
    symbols = dict(Symbol.objects.in_version(polyglot.active_run).values_list("qname", "kind"))

    assert symbols["services.billing.Invoice.ApplyDiscount"] == "method"
    assert symbols["com.shop.WarehouseInventory.reserveStock"] == "method"
    assert symbols["web.src.components.ShoppingBasket.ShoppingBasket"] == "function"
    assert symbols["engine.src.shipping.ExpressCourier.cost"] == "method"


def test_qualified_names_in_each_languages_own_form_are_read_as_dotted_names():
    from rag.query_analysis import query_hints

    hints = query_hints("fmt::format_to breaks, and crate::walk::WalkBuilder::new; see JsonParser#nextToken")

    assert {"fmt.format_to", "walk.WalkBuilder.new", "JsonParser.nextToken"} <= hints.dotted
    assert {"format_to", "new", "nextToken"} <= hints.names


def test_a_rust_qualified_name_finds_that_method_before_its_type(polyglot):
    results = search(polyglot, "ExpressCourier::cost overcharges light parcels", mode="code", limit=10)
    by_symbol = sorted((r for r in results if "symbol" in r.channels), key=lambda r: r.channels["symbol"])

    # The dotted tier (the method) before the name tier (the type and every ``cost``).
    assert by_symbol[0].title == "ExpressCourier.cost"
    assert by_symbol[0].start_line == 10


def test_a_query_word_and_a_path_word_match_by_their_stems():
    from rag.query_analysis import word_stem

    assert [word_stem(w) for w in ("hyperlinks", "colors", "formatted", "walking")] == [
        word_stem(w) for w in ("hyperlink", "color", "format", "walk")
    ]
    assert word_stem("config") != word_stem("color")
