"""The docs graph without a model: a reference document from the index, labelled as such."""

from __future__ import annotations

import re

import pytest

from chat.agent.docs import DOCS_GRAPH
from chat.agent.docs.graph import keyword_request
from chat.agent.docs.reference import NO_MODEL_LABEL
from chat.agent.writing import open_index
from tests.chat.docs_edits.conftest import artifacts, run_graph, texts

pytestmark = pytest.mark.django_db

EXPECTED_ROUTES = {
    ("GET, POST", "/accounts/login/", "djshop.orders.views.login_view"),
    ("any", "/admin/", "admin.site.urls (unresolved)"),
    ("GET", "/health/", "djshop.orders.views.health"),
    ("POST", "/orders", "shopapp.api.create_order"),
    ("GET", "/orders/", "djshop.orders.views.OrderListView"),
    ("GET, POST", "/orders/<int:pk>/", "djshop.orders.views.OrderDetailView"),
    ("GET", r"/orders/export/(?P<fmt>csv\|json)/", "djshop.orders.views.health"),
    ("GET, POST", "/shop/cart", "shopapp.web.routes.cart"),
    ("POST", "/shop/checkout", "shopapp.web.routes.checkout"),
    ("GET", "/shop/orders/<int:order_id>", "shopapp.web.routes.order_detail"),
    ("GET", "/v1/items/{sku}", "shopapp.api.read_item"),
}

EXPECTED_CLASSES = {
    "djshop.orders.management.commands.import_products": {"Command"},
    "djshop.orders.views": {"OrderListView", "OrderDetailView"},
    "shopapp.models": {"BaseModel", "Product", "Order"},
    "shopapp.services.checkout": {"CheckoutError", "CheckoutService"},
}

EXPECTED_FUNCTIONS = {
    "djshop.manage": {"main"},
    "djshop.orders.views": {"login_view", "health"},
    "shopapp.admin_tool": {"rebuild_index", "create_user", "show_price"},
    "shopapp.api": {"read_item", "create_order"},
    "shopapp.cli": {"cli", "sync_products", "tax_command", "carts", "purge_cmd"},
    "shopapp.legacy": {"run_import"},
    "shopapp.pricing": {"compute_tax", "apply_discount"},
    "shopapp.reports": {"daily_report", "tax_report", "main"},
    "shopapp.tasks": {"send_receipt", "purge_abandoned_carts"},
    "shopapp.web": {"create_app"},
    "shopapp.web.routes": {"cart", "order_detail", "checkout"},
}


def route_rows(document: str) -> set[tuple[str, str, str]]:
    section = document.split("## HTTP routes", 1)[1].split("\n## ", 1)[0]
    rows = set()
    for line in section.splitlines():
        match = re.match(r"^\| (.+?) \| `(.+?)` \| `?(.+?)`? \| \w+ \| `.+` \|$", line)
        if match:
            rows.add((match.group(1), match.group(2), match.group(3)))
    return rows


def module_listing(document: str) -> dict[str, dict[str, set[str]]]:
    """module -> {"classes": names, "functions": names} as the document lists them (top level only)."""
    listing: dict[str, dict[str, set[str]]] = {}
    modules = document.split("## Modules", 1)[1]
    for block in modules.split("\n### ")[1:]:
        module = re.match(r"`([\w.]+)`", block).group(1)
        found: dict[str, set[str]] = {"classes": set(), "functions": set()}
        kind = ""
        for line in block.splitlines():
            if line == "**Classes**":
                kind = "classes"
            elif line == "**Functions**":
                kind = "functions"
            elif kind and line.startswith("- `"):
                found[kind].add(re.match(r"- `(?:async )?(?:def|class) (\w+)", line).group(1))
        listing[module] = found
    return listing


def test_offline_reference_lists_the_fixture_routes_classes_and_functions(shopapp, settings):
    settings.LLM = {**settings.LLM, "PROVIDER": "offline"}

    final, events = run_graph(DOCS_GRAPH, "Write documentation for the whole repository", shopapp)

    document = texts(events)
    assert document.startswith("# shopapp: reference\n")
    assert NO_MODEL_LABEL in document
    assert route_rows(document) == EXPECTED_ROUTES
    listing = module_listing(document)
    assert {m: v["classes"] for m, v in listing.items() if v["classes"]} == EXPECTED_CLASSES
    assert {m: v["functions"] for m, v in listing.items() if v["functions"]} == EXPECTED_FUNCTIONS
    # Methods are listed under their class, with their signatures and docstring summaries.
    assert "  - `def place_order(self, cart: list[dict], code: str | None = None) -> int` " in document
    assert (
        "- `def apply_discount(order: Order, code: str | None = None) -> int` (src/shopapp/pricing.py:14-19): "
        "The order's total in cents after the discount ``code`` and tax." in document
    )
    assert "| `cli sync-products` | `shopapp.cli.sync_products` | click | `src/shopapp/cli.py:14-17` |" in document
    assert "_1 test module is not listed._" in document
    dependencies = document.split("## Dependencies\n", 1)[1]
    assert dependencies.startswith("\n### `pyproject.toml` (pypi)\n\n| Package | Version | Scope | Source |\n|---|---|---|---|\n| `flask` | `>=3.0` | runtime | `pyproject.toml:11` |\n")
    [artifact] = artifacts(events)
    assert artifact == {"kind": "markdown", "name": "shopapp-reference.md", "content": document}
    assert final.state["answer"] == document


def test_without_a_repository_it_says_documentation_needs_one(settings, db):
    settings.LLM = {**settings.LLM, "PROVIDER": "offline"}

    final, events = run_graph(DOCS_GRAPH, "Document the project", None)

    assert "this chat has no repository" in texts(events)
    assert artifacts(events) == []


def test_offline_a_request_naming_a_file_gets_the_reference_of_that_file(shopapp, settings):
    settings.LLM = {**settings.LLM, "PROVIDER": "offline"}

    final, events = run_graph(DOCS_GRAPH, "Document src/shopapp/web/routes.py please", shopapp)

    document = texts(events)
    assert document.startswith("# shopapp: src/shopapp/web/routes.py: reference\n")
    assert route_rows(document) == {row for row in EXPECTED_ROUTES if row[2].startswith("shopapp.web.routes.")}
    assert module_listing(document) == {
        "shopapp.web.routes": {"classes": set(), "functions": {"cart", "order_detail", "checkout"}}
    }
    assert "## CLI commands" not in document


SHOP_RUBY = {
    "lib/shop/checkout.rb": "module Shop\n  class Checkout\n    # Pays the cart.\n    def pay(cart)\n      cart.total\n    end\n  end\nend\n",
    "lib/shop/commands.rb": (
        "module Shop\n  class Commands\n    def self.init_with_program(prog)\n      prog.command(:pay) do |c|\n"
        "        c.action do |args, options|\n          Checkout.new.pay(args)\n        end\n      end\n    end\n  end\nend\n"
    ),
    "assets/jquery.min.js": "function jq(a){return a}\n",
}


def offline_document(index_files, settings, request: str) -> str:
    """The offline docs graph's document for ``request`` on the ``SHOP_RUBY`` project."""
    settings.LLM = {**settings.LLM, "PROVIDER": "offline"}
    _, events = run_graph(DOCS_GRAPH, request, index_files(SHOP_RUBY, "shop"))
    return texts(events)


@pytest.mark.django_db(transaction=True)
def test_offline_a_request_naming_a_definition_in_its_languages_form_gets_the_reference_of_its_file(index_files, settings):
    document = offline_document(index_files, settings, "Write documentation for the Shop::Checkout class")

    assert document.startswith("# shop: lib/shop/checkout.rb: reference\n")
    assert "  - `def pay(cart)` (lib/shop/checkout.rb:4-6): Pays the cart." in document
    assert "Commands" not in document


@pytest.mark.django_db(transaction=True)
def test_offline_reference_names_a_handler_written_in_place_and_leaves_vendored_code_out(index_files, settings):
    document = offline_document(index_files, settings, "Write documentation for the whole repository")

    assert "| `pay` | the block written in place | mercenary | `lib/shop/commands.rb:4-8` |" in document
    assert "### `lib.shop.checkout`" in document
    assert "jquery" not in document


@pytest.mark.django_db
def test_a_request_naming_a_file_documents_that_file_not_one_whose_path_it_ends_with(index_files):
    repository = index_files(
        {
            "index.ts": "export function start() {\n  return 1\n}\n",
            "src/index.ts": "export function boot() {\n  return 2\n}\n",
            "packages/shared/src/index.ts": "export function shared() {\n  return 3\n}\n",
        },
        "monorepo",
    )
    view = open_index(repository)
    for path in ("packages/shared/src/index.ts", "src/index.ts", "index.ts"):
        request = keyword_request(f"Document {path} for new contributors", view)
        assert (request.kind, request.target) == ("module", path)
    # A longer name that merely ends with a file's path names no file.
    assert keyword_request("Document myindex.ts for new contributors", view).kind != "module"
