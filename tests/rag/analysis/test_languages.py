"""Languages read with tree-sitter: symbols in each language's own terms, docs, edges across files, tests."""

from __future__ import annotations

import pytest

from chat.agent.edits.diffs import check_syntax
from rag.analysis.filetypes import artifact_type, detect_language
from rag.analysis.languages import parses, specs
from rag.analysis.repository import analyze_repository

# One small project per language: a documented type with a method, and a second file calling it.
PROJECTS: dict[str, dict[str, str]] = {
    "go": {
        "cart/store.go": (
            "package cart\n\n// Store keeps the items of a cart.\ntype Store struct{ items []int }\n\n"
            "// Total sums the prices of the items.\nfunc (s *Store) Total() int { return len(s.items) }\n"
        ),
        "cart/api.go": "package cart\n\nfunc Handler() int {\n\ts := &Store{}\n\treturn s.Total()\n}\n",
    },
    "java": {
        "src/main/java/com/shop/Cart.java": (
            "package com.shop;\n\n/** A shopping cart. */\npublic class Cart {\n"
            "    /** Sums the prices of the items. */\n    public int total() { return 0; }\n}\n"
        ),
        "src/main/java/com/shop/Checkout.java": (
            "package com.shop;\n\npublic class Checkout {\n    int pay(Cart cart) { return cart.total(); }\n}\n"
        ),
    },
    "typescript": {
        "web/cart.ts": (
            "/** A shopping cart. */\nexport class Cart {\n  /** Sums the prices of the items. */\n"
            "  total(): number { return 0; }\n}\n"
        ),
        "web/checkout.ts": "import { Cart } from './cart';\nexport function pay(cart: Cart) { return cart.total(); }\n",
    },
    "rust": {
        "src/cart.rs": (
            "/// A shopping cart.\npub struct Cart;\n\nimpl Cart {\n    /// Sums the prices of the items.\n"
            "    pub fn total(&self) -> u32 { 0 }\n}\n"
        ),
        "src/checkout.rs": "pub fn pay(cart: &Cart) -> u32 {\n    cart.total()\n}\n",
    },
    "kotlin": {
        "src/main/kotlin/Cart.kt": "package com.shop\n\n/** A shopping cart. */\nclass Cart {\n    fun total(): Int { return 0 }\n}\n",
        "src/main/kotlin/Checkout.kt": "package com.shop\n\nfun pay(cart: Cart): Int { return cart.total() }\n",
    },
    "csharp": {
        "Shop/Cart.cs": (
            "namespace Shop {\n    /// <summary>A shopping cart.</summary>\n    public class Cart {\n"
            "        public int Total() { return 0; }\n    }\n}\n"
        ),
        "Shop/Checkout.cs": "namespace Shop {\n    public class Checkout {\n        int Pay(Cart cart) { return cart.Total(); }\n    }\n}\n",
    },
    "javascript": {
        "lib/cart.js": "/** A shopping cart. */\nclass Cart {\n  /** Sums the prices. */\n  total() { return 0; }\n}\nmodule.exports = { Cart };\n",
        "lib/checkout.js": "const { Cart } = require('./cart');\nfunction pay(cart) { return cart.total(); }\n",
    },
    "cpp": {
        "src/cart.hpp": "/// A shopping cart.\nclass Cart {\n public:\n  int total() const { return 0; }\n};\n",
        "src/checkout.cpp": '#include "cart.hpp"\nint pay(const Cart& cart) { return cart.total(); }\n',
    },
    "c": {
        "src/cart.c": "/* Sums the prices of the items. */\nint cart_total(int *items, int n) { return n; }\n",
        "src/checkout.c": "int cart_total(int *items, int n);\nint pay(int *items) { return cart_total(items, 2); }\n",
    },
    "ruby": {
        "lib/cart.rb": "# A shopping cart.\nclass Cart\n  # Sums the prices of the items.\n  def total\n    0\n  end\nend\n",
        "lib/checkout.rb": "def pay(cart)\n  cart.total\nend\n",
    },
    "php": {
        "src/Cart.php": "<?php\n/** A shopping cart. */\nclass Cart {\n    public function total() { return 0; }\n}\n",
        "src/Checkout.php": "<?php\nfunction pay($cart) { return $cart->total(); }\n",
    },
}
TOTAL = {"c": "cart_total", "csharp": "Total", "go": "Total"}
EXPECTED_QNAMES = {
    "go": "cart.Store.Total",
    "java": "com.shop.Cart.total",
    "kotlin": "com.shop.Cart.total",
    "rust": "src.cart.Cart.total",
    "typescript": "web.cart.Cart.total",
}


@pytest.mark.parametrize("language", sorted(PROJECTS))
def test_each_language_yields_symbols_and_a_call_resolved_across_files(language):
    files = PROJECTS[language]
    analysis = analyze_repository(files)
    symbols = [symbol for file in analysis.files.values() for symbol in file.symbols]
    name = TOTAL.get(language, "total")

    (total,) = [symbol for symbol in symbols if symbol.name == name and "checkout" not in symbol.path.lower()]
    if language in EXPECTED_QNAMES:
        assert total.qname == EXPECTED_QNAMES[language]
    calls = [edge for file in analysis.files.values() for edge in file.edges if edge.kind == "calls" and edge.raw == name]
    assert calls and all(edge.dst == total.qname and edge.resolution == "resolved" for edge in calls)
    assert all(file.language == detect_language(path) for path, file in analysis.files.items())


@pytest.mark.parametrize("language", ["go", "java", "typescript", "rust", "kotlin", "javascript", "ruby"])
def test_doc_comments_become_the_symbols_docs(language):
    analysis = analyze_repository(PROJECTS[language])
    docs = {symbol.name: symbol.docstring for file in analysis.files.values() for symbol in file.symbols}

    assert any("shopping cart" in doc.lower() or "sums the prices" in doc.lower() for doc in docs.values()), docs


def test_a_method_is_chunked_under_its_type_with_a_signature():
    analysis = analyze_repository(PROJECTS["go"])
    store = analysis.files["cart/store.go"]
    (total,) = [symbol for symbol in store.symbols if symbol.name == "Total"]

    assert total.signature == "func (s *Store) Total() int"
    assert total.kind == "method" and total.parent == "cart.Store"
    assert any(chunk.start_line <= total.start_line <= chunk.end_line for chunk in store.chunks)


def test_a_rust_trait_implementation_is_an_inherits_edge():
    files = {"src/lib.rs": "pub trait Pricing { fn price(&self) -> u32; }\npub struct Flat;\nimpl Pricing for Flat {\n    fn price(&self) -> u32 { 1 }\n}\n"}
    edges = analyze_repository(files).files["src/lib.rs"].edges

    assert [(e.kind, e.src, e.dst) for e in edges if e.kind == "inherits"] == [("inherits", "src.lib.Flat", "src.lib.Pricing")]


@pytest.mark.parametrize(
    "path",
    ["pkg/cart/store_test.go", "src/test/java/com/shop/CartTest.java", "web/cart.spec.ts", "web/__tests__/cart.tsx",
     "crates/shop/tests/cart.rs", "spec/cart_spec.rb", "app/src/test/kotlin/CartTest.kt"],
)
def test_test_files_are_told_by_each_ecosystems_conventions(path):
    assert artifact_type(path, detect_language(path)) == "test"


@pytest.mark.parametrize("path", ["pkg/cart/store.go", "src/main/java/com/shop/Cart.java", "web/cart.ts", "src/lib.rs"])
def test_source_files_are_not_taken_for_tests(path):
    assert artifact_type(path, detect_language(path)) == "code"


def test_every_language_folder_compiles_its_queries():
    from rag.analysis.languages import _grammar

    for spec in set(specs().values()):
        parser, query = _grammar(spec)
        assert query.pattern_count > 0, spec.name


def test_an_edit_that_breaks_a_files_syntax_is_caught_by_its_grammar():
    before = "package cart\n\nfunc Total() int { return 1 }\n"
    broken = "package cart\n\nfunc Total() int { return 1 \n"

    assert parses("cart/store.go", before) is None
    assert "no longer parses" in check_syntax("cart/store.go", broken, before)
    assert check_syntax("cart/store.go", before, before) == ""
    # A file the grammar could not read before is not blamed on the edit.
    assert check_syntax("cart/store.go", broken, broken) == ""


def test_a_stored_analysis_of_such_a_file_is_reused_whole():
    from rag.analysis.serialization import file_analysis_from_dict, file_analysis_to_dict

    first = analyze_repository(PROJECTS["go"])
    stored = {path: file_analysis_from_dict(file_analysis_to_dict(analysis)) for path, analysis in first.extracted.items()}
    again = analyze_repository(PROJECTS["go"], previous=stored)

    assert again.reused == frozenset(PROJECTS["go"])
    assert again.files["cart/api.go"].edges == first.files["cart/api.go"].edges


ROUTES = {
    "cmd/server/main.go": 'package main\n\nfunc main() {\n\tr := gin.Default()\n\tr.GET("/orders/:id", showOrder)\n}\n',
    "src/main/java/com/shop/OrderController.java": (
        'package com.shop;\npublic class OrderController {\n  @GetMapping("/orders/{id}")\n'
        "  public Order show(long id) { return null; }\n}\n"
    ),
    "server.js": "const app = express();\napp.post('/checkout', (req, res) => res.send('ok'));\n",
    "src/main.rs": 'fn main() {\n    let app = Router::new().route("/health", get(health));\n}\n',
    "Controllers/OrdersController.cs": 'class OrdersController { [HttpGet("orders")] public int List() { return 0; } }\n',
    "routes/web.php": "<?php\nRoute::get('/cart', [CartController::class, 'show']);\n",
    "config/routes.rb": "Rails.application.routes.draw do\n  get '/products', to: 'products#index'\nend\n",
}


def test_routes_and_main_functions_of_common_frameworks_are_entrypoints():
    analysis = analyze_repository(ROUTES)
    found = {
        (entry.framework, entry.route_or_command, entry.methods, entry.handler)
        for file in analysis.files.values()
        for entry in file.entrypoints
    }

    assert found >= {
        ("main", "server", (), "cmd.server.main"),
        ("go", "/orders/:id", ("GET",), "cmd.server.main"),
        ("spring", "/orders/{id}", ("GET",), "com.shop.OrderController.show"),
        ("express", "/checkout", ("POST",), None),
        ("axum", "/health", (), "src.main.main"),
        ("aspnet", "orders", ("GET",), "Controllers.OrdersController.OrdersController.List"),
        ("laravel", "/cart", ("GET",), None),
        ("rails", "/products", ("GET",), None),
    }


def test_entrypoints_survive_a_stored_analysis():
    from rag.analysis.serialization import file_analysis_from_dict, file_analysis_to_dict

    first = analyze_repository(ROUTES)
    stored = {path: file_analysis_from_dict(file_analysis_to_dict(analysis)) for path, analysis in first.extracted.items()}
    again = analyze_repository(ROUTES, previous=stored)

    assert again.reused == frozenset(ROUTES)
    assert again.entrypoints() == first.entrypoints()


IMPORTS = {
    "web/cart.ts": "export class Cart { total() { return 0; } }\n",
    "web/checkout.ts": "import { Cart } from './cart';\nimport React from 'react';\nexport function pay(c: Cart) { return c.total(); }\n",
    "src/main/java/com/shop/Cart.java": "package com.shop;\npublic class Cart { int total() { return 0; } }\n",
    "src/main/java/com/shop/app/App.java": "package com.shop.app;\nimport com.shop.Cart;\nimport java.util.List;\npublic class App { }\n",
    "internal/cart/cart.go": "package cart\nfunc Total() int { return 0 }\n",
    "cmd/app/main.go": 'package main\nimport (\n "fmt"\n "github.com/acme/shop/internal/cart"\n)\nfunc main() { fmt.Println(cart.Total()) }\n',
    "src/cart.h": "int cart_total(void);\nstruct cart { int n; };\n",
    "src/main.c": '#include "cart.h"\n#include <stdio.h>\nint main(void) { return cart_total(); }\n',
    "crate/src/cart.rs": "pub struct Cart;\n",
    "crate/src/main.rs": "use crate::cart::Cart;\nuse std::fmt;\nfn main() {}\n",
}


def test_imports_resolve_through_each_module_system_and_libraries_stay_partial():
    analysis = analyze_repository(IMPORTS)
    imports = {
        (path, edge.raw): edge.dst for path, file in analysis.files.items() for edge in file.edges if edge.kind == "imports"
    }

    assert imports == {
        ("web/checkout.ts", "./cart"): "web.cart",
        ("web/checkout.ts", "react"): None,
        ("src/main/java/com/shop/app/App.java", "com.shop.Cart"): "com.shop.Cart",
        ("src/main/java/com/shop/app/App.java", "java.util.List"): None,
        ("cmd/app/main.go", "github.com/acme/shop/internal/cart"): "internal.cart",
        ("cmd/app/main.go", "fmt"): None,
        ("src/main.c", "cart.h"): "src.cart",
        ("crate/src/main.rs", "crate::cart::Cart"): "crate.src.cart.Cart",
        ("crate/src/main.rs", "std::fmt"): None,
    }
