"""The shopapp fixture (Flask + click + Django + FastAPI + Celery) indexed through the pipeline:
symbols, cross-file edges and entrypoints read back exactly from the database, and the graph walked."""

from __future__ import annotations

import pytest

from rag.models import Edge, Entrypoint, Symbol
from rag.services import callees, callers, find_symbol, list_entrypoints, read_source, references, search, symbols_at
from tests.fixtures.projects import zip_project
from tests.rag.analysis.test_fixture_project import CROSS_FILE_EDGES, ENTRYPOINTS, SYMBOLS
from tests.rag.conftest import index_zip, make_zip


@pytest.fixture
def shopapp(owner, upload_dir):
    run = index_zip(owner, zip_project(), name="shopapp")
    assert run.status == "ready", run.error
    return run.repository


def test_the_stored_symbols_are_exactly_the_fixture_symbols(shopapp):
    stored = set(Symbol.objects.in_version(shopapp.active_run).values_list("qname", "kind", "is_entry_candidate"))
    assert stored == SYMBOLS


def test_the_stored_entrypoints_are_exactly_the_fixture_entrypoints(shopapp):
    stored = {
        (e.entry_type, e.framework, e.route_or_command, tuple(e.methods), e.handler, e.path, e.start_line, e.end_line)
        for e in Entrypoint.objects.in_version(shopapp.active_run)
    }
    assert stored == ENTRYPOINTS


def test_the_cross_file_edges_are_stored_resolved(shopapp):
    resolved = set(
        Edge.objects.in_version(shopapp.active_run).filter(resolution="resolved").values_list("kind", "src", "raw", "dst")
    )
    assert CROSS_FILE_EDGES <= resolved


def test_callers_walk_up_the_call_graph_to_the_requested_depth(shopapp):
    direct = callers(shopapp, "shopapp.pricing.compute_tax")
    assert {(e.src, e.path, e.line) for e in direct} == {
        ("shopapp.pricing.apply_discount", "src/shopapp/pricing.py", 19),
        ("shopapp.cli.tax_command", "src/shopapp/cli.py", 23),
        ("shopapp.reports.tax_report", "src/shopapp/reports.py", 15),
    }
    two_levels = {(e.src, e.depth) for e in callers(shopapp, "compute_tax", depth=2)}
    assert two_levels == {
        ("shopapp.pricing.apply_discount", 1),
        ("shopapp.cli.tax_command", 1),
        ("shopapp.reports.tax_report", 1),
        ("shopapp.services.checkout.CheckoutService.place_order", 2),
        ("shopapp.api.create_order", 2),
        ("tests.test_checkout.test_discount_applies_before_tax", 2),
    }


def test_callees_include_unresolved_calls_with_their_raw_text(shopapp):
    edges = callees(shopapp, "shopapp.services.checkout.CheckoutService.place_order")
    assert {(e.dst, e.raw, e.resolution) for e in edges} == {
        ("shopapp.services.checkout.CheckoutError", "CheckoutError", "resolved"),
        ("shopapp.services.checkout.CheckoutService.build_order", "self.build_order", "resolved"),
        ("shopapp.pricing.apply_discount", "pricing.apply_discount", "resolved"),
        (None, "send_receipt.delay", "partial"),
        (None, "logger.info", "partial"),
    }
    deeper = {e.dst for e in callees(shopapp, "shopapp.services.checkout.CheckoutService.place_order", depth=2) if e.depth == 2}
    assert {"shopapp.pricing.compute_tax", "shopapp.models.Order.subtotal_cents", "shopapp.models.Order.add"} <= deeper


def test_find_symbol_by_short_or_qualified_name(shopapp):
    [found] = find_symbol(shopapp, "CheckoutService")
    assert (found.qname, found.path, found.start_line, found.end_line) == (
        "shopapp.services.checkout.CheckoutService", "src/shopapp/services/checkout.py", 19, 38,
    )
    assert [s.qname for s in find_symbol(shopapp, "checkout.CheckoutService.place_order")] == [
        "shopapp.services.checkout.CheckoutService.place_order"
    ]
    assert {s.qname for s in find_symbol(shopapp, "validate")} == {
        "shopapp.models.BaseModel.validate", "shopapp.models.Product.validate",
    }
    assert find_symbol(shopapp, "NoSuchThing") == []


def test_symbols_at_reads_the_definitions_of_search_results_in_one_statement(shopapp, django_assert_num_queries):
    places = [
        ("shopapp.pricing.compute_tax", "src/shopapp/pricing.py"),
        ("shopapp.pricing.compute_tax", "src/shopapp/cli.py"),  # not defined in that file
        ("shopapp.cli.tax_command", "src/shopapp/cli.py"),
        ("shopapp.pricing.compute_tax", "src/shopapp/pricing.py"),
    ]
    shopapp.active_run  # the version is read before the count starts

    with django_assert_num_queries(1):
        found = symbols_at(shopapp, places)

    assert [(s.qname, s.path, s.kind) for s in found] == [
        ("shopapp.pricing.compute_tax", "src/shopapp/pricing.py", "function"),
        ("shopapp.cli.tax_command", "src/shopapp/cli.py", "function"),
    ]


def test_entrypoints_of_one_kind(shopapp):
    flask_routes = {(e.route_or_command, e.methods) for e in list_entrypoints(shopapp, "http") if e.framework == "flask"}
    assert flask_routes == {("/shop/cart", ("GET", "POST")), ("/shop/orders/<int:order_id>", ("GET",)), ("/shop/checkout", ("POST",))}
    tasks = {e.handler for e in list_entrypoints(shopapp, "celery")}
    assert tasks == {"shopapp.tasks.send_receipt", "shopapp.tasks.purge_abandoned_carts"}
    assert len(list_entrypoints(shopapp)) == len(ENTRYPOINTS)
    with pytest.raises(ValueError):
        list_entrypoints(shopapp, "soap")


def test_a_route_in_the_query_finds_its_entrypoint(shopapp):
    top = search(shopapp, "POST /shop/checkout returns 400", limit=3)[0]
    assert top.layer == "C3_ENTRYPOINTS"
    assert top.metadata["handler"] == "shopapp.web.routes.checkout"
    assert (top.path, top.start_line, top.end_line) == ("src/shopapp/web/routes.py", 20, 27)


def test_the_latin1_file_is_readable_in_the_index(shopapp):
    source = read_source(shopapp, "src/shopapp/legacy.py")
    assert "\ufffd" in source.text
    assert shopapp.active_run.counts["files_with_replaced_bytes"] == 1


POLYGLOT = {
    "crates/walk/src/lib.rs": "pub struct WalkBuilder;\nimpl WalkBuilder {\n    pub fn new() -> Self { WalkBuilder }\n}\n",
    "src/main/java/com/shop/JsonParser.java": "package com.shop;\npublic class JsonParser {\n    public int nextToken() { return 0; }\n}\n",
    "lib/shop/base.rb": "module Shop\n  class Base\n    def route(path)\n      path\n    end\n  end\nend\n",
    "src/Routing/Route.php": "<?php\nnamespace Slim\\Routing;\nclass Route {\n    public function run() { }\n}\n",
}


def test_find_symbol_takes_each_languages_own_form_of_a_qualified_name(owner, upload_dir):
    run = index_zip(owner, make_zip(POLYGLOT), name="polyglot")
    assert run.status == "ready", run.error
    found = {
        written: [s.qname for s in find_symbol(run.repository, written)]
        for written in (
            "crate::WalkBuilder::new", "WalkBuilder::new", "walk::WalkBuilder::new", "JsonParser#nextToken", "Shop::Base#route",
            "\\Slim\\Routing\\Route",
        )
    }

    assert found == {
        "crate::WalkBuilder::new": ["crates.walk.src.lib.WalkBuilder.new"],
        "walk::WalkBuilder::new": ["crates.walk.src.lib.WalkBuilder.new"],
        "WalkBuilder::new": ["crates.walk.src.lib.WalkBuilder.new"],
        "JsonParser#nextToken": ["com.shop.JsonParser.nextToken"],
        "Shop::Base#route": ["lib.shop.base.Shop.Base.route"],
        "\\Slim\\Routing\\Route": ["Slim.Routing.Route"],
    }


def test_a_symbol_is_shown_by_the_name_its_language_writes(owner, upload_dir):
    run = index_zip(owner, make_zip(POLYGLOT), name="polyglot")
    assert run.status == "ready", run.error

    written = {s.qname: s.written for name in ("new", "nextToken", "route", "run", "Route") for s in find_symbol(run.repository, name)}

    assert written == {
        "crates.walk.src.lib.WalkBuilder.new": "walk::WalkBuilder::new",
        "com.shop.JsonParser.nextToken": "com.shop.JsonParser#nextToken",
        "lib.shop.base.Shop.Base.route": "Shop::Base#route",
        "Slim.Routing.Route.run": "Slim\\Routing\\Route::run",
        "Slim.Routing.Route": "Slim\\Routing\\Route",
    }


def test_the_references_and_callers_in_the_code_come_before_those_in_its_tests(owner, upload_dir):
    files = {
        "src/cart.js": "export function total(items) { return items.length; }\n",
        "src/checkout.js": "import { total } from './cart';\nexport function pay(items) { return total(items); }\n",
        # Its path sorts before the code's.
        "__tests__/cart.test.js": "import { total } from '../src/cart';\ntest('total', () => { total([]); });\n",
    }
    run = index_zip(owner, make_zip(files), name="cart")
    assert run.status == "ready", run.error

    calls = [e.path for e in references(run.repository, "src.cart.total") if e.kind == "calls"]
    callers_of = [e.path for e in callers(run.repository, "src.cart.total")]

    assert calls == ["src/checkout.js", "__tests__/cart.test.js"]
    assert callers_of == ["src/checkout.js", "__tests__/cart.test.js"]
