"""Languages read with tree-sitter: symbols in each language's own terms, docs, edges across files, tests."""

from __future__ import annotations

import pytest

from chat.agent.edits.diffs import check_syntax
from rag.analysis.filetypes import artifact_type, detect_language
from rag.analysis.languages.parsing import parses
from rag.analysis.languages.spec import named_by_folder, specs, written_name
from rag.analysis.repository import analyze_repository
from tests.rag.analysis.readings import edge_targets, entrypoint_rows, symbol_rows

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


def _call_targets(files: dict[str, str]) -> dict[tuple[str, str], str | None]:
    """(calling symbol, called name) -> the edge's target, over the calls of ``files``."""
    analysis = analyze_repository(files)
    return {(edge.src, edge.raw): edge.dst for file in analysis.files.values() for edge in file.edges if edge.kind == "calls"}


def test_a_method_call_is_resolved_by_what_it_is_called_on():
    targets = _call_targets(
        {
            # PHP: the same folder has an add() and a run(); a call on another object is not theirs.
            "src/Routing/Group.php": "<?php\nnamespace App\\Routing;\nclass Group {\n"
            "    public function add($m) { return $this; }\n    public function run() {}\n}\n",
            "src/Dispatcher.php": "<?php\nnamespace App;\nclass Dispatcher {\n    public function add($m) { return $this; }\n}\n",
            "src/Factory.php": "<?php\nnamespace App;\nclass Factory {\n    public static function create() { return 1; }\n}\n",
            "src/Other.php": "<?php\nnamespace App;\nclass Other {\n    public static function create() { return 2; }\n}\n",
            "src/Routing/Route.php": (
                "<?php\nnamespace App\\Routing;\nuse App\\Factory;\nclass Route {\n"
                "    public function add($m) { $this->dispatcher->add($m); return $this; }\n"
                "    public function run() { $this->prepare(); return Factory::create(); }\n"
                "    public function start() { return $this->run(); }\n"
                "    public function prepare() {}\n}\n"
            ),
            # Go: a method's receiver is its own object; a library package's New is not the package's.
            "bloom/filter.go": (
                'package bloom\n\nimport "errors"\n\ntype Filter struct{}\n\n'
                "func New() *Filter { return &Filter{} }\n\n"
                'func (f *Filter) Add() error { f.check(); return errors.New("full") }\n\n'
                "func (f *Filter) check() {}\n"
            ),
            "bloom/other.go": "package bloom\n\ntype Other struct{}\n\nfunc (o *Other) check() {}\n",
            # Java: a class named before the call qualifies it; an imported library class is not the repository's.
            "src/main/java/com/shop/JsonParser.java": "package com.shop;\npublic class JsonParser {\n    public static int parse(String s) { return 1; }\n}\n",
            "src/main/java/com/shop/Yaml.java": "package com.shop;\npublic class Yaml {\n    public static int parse(String s) { return 2; }\n}\n",
            "src/main/java/com/shop/Logs.java": "package com.shop;\npublic class Logs {\n    public static int getLogger(String s) { return 3; }\n}\n",
            "src/main/java/com/shop/Main.java": (
                "package com.shop;\nimport java.util.logging.Logger;\npublic class Main {\n"
                '    int read() { Logger.getLogger("x"); return JsonParser.parse("{}"); }\n}\n'
            ),
            # JavaScript: a module object qualifies the function it exports.
            "lib/utils.js": "function format(s) { return s; }\nmodule.exports = { format };\n",
            "lib/view.js": "const utils = require('./utils');\nfunction format(x) { return x; }\nfunction show(s) { return utils.format(s); }\n",
        }
    )
    assert targets[("App.Routing.Route.add", "add")] is None
    assert targets[("App.Routing.Route.start", "run")] == "App.Routing.Route.run"
    assert targets[("App.Routing.Route.run", "prepare")] == "App.Routing.Route.prepare"
    assert targets[("App.Routing.Route.run", "create")] == "App.Factory.create"
    assert targets[("bloom.Filter.Add", "check")] == "bloom.Filter.check"
    assert targets[("bloom.Filter.Add", "New")] is None
    assert targets[("com.shop.Main.read", "parse")] == "com.shop.JsonParser.parse"
    assert targets[("com.shop.Main.read", "getLogger")] is None
    assert targets[("lib.view.show", "format")] == "lib.utils.format"


# One folder, two types with a total(); a call on a name declared with one of them is that one's.
DECLARED: dict[str, tuple[dict[str, str], str, str]] = {
    "java": (
        {
            "src/main/java/com/shop/Cart.java": "package com.shop;\npublic class Cart {\n    public int total() { return 0; }\n}\n",
            "src/main/java/com/shop/Ledger.java": "package com.shop;\npublic class Ledger {\n    public int total() { return 1; }\n}\n",
            "src/main/java/com/shop/Checkout.java": (
                "package com.shop;\npublic class Checkout {\n    private final Cart cart = new Cart();\n"
                "    int pay(Ledger ledger) { var fresh = new Cart(); return this.cart.total() + ledger.total() + fresh.total(); }\n}\n"
            ),
        },
        "com.shop.Checkout.pay",
        "com.shop.{}.total",
    ),
    "csharp": (
        {
            "Shop/Cart.cs": "namespace Shop;\npublic class Cart {\n    public int Total() { return 0; }\n}\n",
            "Shop/Ledger.cs": "namespace Shop;\npublic class Ledger {\n    public int Total() { return 1; }\n}\n",
            "Shop/Checkout.cs": (
                "namespace Shop;\npublic class Checkout {\n    private readonly Cart _cart = new Cart();\n"
                "    int Pay(Ledger ledger) { var fresh = new Cart(); return _cart.Total() + ledger.Total() + fresh.Total(); }\n}\n"
            ),
        },
        "Shop.Checkout.Pay",
        "Shop.{}.Total",
    ),
    "typescript": (
        {
            "web/cart.ts": "export class Cart {\n  total(): number { return 0; }\n}\nexport class Ledger {\n  total(): number { return 1; }\n}\n",
            "web/checkout.ts": (
                "import { Cart, Ledger } from './cart';\nexport class Checkout {\n  private cart: Cart;\n"
                "  pay(ledger: Ledger): number { const fresh = new Cart(); return this.cart.total() + ledger.total() + fresh.total(); }\n}\n"
            ),
        },
        "web.checkout.Checkout.pay",
        "web.cart.{}.total",
    ),
    "go": (
        {
            "shop/cart.go": "package shop\n\ntype Cart struct{}\n\nfunc (c *Cart) Total() int { return 0 }\n",
            "shop/ledger.go": "package shop\n\ntype Ledger struct{}\n\nfunc (l *Ledger) Total() int { return 1 }\n",
            "shop/checkout.go": (
                "package shop\n\ntype Checkout struct{ cart *Cart }\n\n"
                "func (k *Checkout) Pay(ledger *Ledger) int {\n\tfresh := &Cart{}\n\treturn k.cart.Total() + ledger.Total() + fresh.Total()\n}\n"
            ),
        },
        "shop.Checkout.Pay",
        "shop.{}.Total",
    ),
    "kotlin": (
        {
            "src/main/kotlin/Cart.kt": "package com.shop\n\nclass Cart {\n    fun total(): Int = 0\n}\n",
            "src/main/kotlin/Ledger.kt": "package com.shop\n\nclass Ledger {\n    fun total(): Int = 1\n}\n",
            "src/main/kotlin/Checkout.kt": (
                "package com.shop\n\nclass Checkout(private val cart: Cart) {\n"
                "    fun pay(ledger: Ledger): Int {\n        val fresh = Cart()\n        return this.cart.total() + ledger.total() + fresh.total()\n    }\n}\n"
            ),
        },
        "com.shop.Checkout.pay",
        "com.shop.{}.total",
    ),
    "rust": (
        {
            "src/cart.rs": "pub struct Cart {}\nimpl Cart {\n    pub fn new() -> Cart { Cart {} }\n    pub fn total(&self) -> u32 { 0 }\n}\n"
            "pub struct Ledger {}\nimpl Ledger {\n    pub fn total(&self) -> u32 { 1 }\n}\n",
            "src/checkout.rs": (
                "use crate::cart::{Cart, Ledger};\npub struct Checkout { cart: Cart }\nimpl Checkout {\n"
                "    pub fn pay(&self, ledger: &Ledger) -> u32 {\n        let fresh = Cart::new();\n"
                "        self.cart.total() + ledger.total() + fresh.total()\n    }\n}\n"
            ),
        },
        "src.checkout.Checkout.pay",
        "src.cart.{}.total",
    ),
    "cpp": (
        {
            "src/cart.hpp": "class Cart {\n public:\n  int total() const { return 0; }\n};\nclass Ledger {\n public:\n  int total() const { return 1; }\n};\n",
            "src/checkout.hpp": (
                '#include "cart.hpp"\nclass Checkout {\n  Cart cart_;\n public:\n'
                "  int pay(const Ledger& ledger) { auto fresh = Cart(); return this->cart_.total() + ledger.total() + fresh.total(); }\n};\n"
            ),
        },
        "src.checkout.Checkout.pay",
        "src.cart.{}.total",
    ),
    "php": (
        {
            "src/Cart.php": "<?php\nnamespace Shop;\nclass Cart {\n    public function total() { return 0; }\n}\n",
            "src/Ledger.php": "<?php\nnamespace Shop;\nclass Ledger {\n    public function total() { return 1; }\n}\n",
            "src/Checkout.php": (
                "<?php\nnamespace Shop;\nclass Checkout {\n    protected Cart $cart;\n"
                "    public function pay(Ledger $ledger) { $fresh = new Cart(); "
                "return $this->cart->total() + $ledger->total() + $fresh->total(); }\n}\n"
            ),
        },
        "Shop.Checkout.pay",
        "Shop.{}.total",
    ),
    "javascript": (
        {
            "lib/cart.js": "class Cart {\n  total() { return 0; }\n}\nclass Ledger {\n  total() { return 1; }\n}\nmodule.exports = { Cart, Ledger };\n",
            "lib/checkout.js": (
                "const { Cart, Ledger } = require('./cart');\nclass Checkout {\n  constructor() { this.cart = new Cart(); }\n"
                "  pay() { const ledger = new Ledger(); const fresh = new Cart(); "
                "return this.cart.total() + ledger.total() + fresh.total(); }\n}\n"
            ),
        },
        "lib.checkout.Checkout.pay",
        "lib.cart.{}.total",
    ),
}


@pytest.mark.parametrize("language", sorted(DECLARED))
def test_a_call_on_a_declared_name_is_resolved_in_its_type(language):
    files, caller, target = DECLARED[language]
    analysis = analyze_repository(files)
    method = target.rsplit(".", 1)[1]
    edges = [edge for file in analysis.files.values() for edge in file.edges if edge.src == caller and edge.raw == method]
    assert sorted(edge.dst or "" for edge in edges) == sorted([target.format("Cart"), target.format("Ledger"), target.format("Cart")])


def test_a_ruby_local_bound_to_a_new_object_has_its_class():
    targets = _call_targets(
        {
            "lib/jekyll/site.rb": "module Jekyll\n  class Site\n    def process\n    end\n  end\nend\n",
            "lib/jekyll/page.rb": "module Jekyll\n  class Page\n    def process(name)\n    end\n  end\nend\n",
            "lib/jekyll/commands/build.rb": (
                "module Jekyll\n  class Build\n    def run(options)\n      site = Jekyll::Site.new(options)\n"
                "      site.process\n    end\n  end\nend\n"
            ),
        }
    )
    assert targets[("lib.jekyll.commands.build.Jekyll.Build.run", "process")] == "lib.jekyll.site.Jekyll.Site.process"


def test_a_ruby_constant_is_looked_up_in_the_modules_around_it():
    analysis = analyze_repository(
        {
            "lib/jekyll/liquid_renderer/file.rb": (
                "module Jekyll\n  class LiquidRenderer\n    class File\n    end\n  end\nend\n"
            ),
            "lib/jekyll/utils.rb": "module Jekyll\n  module Utils\n    def self.slugify(s)\n      s\n    end\n  end\nend\n",
            "lib/jekyll/site.rb": (
                "module Jekyll\n  class Site\n    def initialize(path)\n      File.expand_path(path)\n"
                "      Utils.slugify(path)\n      Liquid::Utils.to_integer(path)\n    end\n  end\nend\n"
            ),
            # A module a file includes at its top is seen everywhere.
            "test/helper.rb": "require 'jekyll'\ninclude Jekyll\n",
            "test/test_site.rb": "class TestSite\n  def test_it\n    Site.new('x')\n  end\nend\n",
        }
    )
    targets = {(e.path, e.line, e.raw): e.dst for file in analysis.files.values() for e in file.edges if e.kind == "calls"}

    # Ruby's own File, not Jekyll::LiquidRenderer::File, which no module around the call holds.
    assert targets[("lib/jekyll/site.rb", 4, "File")] is None
    assert targets[("lib/jekyll/site.rb", 5, "Utils")] == "lib.jekyll.utils.Jekyll.Utils"
    # Utils of Liquid::Utils is named in Liquid, not looked up around the call.
    assert ("lib/jekyll/site.rb", 6, "Liquid") in targets
    assert targets[("test/test_site.rb", 3, "Site")] == "lib.jekyll.site.Jekyll.Site"


def test_a_ruby_module_reopened_in_several_files_is_the_one_in_the_file_named_after_it():
    analysis = analyze_repository(
        {
            "lib/jekyll.rb": "module Jekyll\n  def self.logger\n    @logger\n  end\nend\n",
            "lib/jekyll/utils.rb": "module Jekyll\n  module Utils\n    def self.slugify(s)\n      s\n    end\n  end\nend\n",
            "lib/jekyll/utils/platforms.rb": "module Jekyll\n  module Utils\n    module Platforms\n    end\n  end\nend\n",
            "lib/jekyll/site.rb": (
                "module Jekyll\n  class Site\n    def initialize(path)\n      Utils.slugify(path)\n"
                "      Jekyll.logger\n    end\n  end\nend\n"
            ),
        }
    )
    targets = {(e.line, e.raw): e.dst for e in analysis.files["lib/jekyll/site.rb"].edges if e.kind == "calls"}

    assert targets[(4, "Utils")] == "lib.jekyll.utils.Jekyll.Utils"
    assert targets[(5, "Jekyll")] == "lib.jekyll.Jekyll"


def test_a_method_a_declared_type_inherits_is_its_bases():
    targets = _call_targets(
        {
            "src/main/java/com/shop/Priced.java": "package com.shop;\npublic class Priced {\n    public int total() { return 0; }\n}\n",
            "src/main/java/com/shop/Cart.java": "package com.shop;\npublic class Cart extends Priced {\n}\n",
            "src/main/java/com/shop/Ledger.java": "package com.shop;\npublic class Ledger {\n    public int total() { return 1; }\n}\n",
            "src/main/java/com/shop/Checkout.java": (
                "package com.shop;\nimport java.util.List;\npublic class Checkout {\n"
                "    int pay(Cart cart, List<Integer> items) { return cart.total() + items.size(); }\n}\n"
            ),
            "src/main/java/com/shop/Sizes.java": "package com.shop;\npublic class Sizes {\n    public int size() { return 2; }\n}\n",
        }
    )
    assert targets[("com.shop.Checkout.pay", "total")] == "com.shop.Priced.total"
    # A library type (its bases unknown here) is no repository type's.
    assert targets[("com.shop.Checkout.pay", "size")] is None


def test_a_call_on_the_own_object_of_a_method_the_class_inherits_is_its_bases():
    targets = _call_targets(
        {
            "src/Routing/Proxy.php": (
                "<?php\nnamespace App\\Routing;\nclass Proxy implements ProxyInterface {\n"
                "    public function __construct($factory) {}\n    public function collector() { return 1; }\n}\n"
            ),
            "src/Routing/ProxyInterface.php": (
                "<?php\nnamespace App\\Routing;\ninterface ProxyInterface {\n    public function collector();\n}\n"
            ),
            "src/Other.php": (
                "<?php\nnamespace App;\nclass Other {\n"
                "    public function __construct() {}\n    public function collector() { return 2; }\n}\n"
            ),
            "src/App.php": (
                "<?php\nnamespace App;\nuse App\\Routing\\Proxy;\nclass App extends Proxy {\n"
                "    public function __construct($factory) { parent::__construct($factory); }\n"
                "    public function run() { return $this->collector(); }\n}\n"
            ),
            "lib/shop/priced.rb": "module Shop\n  class Priced\n    def total\n      0\n    end\n  end\nend\n",
            "lib/shop/ledger.rb": "module Shop\n  class Ledger\n    def total\n      1\n    end\n  end\nend\n",
            "lib/shop/cart.rb": (
                "module Shop\n  class Cart < Priced\n    def pay\n      self.total\n    end\n  end\nend\n"
            ),
        }
    )
    assert targets[("App.App.run", "collector")] == "App.Routing.Proxy.collector"
    assert targets[("App.App.__construct", "__construct")] == "App.Routing.Proxy.__construct"
    assert targets[("lib.shop.cart.Shop.Cart.pay", "total")] == "lib.shop.priced.Shop.Priced.total"


def test_a_php_class_inherits_the_traits_it_uses_and_its_calls_of_their_methods_resolve_there():
    analysis = analyze_repository(
        {
            "src/Concerns/HasAttributes.php": (
                "<?php\nnamespace App\\Concerns;\ntrait HasAttributes {\n    public function getAttribute($k) { return 1; }\n}\n"
            ),
            "src/Other.php": "<?php\nnamespace App;\nclass Other {\n    public function getAttribute($k) { return 2; }\n}\n",
            "src/Model.php": (
                "<?php\nnamespace App;\nabstract class Model {\n    use Concerns\\HasAttributes, HasEvents;\n"
                "    public function __get($key) { return $this->getAttribute($key); }\n}\n"
            ),
        }
    )
    edges = {(edge.kind, edge.raw): edge.dst for edge in analysis.files["src/Model.php"].edges}
    assert edges[("inherits", "HasAttributes")] == "App.Concerns.HasAttributes"
    assert ("inherits", "HasEvents") in edges
    assert edges[("calls", "getAttribute")] == "App.Concerns.HasAttributes.getAttribute"


def test_ruby_attribute_readers_and_writers_are_methods_their_own_calls_reach():
    analysis = analyze_repository(
        {
            "lib/shop/cart.rb": (
                "module Shop\n  class Cart\n    attr_accessor :items,\n                  :owner\n    attr_reader :total\n\n"
                "    def add(item)\n      self.owner = item\n      items << item\n      total\n    end\n  end\nend\n"
            ),
            # Another class's method of the same name is not the cart's attribute.
            "lib/shop/filters.rb": "module Shop\n  module Filters\n    def owner(x)\n      x\n    end\n  end\nend\n",
        }
    )
    file = analysis.files["lib/shop/cart.rb"]
    symbols = {symbol.name: symbol for symbol in file.symbols}
    assert {"items", "owner", "total"} <= set(symbols)
    assert symbols["owner"].kind == "method" and symbols["owner"].qname == "lib.shop.cart.Shop.Cart.owner"
    assert symbols["owner"].signature == "attr_accessor :items,"
    assert symbols["total"].signature == "attr_reader :total"
    assert written_name(symbols["total"].qname, symbols["total"].module, symbols["total"].path, "method") == "Shop::Cart#total"
    calls = {edge.raw: edge.dst for edge in file.edges if edge.kind == "calls" and edge.src.endswith(".add")}
    assert calls["owner"] == "lib.shop.cart.Shop.Cart.owner"
    assert calls["items"] == "lib.shop.cart.Shop.Cart.items"
    assert calls["total"] == "lib.shop.cart.Shop.Cart.total"


def test_php_enums_plain_function_calls_and_new_of_a_plain_class_name_are_read():
    analysis = analyze_repository(
        {
            "src/Suit.php": (
                "<?php\nnamespace App;\nenum Suit: string {\n    case Hearts = 'H';\n"
                "    public function label(): string { return ucfirst($this->name); }\n}\n"
            ),
            "src/helpers.php": "<?php\nnamespace App;\nfunction collect($items) { return new Cart($items); }\n",
            "src/Cart.php": "<?php\nnamespace App;\nclass Cart {\n    public function __construct($items) {}\n}\n",
            "src/Shop.php": "<?php\nnamespace App;\nclass Shop {\n    public function cart() { return collect([Suit::Hearts]); }\n}\n",
        }
    )
    symbols = {symbol.qname: symbol.kind for file in analysis.files.values() for symbol in file.symbols}
    edges = {(e.src, e.raw): e.dst for file in analysis.files.values() for e in file.edges if e.kind == "calls"}

    assert symbols["App.Suit"] == "class"
    assert symbols["App.Suit.Hearts"] == "const"
    assert symbols["App.Suit.label"] == "method"
    assert edges[("App.Shop.cart", "collect")] == "App.collect"
    assert edges[("App.collect", "Cart")] == "App.Cart"


def test_a_php_name_the_file_imports_is_what_its_use_names():
    analysis = analyze_repository(
        {
            # Classes that share a short name with PHP's own and with each other.
            "src/Renderer/Exception.php": "<?php\nnamespace App\\Renderer;\nclass Exception {}\n",
            "src/Support/Collection.php": "<?php\nnamespace App\\Support;\nclass Collection {}\n",
            "src/Eloquent/Collection.php": "<?php\nnamespace App\\Eloquent;\nclass Collection {}\n",
            "src/Support/helpers.php": "<?php\nnamespace App\\Support;\nfunction enum_value($v) { return $v; }\n",
            "src/Cache/LockTimeoutException.php": (
                "<?php\nnamespace App\\Cache;\nuse Exception;\nclass LockTimeoutException extends Exception {}\n"
            ),
            "src/Eloquent/Model.php": (
                "<?php\nnamespace App\\Eloquent;\nuse App\\Support\\Collection as BaseCollection;\n"
                "use function App\\Support\\enum_value;\n"
                "class Model {\n    public function all() { return new BaseCollection(enum_value(1)); }\n}\n"
                "class Pivots extends BaseCollection {}\n"
            ),
        }
    )
    edges = {(e.path, e.kind, e.raw): e.dst for file in analysis.files.values() for e in file.edges}

    assert edges[("src/Cache/LockTimeoutException.php", "inherits", "Exception")] is None
    assert edges[("src/Eloquent/Model.php", "inherits", "BaseCollection")] == "App.Support.Collection"
    assert edges[("src/Eloquent/Model.php", "calls", "BaseCollection")] == "App.Support.Collection"
    assert edges[("src/Eloquent/Model.php", "calls", "enum_value")] == "App.Support.enum_value"
    assert edges[("src/Eloquent/Model.php", "imports", "App\\Support\\Collection")] == "App.Support.Collection"


def test_a_php_static_call_on_a_class_imported_under_another_name_resolves_in_that_class():
    targets = _call_targets(
        {
            "src/Capsule/Manager.php": "<?php\nnamespace App\\Capsule;\nclass Manager {\n    public static function schema() {}\n}\n",
            "src/Queue/Manager.php": "<?php\nnamespace App\\Queue;\nclass Manager {\n    public static function schema() {}\n}\n",
            "tests/ModelTest.php": (
                "<?php\nnamespace Tests;\nuse App\\Capsule\\Manager as DB;\nclass ModelTest {\n"
                "    public function testIt() { DB::schema(); }\n}\n"
            ),
        }
    )
    assert targets[("Tests.ModelTest.testIt", "schema")] == "App.Capsule.Manager.schema"


def test_a_go_name_bound_to_a_constructor_functions_result_has_the_type_it_returns():
    targets = _call_targets(
        {
            "shop/cart.go": "package shop\n\ntype Cart struct{}\n\nfunc NewCart() *Cart { return &Cart{} }\n\nfunc (c *Cart) Total() int { return 0 }\n",
            "shop/ledger.go": (
                "package shop\n\ntype Ledger struct{}\n\nfunc OpenLedger() (*Ledger, error) { return &Ledger{}, nil }\n\n"
                "func (l *Ledger) Total() int { return 1 }\n"
            ),
            "shop/checkout.go": (
                "package shop\n\nfunc Pay() int {\n\tcart := NewCart()\n\treturn cart.Total()\n}\n\n"
                "func Settle() int {\n\tledger, _ := OpenLedger()\n\treturn ledger.Total()\n}\n"
            ),
        }
    )
    assert targets[("shop.Pay", "Total")] == "shop.Cart.Total"
    assert targets[("shop.Settle", "Total")] == "shop.Ledger.Total"


@pytest.mark.parametrize("language", ["go", "java", "typescript", "rust", "kotlin", "javascript", "ruby"])
def test_doc_comments_become_the_symbols_docs(language):
    analysis = analyze_repository(PROJECTS[language])
    docs = {symbol.name: symbol.docstring for file in analysis.files.values() for symbol in file.symbols}

    assert any("shopping cart" in doc.lower() or "sums the prices" in doc.lower() for doc in docs.values()), docs


def test_the_doc_comment_of_the_first_definition_of_a_ruby_body_of_several_is_its_doc():
    file = analyze_repository({
        "lib/sinatra/cookies.rb": (
            "module Sinatra\n  # = Sinatra::Cookies\n  #\n  # Easy way to deal with cookies\n  module Cookies\n"
            "    # The jar of the request.\n    def cookies\n      @cookies\n    end\n\n    def clear\n    end\n  end\n\n"
            "  helpers Cookies\nend\n"
        ),
    }).files["lib/sinatra/cookies.rb"]
    docs = {symbol.name: symbol.docstring for symbol in file.symbols}

    assert docs["Cookies"].startswith("= Sinatra::Cookies") and docs["Cookies"].endswith("Easy way to deal with cookies")
    assert docs["cookies"] == "The jar of the request."


def test_a_cpp_templates_doc_comment_and_header_go_with_its_definition():
    file = analyze_repository({
        "include/fmt/compile.h": (
            "// Formats into an output iterator.\ntemplate <typename Out>\nauto format_to(Out out) -> Out { return out; }\n"
        ),
    }).files["include/fmt/compile.h"]
    (symbol,) = file.symbols

    assert (symbol.name, symbol.start_line, symbol.docstring) == ("format_to", 3, "Formats into an output iterator.")
    assert [(chunk.start_line, chunk.end_line, chunk.title) for chunk in file.chunks] == [(1, 3, "format_to")]


def test_documentation_markup_is_left_out_of_a_doc_but_generic_types_stay():
    analysis = analyze_repository({
        "Shop/Order.cs": (
            "namespace Shop;\n\n/// <summary>\n/// Creates an <see cref=\"Order\"/> for the <paramref name=\"cart\"/>.\n"
            "/// </summary>\n/// <param name=\"cart\">The cart to pay.</param>\npublic class Order { }\n"
        ),
        "src/main/java/shop/Cart.java": (
            "package shop;\n\n/**\n * <p>Returns the {@code List<Item>} of the cart.</p>\n */\nclass Cart { }\n"
        ),
    })
    docs = {symbol.name: symbol.docstring for file in analysis.files.values() for symbol in file.symbols}

    assert docs == {"Order": "Creates an Order for the cart.\ncart: The cart to pay.", "Cart": "Returns the {@code List<Item>} of the cart."}


@pytest.mark.parametrize("language", sorted(PROJECTS))
def test_a_symbols_chunk_starts_at_its_doc_comment(language):
    analysis = analyze_repository(PROJECTS[language])
    chunks = [chunk for file in analysis.files.values() for chunk in file.chunks]
    documented = [chunk for chunk in chunks if "shopping cart" in chunk.content.lower() or "sums the prices" in chunk.content.lower()]

    assert documented, [(chunk.title, chunk.content) for chunk in chunks]
    # No chunk is a comment alone: each documented chunk also holds the definition the comment is about.
    for chunk in documented:
        assert chunk.metadata["chunk_type"] == "symbol_block", (chunk.title, chunk.content)
        assert chunk.content.lstrip().startswith(("/", "#")), chunk.content


def test_attributes_and_doc_comments_go_with_the_definition_below_them_and_a_comment_ending_code_stays_with_it():
    text = (
        "use std::fmt;\n\n"
        "/// A point on the plane.\n#[derive(Debug, Clone)]\npub struct Point {\n    x: i32,\n}\n\n"
        "const ORIGIN: i32 = 0; // where points start\n"
        "pub fn origin() -> i32 { ORIGIN }\n"
    )
    file = analyze_repository({"src/geometry.rs": text}).files["src/geometry.rs"]
    spans = {chunk.title: (chunk.start_line, chunk.end_line) for chunk in file.chunks}
    docs = {symbol.name: symbol.docstring for symbol in file.symbols}

    assert spans["Point"] == (3, 7)
    assert docs["Point"] == "A point on the plane."
    assert spans["origin"] == (10, 10)
    assert docs["origin"] == ""
    assert "// where points start" in next(chunk.content for chunk in file.chunks if chunk.start_line <= 9 <= chunk.end_line)


def test_a_gap_of_punctuation_alone_is_no_chunk():
    text = "package cart\n\ntype (\n\t// Item is a line.\n\tItem struct{ id int }\n)\n\n// New makes one.\nfunc New() Item { return Item{} }\n"
    file = analyze_repository({"cart/item.go": text}).files["cart/item.go"]

    assert [(chunk.start_line, chunk.end_line, chunk.metadata["chunk_type"]) for chunk in file.chunks] == [
        (1, 3, "module_block"), (4, 5, "symbol_block"), (8, 9, "symbol_block"),
    ]


def test_a_named_function_assigned_to_a_name_is_one_symbol():
    text = (
        "/** Sends a file. */\nres.sendFile = function sendFile(path) {\n  return stream(path);\n};\n"
        "const helper = function helper() { return 1; };\n"
    )
    file = analyze_repository({"lib/response.js": text}).files["lib/response.js"]

    assert [(symbol.qname, symbol.docstring) for symbol in file.symbols] == [
        ("lib.response.sendFile", "Sends a file."), ("lib.response.helper", ""),
    ]
    assert [(reference.raw, reference.scope) for reference in file.facts.references if reference.kind == "calls"] == [
        ("stream", "lib.response.sendFile"),
    ]


def test_typescript_overload_signatures_are_the_function_they_declare_and_its_doc_is_theirs():
    text = (
        "/** Makes a proxy. */\n"
        "export function wrap<T extends object>(target: T): T\n"
        "export function wrap(target: string): string\n"
        "/*@__NO_SIDE_EFFECTS__*/\n"
        "export function wrap(target: any) {\n  return build(target)\n}\n"
        "export interface Shape {\n  area(): number\n  area(scale: number): number\n}\n"
        "export class Box {\n  size(): number\n  size(unit: string): string\n  size(unit?: string) {\n    return measure(unit)\n  }\n}\n"
    )
    file = analyze_repository({"src/wrap.ts": text}).files["src/wrap.ts"]

    assert [(s.qname, s.start_line, s.end_line, s.signature, s.docstring) for s in file.symbols if s.kind != "class"] == [
        ("src.wrap.wrap", 2, 7, "function wrap<T extends object>(target: T): T", "Makes a proxy."),
        # An interface's overloads declare what its implementations define: each stays.
        ("src.wrap.Shape.area", 9, 9, "area(): number", ""),
        ("src.wrap.Shape.area", 10, 10, "area(scale: number): number", ""),
        ("src.wrap.Box.size", 13, 17, "size(): number", ""),
    ]
    assert [(chunk.title, chunk.start_line, chunk.end_line) for chunk in file.chunks][0] == ("wrap", 1, 7)
    # Java's overloads are methods of their own, abstract or not.
    java = "package a;\npublic abstract class Gen {\n    public abstract void write(int v);\n    public void write(String v) {\n    }\n}\n"
    methods = analyze_repository({"src/main/java/a/Gen.java": java}).files["src/main/java/a/Gen.java"].symbols
    assert [(s.name, s.start_line, s.end_line) for s in methods if s.kind == "method"] == [("write", 3, 3), ("write", 4, 5)]


@pytest.mark.parametrize(
    ("path", "text", "signature"),
    [
        ("src/main/java/A.java", "package a;\npublic class A {\n    @Override\n    @Deprecated\n    public A build() { return this; }\n}\n",
         "public A build()"),
        ("Shop/C.cs", "namespace Shop {\n    public class C {\n        [HttpGet]\n        public int Get() { return 0; }\n    }\n}\n",
         "public int Get()"),
        ("src/twice.hpp", "template <typename T>\nauto twice(T x) -> T { return 2 * x; }\n", "auto twice(T x) -> T"),
    ],
)
def test_a_signature_is_the_line_that_declares_not_its_annotations_or_template_header(path, text, signature):
    symbols = analyze_repository({path: text}).files[path].symbols

    assert signature in [symbol.signature for symbol in symbols]


def test_a_header_named_like_c_but_written_in_cpp_is_read_as_cpp_and_a_c_header_stays_c():
    files = {
        "include/shop/cart.h": "#pragma once\nnamespace shop {\n/// A shopping cart.\nclass Cart {\n public:\n  int total() const { return 0; }\n};\n}\n",
        "src/cart.h": "#ifndef CART_H\n#define CART_H\n/* Sums the prices. */\nint cart_total(int *items, int n);\n#endif\n",
    }
    analysis = analyze_repository(files)
    cpp, c = analysis.files["include/shop/cart.h"], analysis.files["src/cart.h"]

    assert (cpp.language, c.language) == ("cpp", "c")
    assert "total" in {symbol.name for symbol in cpp.symbols}
    assert parses("include/shop/cart.h", files["include/shop/cart.h"]) is None
    assert parses("include/shop/cart.h", files["include/shop/cart.h"].replace("};", "}")) == "cpp does not parse (near line 7)"


def test_a_cpp_method_defined_after_macros_is_named_under_its_class():
    path = "include/shop/cart-inl.h"
    text = (
        "namespace shop {\n"
        "SHOP_INLINE error_code cart::reserve(size_t n) noexcept { return SUCCESS; }\n"
        "SHOP_WARN_UNUSED SHOP_INLINE error_code cart::get(int &out) noexcept { return SUCCESS; }\n"
        "template<> SHOP_INLINE result<line> cart::get() noexcept { return first(); }\n"
        "int cart::total() const { return 0; }\n"
        "}\n"
    )
    symbols = analyze_repository({path: text}).files[path].symbols

    assert sorted((symbol.qname, symbol.start_line) for symbol in symbols) == [
        ("include.shop.cart_inl.shop.cart.get", 3),
        ("include.shop.cart_inl.shop.cart.get", 4),
        ("include.shop.cart_inl.shop.cart.reserve", 2),
        ("include.shop.cart_inl.shop.cart.total", 5),
    ]


def test_a_method_is_chunked_under_its_type_with_a_signature():
    analysis = analyze_repository(PROJECTS["go"])
    store = analysis.files["cart/store.go"]
    (total,) = [symbol for symbol in store.symbols if symbol.name == "Total"]

    assert total.signature == "func (s *Store) Total() int"
    assert total.kind == "method" and total.parent == "cart.Store"
    assert any(chunk.start_line <= total.start_line <= chunk.end_line for chunk in store.chunks)


def test_a_signature_keeps_the_braces_of_its_parameters_and_ends_at_the_body():
    analysis = analyze_repository({
        "src/save.js": "export function save({ id, name }, [first] = []) {\n  return id;\n}\n",
        "lib/cart.dart": "class Cart {\n  int add(Item item, {bool gift = false}) {\n    return 1;\n  }\n}\n",
    })
    signatures = {symbol.name: symbol.signature for file in analysis.files.values() for symbol in file.symbols}

    assert signatures["save"] == "function save({ id, name }, [first] = [])"
    assert signatures["add"] == "int add(Item item, {bool gift = false})"


def test_a_rust_trait_implementation_is_an_inherits_edge():
    files = {"src/lib.rs": "pub trait Pricing { fn price(&self) -> u32; }\npub struct Flat;\nimpl Pricing for Flat {\n    fn price(&self) -> u32 { 1 }\n}\n"}
    edges = analyze_repository(files).files["src/lib.rs"].edges

    assert [(e.kind, e.src, e.dst) for e in edges if e.kind == "inherits"] == [("inherits", "src.lib.Flat", "src.lib.Pricing")]


@pytest.mark.parametrize("path", ["web/cart.js", "web/cart.ts", "web/cart.tsx"])
def test_a_javascript_or_typescript_superclass_is_an_inherits_edge_and_its_methods_the_subclass_calls_resolve_there(path):
    files = {
        path.replace("cart", "priced"): "export class Priced {\n  total() { return 0; }\n}\n",
        path: (
            "import { Priced } from './priced';\n"
            "export class Cart extends Priced {\n  pay() { return this.total(); }\n}\n"
        ),
    }
    analysis = analyze_repository(files)
    module = path.rsplit(".", 1)[0].replace("/", ".")
    base = module.replace("cart", "priced")
    edges = [(e.kind, e.src, e.dst) for e in analysis.files[path].edges if e.kind in ("inherits", "calls")]

    assert ("inherits", f"{module}.Cart", f"{base}.Priced") in edges
    assert ("calls", f"{module}.Cart.pay", f"{base}.Priced.total") in edges


def test_sveltekit_and_nuxt_files_are_routes_by_their_paths():
    found = entrypoint_rows(
        {
            "src/routes/api/items/+server.ts": (
                "export async function GET({ url }) {\n  return new Response('[]')\n}\n"
                "export const POST = async () => new Response('ok')\n"
            ),
            "src/routes/blog/[slug]/+page.svelte": "<script>\n  export let data\n</script>\n<h1>{data.title}</h1>\n",
            # A page of markup alone is a page too.
            "src/routes/+page.svelte": "<h1>Home</h1>\n",
            "pages/users/[id].vue": "<template><p>user</p></template>\n",
            "pages/index.vue": "<script setup>\nconst x = 1\n</script>\n<template><p>home</p></template>\n",
            # Nuxt's server routes: the method the name ends with (none: every method), the default export's handler.
            "server/api/users/[id].get.ts": "export default defineEventHandler((event) => {\n  return {}\n})\n",
            "server/api/index.post.ts": "export default defineEventHandler(async (event) => ({}))\n",
            "server/routes/feed.xml.ts": "export default eventHandler(() => '<rss/>')\n",
            "server/utils/db.ts": "export default function useDb() {\n  return null\n}\n",
            # A component elsewhere is no route.
            "src/lib/Card.svelte": "<script>\n  export let title\n</script>\n<div>{title}</div>\n",
        },
        "framework", "route_or_command", "methods",
    )

    assert found == {
        ("sveltekit", "/api/items", ("GET",)),
        ("sveltekit", "/api/items", ("POST",)),
        ("sveltekit", "/blog/[slug]", ("GET",)),
        ("sveltekit", "/", ("GET",)),
        ("nuxt", "/users/[id]", ("GET",)),
        ("nuxt", "/", ("GET",)),
        ("nuxt", "/api/users/[id]", ("GET",)),
        ("nuxt", "/api", ("POST",)),
        ("nuxt", "/feed.xml", ()),
    }


def test_vue_and_svelte_components_are_read_by_their_scripts_in_the_files_own_lines():
    files = {
        "src/components/Cart.vue": (
            "<template>\n  <button @click=\"checkout\">{{ total }}</button>\n</template>\n\n"
            "<script setup lang=\"ts\">\nimport { computed } from 'vue'\nimport { useCart } from '../stores/cart'\n\n"
            "const cart = useCart()\nconst total = computed(() => cart.items.length)\n\n"
            "function checkout(): void {\n  cart.pay()\n}\n</script>\n\n<style scoped>\nbutton { color: red; }\n</style>\n"
        ),
        "src/stores/cart.ts": "export function useCart() {\n  return { items: [], pay() {} }\n}\n",
        "src/App.svelte": (
            "<script>\n  import Cart from './components/Cart.vue'\n  export let name\n  function greet() {\n    return name\n  }\n</script>\n\n"
            "<h1>Hello {name}</h1>\n<Cart />\n"
        ),
        # Markup alone: read as lines.
        "src/Static.vue": "<template>\n  <p>static</p>\n</template>\n",
        # Components imported without their suffix, and by the bundlers' alias of the source folder.
        "package.json": '{"private": true}',
        "src/main.ts": "import App from '@/App.svelte'\nimport Cart from './components/Cart'\nimport { ref } from '@/lib/missing'\n",
    }
    analysis = analyze_repository(files)
    cart, app = analysis.files["src/components/Cart.vue"], analysis.files["src/App.svelte"]

    assert (cart.language, app.language) == ("typescript", "javascript")
    assert [(s.qname, s.start_line, s.end_line) for s in cart.symbols] == [("src.components.Cart.checkout", 12, 14)]
    assert ("calls", "useCart", "src.stores.cart.useCart") in {(e.kind, e.raw, e.dst) for e in cart.edges}
    assert [(s.qname, s.start_line) for s in app.symbols] == [("src.App.greet", 4)]
    assert ("imports", "./components/Cart.vue", "src.components.Cart") in {(e.kind, e.raw, e.dst) for e in app.edges}
    assert analysis.files["src/Static.vue"].symbols == [] and analysis.files["src/Static.vue"].chunks
    assert {(e.raw, e.dst) for e in analysis.files["src/main.ts"].edges if e.kind == "imports"} == {
        ("@/App.svelte", "src.App"), ("./components/Cart", "src.components.Cart"), ("@/lib/missing", None),
    }
    # An edit is checked by the grammar of the component's scripts; its markup is no code.
    component = files["src/components/Cart.vue"]
    assert parses("src/components/Cart.vue", component) is None
    assert parses("src/components/Cart.vue", component.replace("cart.pay()\n}", "cart.pay(\n")) == "typescript does not parse (near line 12)"


@pytest.mark.parametrize(
    "path",
    ["pkg/cart/store_test.go", "src/test/java/com/shop/CartTest.java", "web/cart.spec.ts", "web/__tests__/cart.tsx",
     "crates/shop/tests/cart.rs", "spec/cart_spec.rb", "app/src/test/kotlin/CartTest.kt", "web/cart.test.js",
     "web/cart.spec.mjs", "Shop.Tests/Orders.cs", "Shop.UnitTests/Orders.cs", "app/src/androidTest/java/com/x/CartUi.java",
     "app/src/androidTest/kotlin/CartUi.kt", "src/CartTest.php", "tests/Feature/Cart.php", "src/UnitTests/Bug/Nullable.cs",
     "src/IntegrationTests/Inheritance.cs", "shared/src/commonTest/kotlin/CartChecks.kt", "shared/src/jvmTest/kotlin/Io.kt",
     "plugin/testData/openapi/Routes.kt", "packages/dts-test/ref.test-d.ts", "web/cart.test-d.tsx", "src/__mocks__/fs.js",
     "cypress/e2e/checkout.cy.ts", "src/slice/test.rs", "crates/printer/src/tests.rs"],
)
def test_test_files_are_told_by_each_ecosystems_conventions(path):
    assert artifact_type(path, detect_language(path)) == "test"


@pytest.mark.parametrize(
    "path", ["pkg/cart/store.go", "src/main/java/com/shop/Cart.java", "web/cart.ts", "src/lib.rs", "Shop/Orders.cs", "src/Cart.php",
             "src/Contests/Round.cs", "shared/src/commonMain/kotlin/Cart.kt",
             "src/testing.rs", "crates/core/src/contest.rs"]
)
def test_source_files_are_not_taken_for_tests(path):
    assert artifact_type(path, detect_language(path)) == "code"


def test_a_file_that_stands_for_its_folder_is_called_by_the_folders_name():
    # Rust's mod.rs, JavaScript's and TypeScript's index files, Python's __init__.py.
    by_folder = ["printer/src/hyperlink/mod.rs", "src/plugin/utc/index.js", "web/cart/index.tsx", "db/fields/__init__.py"]
    by_name = ["printer/src/mod_tests.rs", "index.js", "web/index.html", "app/index.php", "src/lib.rs", "pkg/mod.go"]

    assert [path for path in by_folder + by_name if named_by_folder(path)] == by_folder


def test_every_language_folder_compiles_its_queries():
    from rag.analysis.languages.spec import _grammar

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
    # An edit nested deeper than Python's recursion goes, with its error at the bottom.
    assert parses("src/deep.js", "x = " + "(" * 3000 + "1 +" + ")" * 3000 + ";\n") == "javascript does not parse (near line 1)"


def test_a_stored_analysis_of_such_a_file_is_reused_whole():
    from rag.analysis.serialization import (
        file_analysis_from_dict,
        file_analysis_to_dict,
    )

    first = analyze_repository(PROJECTS["go"])
    stored = {path: file_analysis_from_dict(file_analysis_to_dict(analysis)) for path, analysis in first.extracted.items()}
    again = analyze_repository(PROJECTS["go"], previous=stored)

    assert again.reused == frozenset(PROJECTS["go"])
    assert again.files["cart/api.go"].edges == first.files["cart/api.go"].edges


ROUTES = {
    "cmd/server/main.go": (
        'package main\n\nimport "github.com/gin-gonic/gin"\n\nfunc main() {\n\tr := gin.Default()\n\tr.GET("/orders/:id", showOrder)\n}\n'
    ),
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
        # The handler is named, but not defined in the file: unresolved, not the function around the call.
        ("gin", "/orders/:id", ("GET",), None),
        ("spring", "/orders/{id}", ("GET",), "com.shop.OrderController.show"),
        ("express", "/checkout", ("POST",), None),
        ("axum", "/health", ("GET",), None),
        ("aspnet", "/orders", ("GET",), "Controllers.OrdersController.OrdersController.List"),
        ("laravel", "/cart", ("GET",), None),
        ("rails", "/products", ("GET",), None),
    }


def test_an_axum_route_names_its_method_and_handler_and_starts_at_its_own_line():
    text = (
        "use axum::{routing::get, Router};\n\nasync fn list() {}\nasync fn create() {}\nasync fn health() {}\n\n"
        "fn app() -> Router {\n    Router::new()\n        .route(\"/health\", get(health))\n"
        "        .route(\"/todos\", get(list).post(create))\n        .route(\"/\", get(|| async { \"ok\" }))\n}\n"
    )

    entries = analyze_repository({"src/main.rs": text}).files["src/main.rs"].entrypoints

    assert {(e.route_or_command, e.methods, e.handler, e.handler_raw, e.start_line) for e in entries if e.entry_type == "http_route"} == {
        ("/health", ("GET",), "src.main.health", "health", 9),
        ("/todos", ("GET",), "src.main.list", "list", 10),
        ("/", ("GET",), None, "block at src/main.rs:11", 11),
    }


def test_entrypoints_survive_a_stored_analysis():
    from rag.analysis.serialization import (
        file_analysis_from_dict,
        file_analysis_to_dict,
    )

    first = analyze_repository(ROUTES)
    stored = {path: file_analysis_from_dict(file_analysis_to_dict(analysis)) for path, analysis in first.extracted.items()}
    again = analyze_repository(ROUTES, previous=stored)

    assert again.reused == frozenset(ROUTES)
    assert again.entrypoints() == first.entrypoints()


IMPORTS = {
    "web/cart.ts": "export class Cart { total() { return 0; } }\n",
    "web/checkout.ts": "import { Cart } from './cart';\nimport React from 'react';\nexport function pay(c: Cart) { return c.total(); }\n",
    "src/main/java/com/shop/Cart.java": "package com.shop;\npublic class Cart { int total() { return 0; } }\n",
    "src/main/java/com/shop/app/App.java": "package com.shop.app;\nimport com.shop.Cart;\nimport com.shop.*;\nimport java.util.List;\npublic class App { }\n",
    "internal/cart/cart.go": "package cart\nfunc Total() int { return 0 }\n",
    "cmd/app/main.go": 'package main\nimport (\n "fmt"\n "github.com/acme/shop/internal/cart"\n)\nfunc main() { fmt.Println(cart.Total()) }\n',
    "src/cart.h": "int cart_total(void);\nstruct cart { int n; };\n",
    "src/main.c": '#include "cart.h"\n#include <stdio.h>\nint main(void) { return cart_total(); }\n',
    "crate/src/cart.rs": "pub struct Cart;\n",
    "crate/src/main.rs": "use crate::cart::Cart;\nuse std::fmt;\nfn main() {}\n",
    "src/Core/Cart.cs": "namespace Shop.Core;\npublic class Cart { }\n",
    "src/Web/Program.cs": (
        "using Shop.Core;\nusing static Shop.Core.Cart;\nusing Basket = Shop.Core.Cart;\nusing System.Text;\n"
        "namespace Shop.Web;\npublic class Program { }\n"
    ),
    "app/Cart/Cart.php": "<?php\nnamespace App\\Cart;\nclass Cart { }\nclass Line { }\n",
    "app/Http/Kernel.php": (
        "<?php\nnamespace App\\Http;\nuse App\\Cart\\Cart;\nuse App\\Cart\\{Line, Cart as Basket};\n"
        "use \\Psr\\Log\\LoggerInterface as Logger;\nclass Kernel { }\n"
    ),
    "lib/shop/cart.rb": "module Shop\n  class Cart\n  end\nend\n",
    "lib/shop.rb": "require 'shop/cart'\nrequire 'json'\n",
    "lib/shop/checkout.rb": "require_relative 'cart'\nrequire_relative '../missing'\n",
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
        ("src/main/java/com/shop/app/App.java", "com.shop"): "com.shop",
        ("cmd/app/main.go", "github.com/acme/shop/internal/cart"): "internal.cart",
        ("cmd/app/main.go", "fmt"): None,
        ("src/main.c", "cart.h"): "src.cart",
        ("crate/src/main.rs", "crate::cart::Cart"): "crate.src.cart.Cart",
        ("crate/src/main.rs", "std::fmt"): None,
        ("src/Web/Program.cs", "Shop.Core"): "Shop.Core",
        ("src/Web/Program.cs", "Shop.Core.Cart"): "Shop.Core.Cart",
        ("src/Web/Program.cs", "System.Text"): None,
        ("app/Http/Kernel.php", "App\\Cart\\Cart"): "App.Cart.Cart",
        ("app/Http/Kernel.php", "App\\Cart\\Line"): "App.Cart.Line",
        ("app/Http/Kernel.php", "\\Psr\\Log\\LoggerInterface"): None,
        ("lib/shop.rb", "shop/cart"): "lib.shop.cart",
        ("lib/shop.rb", "json"): None,
        ("lib/shop/checkout.rb", "cart"): "lib.shop.cart",
        ("lib/shop/checkout.rb", "../missing"): None,
    }


def test_a_ruby_require_that_ends_several_files_is_the_one_on_the_load_path():
    analysis = analyze_repository({
        "lib/jekyll.rb": "module Jekyll\nend\n",
        "rubocop/jekyll.rb": "module RuboCop\nend\n",
        "benchmark/capture.rb": "require 'jekyll'\n",
    })
    imports = {e.raw: e.dst for e in analysis.files["benchmark/capture.rb"].edges if e.kind == "imports"}

    assert imports["jekyll"] == "lib.jekyll"


def _entries(files: dict[str, str]) -> set[tuple[str, str, str, tuple[str, ...], str | None]]:
    """(kind, framework, route or command, methods, handler) of every entrypoint found in ``files``."""
    return entrypoint_rows(files, "entry_type", "framework", "route_or_command", "methods", "handler")


def test_koa_and_fastify_routes_are_entrypoints_with_their_handlers():
    found = _entries({
        "src/routes.js": (
            "const Router = require('@koa/router');\nconst router = new Router();\n"
            "router.get('/users/:id', showUser);\nfunction showUser(ctx) {}\n"
        ),
        "src/server.js": (
            "const fastify = require('fastify')();\n"
            "fastify.route({ method: 'POST', url: '/items', handler: createItem });\n"
            "function createItem(request, reply) {}\nfastify.get('/ping', async () => 'pong');\n"
        ),
    })

    assert found >= {
        ("http_route", "koa", "/users/:id", ("GET",), "src.routes.showUser"),
        ("http_route", "fastify", "/items", ("POST",), "src.server.createItem"),
        ("http_route", "fastify", "/ping", ("GET",), None),
    }


def test_a_fastify_routes_options_are_read_in_any_order():
    found = _entries({
        "src/server.js": (
            "const fastify = require('fastify')();\n"
            "fastify.route({ handler: removeItem, url: '/items/:id', method: 'DELETE' });\n"
            "fastify.route({ url: '/health', method: 'GET', handler: health });\n"
            "function removeItem(request, reply) {}\nfunction health() {}\n"
        ),
    })

    assert found >= {
        ("http_route", "fastify", "/items/:id", ("DELETE",), "src.server.removeItem"),
        ("http_route", "fastify", "/health", ("GET",), "src.server.health"),
    }


def test_a_call_on_a_table_of_thousands_of_entries_is_analysed_and_the_routes_around_it_found():
    # A vendored library registering its Unicode data: a route pattern of options in any order once
    # made tree-sitter follow every way to pick three of these entries, for minutes.
    table = ",\n".join(f"  Category{i}: 'u{i:04x}'" for i in range(3000))
    found = _entries({
        "static/vendor/unicode.js": (
            "const fastify = require('fastify')();\n"
            f"app.route({{\n{table}\n}});\n"
            "fastify.route({ method: 'GET', url: '/letters', handler: letters });\nfunction letters() {}\n"
        ),
    })

    assert found == {("http_route", "fastify", "/letters", ("GET",), "static.vendor.unicode.letters")}


@pytest.mark.parametrize(
    ("path", "text"),
    [
        # A chain of calls hundreds long: each reference in it once cost a walk up the whole chain.
        ("app.js", "const express = require('express');\nconst app = express();\napp.route('/x')" + ".get(h)" * 400 + ";\n"),
        ("config/routes.rb", "Rails.application.routes.draw do\n" + "scope '/a' do\nget 'y', to: 'c#a'\n" * 300 + "end\n" * 301),
        # Definitions nested hundreds deep once raised out of the analysis of the whole repository.
        ("src/deep.ts", "".join(f"class C{i} {{\n m{i}() {{\n" for i in range(500)) + "}\n}\n" * 500),
    ],
)
def test_code_nested_deeper_than_any_real_file_is_read_as_lines(path, text):
    file = analyze_repository({path: text, "src/other.ts": "export function other() { return 1 }\n"}).files

    assert file[path].error == "NotParsed: nested more than 256 levels deep"
    assert file[path].symbols == [] and {chunk.metadata["chunk_type"] for chunk in file[path].chunks} == {"window"}
    assert [symbol.name for symbol in file["src/other.ts"].symbols] == ["other"]


@pytest.mark.parametrize(
    ("path", "text"),
    [
        # Error recovery leaves the unclosed tokens side by side, none of them named: every query once
        # looked along all of them from each (300 KB of this took 98 s).
        ("src/broken.ts", "`${" * 3000),
        ("src/broken.cpp", "template<" * 3000),
    ],
)
def test_code_of_thousands_of_unnamed_tokens_side_by_side_is_read_as_lines(path, text):
    file = analyze_repository({path: text, "src/other.ts": "export function other() { return 1 }\n"}).files

    assert file[path].error == "NotParsed: its runs of unnamed tokens are too long to query"
    assert {chunk.metadata["chunk_type"] for chunk in file[path].chunks} == {"window"}
    assert [symbol.name for symbol in file["src/other.ts"].symbols] == ["other"]
    # Named tokens between them are ordinary code: a table of thousands of numbers is parsed.
    table = "export const table = [" + ", ".join(map(str, range(9000))) + "];\nexport function f() {}\n"
    parsed = analyze_repository({"src/table.ts": table}).files["src/table.ts"]
    assert parsed.error is None and [symbol.name for symbol in parsed.symbols] == ["f"]


def test_a_file_whose_parse_runs_past_its_time_is_read_as_lines_and_the_next_file_parses_whole(monkeypatch):
    import rag.analysis.languages.parsing

    # A grammar's scanner may read the rest of the file again from every place it starts (600 KB of
    # Rust's ``r#"`` took minutes); the parse stops at its time. Here the time is nothing at all.
    monkeypatch.setattr(rag.analysis.languages.parsing, "PARSE_SECONDS", 0.0)
    text = 'pub fn raw() -> &\'static str { r#"x"# }\n' * 2000
    slow = analyze_repository({"src/raw.rs": text}).files["src/raw.rs"]
    assert slow.error == "NotParsed: its parse ran past 0 s" and slow.symbols == []
    assert parses("src/raw.rs", text) == "rust does not parse (its parse ran past 0 s)"
    monkeypatch.undo()

    # The stopped parse's process is gone: the next file's parse starts a new one.
    assert [s.name for s in analyze_repository({"src/ok.rs": "fn ok() {}\n"}).files["src/ok.rs"].symbols] == ["ok"]


def test_a_parse_guard_that_cannot_start_is_an_error_not_every_file_read_as_lines(monkeypatch):
    import sys

    from rag.analysis import parse_guard

    # This process's guard ends with a parse that runs past no time at all; the next one cannot start.
    parse_guard.refusal("tree_sitter_kotlin", "language", b"/*" * 10_000, 0.0)
    monkeypatch.setattr(sys, "executable", "/bin/false")

    with pytest.raises(RuntimeError, match="parse guard's process did not start"):
        analyze_repository({"src/a.rs": "fn a() {}\n"})
    monkeypatch.undo()
    assert [s.name for s in analyze_repository({"src/a.rs": "fn a() {}\n"}).files["src/a.rs"].symbols] == ["a"]


def test_an_analysis_whose_parses_spend_its_time_reads_its_remaining_files_as_lines(monkeypatch):
    import rag.analysis.languages.parsing

    # Each file's own limit bounds one file, not the thousands an upload may hold: the analysis's
    # parses share one budget. Kotlin's parser takes seconds over 20 KB of unclosed comments.
    monkeypatch.setattr(rag.analysis.languages.parsing, "PARSE_BUDGET_SECONDS", 0.2)
    monkeypatch.setattr(rag.analysis.languages.parsing, "PARSE_BUDGET_SECONDS_PER_MILLION", 0.0)
    files = analyze_repository({
        "src/a/Slow.kt": "/*" * 10_000,
        "src/b/Later.kt": "class Later { fun later() {} }\n",
        "src/c/later.py": "def later():\n    pass\n",
    }).files

    assert files["src/a/Slow.kt"].error == "NotParsed: its parse ran past 0.2 s"
    assert files["src/b/Later.kt"].error == "NotParsed: the analysis's parse time ran out"
    assert {chunk.metadata["chunk_type"] for chunk in files["src/b/Later.kt"].chunks} == {"window"}
    assert [s.name for s in files["src/c/later.py"].symbols] == ["later"]
    # The next analysis has a budget of its own.
    again = analyze_repository({"src/b/Later.kt": "class Later { fun later() {} }\n"}).files["src/b/Later.kt"]
    assert again.error is None and [s.name for s in again.symbols] == ["Later", "later"]


@pytest.mark.parametrize(
    ("path", "text"),
    [
        # tree-sitter's error recovery at the end of these copies every path of its parse stack: 20 KB
        # took more than 6 GB of the process that parsed it, in one step no time limit interrupts.
        ("src/Bomb.cs", "<T" * 10_000),
        ("src/Bomb.java", "a<" * 16_000),
    ],
)
def test_a_file_whose_parse_would_take_gigabytes_is_read_as_lines_and_the_process_is_unharmed(path, text):
    import resource

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    files = analyze_repository({path: text, "src/Ok.java": "class Ok { void ok() {} }\n"}).files

    assert files[path].error == "NotParsed: its parse took more than 512 MB" and files[path].symbols == []
    assert {chunk.metadata["chunk_type"] for chunk in files[path].chunks} == {"window"}
    assert [s.name for s in files["src/Ok.java"].symbols] == ["Ok", "ok"]
    # The parse ran in the guard's process: this one's peak grew by no more than a real file's parse.
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - peak < 200 * 1024
    assert parses(path, text) == f"{files[path].language} does not parse (its parse took more than 512 MB)"


def test_a_component_of_script_tags_never_closed_is_read_in_one_pass():
    from rag.analysis.languages.components import component_script

    # Each ``<script>`` without a ``</script>`` after it once made the pattern read the rest of the file
    # again: this file took minutes, where one pass takes milliseconds.
    text = "<script>" * 200_000
    assert component_script("src/App.vue", text) == ("javascript", " " * len(text))
    closed = "<script>x</script>" * 3 + "<script>" * 1000
    assert component_script("src/B.vue", closed)[1].split() == ["x", "x", "x"]


@pytest.mark.parametrize(
    ("path", "text"),
    [
        ("package.json", "[" * 100_000 + "]" * 100_000),
        ("Cargo.toml", "a = " + "[" * 100_000 + "]" * 100_000 + "\n"),
        ("pyproject.toml", "a = " + "{b = " * 5000 + "1" + "}" * 5000 + "\n"),
    ],
)
def test_a_manifest_nested_deeper_than_its_parser_goes_is_no_manifest_and_the_rest_is_analysed(path, text):
    analysis = analyze_repository({path: text, "src/main.rs": "fn main() {}\n", "app.py": "def run():\n    return 1\n"})

    assert analysis.files[path].facts is None or not analysis.files[path].facts.console_scripts
    assert [symbol.name for symbol in analysis.files["app.py"].symbols] == ["run"]


def test_nestjs_routes_join_the_controller_prefix_and_the_method_decorator():
    found = _entries({
        "src/cats.controller.ts": (
            "@Controller('cats')\nexport class CatsController {\n  @Get(':id')\n  @HttpCode(200)\n"
            "  findOne(id: string) { return id; }\n  @Post()\n  create() {}\n  helper() {}\n}\n"
        ),
        # A controller without a prefix: its routes are still paths from the root.
        "src/user.controller.ts": "@Controller()\nexport class UserController {\n  @Get('user')\n  findMe() {}\n}\n",
    })

    assert found == {
        ("http_route", "nestjs", "/cats/:id", ("GET",), "src.cats.controller.CatsController.findOne"),
        ("http_route", "nestjs", "/cats", ("POST",), "src.cats.controller.CatsController.create"),
        ("http_route", "nestjs", "/user", ("GET",), "src.user.controller.UserController.findMe"),
    }


def test_nextjs_routes_come_from_the_files_paths():
    found = _entries({
        "app/api/users/[id]/route.ts": "export async function GET(req: Request) { return 1; }\nexport const POST = async () => 1;\n",
        "src/app/(shop)/cart/route.js": "export function DELETE() {}\n",
        "pages/api/hello.ts": "export default function handler(req, res) {}\n",
        "app/page.tsx": "export default function Page() { return <div />; }\n",
        "app/(shop)/product/[handle]/page.tsx": "function ProductPage() { return <div />; }\nexport default ProductPage;\n",
        "lib/http.ts": "export function GET() {}\n",
        # A component's default export elsewhere is no page.
        "components/button.tsx": "export default function Button() { return <button />; }\n",
    })

    assert found == {
        ("http_route", "nextjs", "/api/users/[id]", ("GET",), "app.api.users.[id].route.GET"),
        ("http_route", "nextjs", "/api/users/[id]", ("POST",), "app.api.users.[id].route.POST"),
        ("http_route", "nextjs", "/cart", ("DELETE",), "src.app.(shop).cart.route.DELETE"),
        ("http_route", "nextjs", "/api/hello", (), "pages.api.hello.handler"),
        ("http_route", "nextjs", "/", ("GET",), "app.page.Page"),
        ("http_route", "nextjs", "/product/[handle]", ("GET",), "app.(shop).product.[handle].page.ProductPage"),
    }


def test_go_grpc_services_cobra_commands_and_named_handlers_are_entrypoints():
    found = _entries({
        "cmd/server/main.go": (
            "package main\n\nimport (\n\t\"net/http\"\n\n\t\"github.com/go-chi/chi/v5\"\n)\n\n"
            "type server struct{}\n\nfunc main() {\n\ts := grpc.NewServer()\n"
            "\tpb.RegisterGreeterServer(s, &server{})\n\tr := chi.NewRouter()\n\tr.Get(\"/orders/{id}\", showOrder)\n}\n\n"
            "func showOrder(w http.ResponseWriter, r *http.Request) {}\n"
        ),
        "cmd/tool/root.go": (
            "package main\n\nvar serveCmd = &cobra.Command{\n\tUse:   \"serve [flags]\",\n\tShort: \"Serve\",\n\tRunE:  runServe,\n}\n\n"
            "func runServe(cmd *cobra.Command, args []string) error { return nil }\n"
        ),
    })

    assert found >= {
        ("rpc_service", "grpc", "Greeter", (), "cmd.server.server"),
        ("http_route", "chi", "/orders/{id}", ("GET",), "cmd.server.showOrder"),
        ("cli_command", "cobra", "serve", (), "cmd.tool.runServe"),
    }


def test_a_go_route_is_a_call_with_a_path_and_a_handler_in_a_file_that_serves_http():
    found = _entries({
        # sync.Map's Delete("/foo") has no handler; a cache's Delete with two arguments is in a file that serves nothing.
        "internal/logging/methods.go": (
            'package logging\n\nimport (\n\t"net/http"\n\t"sync"\n)\n\nvar methods sync.Map\n\n'
            'func Skip(r *http.Request) {\n\tmethods.Delete("/foo")\n}\n'
        ),
        "internal/cache/cache.go": 'package cache\n\nfunc Evict(c *Cache) {\n\tc.Delete("/foo", true)\n}\n',
        "cmd/api/main.go": (
            'package main\n\nimport (\n\t"net/http"\n\n\t"github.com/go-chi/chi/v5"\n)\n\n'
            'func main() {\n\tr := chi.NewRouter()\n\tr.Delete("/items/{id}", h.Remove)\n'
            '\tr.Get("/health", func(w http.ResponseWriter, r *http.Request) {})\n}\n'
        ),
        "cmd/api/mux.go": (
            'package main\n\nimport "net/http"\n\nfunc serve() {\n\tmux := http.NewServeMux()\n\tmux.HandleFunc("GET /items/{id}", getItem)\n}\n\n'
            'func getItem(w http.ResponseWriter, r *http.Request) {}\n'
        ),
    })
    raws = {entry.route_or_command: entry.handler_raw for entry in analyze_repository({
        "cmd/api/main.go": 'package main\n\nimport "net/http"\n\nfunc main() {\n\thttp.HandleFunc("/ping", func(w http.ResponseWriter, r *http.Request) {})\n}\n',
    }).files["cmd/api/main.go"].entrypoints}

    assert found == {
        ("cli_command", "main", "api", (), "cmd.api.main"),
        ("http_route", "chi", "/items/{id}", ("DELETE",), None),
        ("http_route", "chi", "/health", ("GET",), None),
        ("http_route", "go", "/items/{id}", ("GET",), "cmd.api.getItem"),
    }
    assert raws == {"api": "main", "/ping": "block at cmd/api/main.go:6"}


def test_net_https_own_routes_are_net_https_in_a_file_that_also_uses_a_framework():
    found = _entries({
        "cmd/api/main.go": (
            'package main\n\nimport (\n\t"net/http"\n\n\t"github.com/gin-gonic/gin"\n)\n\n'
            'func health(w http.ResponseWriter, r *http.Request) {}\n\nfunc show(c *gin.Context) {}\n\n'
            'func main() {\n\thttp.HandleFunc("/health", health)\n\tr := gin.Default()\n\tr.GET("/orders/:id", show)\n}\n'
        ),
    })

    assert found == {
        ("cli_command", "main", "api", (), "cmd.api.main"),
        ("http_route", "go", "/health", (), "cmd.api.health"),
        ("http_route", "gin", "/orders/:id", ("GET",), "cmd.api.show"),
    }


def test_chi_routers_mounted_by_the_function_that_makes_them_serve_under_the_prefix():
    found = entrypoint_rows(
        {
            "go.mod": "module shop\n",
            "cmd/api/main.go": (
                'package main\n\nimport (\n\t"net/http"\n\n\t"github.com/go-chi/chi/v5"\n\t"shop/admin"\n)\n\n'
                'func main() {\n\tr := chi.NewRouter()\n\tr.Get("/", home)\n\tr.Mount("/admin", admin.Router())\n'
                '\tr.Mount("/api", apiRouter())\n\thttp.ListenAndServe(":3000", r)\n}\n\n'
                'func apiRouter() chi.Router {\n\tr := chi.NewRouter()\n\tr.Get("/users", listUsers)\n\treturn r\n'
                '}\n\nfunc home(w http.ResponseWriter, r *http.Request) {}\n'
                'func listUsers(w http.ResponseWriter, r *http.Request) {}\n'
            ),
            "admin/routes.go": (
                'package admin\n\nimport (\n\t"net/http"\n\n\t"github.com/go-chi/chi/v5"\n)\n\n'
                'func Router() http.Handler {\n\tr := chi.NewRouter()\n\tr.Get("/accounts", accounts)\n'
                '\treturn r\n}\n\nfunc accounts(w http.ResponseWriter, r *http.Request) {}\n'
            ),
        },
        "framework", "route_or_command", "handler", kind="http_route",
    )

    assert found == {
        ("chi", "/", "cmd.api.home"),
        ("chi", "/api/users", "cmd.api.listUsers"),
        ("chi", "/admin/accounts", "admin.accounts"),
    }


def test_an_iris_route_called_on_a_party_is_under_its_prefix():
    found = entrypoint_rows(
        {
            "main.go": (
                'package main\n\nimport "github.com/kataras/iris/v12"\n\nfunc main() {\n\tapp := iris.New()\n'
                '\tapp.Get("/ping", pong)\n\tusers := app.Party("/users")\n\tusers.Get("/{id:uint64}", getUser)\n}\n\n'
                "func pong(ctx iris.Context) {}\nfunc getUser(ctx iris.Context) {}\n"
            ),
        },
        "framework", "route_or_command", "handler", kind="http_route",
    )

    assert found == {("iris", "/ping", "main.pong"), ("iris", "/users/{id:uint64}", "main.getUser")}


def test_a_gin_route_called_on_a_route_group_and_a_chi_route_in_a_sub_router_are_under_their_prefix():
    found = _entries({
        "cmd/api/main.go": (
            'package main\n\nimport "github.com/gin-gonic/gin"\n\nfunc main() {\n\tr := gin.Default()\n'
            '\tv1 := r.Group("/v1")\n\tadmin := v1.Group("/admin", auth)\n\tv1.GET("/items", listItems)\n'
            '\tadmin.DELETE("/items/:id", deleteItem)\n\tr.GET("/health", health)\n\tr.Group("/v2").GET("/items", listItems)\n}\n\n'
            'func listItems(c *gin.Context) {}\n\nfunc deleteItem(c *gin.Context) {}\n\nfunc health(c *gin.Context) {}\n'
        ),
        "cmd/blog/main.go": (
            'package main\n\nimport "github.com/go-chi/chi/v5"\n\nfunc main() {\n\tr := chi.NewRouter()\n'
            '\tr.Route("/articles", func(r chi.Router) {\n\t\tr.Get("/{id}", showArticle)\n\t})\n}\n\n'
            'func showArticle(w http.ResponseWriter, r *http.Request) {}\n'
        ),
    })

    assert {(route, methods, handler) for kind, _, route, methods, handler in found if kind == "http_route"} == {
        ("/v1/items", ("GET",), "cmd.api.listItems"),
        ("/v1/admin/items/:id", ("DELETE",), "cmd.api.deleteItem"),
        ("/health", ("GET",), "cmd.api.health"),
        # A group called on in place.
        ("/v2/items", ("GET",), "cmd.api.listItems"),
        ("/articles/{id}", ("GET",), "cmd.blog.showArticle"),
    }


def test_a_go_handler_named_bare_is_the_function_of_that_name_in_the_package_and_not_in_another():
    found = _entries({
        "web/main.go": (
            'package main\n\nimport "github.com/gin-gonic/gin"\n\nfunc main() {\n\tr := gin.Default()\n'
            '\tr.GET("/", index)\n\tr.GET("/about", about)\n}\n'
        ),
        "web/handlers.go": 'package main\n\nimport "github.com/gin-gonic/gin"\n\nfunc index(c *gin.Context) {}\n',
        # Another package's about is not this package's.
        "admin/handlers.go": 'package admin\n\nimport "github.com/gin-gonic/gin"\n\nfunc about(c *gin.Context) {}\n',
    })

    assert {(route, handler) for kind, _, route, _, handler in found if kind == "http_route"} == {
        ("/", "web.index"),
        ("/about", None),
    }


def test_a_grpc_service_is_an_rpc_service_handled_by_the_registered_implementation():
    found = _entries({
        "cmd/greeter/main.go": (
            "package main\n\ntype server struct{}\n\nfunc main() {\n\ts := grpc.NewServer()\n"
            "\tpb.RegisterGreeterServer(s, &server{})\n\tpb.RegisterOrdersServer(s, new(mock.OrdersServer))\n"
            "\thealthpb.RegisterHealthServer(s, health.NewServer())\n}\n"
        ),
    })
    analysis = analyze_repository({"cmd/greeter/main.go": (
        "package main\n\nfunc main() {\n\ts := grpc.NewServer()\n\tpb.RegisterOrdersServer(s, new(mock.OrdersServer))\n"
        "\thealthpb.RegisterHealthServer(s, health.NewServer())\n}\n"
    )})

    assert found == {
        ("cli_command", "main", "greeter", (), "cmd.greeter.main"),
        ("rpc_service", "grpc", "Greeter", (), "cmd.greeter.server"),
        ("rpc_service", "grpc", "Orders", (), None),
        ("rpc_service", "grpc", "Health", (), None),
    }
    assert [entry.handler_raw for entry in analysis.files["cmd/greeter/main.go"].entrypoints][1:] == [
        "mock.OrdersServer", "health.NewServer()",
    ]


def test_go_zero_rest_routes_are_entrypoints_with_their_prefix():
    analysis = analyze_repository({
        "internal/handler/routes.go": (
            'package handler\n\nimport (\n\t"net/http"\n\n\t"github.com/zeromicro/go-zero/rest"\n)\n\n'
            "func RegisterHandlers(server *rest.Server, serverCtx *svc.ServiceContext) {\n\tserver.AddRoutes(\n"
            "\t\t[]rest.Route{\n\t\t\t{\n\t\t\t\tMethod:  http.MethodGet,\n\t\t\t\tPath:    \"/from/:name\",\n"
            "\t\t\t\tHandler: GreetHandler(serverCtx),\n\t\t\t},\n\t\t\t{\n\t\t\t\tHandler: PingHandler,\n"
            "\t\t\t\tPath:    \"/ping\",\n\t\t\t\tMethod:  http.MethodPost,\n\t\t\t},\n\t\t},\n"
            '\t\trest.WithPrefix("/api/v1"),\n\t)\n}\n\n'
            "func GreetHandler(svcCtx *svc.ServiceContext) http.HandlerFunc { return nil }\n"
        ),
        "mcp/server.go": (
            'package mcp\n\nimport "github.com/zeromicro/go-zero/rest"\n\n'
            "func (s *server) registerRoutes(handler http.Handler, endpoint string) {\n"
            "\ts.httpServer.AddRoute(rest.Route{\n\t\tMethod:  http.MethodGet,\n\t\tPath:    endpoint,\n"
            "\t\tHandler: handler.ServeHTTP,\n\t}, rest.WithSSE())\n}\n"
        ),
        # The framework copying routes, and a struct that has a path but is no route.
        "rest/server.go": (
            "package rest\n\nfunc wrap(rs []Route) {\n\tfor i := range rs {\n"
            "\t\trs[i] = Route{Method: rs[i].Method, Path: rs[i].Path, Handler: rs[i].Handler}\n\t}\n}\n\n"
            'var doc = Spec{Path: "/docs", Title: "API"}\n'
        ),
    })
    found = {
        (entry.framework, entry.route_or_command, entry.methods, entry.handler, entry.handler_raw, entry.start_line)
        for file in analysis.files.values()
        for entry in file.entrypoints
    }

    assert found == {
        ("go-zero", "/api/v1/from/:name", ("GET",), "internal.handler.GreetHandler", "GreetHandler(serverCtx)", 12),
        ("go-zero", "/api/v1/ping", ("POST",), None, "PingHandler", 17),
        ("go-zero", "/endpoint", ("GET",), None, "handler.ServeHTTP", 6),
    }


def test_a_cobra_command_literal_is_a_command_with_its_run_function():
    found = _entries({
        "cmd/version.go": (
            'package cmd\n\nimport "github.com/spf13/cobra"\n\nvar versionCmd = &cobra.Command{\n\tUse: "version",\n'
            '\tRun: func(cmd *cobra.Command, args []string) {},\n}\n\nvar rootCmd = cobra.Command{Use: "tool", RunE: runRoot}\n\n'
            "func runRoot(cmd *cobra.Command, args []string) error { return nil }\n"
        ),
    })

    assert found == {("cli_command", "cobra", "version", (), None), ("cli_command", "cobra", "tool", (), "cmd.runRoot")}


def test_gorilla_mux_routes_take_their_methods_and_their_subrouters_prefix_and_a_wrapped_handler_is_the_function_wrapped():
    found = entrypoint_rows(
        {
            "main.go": (
                'package main\n\nimport (\n\t"net/http"\n\t"github.com/gorilla/mux"\n)\n\nfunc main() {\n'
                '\tr := mux.NewRouter()\n\tr.HandleFunc("/books/{id}", getBook).Methods("GET")\n'
                '\tr.HandleFunc("/books", createBook).Methods(http.MethodPost, http.MethodPut)\n'
                '\ts := r.PathPrefix("/admin").Subrouter()\n\ts.HandleFunc("/users", listUsers)\n'
                '\thttp.Handle("/static", http.HandlerFunc(static))\n}\n\n'
                "func getBook(w http.ResponseWriter, r *http.Request) {}\nfunc createBook(w http.ResponseWriter, r *http.Request) {}\n"
                "func listUsers(w http.ResponseWriter, r *http.Request) {}\nfunc static(w http.ResponseWriter, r *http.Request) {}\n"
            ),
        },
        "route_or_command", "methods", "handler", kind="http_route",
    )

    assert found == {
        ("/books/{id}", ("GET",), "main.getBook"),
        ("/books", ("POST", "PUT"), "main.createBook"),
        ("/admin/users", (), "main.listUsers"),
        # The file's function a library's wrapper is made of.
        ("/static", (), "main.static"),
    }


def test_a_route_handler_given_as_a_method_value_is_that_method_of_the_values_type():
    files = {
        "go.mod": "module example.com/shop\n",
        "cmd/server/main.go": (
            'package main\n\nimport (\n\t"github.com/gin-gonic/gin"\n\t"example.com/shop/internal/handler"\n)\n\n'
            "func main() {\n\tr := gin.Default()\n\th := handler.NewUserHandler()\n\tr.GET(\"/users/:id\", h.Show)\n"
            '\tr.POST("/users", h.Create)\n\tr.Run()\n}\n'
        ),
        "internal/handler/user.go": (
            'package handler\n\nimport "github.com/gin-gonic/gin"\n\ntype UserHandler struct{}\n\n'
            "func NewUserHandler() *UserHandler { return &UserHandler{} }\n\n"
            "func (h *UserHandler) Show(c *gin.Context) {}\n\nfunc (h *UserHandler) Create(c *gin.Context) {}\n"
        ),
        # Another type's method of the same name.
        "internal/order/handler.go": "package order\n\ntype Handler struct{}\n\nfunc (h *Handler) Show() {}\n",
    }
    analysis = analyze_repository(files)

    assert {(e.route_or_command, e.handler) for e in analysis.files["cmd/server/main.go"].entrypoints if e.entry_type == "http_route"} == {
        ("/users/:id", "internal.handler.UserHandler.Show"),
        ("/users", "internal.handler.UserHandler.Create"),
    }
    # The registration refers to the handler: it is among its callers.
    assert ("cmd.server.main", "internal.handler.UserHandler.Show") in {(e.src, e.dst) for e in analysis.files["cmd/server/main.go"].edges}


def test_axum_routers_nested_under_a_prefix_serve_under_it_in_place_and_from_the_function_that_makes_them():
    found = entrypoint_rows(
        {
            "Cargo.toml": '[package]\nname = "shop"\n',
            "src/main.rs": (
                "mod users;\nmod api;\nuse axum::{routing::get, Router};\n\nfn app() -> Router {\n    Router::new()\n"
                '        .route("/", get(root))\n        .nest("/api", api::router())\n'
                '        .nest("/v1", Router::new().route("/items", get(items)).route("/tags", get(tags)))\n}\n\n'
                "async fn root() {}\nasync fn items() {}\nasync fn tags() {}\n"
            ),
            "src/api.rs": 'use axum::Router;\nuse crate::users;\n\npub fn router() -> Router {\n    Router::new().nest("/users", users::router())\n}\n',
            "src/users.rs": (
                "use axum::{routing::get, Router};\n\npub fn router() -> Router {\n    Router::new()\n"
                '        .route("/", get(list))\n        .route("/:id", get(show))\n}\n\nasync fn list() {}\nasync fn show() {}\n'
            ),
        },
        "route_or_command", "handler",
    )

    assert found == {
        ("/", "src.main.root"),
        ("/v1/items", "src.main.items"),
        ("/v1/tags", "src.main.tags"),
        ("/api/users", "src.users.list"),
        ("/api/users/:id", "src.users.show"),
    }


def test_a_cobra_command_added_under_another_is_named_by_its_whole_path():
    found = _entries({
        "go.mod": "module example.com/tool\n",
        "cmd/root.go": (
            'package cmd\n\nimport (\n\t"github.com/spf13/cobra"\n\tdel "example.com/tool/cmd/remove"\n)\n\n'
            'var rootCmd = &cobra.Command{Use: "tool"}\n\nfunc init() {\n\trootCmd.AddCommand(versionCmd)\n'
            "\trootCmd.AddCommand(del.NewCmdRemove())\n}\n"
        ),
        "cmd/version.go": 'package cmd\n\nimport "github.com/spf13/cobra"\n\nvar versionCmd = &cobra.Command{\n\tUse: "version",\n}\n',
        # A command made by a function, and its own subcommand from another package.
        "cmd/remove/remove.go": (
            'package remove\n\nimport (\n\t"github.com/spf13/cobra"\n\t"example.com/tool/cmd/remove/all"\n)\n\n'
            'func NewCmdRemove() *cobra.Command {\n\tcmd := &cobra.Command{Use: "remove <name>", RunE: run}\n'
            "\tcmd.AddCommand(all.NewCmdAll())\n\treturn cmd\n}\n\n"
            "func run(cmd *cobra.Command, args []string) error { return nil }\n"
        ),
        "cmd/remove/all/all.go": (
            'package all\n\nimport "github.com/spf13/cobra"\n\nfunc NewCmdAll() *cobra.Command {\n'
            '\treturn &cobra.Command{Use: "all"}\n}\n'
        ),
        # Another package's command of the same function name, added nowhere.
        "cmd/other/remove.go": 'package other\n\nimport "github.com/spf13/cobra"\n\nfunc NewCmdRemove() *cobra.Command {\n\treturn &cobra.Command{Use: "purge"}\n}\n',
    })

    assert {entry[2] for entry in found} == {"tool", "tool version", "tool remove", "tool remove all", "purge"}


def test_actix_handlers_registered_in_a_scope_serve_under_its_prefix():
    found = entrypoint_rows(
        {
            "Cargo.toml": '[package]\nname = "shop"\n',
            "src/main.rs": (
                "mod handlers;\nuse actix_web::{get, web, App, HttpServer};\n\n#[get(\"/\")]\nasync fn index() -> &'static str { \"hi\" }\n\n"
                "#[actix_web::main]\nasync fn main() -> std::io::Result<()> {\n    HttpServer::new(|| {\n        App::new()\n"
                '            .service(index)\n            .service(web::scope("/api").service(handlers::echo).service(handlers::items))\n'
                '    })\n    .bind(("127.0.0.1", 8080))?\n    .run()\n    .await\n}\n'
            ),
            "src/handlers.rs": (
                'use actix_web::{get, post};\n\n#[post("/echo")]\npub async fn echo(body: String) -> String { body }\n\n'
                '#[get("/items/{id}")]\npub async fn items() -> &\'static str { "[]" }\n'
            ),
        },
        "entry_type", "route_or_command", "handler",
    )

    assert found == {
        ("http_route", "/", "src.main.index"),
        ("http_route", "/api/echo", "src.handlers.echo"),
        ("http_route", "/api/items/{id}", "src.handlers.items"),
        # The program beside them keeps its name.
        ("cli_command", "main", "src.main.main"),
    }


def test_poem_and_salvo_routes_and_their_handlers():
    found = entrypoint_rows(
        {
            "poem/Cargo.toml": '[package]\nname = "hello"\n',
            "poem/src/main.rs": (
                "use poem::{get, handler, Route, Server};\n\n#[handler]\nfn hello() -> String { String::new() }\n\n"
                "#[handler]\nfn list() -> String { String::new() }\n\n#[handler]\nfn create() -> String { String::new() }\n\n"
                "fn app() -> Route {\n    Route::new().at(\"/hello/:name\", get(hello)).at(\"/items\", get(list).post(create))\n}\n"
            ),
            "salvo/Cargo.toml": '[package]\nname = "shop"\n',
            "salvo/src/main.rs": (
                "use salvo::prelude::*;\n\n#[handler]\nasync fn hello() -> &'static str { \"hi\" }\n\n"
                "#[handler]\nasync fn list_users() -> &'static str { \"[]\" }\n\n"
                "fn router() -> Router {\n    Router::new()\n        .push(Router::with_path(\"hello\").get(hello))\n"
                "        .push(Router::with_path(\"api\").push(Router::with_path(\"users\").get(list_users)))\n}\n"
            ),
        },
        "framework", "route_or_command", "methods", "handler", kind="http_route",
    )

    assert found == {
        ("poem", "/hello/:name", ("GET",), "poem.src.main.hello"),
        ("poem", "/items", ("GET",), "poem.src.main.list"),
        ("salvo", "/hello", ("GET",), "salvo.src.main.hello"),
        ("salvo", "/api/users", ("GET",), "salvo.src.main.list_users"),
    }


def test_warp_routes_are_what_each_chain_of_filters_says_with_the_handler_that_ends_it():
    found = entrypoint_rows(
        {
            "Cargo.toml": '[package]\nname = "todos"\n',
            # warp's todos example: one function per route, the handlers in a module of their own.
            "src/filters.rs": (
                "use super::handlers;\nuse super::models::{Db, ListOptions};\nuse warp::Filter;\n\n"
                "pub fn todos(db: Db) -> impl Filter<Extract = (impl warp::Reply,), Error = warp::Rejection> + Clone {\n"
                "    todos_list(db.clone()).or(todos_update(db))\n}\n\n"
                "pub fn todos_list(db: Db) -> impl Filter<Extract = (impl warp::Reply,), Error = warp::Rejection> + Clone {\n"
                '    warp::path!("todos")\n        .and(warp::get())\n        .and(warp::query::<ListOptions>())\n'
                "        .and(with_db(db))\n        .and_then(handlers::list_todos)\n}\n\n"
                "pub fn todos_update(db: Db) -> impl Filter<Extract = (impl warp::Reply,), Error = warp::Rejection> + Clone {\n"
                '    warp::path!("todos" / u64)\n        .and(warp::put())\n        .and(with_db(db))\n'
                "        .and_then(handlers::update_todo)\n        .with(warp::log(\"todos\"))\n}\n\n"
                "fn with_db(db: Db) -> impl Filter<Extract = (Db,), Error = std::convert::Infallible> + Clone {\n"
                "    warp::any().map(move || db.clone())\n}\n"
            ),
            "src/handlers.rs": (
                "pub async fn list_todos() -> Result<impl warp::Reply, std::convert::Infallible> { Ok(\"\") }\n\n"
                "pub async fn update_todo() -> Result<impl warp::Reply, std::convert::Infallible> { Ok(\"\") }\n"
            ),
            "src/main.rs": (
                "use warp::Filter;\n\n#[tokio::main]\nasync fn main() {\n"
                '    let hello = warp::path("hello").and(warp::path::param()).and(warp::path::end())\n'
                '        .map(|name: String| format!("Hello, {}!", name));\n'
                '    let sum = warp::get().and(warp::path!("sum" / u32 / u32)).map(sum);\n'
                '    let api = warp::path("api").and(warp::path("v1")).and(warp::post()).and_then(handle);\n'
                "    warp::serve(hello.or(sum).or(api)).run(([127, 0, 0, 1], 3030)).await;\n}\n\n"
                "fn sum(a: u32, b: u32) -> String { format!(\"{}\", a + b) }\n\n"
                "async fn handle() -> Result<String, warp::Rejection> { Ok(String::new()) }\n"
            ),
            # A macro of that name where warp is not used is no route.
            "src/other.rs": 'macro_rules! path { ($x:expr) => { $x }; }\n\nfn f() -> u32 { path!(1).map(g) }\n',
        },
        "framework", "route_or_command", "methods", "handler", "handler_raw", kind="http_route",
    )

    assert found == {
        ("warp", "/todos", ("GET",), "src.handlers.list_todos", "handlers::list_todos"),
        ("warp", "/todos/{u64}", ("PUT",), "src.handlers.update_todo", "handlers::update_todo"),
        ("warp", "/hello/{param}", (), None, "block at src/main.rs:6"),
        ("warp", "/sum/{u32}/{u32}", ("GET",), "src.main.sum", "sum"),
        # Two paths of one chain: one route.
        ("warp", "/api/v1", ("POST",), "src.main.handle", "handle"),
    }


def test_rocket_routes_serve_under_the_base_they_are_mounted_at():
    found = entrypoint_rows(
        {
            "Cargo.toml": '[package]\nname = "blog"\n\n[dependencies]\nrocket = "0.5"\n',
            "src/main.rs": (
                "use rocket::{get, launch, routes};\nmod users;\nmod posts;\n\n"
                '#[get("/hello/<name>")]\nfn hello(name: &str) -> String { format!("Hello, {name}!") }\n\n'
                "#[launch]\nfn rocket() -> _ {\n    rocket::build()\n"
                '        .mount("/api", routes![hello])\n'
                '        .mount("/users", routes![users::list, crate::users::show,])\n'
                '        .mount("/posts", routes![posts::list])\n}\n'
            ),
            "src/users.rs": (
                'use rocket::get;\n\n#[get("/")]\npub fn list() -> &\'static str { "" }\n\n'
                '#[get("/<id>")]\npub fn show(id: u32) -> String { id.to_string() }\n'
            ),
            # A function of the same name in another module, mounted elsewhere.
            "src/posts.rs": 'use rocket::get;\n\n#[get("/")]\npub fn list() -> &\'static str { "" }\n\n#[get("/drafts")]\npub fn drafts() {}\n',
        },
        "framework", "route_or_command", "handler",
    )

    assert found == {
        ("rocket", "/api/hello/<name>", "src.main.hello"),
        ("rocket", "/users", "src.users.list"),
        ("rocket", "/users/<id>", "src.users.show"),
        ("rocket", "/posts", "src.posts.list"),
        # Mounted nowhere: its own path.
        ("rocket", "/drafts", "src.posts.drafts"),
        # The #[launch] function is the program's main.
        ("main", "main", "src.main.rocket"),
    }


def test_a_handler_two_applications_of_a_repository_define_is_each_routes_own():
    routes = "package {app};\n\nimport org.springframework.web.reactive.function.server.RouterFunctions;\n\n" + (
        "class Routes {{\n  RouterFunction<ServerResponse> routes(ImageHandler images) {{\n"
        '    return RouterFunctions.route().GET("/images/{{id}}", images::get).build();\n  }}\n}}\n'
    )
    handler = "package {app};\n\nclass ImageHandler {{\n  Mono<ServerResponse> get(ServerRequest r) {{ return null; }}\n}}\n"
    found = _entries({
        f"{app}/src/main/java/{app}/{name}.java": text.format(app=app)
        for app in ("shop", "admin") for name, text in (("Routes", routes), ("ImageHandler", handler))
    })

    assert found == {
        ("http_route", "spring", "/images/{id}", ("GET",), "shop.ImageHandler.get"),
        ("http_route", "spring", "/images/{id}", ("GET",), "admin.ImageHandler.get"),
    }


def test_actix_routes_registered_with_route_take_their_method_handler_and_every_scope_around_them():
    found = _entries({
        "src/main.rs": (
            "use actix_web::{web, App, HttpServer, HttpResponse};\n\n"
            "async fn index() -> HttpResponse { HttpResponse::Ok().finish() }\n"
            "async fn users() -> HttpResponse { HttpResponse::Ok().finish() }\n"
            "async fn user() -> HttpResponse { HttpResponse::Ok().finish() }\n"
            "async fn remove() -> HttpResponse { HttpResponse::Ok().finish() }\n\n"
            "fn app() -> App<()> {\n    App::new()\n"
            '        .route("/", web::get().to(index))\n'
            '        .service(web::scope("/api")\n'
            '            .route("/users", web::post().to(users))\n'
            '            .service(web::scope("/v1").route("/users/{id}", web::get().to(user)))\n'
            '            .service(web::resource("/users/{id}").route(web::get().to(user)).route(web::delete().to(remove)))\n'
            '            .service(web::scope("/orders").service(web::resource("").route(web::get().to(index))))\n'
            '            .route("/parts/{id}", web::get().to(handlers::parts::show)))\n'
            "}\n"
        ),
        # A handler in a module of its own, named by its path.
        "src/handlers/parts.rs": "pub async fn show() -> actix_web::HttpResponse { actix_web::HttpResponse::Ok().finish() }\n",
    })

    assert found == {
        ("http_route", "actix", "/", ("GET",), "src.main.index"),
        ("http_route", "actix", "/api/users", ("POST",), "src.main.users"),
        # A scope registered in a scope is under both.
        ("http_route", "actix", "/api/v1/users/{id}", ("GET",), "src.main.user"),
        # A resource's routes are at its path, in the scope it is registered in.
        ("http_route", "actix", "/api/users/{id}", ("GET",), "src.main.user"),
        ("http_route", "actix", "/api/users/{id}", ("DELETE",), "src.main.remove"),
        ("http_route", "actix", "/api/orders", ("GET",), "src.main.index"),
        ("http_route", "actix", "/api/parts/{id}", ("GET",), "src.handlers.parts.show"),
    }


def test_actix_routes_built_of_functions_imported_from_web_take_the_handlers_the_file_imports():
    found = _entries({
        "Cargo.toml": '[package]\nname = "forum"\nversion = "0.1.0"\n',
        "src/routes.rs": (
            "use actix_web::web::{get, post, resource, scope, ServiceConfig};\n"
            "use crate::site::read::get_site;\nuse crate::site::search::search;\n\n"
            "pub fn config(cfg: &mut ServiceConfig) {\n    cfg.service(\n        scope(\"/api/v4\")\n"
            '            .route("/modlog", get().to(get_site))\n'
            '            .service(scope("/site").route("", post().to(get_site)))\n'
            '            .service(resource("/search").route(get().to(search))),\n    );\n}\n'
        ),
        "src/site/read.rs": "pub async fn get_site() -> String { String::new() }\n",
        "src/site/search.rs": "pub async fn search() -> String { String::new() }\n",
        "src/site/mod.rs": "pub mod read;\npub mod search;\n",
        "src/lib.rs": "pub mod routes;\npub mod site;\n",
        # axum's method routers take their handler: no actix route.
        "src/web.rs": 'use axum::{routing::get, Router};\npub fn router() -> Router { Router::new().route("/health", get(health)) }\nasync fn health() {}\n',
    })

    assert {entry for entry in found if entry[0] == "http_route"} == {
        ("http_route", "actix", "/api/v4/modlog", ("GET",), "src.site.read.get_site"),
        ("http_route", "actix", "/api/v4/site", ("POST",), "src.site.read.get_site"),
        ("http_route", "actix", "/api/v4/search", ("GET",), "src.site.search.search"),
        ("http_route", "axum", "/health", ("GET",), "src.web.health"),
    }


def test_micronaut_routes_join_the_controllers_path_and_a_spring_controllers_bean_name_is_no_prefix():
    found = _entries({
        "src/main/kotlin/shop/BookController.kt": (
            "package shop\n\nimport io.micronaut.http.annotation.Get\nimport io.micronaut.http.annotation.Controller\n\n"
            '@Controller("/books")\nclass BookController {\n    @Get("/{id}")\n    fun show(id: Long): Int = 1\n\n'
            "    @Get\n    fun list(): Int = 1\n}\n"
        ),
        "src/main/java/shop/HelloController.java": (
            "package shop;\n\nimport io.micronaut.http.annotation.*;\n\n@Controller(\"/hello\")\npublic class HelloController {\n"
            '    @Get(uri = "/{name}")\n    public String hi(String name) { return name; }\n    @Post\n    public void make() {}\n}\n'
        ),
        # Without Micronaut, @Get is someone else's annotation.
        "src/main/java/shop/Page.java": (
            'package shop;\n\n@Controller("pageController")\npublic class Page {\n    @GetMapping("/page")\n'
            '    public String page() { return ""; }\n    @Get("/x")\n    public String other() { return ""; }\n}\n'
        ),
    })

    assert found == {
        ("http_route", "micronaut", "/books/{id}", ("GET",), "shop.BookController.show"),
        ("http_route", "micronaut", "/books", ("GET",), "shop.BookController.list"),
        ("http_route", "micronaut", "/hello/{name}", ("GET",), "shop.HelloController.hi"),
        ("http_route", "micronaut", "/hello", ("POST",), "shop.HelloController.make"),
        ("http_route", "spring", "/page", ("GET",), "shop.Page.page"),
    }


def test_spring_functional_routes_take_their_paths_nests_and_method_references():
    found = _entries({
        "src/main/java/shop/Routes.java": (
            "package shop;\n\n"
            "import static org.springframework.web.reactive.function.server.RequestPredicates.*;\n"
            "import static org.springframework.web.reactive.function.server.RouterFunctions.*;\n"
            "import org.springframework.web.reactive.function.server.RouterFunctions;\n\n"
            "class Routes {\n"
            "  private final PersonHandler handlers;\n"
            "  RouterFunction<ServerResponse> people(PersonHandler handler) {\n"
            "    return RouterFunctions.route()\n"
            '        .GET("/person/{id}", accept(APPLICATION_JSON), handlers::getPerson)\n'
            '        .POST("/person", this::create)\n'
            '        .path("/admin", builder -> builder.DELETE("/person/{id}", handler::deletePerson))\n'
            "        .build();\n"
            "  }\n"
            "  RouterFunction<ServerResponse> hello(PersonHandler people) {\n"
            '    return route(GET("/hello"), people::getPerson).andRoute(POST("/hello"), request -> ok().build())\n'
            '        .andNest(path("/orders"), route(GET("/{id}"), this::create));\n'
            "  }\n"
            "  Mono<ServerResponse> create(ServerRequest request) { return null; }\n"
            "}\n"
        ),
        "src/main/java/shop/PersonHandler.java": (
            "package shop;\n\nclass PersonHandler {\n  Mono<ServerResponse> getPerson(ServerRequest r) { return null; }\n"
            "  Mono<ServerResponse> deletePerson(ServerRequest r) { return null; }\n}\n"
        ),
        # Kotlin's router { } DSL, under "/api".nest { } and path("/admin").nest { }.
        "src/main/kotlin/shop/KotlinRoutes.kt": (
            "package shop\n\nimport org.springframework.web.reactive.function.server.router\n\n"
            "class KotlinRoutes(private val handler: PeopleHandler) {\n    fun routes(people: PeopleHandler) = router {\n"
            '        "/api".nest {\n            GET("/person/{id}", people::getPerson)\n'
            '            path("/admin").nest {\n                DELETE("/person/{id}", handler::deletePerson)\n            }\n        }\n'
            '        POST("/person") { ok().build() }\n    }\n}\n'
        ),
        "src/main/kotlin/shop/PeopleHandler.kt": (
            "package shop\n\nclass PeopleHandler {\n    fun getPerson(r: ServerRequest): ServerResponse = TODO()\n"
            "    fun deletePerson(r: ServerRequest): ServerResponse = TODO()\n}\n"
        ),
        # Without Spring's functional routing imported, a GET("/x", ...) call is someone else's.
        "src/main/java/shop/Client.java": (
            'package shop;\n\nclass Client {\n  void call(Http http) { http.GET("/remote", this::done); }\n  void done() {}\n}\n'
        ),
    })

    assert found == {
        ("http_route", "spring", "/person/{id}", ("GET",), "shop.PersonHandler.getPerson"),
        ("http_route", "spring", "/person", ("POST",), "shop.Routes.create"),
        # A .path()'s prefix is over the routes of its lambda, not the chain it is called on.
        ("http_route", "spring", "/admin/person/{id}", ("DELETE",), "shop.PersonHandler.deletePerson"),
        ("http_route", "spring", "/hello", ("GET",), "shop.PersonHandler.getPerson"),
        ("http_route", "spring", "/hello", ("POST",), None),
        ("http_route", "spring", "/orders/{id}", ("GET",), "shop.Routes.create"),
        ("http_route", "spring", "/api/person/{id}", ("GET",), "shop.PeopleHandler.getPerson"),
        ("http_route", "spring", "/api/admin/person/{id}", ("DELETE",), "shop.PeopleHandler.deletePerson"),
        ("http_route", "spring", "/person", ("POST",), None),
    }


def test_grpc_services_implemented_in_java_kotlin_and_csharp_are_rpc_entrypoints():
    found = _entries({
        "src/main/java/shop/GreeterImpl.java": (
            "package shop;\n\nclass GreeterImpl extends GreeterGrpc.GreeterImplBase {\n  @Override\n"
            "  public void sayHello(HelloRequest r, StreamObserver<HelloReply> o) {}\n}\n"
        ),
        # A class extending another's nested base is no service.
        "src/main/java/shop/Cart.java": "package shop;\n\nclass Cart extends Store.CartBase {\n}\n",
        "src/main/kotlin/shop/Orders.kt": (
            "package shop\n\nclass OrdersService : OrdersGrpcKt.OrdersCoroutineImplBase() {\n"
            "    override suspend fun place(request: PlaceRequest) = reply\n}\n"
        ),
        "Basket.API/Extensions.cs": "public static class Extensions\n{\n    public static void MapServices(WebApplication app)\n    {\n        app.MapGrpcService<BasketService>();\n    }\n}\n",
        "Basket.API/Grpc/BasketService.cs": (
            "namespace eShop.Basket.API.Grpc;\n\npublic class BasketService : Basket.BasketBase\n{\n"
            "    public override Task<BasketResponse> GetBasket(GetBasketRequest request, ServerCallContext context) => null;\n}\n"
        ),
        # Another project's class of that name (the service's client): not the one nearest the mapping.
        "WebApp/Services/BasketService.cs": "namespace eShop.WebApp.Services;\n\npublic class BasketService\n{\n}\n",
        # A namespace named as the class it holds, which the mapping's file uses.
        "Shop.Catalog/Program.cs": "using Shop.Catalog.CatalogService;\n\nvar app = WebApplication.Create(args);\napp.MapGrpcService<CatalogService>();\n",
        "Shop.Catalog/CatalogService/CatalogService.cs": (
            "namespace Shop.Catalog.CatalogService;\n\npublic class CatalogService(IRepository repository) : Catalog.CatalogBase\n{\n}\n"
        ),
    })

    assert {entry for entry in found if entry[0] == "rpc_service"} == {
        ("rpc_service", "grpc", "Greeter", (), "shop.GreeterImpl"),
        ("rpc_service", "grpc", "Orders", (), "shop.OrdersService"),
        ("rpc_service", "grpc", "Basket", (), "eShop.Basket.API.Grpc.BasketService"),
        ("rpc_service", "grpc", "Catalog", (), "Shop.Catalog.CatalogService.CatalogService"),
    }


def test_the_mappings_of_a_feign_client_are_calls_of_another_service_not_routes():
    found = entrypoint_rows(
        {
            "src/main/java/shop/StoreClient.java": (
                'package shop;\n\n@FeignClient(name = "stores")\npublic interface StoreClient {\n'
                '  @GetMapping("/stores")\n  List<Store> getStores();\n}\n'
            ),
            "src/main/kotlin/shop/PriceClient.kt": (
                'package shop\n\n@FeignClient(name = "prices")\ninterface PriceClient {\n'
                '    @GetMapping("/prices")\n    fun prices(): List<Price>\n}\n'
            ),
            # An interface a controller implements declares its own routes.
            "src/main/java/shop/OrdersApi.java": 'package shop;\n\npublic interface OrdersApi {\n  @GetMapping("/orders")\n  List<Order> list();\n}\n',
            "src/main/java/shop/StoreController.java": (
                'package shop;\n\n@RestController\npublic class StoreController {\n  @GetMapping("/my-stores")\n'
                "  public List<Store> mine() { return null; }\n}\n"
            ),
        },
        "framework", "route_or_command",
    )

    assert found == {("spring", "/orders"), ("spring", "/my-stores")}


def test_a_spring_request_mapping_serves_the_methods_it_names():
    found = _entries({
        "src/main/java/shop/OwnerController.java": (
            'package shop;\n@Controller\n@RequestMapping("/owners")\npublic class OwnerController {\n'
            '  @RequestMapping(value = "/new", method = RequestMethod.GET)\n  public String initCreationForm() { return ""; }\n'
            '  @RequestMapping(value = "/{id}", method = {RequestMethod.PUT, RequestMethod.POST})\n  public String update() { return ""; }\n'
            '  @RequestMapping("/all")\n  public String all() { return ""; }\n}\n'
        ),
        "src/main/kotlin/shop/Visits.kt": (
            'package shop\n\n@RequestMapping("/visits")\nclass Visits {\n'
            '  @RequestMapping(value = ["/x"], method = [RequestMethod.GET, RequestMethod.POST])\n  fun a() = 1\n}\n'
        ),
    })

    assert found == {
        ("http_route", "spring", "/owners/new", ("GET",), "shop.OwnerController.initCreationForm"),
        ("http_route", "spring", "/owners/{id}", ("PUT", "POST"), "shop.OwnerController.update"),
        ("http_route", "spring", "/owners/all", (), "shop.OwnerController.all"),
        ("http_route", "spring", "/visits/x", ("GET", "POST"), "shop.Visits.a"),
    }


def test_spring_and_jaxrs_routes_join_the_class_prefix():
    found = _entries({
        "src/main/java/com/shop/OrderController.java": (
            "package com.shop;\n@RestController\n@RequestMapping(\"/api\")\npublic class OrderController {\n"
            "  @GetMapping(value = \"/orders/{id}\")\n  public Order show(long id) { return null; }\n"
            "  @PostMapping\n  public void make() {}\n}\n"
        ),
        "src/main/java/com/shop/CartResource.java": (
            "package com.shop;\n@Path(\"/carts\")\npublic class CartResource {\n  @GET\n  @Path(\"{id}\")\n"
            "  public Cart get(String id) { return null; }\n  @POST\n  public Cart create() { return null; }\n"
            "  public Cart helper() { return null; }\n}\n"
        ),
    })

    assert found == {
        ("http_route", "spring", "/api/orders/{id}", ("GET",), "com.shop.OrderController.show"),
        ("http_route", "spring", "/api", ("POST",), "com.shop.OrderController.make"),
        ("http_route", "jaxrs", "/carts/{id}", ("GET",), "com.shop.CartResource.get"),
        ("http_route", "jaxrs", "/carts", ("POST",), "com.shop.CartResource.create"),
    }


def test_a_spring_mapping_of_a_list_of_paths_is_a_route_for_each():
    found = _entries({
        "src/main/java/com/shop/VetController.java": (
            "package com.shop;\n@Controller\n@RequestMapping({ \"/clinic\" })\npublic class VetController {\n"
            "  @GetMapping({ \"/vets\", \"/vets.html\" })\n  public String list() { return null; }\n"
            "  @PostMapping(path = { \"/vets/new\" })\n  public void make() {}\n}\n"
        ),
        "src/main/kotlin/com/shop/PetController.kt": (
            "package com.shop\n\n@RestController\nclass PetController {\n    @GetMapping([\"/pets\", \"/pets.html\"])\n"
            "    fun list(): String = \"\"\n}\n"
        ),
    })

    assert found == {
        ("http_route", "spring", "/clinic/vets", ("GET",), "com.shop.VetController.list"),
        ("http_route", "spring", "/clinic/vets.html", ("GET",), "com.shop.VetController.list"),
        ("http_route", "spring", "/clinic/vets/new", ("POST",), "com.shop.VetController.make"),
        ("http_route", "spring", "/pets", ("GET",), "com.shop.PetController.list"),
        ("http_route", "spring", "/pets.html", ("GET",), "com.shop.PetController.list"),
    }


def test_kotlin_spring_ktor_routes_and_main_are_entrypoints():
    found = _entries({
        "src/main/kotlin/com/shop/OrderController.kt": (
            "package com.shop\n\n@RestController\n@RequestMapping(\"/api\")\nclass OrderController {\n"
            "    @GetMapping(\"/orders/{id}\")\n    fun show(id: Long): String = \"\"\n}\n"
        ),
        "src/main/kotlin/com/shop/Application.kt": (
            "package com.shop\n\nfun main() {}\n\nfun Application.module() {\n    routing {\n        route(\"/v1\") {\n"
            "            get(\"/health\") { call.respondText(\"ok\") }\n        }\n        post(\"/items\") { }\n    }\n}\n"
        ),
    })

    assert found == {
        ("http_route", "spring", "/api/orders/{id}", ("GET",), "com.shop.OrderController.show"),
        ("http_route", "ktor", "/v1/health", ("GET",), None),
        ("http_route", "ktor", "/items", ("POST",), None),
        ("cli_command", "main", "shop", (), "com.shop.main"),
    }


def test_actix_rocket_and_clap_are_entrypoints():
    found = _entries({
        "web/src/handlers.rs": (
            "use actix_web::{get, web};\n\n#[get(\"/hello/{name}\")]\nasync fn greet(name: web::Path<String>) -> String { name.into_inner() }\n"
        ),
        "site/src/routes.rs": "use rocket::get;\n\n#[get(\"/hello\")]\nfn hello() -> &'static str { \"hi\" }\n",
        "tool/src/cli.rs": (
            "use clap::Parser;\n\n/// The tool.\n#[derive(Parser, Debug)]\n#[command(name = \"shoptool\")]\nstruct Cli { verbose: bool }\n\n"
            "fn build() { let m = Command::new(\"sync\"); }\n"
        ),
        "tool/src/bin/migrate.rs": "fn main() {}\n",
    })

    assert found == {
        ("http_route", "actix", "/hello/{name}", ("GET",), "web.src.handlers.greet"),
        ("http_route", "rocket", "/hello", ("GET",), "site.src.routes.hello"),
        ("cli_command", "clap", "shoptool", (), "tool.src.cli.Cli"),
        ("cli_command", "clap", "sync", (), "tool.src.cli.build"),
        ("cli_command", "main", "migrate", (), "tool.src.bin.migrate.main"),
    }


def test_clap_commands_are_claps_and_build_scripts_and_examples_are_named_right():
    found = _entries({
        "tool/build.rs": (
            'use std::process::Command;\n\nfn main() {\n    set_git_revision_hash();\n}\n\n'
            'fn set_git_revision_hash() {\n    let output = Command::new("git").output();\n}\n'
        ),
        "tool/src/search.rs": 'use std::process::Command;\n\nfn run() { Command::new("rg").spawn(); }\n',
        "tool/src/flags.rs": 'fn build() -> clap::Command { clap::Command::new("tool") }\n',
        "tool/examples/walk.rs": "fn main() {}\n",
        "tool/examples/search-stdin.rs": "fn main() {}\n",
    })

    assert found == {
        ("cli_command", "clap", "tool", (), "tool.src.flags.build"),
        ("cli_command", "main", "walk", (), "tool.examples.walk.main"),
        ("cli_command", "main", "search-stdin", (), "tool.examples.search_stdin.main"),
    }


def test_cargo_examples_are_named_by_their_name_key():
    analysis = analyze_repository({
        "shop/Cargo.toml": '[package]\nname = "shop"\n\n[[example]]\nname = "demo-server"\npath = "examples/server/main.rs"\n',
        "shop/examples/server/main.rs": "fn main() {}\n",
    })

    assert [
        (entry.framework, entry.route_or_command, entry.handler) for entry in analysis.files["shop/Cargo.toml"].entrypoints
    ] == [("cargo_example", "demo-server", "shop.examples.server.main.main")]


def test_aspnet_controllers_join_the_route_prefix_and_minimal_apis_are_routes():
    found = _entries({
        "Shop/Controllers/OrdersController.cs": (
            "namespace Shop.Controllers {\n[ApiController]\n[Route(\"api/orders\")]\npublic class OrdersController : ControllerBase {\n"
            "  [HttpGet(\"{id}\")]\n  public int Get(int id) { return 0; }\n  [HttpDelete]\n  [Route(\"{id}\")]\n"
            "  public int Delete(int id) { return 0; }\n}\n}\n"
        ),
        "Shop/Program.cs": "var app = WebApplication.Create(args);\napp.MapGet(\"/todos\", () => 1);\napp.Run();\n",
    })

    assert found == {
        ("http_route", "aspnet", "/api/orders/{id}", ("GET",), "Shop.Controllers.OrdersController.Get"),
        ("http_route", "aspnet", "/api/orders/{id}", ("DELETE",), "Shop.Controllers.OrdersController.Delete"),
        ("http_route", "aspnet", "/todos", ("GET",), None),
        ("cli_command", "main", "Shop", (), None),
    }


def test_rails_resources_namespaces_and_sinatra_routes_are_entrypoints():
    analysis = analyze_repository({
        "config/routes.rb": (
            "Rails.application.routes.draw do\n  get '/products', to: 'products#index'\n  namespace :admin do\n"
            "    resources :photos\n  end\nend\n"
        ),
        "app.rb": "require 'sinatra'\n\nget '/hi' do\n  'hello'\nend\n",
        # A test's request, written as a Rails route is, outside the routes files: no route.
        "spec/requests/products_spec.rb": "describe 'products' do\n  it 'lists' do\n    get '/products'\n  end\nend\n",
    })
    found = {
        (entry.framework, entry.route_or_command, entry.methods, entry.handler_raw)
        for file in analysis.files.values()
        for entry in file.entrypoints
    }

    assert found == {
        ("rails", "/products", ("GET",), "products#index"),
        ("rails", "/admin/photos", ("GET",), "admin/photos#index"),
        ("rails", "/admin/photos", ("POST",), "admin/photos#create"),
        ("rails", "/admin/photos/:id", ("GET",), "admin/photos#show"),
        ("rails", "/admin/photos/:id", ("PUT", "PATCH"), "admin/photos#update"),
        ("rails", "/admin/photos/:id", ("DELETE",), "admin/photos#destroy"),
        ("sinatra", "/hi", ("GET",), "block at app.rb:3"),
    }


def test_rails_resources_read_only_except_param_singular_and_nested_resources_and_their_actions():
    found = entrypoint_rows(
        {
            "config/routes.rb": (
                "Rails.application.routes.draw do\n  scope :api do\n    resource :user, only: [:show, :update]\n"
                "    resources :articles, param: :slug, except: [:edit, :new, :destroy] do\n"
                "      resource :favorite, only: :create\n      resources :comments, only: [:index]\n"
                "      get :feed, on: :collection\n      get :preview, on: :member\n    end\n  end\nend\n"
            ),
            "app/controllers/articles_controller.rb": (
                "class ArticlesController < ApplicationController\n  def index; end\n  def feed; end\nend\n"
            ),
        },
        "route_or_command", "methods", "handler",
    )

    assert found == {
        ("/api/user", ("GET",), None),
        ("/api/user", ("PUT", "PATCH"), None),
        ("/api/articles", ("GET",), "app.controllers.articles_controller.ArticlesController.index"),
        ("/api/articles", ("POST",), None),
        ("/api/articles/:slug", ("GET",), None),
        ("/api/articles/:slug", ("PUT", "PATCH"), None),
        ("/api/articles/:article_slug/favorite", ("POST",), None),
        ("/api/articles/:article_slug/comments", ("GET",), None),
        ("/api/articles/feed", ("GET",), "app.controllers.articles_controller.ArticlesController.feed"),
        ("/api/articles/:slug/preview", ("GET",), None),
    }


def test_a_rails_route_in_a_namespace_is_handled_by_the_controller_of_that_module():
    found = entrypoint_rows(
        {
            "config/routes.rb": (
                "Rails.application.routes.draw do\n  resources :photos, only: [:index]\n"
                "  namespace :admin do\n    resources :photos, only: [:index]\n  end\nend\n"
            ),
            "app/controllers/photos_controller.rb": "class PhotosController < ApplicationController\n  def index; end\nend\n",
            "app/controllers/admin/photos_controller.rb": (
                "class Admin::PhotosController < ApplicationController\n  def index; end\nend\n"
            ),
        },
        "route_or_command", "handler_raw", "handler",
    )

    assert found == {
        ("/photos", "photos#index", "app.controllers.photos_controller.PhotosController.index"),
        ("/admin/photos", "admin/photos#index", "app.controllers.admin.photos_controller.PhotosController.index"),
    }


def test_mercenary_commands_are_cli_commands_handled_by_their_action_block():
    analysis = analyze_repository({
        "lib/jekyll/commands/build.rb": (
            "module Jekyll\n  module Commands\n    class Build < Command\n      class << self\n"
            "        def init_with_program(prog)\n          prog.command(:build) do |c|\n"
            "            c.syntax \"build [options]\"\n            c.action do |_, options|\n"
            "              process(options)\n            end\n          end\n        end\n      end\n    end\n  end\nend\n"
        ),
        # A call named command with no action block is no command.
        "lib/shop/runner.rb": "module Shop\n  def run(shell)\n    shell.command(:ls) do |out|\n      out.strip\n    end\n  end\nend\n",
    })
    entries = [entry for file in analysis.files.values() for entry in file.entrypoints]

    assert [(e.entry_type, e.framework, e.route_or_command, e.handler_raw) for e in entries] == [
        ("cli_command", "mercenary", "build", "block at lib/jekyll/commands/build.rb:8"),
    ]


def test_the_commands_of_commander_yargs_urfave_cli_picocli_clap_subcommands_and_thor_are_cli_commands():
    found = entrypoint_rows(
        {
            "bin/cli.js": (
                "const { program } = require('commander')\n\nfunction serve(options) {}\n\n"
                "program.command('serve').description('run the server').option('-p, --port <n>').action(serve)\n"
                "program.command('clone <source> [destination]').action((source, destination) => {})\n"
                "program.parse()\n"
            ),
            "bin/tool.js": (
                "import yargs from 'yargs'\n\nfunction start(argv) {}\n\n"
                "yargs(process.argv.slice(2))\n  .command('start [port]', 'start the server', (y) => y, start)\n"
                "  .command('stop', 'stop it', (y) => y)\n  .parse()\n"
            ),
            # .command() and .action() in a file that uses neither library.
            "src/queue.js": "export function run(q) { return q.command('flush').action(done) }\nfunction done() {}\n",
            "go.mod": "module example.com/tool\n",
            "cmd/tool/main.go": (
                'package main\n\nimport (\n\t"os"\n\t"github.com/urfave/cli/v2"\n)\n\n'
                "func serve(c *cli.Context) error { return nil }\n\n"
                "func main() {\n\tapp := &cli.App{\n\t\tName: \"tool\",\n\t\tCommands: []*cli.Command{\n"
                '\t\t\t{Name: "serve", Usage: "run the server", Action: serve},\n'
                '\t\t\t{Name: "migrate", Action: func(c *cli.Context) error { return nil }},\n'
                '\t\t\t{Name: "version", Usage: "print the version"},\n'
                "\t\t},\n\t}\n\tapp.Run(os.Args)\n}\n"
            ),
            "src/main/java/app/Checksum.java": (
                "package app;\n\nimport picocli.CommandLine;\nimport picocli.CommandLine.Command;\n\n"
                '@Command(name = "checksum", description = "Prints the checksum")\n'
                "class Checksum implements Runnable {\n    public void run() {}\n\n"
                '    @Command(name = "verify")\n    void verify() {}\n}\n'
            ),
            "Cargo.toml": '[package]\nname = "tool"\n\n[dependencies]\nclap = "4"\n',
            "src/cli.rs": (
                "use clap::{Parser, Subcommand};\n\n#[derive(Parser)]\nstruct Cli {\n    #[command(subcommand)]\n"
                "    command: Commands,\n}\n\n#[derive(Debug, Subcommand)]\nenum Commands {\n    /// Adds files\n"
                "    Add { name: Option<String> },\n    ListAll,\n}\n"
            ),
            "lib/tool/cli.rb": (
                'require "thor"\n\nclass ToolCLI < Thor\n  desc "fetch URL", "fetch a page"\n  long_desc "Fetches it whole."\n'
                "  method_option :force, type: :boolean\n  def fetch(url)\n  end\n\n  def helper\n  end\n\n"
                # Past three options the command is the class's (a pattern over runs of siblings would cost
                # tree-sitter every pair of a long class's statements).
                '  desc "sync", "sync all"\n' + "  option :a\n" * 4 + "  def sync\n  end\nend\n"
            ),
        },
        "framework", "route_or_command", "handler", kind="cli_command",
    )

    assert found == {
        ("commander", "serve", "bin.cli.serve"),
        ("commander", "clone", None),
        ("yargs", "start", "bin.tool.start"),
        ("urfave-cli", "serve", "cmd.tool.serve"),
        ("urfave-cli", "migrate", None),
        ("urfave-cli", "version", "cmd.tool.main"),
        ("main", "tool", "cmd.tool.main"),
        ("picocli", "checksum", "app.Checksum"),
        ("picocli", "verify", "app.Checksum.verify"),
        ("clap", "cli", "src.cli.Cli"),
        ("clap", "add", "src.cli.Commands"),
        ("clap", "list-all", "src.cli.Commands"),
        ("thor", "fetch", "lib.tool.cli.ToolCLI.fetch"),
        ("thor", "sync", "lib.tool.cli.ToolCLI"),
    }


def test_rake_tasks_are_commands_named_under_their_namespaces_in_rakefiles_and_rake_files_only():
    found = entrypoint_rows(
        {
            "lib/tasks/db.rake": (
                'namespace :db do\n  desc "Seed the sample data"\n  task seed_samples: :environment do\n    puts "x"\n  end\n\n'
                "  namespace :cache do\n    task :clear => :environment do\n    end\n  end\nend\n"
            ),
            "Rakefile": 'require "rake/testtask"\n\ntask :default do\n  sh "rake test"\nend\n\ntask "build", [:version] do |t, args|\nend\n',
            # Another DSL's task in a Ruby file that Rake does not read.
            "lib/deploy.rb": "task :restart do\nend\n",
        },
        "framework", "route_or_command", "handler_raw", kind="cli_command",
    )

    assert found == {
        ("rake", "db:seed_samples", "block at lib/tasks/db.rake:3"),
        ("rake", "db:cache:clear", "block at lib/tasks/db.rake:8"),
        ("rake", "default", "block at Rakefile:3"),
        ("rake", "build", "block at Rakefile:7"),
    }


def test_typescript_enums_and_type_aliases_are_types_and_a_namespace_scopes_its_functions():
    files = {
        "src/util.ts": (
            "export enum Level { Low, High }\n\nexport type Maybe<T> = T | null\n\n"
            "export namespace Text {\n  export function pad(s: string) { return s }\n  export class Box { open() {} }\n}\n\n"
            "namespace A.B { export function d() {} }\n"
        ),
        "src/main.ts": "import { Text } from './util'\n\nexport function run() { return Text.pad('y') }\n",
    }

    assert symbol_rows(files, "kind") == {
        "src.util.Level": ("class",),
        "src.util.Maybe": ("class",),
        "src.util.Text.pad": ("function",),
        "src.util.Text.Box": ("class",),
        "src.util.Text.Box.open": ("method",),
        "src.util.A.B.d": ("function",),
        "src.main.run": ("function",),
    }
    assert edge_targets(files)[("src.main.run", "pad", 3)] == "src.util.Text.pad"


def test_the_events_a_socket_io_connection_listens_to_are_the_messages_its_clients_send():
    found = entrypoint_rows(
        {
            "server.js": (
                "const { Server } = require('socket.io')\n\nconst io = new Server(3000)\nfunction onJoin(room) {}\n\n"
                "io.on('connection', (socket) => {\n  socket.on('chat message', (msg) => { io.emit('chat message', msg) })\n"
                "  socket.on('join', onJoin)\n  socket.on('disconnect', () => {})\n})\n"
                "io.of('/admin').on('connection', client => {\n  client.on('kick', (id) => {})\n})\n"
                # Another emitter's listeners are no messages of clients.
                "process.on('SIGINT', () => process.exit(0))\n"
            ),
            "src/gateway.ts": (
                "import { Server, Socket } from 'socket.io'\n\nconst io = new Server()\n"
                "io.on('connection', (socket: Socket) => {\n  socket.on('typing', (who: string) => {})\n})\n"
            ),
            # A socket's listeners in a file that does not serve Socket.IO.
            "client.js": "const net = require('net')\n\nnet.createServer((socket) => {\n  socket.on('data', (d) => {})\n})\n",
        },
        "framework", "route_or_command", "handler", "handler_raw", kind="rpc_service",
    )

    assert found == {
        ("socketio", "chat message", None, "block at server.js:7"),
        ("socketio", "join", "server.onJoin", "onJoin"),
        ("socketio", "kick", None, "block at server.js:12"),
        ("socketio", "typing", None, "block at src/gateway.ts:5"),
    }


def test_a_sinatra_routes_handler_is_its_block_not_the_code_around_or_a_call_inside():
    analysis = analyze_repository({
        "lib/app.rb": (
            "require 'sinatra/base'\n\nclass App < Sinatra::Base\n  get '/orders/:id' do\n"
            "    respond_with Order.find(params[:id])\n  end\n\n  post('/orders') { create_order }\nend\n"
        ),
    })
    found = {
        (entry.route_or_command, entry.methods, entry.handler, entry.handler_raw, entry.start_line)
        for entry in analysis.files["lib/app.rb"].entrypoints
    }

    assert found == {
        ("/orders/:id", ("GET",), None, "block at lib/app.rb:4", 4),
        ("/orders", ("POST",), None, "block at lib/app.rb:8", 8),
    }


def test_php_and_csharp_names_start_at_the_namespace_which_is_no_symbol():
    analysis = analyze_repository({
        "src/Routing/Resolver.php": (
            "<?php\n\nnamespace Shop\\Routing;\n\nclass Resolver\n{\n    public function resolve($uri) { return $uri; }\n}\n"
        ),
        "Orders/Order.cs": "namespace Shop.Orders;\n\npublic class Order\n{\n    public int Total() { return 0; }\n}\n",
        "Cart.cs": "namespace Shop\n{\n    public class Cart\n    {\n        public int Pay() { return 0; }\n    }\n}\n",
    })
    symbols = {(symbol.kind, symbol.qname, symbol.parent) for file in analysis.files.values() for symbol in file.symbols}

    assert symbols == {
        ("class", "Shop.Routing.Resolver", None),
        ("method", "Shop.Routing.Resolver.resolve", "Shop.Routing.Resolver"),
        ("class", "Shop.Orders.Order", None),
        ("method", "Shop.Orders.Order.Total", "Shop.Orders.Order"),
        ("class", "Shop.Cart", None),
        ("method", "Shop.Cart.Pay", "Shop.Cart"),
    }


def test_laravel_route_groups_and_resources_are_entrypoints():
    analysis = analyze_repository({
        "routes/web.php": (
            "<?php\nRoute::prefix('admin')->group(function () {\n    Route::post('/users', 'UserController@store');\n});\n"
            "Route::resource('photos', PhotoController::class);\n"
        ),
    })
    found = {(entry.route_or_command, entry.methods, entry.handler_raw) for entry in analysis.files["routes/web.php"].entrypoints}

    assert ("/admin/users", ("POST",), "UserController@store") in found
    assert ("/photos/{id}", ("DELETE",), "PhotoController@destroy") in found
    assert len(found) == 6


def test_a_laravel_resource_s_routes_are_handled_by_its_controller_s_methods():
    found = entrypoint_rows(
        {
            "routes/web.php": "<?php\nRoute::resource('photos', PhotoController::class);\n",
            "app/Http/Controllers/PhotoController.php": (
                "<?php\nnamespace App\\Http\\Controllers;\n\nclass PhotoController extends Controller\n{\n"
                "    public function index() {}\n    public function show($id) {}\n}\n"
            ),
        },
        "route_or_command", "methods", "handler", kind="http_route",
    )

    assert ("/photos", ("GET",), "App.Http.Controllers.PhotoController.index") in found
    assert ("/photos/{id}", ("GET",), "App.Http.Controllers.PhotoController.show") in found
    # An action the controller does not define: no handler.
    assert ("/photos/{id}", ("DELETE",), None) in found


def test_a_laravel_resource_s_only_and_except_and_the_controller_the_routes_file_imports():
    controller = (
        "<?php\nnamespace App\\Domains\\{side}\\Controllers;\n\nclass UserController extends Controller\n{{\n"
        "    public function index() {{}}\n    public function store() {{}}\n    public function show($id) {{}}\n}}\n"
    )
    found = entrypoint_rows(
        {
            "routes/api.php": (
                "<?php\nuse App\\Domains\\Api\\Controllers\\UserController;\n\n"
                "Route::apiResource('users', UserController::class)->only(['index', 'show']);\n"
                "Route::apiResource('posts', PostController::class)->except(['destroy', 'update']);\n"
            ),
            # Two controllers of one name: the routes file imports the API's.
            "app/Domains/Api/Controllers/UserController.php": controller.format(side="Api"),
            "app/Domains/Web/Controllers/UserController.php": controller.format(side="Web"),
        },
        "route_or_command", "methods", "handler", "handler_raw", kind="http_route",
    )

    assert found == {
        ("/api/users", ("GET",), "App.Domains.Api.Controllers.UserController.index", "UserController@index"),
        ("/api/users/{id}", ("GET",), "App.Domains.Api.Controllers.UserController.show", "UserController@show"),
        ("/api/posts", ("GET",), None, "PostController@index"),
        ("/api/posts", ("POST",), None, "PostController@store"),
        ("/api/posts/{id}", ("GET",), None, "PostController@show"),
    }


def test_a_route_handler_named_as_a_controller_and_its_action_is_that_method_of_the_repository():
    found = _entries({
        "routes/web.php": (
            "<?php\nuse App\\Http\\Controllers\\UserController;\n"
            "Route::get('/users', [UserController::class, 'index']);\nRoute::post('/users', 'UserController@store');\n"
            "Route::get('/health', [HealthController::class, 'show']);\n"
        ),
        "app/Http/Controllers/UserController.php": (
            "<?php\nnamespace App\\Http\\Controllers;\nclass UserController {\n"
            "    public function index() {}\n    public function store() {}\n}\n"
        ),
        # Another class's index is not the controller's.
        "app/Models/User.php": "<?php\nnamespace App\\Models;\nclass User {\n    public function index() {}\n}\n",
    })

    assert found == {
        ("http_route", "laravel", "/users", ("GET",), "App.Http.Controllers.UserController.index"),
        ("http_route", "laravel", "/users", ("POST",), "App.Http.Controllers.UserController.store"),
        ("http_route", "laravel", "/health", ("GET",), None),
    }


def test_an_express_handler_named_by_its_module_is_that_modules_function_and_one_written_in_place_its_block():
    found = entrypoint_rows(
        {
            "web/index.js": (
                "var express = require('express');\nvar user = require('./user');\nvar app = express();\n"
                "app.get('/users', user.list);\napp.get('/users/:id', auth, user.show);\n"
                "app.get('/orders', orders.list);\napp.get('/', function (req, res) { res.send('hi'); });\n"
            ),
            "web/user.js": "exports.list = function (req, res) {};\nexports.show = function (req, res) {};\n",
            # Another module's list is not the user module's.
            "web/orders_store.js": "exports.list = function () {};\n",
        },
        "route_or_command", "handler", "handler_raw",
    )

    assert found == {
        ("/users", "web.user.list", "user.list"),
        ("/users/:id", "web.user.show", "user.show"),
        ("/orders", None, "orders.list"),
        ("/", None, "block at web/index.js:7"),
    }


def test_an_express_router_named_for_what_it_routes_has_routes_and_a_map_does_not():
    found = entrypoint_rows(
        {
            "src/routes/users.ts": (
                "import { Router } from 'express';\nimport * as users from '../controllers/users';\n"
                "const userRouter = Router();\nuserRouter.get('/users/:id', users.show);\nexport default userRouter;\n"
            ),
            "src/controllers/users.ts": "export function show(req, res) {}\n",
            "src/cache.ts": "const store = new Map();\nexport function read(key) { return store.get('/users', key); }\n",
        },
        "route_or_command", "methods", "handler",
    )

    assert found == {("/users/:id", ("GET",), "src.controllers.users.show")}


def test_express_routers_serve_under_the_prefixes_they_are_mounted_at_in_other_files():
    found = entrypoint_rows(
        {
            "server.js": (
                "const express = require('express');\nconst api = require('./routes');\nconst app = express();\n"
                "const admin = express.Router();\nadmin.get('/stats', (req, res) => res.send('ok'));\n"
                "app.use('/admin', requireAdmin, admin);\napp.use('/api', api);\napp.get('/', home);\n"
            ),
            # A router named anything is one when the file makes it; it is mounted in place and as imported.
            "routes/index.js": (
                "var express = require('express');\nvar v1 = express.Router();\n"
                "v1.use('/users', require('./users'));\nv1.use('/posts', posts);\nmodule.exports = v1;\n"
                "import posts from './posts';\n"
            ),
            "routes/users.js": "const router = require('express').Router();\nrouter.get('/', list);\nrouter.post('/:id', save);\n",
            "routes/posts.js": "import { Router } from 'express';\nconst r = Router();\nr.get('/:slug', show);\nexport default r;\n",
            # What a client fetches is no route.
            "web/client.js": "const http = axios.create();\nhttp.get('/api/users');\n",
        },
        "route_or_command", "methods", "path",
    )

    assert found == {
        ("/admin/stats", ("GET",), "server.js"),
        ("/", ("GET",), "server.js"),
        ("/api/users", ("GET",), "routes/users.js"),
        ("/api/users/:id", ("POST",), "routes/users.js"),
        ("/api/posts/:slug", ("GET",), "routes/posts.js"),
    }


def test_a_global_prefix_at_the_repositorys_root_leaves_its_commands_as_they_are():
    found = entrypoint_rows(
        {
            "main.ts": "async function bootstrap() {\n  const app = await NestFactory.create(AppModule);\n  app.setGlobalPrefix('api');\n}\n",
            "cats.controller.ts": "@Controller('cats')\nexport class CatsController {\n  @Get()\n  findAll() {}\n}\n",
            "package.json": '{"name": "shop", "scripts": {"start": "nest start"}}',
        },
        "entry_type", "route_or_command",
    )

    assert found == {("http_route", "/api/cats"), ("cli_command", "start")}


def test_a_koa_routers_own_prefix_and_fastify_plugins_registered_under_a_prefix_are_routes_under_it():
    found = entrypoint_rows(
        {
            "koa/app.js": (
                "const Router = require('@koa/router');\nconst router = new Router({ prefix: '/api' });\n"
                "router.get('/items', list);\nfunction list(ctx) {}\n"
            ),
            "fast/server.js": (
                "const fastify = require('fastify')();\nconst users = require('./users');\n"
                "fastify.register(users, { prefix: '/users' });\nfastify.register(require('./orders'), { prefix: '/orders' });\n"
                "fastify.get('/health', async () => 'ok');\n"
            ),
            "fast/users.js": "module.exports = async function (fastify, opts) {\n  fastify.get('/:id', async (req) => ({}));\n};\n",
            "fast/orders.js": "async function routes(fastify) {\n  fastify.post('/', create);\n}\nasync function create() {}\nmodule.exports = routes;\n",
        },
        "framework", "route_or_command", "methods",
    )

    assert found == {
        ("koa", "/api/items", ("GET",)),
        ("fastify", "/health", ("GET",)),
        ("fastify", "/users/:id", ("GET",)),
        ("fastify", "/orders", ("POST",)),
    }


def test_hono_apps_serve_under_their_base_path_and_the_paths_other_files_mount_them_at():
    found = entrypoint_rows(
        {
            "src/index.ts": (
                "import { Hono } from 'hono'\nimport { books } from './books'\nimport admin from './admin'\n\n"
                "const app = new Hono()\napp.get('/', (c) => c.text('Hello'))\napp.post('/login', login)\n"
                "app.route('/books', books)\napp.route('/admin', admin)\n\nfunction login(c) { return c.json({}) }\n"
                "export default app\n"
            ),
            "src/books.ts": (
                "import { Hono } from 'hono'\n\nexport const books = new Hono<{ Bindings: Env }>()\n"
                "books.get('/:id', getBook)\nbooks.delete('/:id', (c) => c.body(null, 204))\n\n"
                "function getBook(c) { return c.json({}) }\n"
            ),
            "src/admin.ts": "import { Hono } from 'hono'\nconst panel = new Hono().basePath('/v2')\npanel.get('/stats', (c) => c.json({}))\nexport default panel\n",
            "web/server.js": "const express = require('express')\nconst app = express()\napp.get('/health', (req, res) => res.send('ok'))\n",
            # An app with a base path of its own, mounted in the same file: under both.
            "src/worker.ts": (
                "import { Hono } from 'hono'\nconst app = new Hono()\nconst api = new Hono().basePath('/api')\n"
                "api.post('/posts', createPost)\napp.route('/v1', api)\n\nfunction createPost(c) { return c.json({}) }\n"
            ),
        },
        "framework", "route_or_command", "methods", "handler",
    )

    assert found == {
        ("hono", "/", ("GET",), None),
        ("hono", "/login", ("POST",), "src.index.login"),
        ("hono", "/books/:id", ("GET",), "src.books.getBook"),
        ("hono", "/books/:id", ("DELETE",), None),
        ("hono", "/admin/v2/stats", ("GET",), None),
        ("express", "/health", ("GET",), None),
        ("hono", "/v1/api/posts", ("POST",), "src.worker.createPost"),
    }


def test_elysia_routes_chained_on_the_app_or_called_on_its_name_and_under_its_groups():
    found = entrypoint_rows(
        {
            "src/index.ts": (
                "import { Elysia, t } from 'elysia'\n\n"
                "new Elysia()\n  .get('/', () => 'hi')\n  .post('/users', createUser, { body: t.Object({ name: t.String() }) })\n"
                "  .group('/admin', (app) => app.get('/stats', stats))\n  .listen(3000)\n\n"
                "const api = new Elysia({ prefix: '/api' })\napi.get('/items', listItems)\n"
                "api.put('/items/:id', updateItem, { params: t.Object({ id: t.Numeric() }) })\n\n"
                "function createUser() {}\nfunction stats() {}\nfunction listItems() {}\nfunction updateItem() {}\n"
            ),
            # Calls of that shape where Elysia is not imported are no Elysia routes.
            "src/client.ts": "const res = new Client().get('/users', parse)\nfunction parse() {}\n",
        },
        "framework", "route_or_command", "methods", "handler",
    )

    assert found == {
        ("elysia", "/", ("GET",), None),
        ("elysia", "/users", ("POST",), "src.index.createUser"),
        ("elysia", "/admin/stats", ("GET",), "src.index.stats"),
        ("elysia", "/api/items", ("GET",), "src.index.listItems"),
        ("elysia", "/api/items/:id", ("PUT",), "src.index.updateItem"),
    }


def test_hapi_route_objects_fastify_apps_of_any_name_and_paths_written_as_templates_are_routes():
    found = entrypoint_rows(
        {
            "src/plugins/posts.ts": (
                "import Hapi from '@hapi/hapi'\n\nconst postsPlugin = {\n  name: 'app/posts',\n"
                "  register: async function (server: Hapi.Server) {\n"
                "    server.route([\n      { method: 'POST', path: '/post', handler: createPost },\n"
                "      { path: '/feed', handler: (request, h) => [], method: 'GET' },\n    ])\n"
                "    server.route({ method: 'DELETE', path: '/post/{postId}', handler: deletePost })\n  },\n}\n\n"
                "async function createPost(request, h) {}\nasync function deletePost(request, h) {}\n"
            ),
            "src/fast.ts": (
                "import fastify from 'fastify'\n\nconst app = fastify({ logger: true })\n"
                "app.post<{ Body: ISignupBody }>(`/signup`, async (req, res) => {})\n"
                "app.get('/users', async (req, res) => [])\n"
            ),
            "src/express.js": "const express = require('express')\nconst app = express()\napp.get(`/api/seed`, seed)\nfunction seed(req, res) {}\n",
            # A template with a substitution is no path.
            "src/dynamic.js": "const express = require('express')\nconst app = express()\napp.get(`${base}/x`, (req, res) => {})\n",
            "src/PostResolver.ts": (
                "import { Resolver, Query } from 'type-graphql'\n\n@Resolver(Post)\nexport class PostResolver {\n"
                "  @Query(() => [Post])\n  async feed() { return [] }\n}\n"
            ),
        },
        "framework", "route_or_command", "methods", "handler",
    )

    assert found == {
        ("hapi", "/post", ("POST",), "src.plugins.posts.createPost"),
        ("hapi", "/feed", ("GET",), None),
        ("hapi", "/post/{postId}", ("DELETE",), "src.plugins.posts.deletePost"),
        ("fastify", "/signup", ("POST",), None),
        ("fastify", "/users", ("GET",), None),
        ("express", "/api/seed", ("GET",), "src.express.seed"),
        ("type-graphql", "Query.feed", (), "src.PostResolver.PostResolver.feed"),
    }


def test_calls_on_an_http_client_are_requests_not_routes():
    found = entrypoint_rows(
        {
            "web/src/services/users.ts": (
                "import axios from 'axios'\n\nconst api = axios.create({ baseURL: '/api' })\n\n"
                "export async function listUsers() {\n  const { data } = await api.get('/users')\n  return data\n}\n"
                "export const createUser = (user) => api.post('/users', user)\n"
            ),
            "server/app.js": "const express = require('express')\nconst api = express.Router()\napi.get('/users', list)\nfunction list(req, res) {}\n",
        },
        "path", "framework", "route_or_command", "methods",
    )

    assert found == {("server/app.js", "express", "/users", ("GET",))}


def test_a_file_route_whose_file_also_routes_by_calls_has_both():
    # A Next.js API route handing its requests to a Hono app: the file's own route, and the app's.
    found = entrypoint_rows(
        {
            "pages/api/[...route].ts": (
                "import { Hono } from 'hono'\nimport { handle } from 'hono/vercel'\n\n"
                "const app = new Hono().basePath('/api')\nconst route = app.post('/hello', (c) => c.json({}))\n"
                "export default handle(app)\n"
            ),
        },
        "framework", "route_or_command",
    )

    assert found == {("hono", "/api/hello"), ("nextjs", "/api/[...route]")}


def test_an_express_route_serves_each_method_chained_on_it():
    found = entrypoint_rows(
        {
            "app.js": (
                "const express = require('express');\nconst app = express();\napp.route('/book')\n"
                "  .get(function (req, res) { res.send('Get a book'); })\n  .post(addBook)\n"
                "  .put((req, res) => res.send('Update'));\nfunction addBook(req, res) {}\n"
            ),
        },
        "route_or_command", "methods", "handler", "handler_raw",
    )

    assert found == {
        ("/book", ("GET",), None, "block at app.js:4"),
        ("/book", ("POST",), "app.addBook", "addBook"),
        ("/book", ("PUT",), None, "block at app.js:6"),
    }


def test_a_nestjs_controllers_path_given_in_its_options_is_its_routes_prefix():
    found = entrypoint_rows(
        {
            "src/cats.controller.ts": (
                "@Controller({ path: 'cats', version: '1' })\nexport class CatsController {\n  @Get(':id')\n  findOne() {}\n"
                "  @Post()\n  create() {}\n}\n"
            ),
        },
        "route_or_command", "methods",
    )

    assert found == {("/cats/:id", ("GET",)), ("/cats", ("POST",))}


def test_a_nestjs_global_prefix_puts_the_applications_controllers_under_it():
    found = entrypoint_rows(
        {
            "apps/shop/src/main.ts": (
                "async function bootstrap() {\n  const app = await NestFactory.create(AppModule);\n"
                "  app.setGlobalPrefix('api');\n  await app.listen(3000);\n}\n"
            ),
            "apps/shop/src/cats/cats.controller.ts": "@Controller('cats')\nexport class CatsController {\n  @Get(':id')\n  findOne() {}\n}\n",
            # Another application of the repository has a prefix of its own (none).
            "apps/admin/src/users.controller.ts": "@Controller('users')\nexport class UsersController {\n  @Get()\n  findAll() {}\n}\n",
        },
        "route_or_command", "path",
    )

    assert found == {("/api/cats/:id", "apps/shop/src/cats/cats.controller.ts"), ("/users", "apps/admin/src/users.controller.ts")}


def test_nestjs_uri_versions_come_after_the_global_prefix_and_before_router_module_paths():
    cats = (
        "import { Controller, Get, Version } from '@nestjs/common';\n\n@Controller({ path: 'cats', version: '2' })\n"
        "export class CatsController {\n  @Get()\n  findAll() {}\n\n  @Version('3')\n  @Get(':id')\n  findOne() {}\n}\n"
    )
    dogs = "import { Controller, Get } from '@nestjs/common';\n\n@Controller('dogs')\nexport class DogsController {\n  @Get()\n  findAll() {}\n}\n"
    admin = (
        "import { Module } from '@nestjs/common';\nimport { RouterModule } from '@nestjs/core';\n\n"
        "@Module({ controllers: [DogsController], imports: [RouterModule.register([{ path: 'admin', module: AdminModule }])] })\n"
        "export class AdminModule {}\n"
    )
    main = (
        "import { NestFactory } from '@nestjs/core';\nimport { VersioningType } from '@nestjs/common';\n\nasync function bootstrap() {\n"
        "  const app = await NestFactory.create(AppModule);\n  app.setGlobalPrefix('api');\nVERSIONING  await app.listen(3000);\n}\n"
    )
    files = {"src/cats/cats.controller.ts": cats, "src/dogs/dogs.controller.ts": dogs, "src/admin/admin.module.ts": admin}

    def routes(versioning: str) -> set[tuple]:
        return entrypoint_rows({**files, "src/main.ts": main.replace("VERSIONING", versioning)}, "route_or_command", "handler")

    assert routes("  app.enableVersioning({ type: VersioningType.URI, defaultVersion: '1' });\n") == {
        ("/api/v2/cats", "src.cats.cats.controller.CatsController.findAll"),
        ("/api/v3/cats/:id", "src.cats.cats.controller.CatsController.findOne"),
        ("/api/v1/admin/dogs", "src.dogs.dogs.controller.DogsController.findAll"),
    }
    # A version read from a header, or no versioning: no version in the path.
    assert {route for route, _ in routes("  app.enableVersioning({ type: VersioningType.HEADER, header: 'X-Version' });\n")} == {
        "/api/cats", "/api/cats/:id", "/api/admin/dogs",
    }
    assert {route for route, _ in routes("")} == {"/api/cats", "/api/cats/:id", "/api/admin/dogs"}


def test_nestjs_router_module_paths_put_a_modules_controllers_under_them_below_the_global_prefix():
    found = entrypoint_rows(
        {
            "src/main.ts": (
                "async function bootstrap() {\n  const app = await NestFactory.create(AppModule);\n"
                "  app.setGlobalPrefix('api');\n  await app.listen(3000);\n}\n"
            ),
            "src/app.module.ts": (
                "import { AdminModule } from './admin/admin.module';\nimport { UsersModule } from './admin/users/users.module';\n\n"
                "@Module({\n  imports: [RouterModule.register([\n"
                "    { path: 'admin', module: AdminModule, children: [{ path: 'people', module: UsersModule }] },\n"
                "    { path: 'shop', children: [{ module: OrdersModule, path: 'orders' }] },\n"
                "  ])],\n  controllers: [CatsController],\n})\nexport class AppModule {}\n"
            ),
            # A path and a module outside RouterModule.register are no route.
            "src/menu.ts": "export const MENU = [{ path: 'cats', module: CatsModule }];\n",
            "src/cats.module.ts": "@Module({ controllers: [CatsController] })\nexport class CatsModule {}\n",
            "src/orders/orders.module.ts": "@Module({ controllers: [OrdersController] })\nexport class OrdersModule {}\n",
            "src/orders/orders.controller.ts": "@Controller()\nexport class OrdersController {\n  @Get(':id')\n  one() {}\n}\n",
            "src/cats.controller.ts": "@Controller('cats')\nexport class CatsController {\n  @Get()\n  findAll() {}\n}\n",
            "src/admin/admin.module.ts": "@Module({ controllers: [DashboardController] })\nexport class AdminModule {}\n",
            "src/admin/dashboard.controller.ts": "@Controller('dashboard')\nexport class DashboardController {\n  @Get(':id')\n  show() {}\n}\n",
            "src/admin/users/users.module.ts": "@Module({\n  controllers: [UsersController],\n})\nexport class UsersModule {}\n",
            "src/admin/users/users.controller.ts": "@Controller('users')\nexport class UsersController {\n  @Post()\n  create() {}\n}\n",
        },
        "route_or_command", "methods",
    )

    assert found == {
        ("/api/cats", ("GET",)),
        ("/api/admin/dashboard/:id", ("GET",)),
        # A child route's module is under its parent's path too, whether the parent names a module or not.
        ("/api/admin/people/users", ("POST",)),
        ("/api/shop/orders/:id", ("GET",)),
    }


def test_an_action_named_alone_in_a_laravel_controller_group_is_that_controllers_method():
    found = entrypoint_rows(
        {
            "routes/web.php": (
                "<?php\nuse App\\Http\\Controllers\\OrderController;\nuse Illuminate\\Support\\Facades\\Route;\n\n"
                "Route::controller(OrderController::class)->group(function () {\n    Route::get('/orders/{id}', 'show');\n"
                "    Route::post('/orders', 'store');\n});\n"
                "Route::controller(OrderController::class)->prefix('admin')->group(function () {\n"
                "    Route::delete('/orders/{id}', 'destroy');\n});\nRoute::get('/ping', 'health');\n"
            ),
            "app/Http/Controllers/OrderController.php": (
                "<?php\nnamespace App\\Http\\Controllers;\n\nclass OrderController extends Controller\n{\n"
                "    public function show($id) {}\n    public function store() {}\n    public function destroy($id) {}\n}\n"
            ),
        },
        "route_or_command", "handler",
    )

    controller = "App.Http.Controllers.OrderController"
    assert found == {
        ("/orders/{id}", f"{controller}.show"),
        ("/orders", f"{controller}.store"),
        ("/admin/orders/{id}", f"{controller}.destroy"),
        # Outside a group, a name alone is no controller's.
        ("/ping", None),
    }


def test_grape_endpoints_serve_under_their_blocks_the_api_s_prefix_and_its_version_in_the_path():
    api = (
        "module Twitter\n  class API < Grape::API\n    version 'v1'{using}\n    format :json\n    prefix :api\n\n"
        "    resource :statuses do\n      get :public_timeline do\n        Status.limit(20)\n      end\n\n"
        "      get do\n        Status.all\n      end\n    end\n\n"
        "    namespace 'users' do\n      post '/login' do\n      end\n      delete 'session' do\n      end\n    end\n  end\nend\n"
    )

    def read(using: str) -> set[tuple]:
        return entrypoint_rows({"api/twitter.rb": api.format(using=using)}, "framework", "route_or_command", "methods")

    assert read("") == read(", using: :path") == {
        ("grape", "/api/v1/statuses/public_timeline", ("GET",)),
        ("grape", "/api/v1/statuses", ("GET",)),
        ("grape", "/api/v1/users/login", ("POST",)),
        ("grape", "/api/v1/users/session", ("DELETE",)),
    }
    # A version read from a header is no part of the path.
    assert ("grape", "/api/statuses", ("GET",)) in read(", using: :header")
    # Sinatra's routes stay Sinatra's.
    assert entrypoint_rows({"app.rb": "require 'sinatra'\n\nget '/hi' do\n  'Hello'\nend\n"}, "framework", "route_or_command") == {
        ("sinatra", "/hi"),
    }


def test_codeigniter_routes_file_routes_are_handled_by_its_controllers_methods():
    found = entrypoint_rows(
        {
            "app/Config/Routes.php": (
                "<?php\n\nuse CodeIgniter\\Router\\RouteCollection;\n\n/** @var RouteCollection $routes */\n"
                "$routes->get('/', 'Home::index');\n$routes->post('news', [News::class, 'create']);\n"
                "$routes->group('admin', static function ($routes) {\n    $routes->get('users', 'Admin\\Users::index');\n"
                "    $routes->add('ping', static fn () => 'pong');\n});\n"
            ),
            "app/Controllers/Home.php": "<?php\n\nnamespace App\\Controllers;\n\nclass Home extends BaseController\n{\n    public function index() { }\n}\n",
            "app/Controllers/News.php": "<?php\n\nnamespace App\\Controllers;\n\nclass News extends BaseController\n{\n    public function create() { }\n}\n",
            "app/Controllers/Admin/Users.php": (
                "<?php\n\nnamespace App\\Controllers\\Admin;\n\nclass Users extends BaseController\n{\n    public function index() { }\n}\n"
            ),
            # The same calls outside the routes file are none.
            "app/Libraries/Menu.php": "<?php\n\n$routes->get('/x', 'Menu::show');\n",
        },
        "framework", "route_or_command", "methods", "handler", kind="http_route",
    )

    assert found == {
        ("codeigniter", "/", ("GET",), "App.Controllers.Home.index"),
        ("codeigniter", "/news", ("POST",), "App.Controllers.News.create"),
        ("codeigniter", "/admin/users", ("GET",), "App.Controllers.Admin.Users.index"),
        ("codeigniter", "/admin/ping", (), None),
    }


def test_laravel_serves_the_routes_of_its_api_routes_file_under_api():
    found = entrypoint_rows(
        {
            "routes/api.php": (
                "<?php\nuse App\\Http\\Controllers\\UserController;\nuse Illuminate\\Support\\Facades\\Route;\n\n"
                "Route::middleware('auth:sanctum')->group(function () {\n    Route::get('user', [UserController::class, 'user']);\n"
                "    Route::apiResource('vaults', VaultController::class)->only(['index']);\n});\n"
            ),
            "routes/web.php": "<?php\nuse Illuminate\\Support\\Facades\\Route;\n\nRoute::get('/', fn () => view('welcome'));\n",
            "app/Http/Controllers/UserController.php": (
                "<?php\nnamespace App\\Http\\Controllers;\n\nclass UserController extends Controller\n{\n    public function user() {}\n}\n"
            ),
        },
        "route_or_command", "methods", "handler", kind="http_route",
    )

    assert ("/api/user", ("GET",), "App.Http.Controllers.UserController.user") in found
    assert ("/api/vaults", ("GET",), None) in found
    # The web routes file's are served as written.
    assert ("/", ("GET",), None) in found
    assert {route for route, _, _ in found if route != "/"} == {route for route, _, _ in found if route.startswith("/api/")}


def test_laravel_invokable_controllers_closures_and_prefixes_set_with_other_settings_are_read():
    found = entrypoint_rows(
        {
            "routes/api.php": (
                "<?php\nuse Illuminate\\Support\\Facades\\Route;\n"
                "Route::prefix('api')->middleware('api')->group(static function (): void {\n"
                "    Route::get('ping', static fn () => null);\n"
                "    Route::middleware('auth')->prefix('admin')->group(function () {\n"
                "        Route::post('songs', PlayController::class);\n    });\n});\n"
                "Route::group(['prefix' => 'legacy'], function () {\n    Route::get('old', PlayController::class);\n});\n"
            ),
            "app/Http/Controllers/PlayController.php": (
                "<?php\nnamespace App\\Http\\Controllers;\nclass PlayController {\n    public function __invoke() {}\n}\n"
            ),
        },
        "route_or_command", "handler", "handler_raw", kind="http_route",
    )

    # The file puts its routes under /api itself: its application serves it without another /api.
    assert found == {
        ("/api/ping", None, "block at routes/api.php:4"),
        ("/api/admin/songs", "App.Http.Controllers.PlayController.__invoke", "PlayController"),
        ("/legacy/old", "App.Http.Controllers.PlayController.__invoke", "PlayController"),
    }


def test_symfony_routes_are_a_controllers_route_attributes_under_the_classs():
    found = _entries({
        "src/Controller/BlogController.php": (
            "<?php\nnamespace App\\Controller;\n\nuse Symfony\\Component\\Routing\\Attribute\\Route;\n\n"
            "#[Route('/blog')]\nclass BlogController extends AbstractController\n{\n"
            "    #[Route('/{slug}', name: 'blog_show', methods: ['GET'])]\n    public function show(string $slug) { }\n\n"
            "    #[Route(path: '/new', methods: ['GET', 'POST'])]\n    public function new() { }\n\n"
            "    public function helper() { }\n}\n"
        ),
    })

    assert found == {
        ("http_route", "symfony", "/blog/{slug}", ("GET",), "App.Controller.BlogController.show"),
        ("http_route", "symfony", "/blog/new", ("GET", "POST"), "App.Controller.BlogController.new"),
    }


def test_laravel_and_symfony_console_commands_are_cli_commands_named_by_their_signature():
    found = _entries({
        "app/Console/Commands/SendMail.php": (
            "<?php\nnamespace App\\Console\\Commands;\nuse Illuminate\\Console\\Command;\n"
            "class SendMail extends Command {\n    protected $signature = 'mail:send\n        {user} {--queue}';\n"
            "    public function handle() {}\n}\n"
        ),
        # Laravel's own commands take Symfony's attribute.
        "src/Illuminate/Foundation/Console/ModelMakeCommand.php": (
            "<?php\nnamespace Illuminate\\Foundation\\Console;\nuse Symfony\\Component\\Console\\Attribute\\AsCommand;\n"
            "#[AsCommand(name: 'make:model')]\nclass ModelMakeCommand extends GeneratorCommand {\n"
            "    protected $type = 'Model';\n}\n"
        ),
        "src/Command/AddUserCommand.php": (
            "<?php\nnamespace App\\Command;\nuse Symfony\\Component\\Console\\Attribute\\AsCommand;\n"
            "use Symfony\\Component\\Console\\Command\\Command;\n"
            "#[AsCommand(name: 'app:add-user', description: 'Creates users')]\nfinal class AddUserCommand extends Command {\n}\n"
        ),
        # A property named `name` of a class that is no command.
        "src/Person.php": "<?php\nnamespace App;\nclass Person extends Model {\n    protected $name = 'person';\n}\n",
    })

    assert found == {
        ("cli_command", "artisan", "mail:send", (), "App.Console.Commands.SendMail"),
        ("cli_command", "artisan", "make:model", (), "Illuminate.Foundation.Console.ModelMakeCommand"),
        ("cli_command", "symfony", "app:add-user", (), "App.Command.AddUserCommand"),
    }


# Background work of each ecosystem: scheduled methods, listeners of topics and queues, job classes, workers.
TASKS = {
    "src/main/java/com/shop/ReportJob.java": (
        "package com.shop;\n\nimport org.quartz.Job;\nimport org.quartz.JobExecutionContext;\n\n"
        "public class ReportJob implements Job {\n    public void execute(JobExecutionContext context) {}\n}\n"
    ),
    "src/main/java/com/shop/CleanupJob.java": (
        "package com.shop;\n\nclass CleanupJob extends QuartzJobBean {\n"
        "    protected void executeInternal(JobExecutionContext context) {}\n}\n"
    ),
    "src/agenda.js": (
        "const Agenda = require('agenda')\n\nconst agenda = new Agenda()\nasync function report(job) {}\n\n"
        "agenda.define('send email report', async (job) => {})\nagenda.define('report', { priority: 20 }, report)\n"
    ),
    "src/main/java/com/shop/Jobs.java": (
        'package com.shop;\n\n@Component\n@RequestMapping("/api")\npublic class Jobs {\n'
        '  @Scheduled(cron = "0 0 * * * *")\n  public void report() {}\n\n'
        '  @Scheduled(fixedRate = 5000)\n  public void ping() {}\n\n'
        '  @KafkaListener(topics = {"orders", "refunds"}, groupId = "shop")\n'
        '  public void onOrder(String message) {}\n\n  @KafkaListener(topics = "audit")\n'
        '  public void onAudit(String message) {}\n\n  @RabbitListener(queues = "mail")\n'
        '  public void onMail(String m) {}\n\n  @JmsListener(destination = "invoices")\n'
        '  public void onInvoice(String m) {}\n\n  @SqsListener("uploads")\n'
        '  public void onUpload(String m) {}\n\n  @Incoming("prices")\n'
        '  public void onPrice(double p) {}\n\n  @GetMapping("/health")\n'
        '  public String health() { return "ok"; }\n}\n'
    ),
    "src/main/kotlin/com/shop/KotlinJobs.kt": (
        'package com.shop\n\n@Component\nclass KotlinJobs {\n    @Scheduled(cron = "0 0 * * * *")\n'
        '    fun report() {}\n\n    @Scheduled\n    fun tick() {}\n\n'
        '    @KafkaListener(topics = ["orders", "refunds"], groupId = "shop")\n'
        '    fun onOrder(message: String) {}\n\n    @RabbitListener(queues = ["mail"])\n'
        '    fun onMail(m: String) {}\n\n    @JmsListener(destination = "invoices")\n'
        '    fun onInvoice(m: String) {}\n\n    @SqsListener("uploads")\n'
        '    fun onUpload(m: String) {}\n\n    @Incoming("prices")\n    fun onPrice(p: Double) {}\n}\n'
    ),
    "app/jobs/guests_cleanup_job.rb": (
        'class GuestsCleanupJob < ApplicationJob\n  queue_as :default\n  def perform(*guests)\n  end\n'
        'end\n'
    ),
    "app/workers/hard_job.rb": (
        "class HardJob\n  include Sidekiq::Job\n  sidekiq_options queue: 'critical'\n"
        '  def perform(name)\n  end\nend\n'
    ),
    "app/Jobs/ProcessPodcast.php": (
        '<?php\nnamespace App\\Jobs;\nclass ProcessPodcast implements ShouldQueue\n{\n'
        '    use Dispatchable;\n    public function handle(): void {}\n}\n'
    ),
    "Workers/Worker.cs": (
        'namespace Shop.Workers;\npublic class Worker : BackgroundService\n{\n'
        '    protected override async Task ExecuteAsync(CancellationToken token) {}\n}\n'
        'public static class Jobs\n{\n'
        '    public static void Register() { RecurringJob.AddOrUpdate("report", () => Console.WriteLine(), Cron.Daily); }\n'
        '    [Function("Cleanup")]\n'
        '    public static void Cleanup([TimerTrigger("0 */5 * * * *")] TimerInfo timer) {}\n'
        '    [Function("Status")]\n'
        '    public static void Status([HttpTrigger(AuthorizationLevel.Function, "get")] HttpRequest req) {}\n'
        '}\n'
    ),
    "src/jobs.service.ts": (
        "import { Injectable } from '@nestjs/common'\n\n@Injectable()\nexport class JobsService {\n"
        "  @Cron('45 * * * * *')\n  handleCron() {}\n\n  @OnEvent('order.created')\n"
        "  onOrder(payload: unknown) {}\n\n  @MessagePattern('sum')\n"
        '  sum(data: number[]) { return 0 }\n\n'
        "  @MessagePattern({ cmd: 'accumulate' })\n  accumulate(data: number[]) { return 0 }\n}\n"
    ),
    "src/worker.ts": (
        "import { Worker } from 'bullmq'\n\n"
        "const worker = new Worker('emails', async (job) => { await send(job.data) })\n"
        "const other = new Worker('thumbs', makeThumb)\nasync function makeThumb(job) {}\n"
    ),
    "src/cron.js": (
        "const cron = require('node-cron')\n"
        "cron.schedule('*/5 * * * *', () => { console.log('tick') })\n"
    ),
    "cmd/worker/main.go": (
        'package main\n\nimport (\n\t"github.com/hibiken/asynq"\n\t"github.com/robfig/cron/v3"\n)\n\n'
        'func main() {\n\tmux := asynq.NewServeMux()\n\tmux.HandleFunc("email:deliver", handleEmail)\n'
        '\tc := cron.New()\n\tc.AddFunc("@every 1h", func() { purge() })\n}\n\n'
        "func handleEmail(ctx context.Context, t *asynq.Task) error { return nil }\nfunc purge() {}\n"
    ),
    "app/src/main/kotlin/com/shop/SyncWorker.kt": (
        "package com.shop\n\nclass SyncWorker(context: Context, params: WorkerParameters) :\n"
        "    CoroutineWorker(context, params), Synchronizer {\n    override suspend fun doWork(): Result = Result.success()\n}\n"
    ),
    "app/src/main/java/com/shop/UploadWorker.java": (
        "package com.shop;\n\npublic class UploadWorker extends Worker {\n"
        "    @Override\n    public Result doWork() { return Result.success(); }\n}\n"
    ),
    # A web worker is no queue's.
    "src/page.js": "const w = new Worker('script.js', { type: 'module' })\n",
}


def test_scheduled_methods_listeners_job_classes_and_workers_are_tasks_named_by_their_queue_or_themselves():
    tasks = entrypoint_rows(TASKS, "framework", "route_or_command", "handler", kind="task")

    assert tasks == {
        ("scheduled", "com.shop.Jobs.report", "com.shop.Jobs.report"),
        ("scheduled", "com.shop.Jobs.ping", "com.shop.Jobs.ping"),
        ("kafka", "orders", "com.shop.Jobs.onOrder"),
        ("kafka", "refunds", "com.shop.Jobs.onOrder"),
        ("kafka", "audit", "com.shop.Jobs.onAudit"),
        ("rabbitmq", "mail", "com.shop.Jobs.onMail"),
        ("jms", "invoices", "com.shop.Jobs.onInvoice"),
        ("sqs", "uploads", "com.shop.Jobs.onUpload"),
        ("reactive-messaging", "prices", "com.shop.Jobs.onPrice"),
        ("scheduled", "com.shop.KotlinJobs.report", "com.shop.KotlinJobs.report"),
        ("scheduled", "com.shop.KotlinJobs.tick", "com.shop.KotlinJobs.tick"),
        ("kafka", "orders", "com.shop.KotlinJobs.onOrder"),
        ("kafka", "refunds", "com.shop.KotlinJobs.onOrder"),
        ("rabbitmq", "mail", "com.shop.KotlinJobs.onMail"),
        ("jms", "invoices", "com.shop.KotlinJobs.onInvoice"),
        ("sqs", "uploads", "com.shop.KotlinJobs.onUpload"),
        ("reactive-messaging", "prices", "com.shop.KotlinJobs.onPrice"),
        ("activejob", "GuestsCleanupJob", "app.jobs.guests_cleanup_job.GuestsCleanupJob.perform"),
        ("sidekiq", "HardJob", "app.workers.hard_job.HardJob.perform"),
        ("laravel", "ProcessPodcast", "App.Jobs.ProcessPodcast.handle"),
        ("hosted-service", "Worker", "Shop.Workers.Worker.ExecuteAsync"),
        ("hangfire", "report", None),
        ("azure-functions", "Cleanup", "Shop.Workers.Jobs.Cleanup"),
        ("nestjs", "src.jobs.service.JobsService.handleCron", "src.jobs.service.JobsService.handleCron"),
        ("nestjs", "order.created", "src.jobs.service.JobsService.onOrder"),
        ("nestjs", "sum", "src.jobs.service.JobsService.sum"),
        ("nestjs", "accumulate", "src.jobs.service.JobsService.accumulate"),
        ("bullmq", "emails", None),
        ("bullmq", "thumbs", "src.worker.makeThumb"),
        ("node-cron", "*/5 * * * *", None),
        ("asynq", "email:deliver", "cmd.worker.handleEmail"),
        ("cron", "@every 1h", None),
        ("workmanager", "SyncWorker", "com.shop.SyncWorker.doWork"),
        ("workmanager", "UploadWorker", "com.shop.UploadWorker.doWork"),
        ("quartz", "ReportJob", "com.shop.ReportJob.execute"),
        ("quartz", "CleanupJob", "com.shop.CleanupJob.executeInternal"),
        ("agenda", "send email report", None),
        ("agenda", "report", "src.agenda.report"),
    }
    # A task is no route, whatever prefix its class gives its routes (the Java class's @RequestMapping).
    assert ("spring", "/api/health") in entrypoint_rows(TASKS, "framework", "route_or_command", kind="http_route")


def test_next_js_pages_and_routes_serve_under_the_base_path_of_their_app_s_configuration():
    found = entrypoint_rows(
        {
            "web/next.config.mjs": "/** @type {import('next').NextConfig} */\nexport default {\n  basePath: '/docs',\n  output: 'standalone',\n}\n",
            "web/app/api/hello/route.ts": "export async function GET() { return Response.json({}) }\n",
            "web/app/guide/page.tsx": "export default function Page() { return <h1>Guide</h1> }\n",
            # Another app of the repository, and a basePath that is no Next.js configuration's.
            "shop/app/api/cart/route.ts": "export async function POST() { return Response.json({}) }\n",
            "shop/lib/client.ts": "export const client = createClient({ basePath: '/v2' })\n",
        },
        "route_or_command", "methods", kind="http_route",
    )

    assert found == {("/docs/api/hello", ("GET",)), ("/docs/guide", ("GET",)), ("/api/cart", ("POST",))}


def test_single_page_apps_client_routes_with_the_components_they_show():
    found = entrypoint_rows(
        {
            "vue/src/router/index.js": (
                "import { createRouter, createWebHistory } from 'vue-router'\nimport HomeView from '../views/HomeView.vue'\n\n"
                "export default createRouter({\n  history: createWebHistory(),\n  routes: [\n"
                "    { path: '/', name: 'home', component: HomeView },\n"
                "    { path: '/about', name: 'about', component: () => import('../views/AboutView.vue') },\n  ],\n})\n"
            ),
            "ng/src/app/app.routes.ts": (
                "import { Routes } from '@angular/router';\nimport { HeroesComponent } from './heroes/heroes.component';\n\n"
                "export const routes: Routes = [\n  { path: 'heroes', component: HeroesComponent },\n"
                "  { path: 'admin', children: [{ path: 'users', component: HeroesComponent }] },\n];\n"
            ),
            "ng/src/app/heroes/heroes.component.ts": "@Component({ selector: 'app-heroes' })\nexport class HeroesComponent {}\n",
            "react/src/main.jsx": (
                "import { createBrowserRouter } from 'react-router-dom';\n\nconst router = createBrowserRouter([\n"
                "  { path: '/', element: <Root />, children: [{ path: 'contacts/:contactId', element: <Contact /> }] },\n]);\n"
            ),
            "react/src/App.tsx": (
                "import { Routes, Route } from 'react-router-dom';\n\nexport default function App() {\n  return (\n    <Routes>\n"
                "      <Route path=\"/\" element={<Layout />}>\n        <Route path=\"about\" element={<About />} />\n      </Route>\n"
                "    </Routes>\n  );\n}\n"
            ),
            # The same shapes without a client router: a menu's items are no routes.
            "menu/src/items.ts": "export const items = [{ path: '/docs', component: Docs }];\n",
        },
        "framework", "route_or_command", "handler", "handler_raw", kind="http_route",
    )

    assert found == {
        ("vue-router", "/", None, "HomeView"),
        ("vue-router", "/about", None, "block at vue/src/router/index.js:8"),
        ("angular", "/heroes", "ng.src.app.heroes.heroes.component.HeroesComponent", "HeroesComponent"),
        ("angular", "/admin/users", "ng.src.app.heroes.heroes.component.HeroesComponent", "HeroesComponent"),
        ("react-router", "/", None, "Root"),
        ("react-router", "/contacts/:contactId", None, "Contact"),
        ("react-router", "/", None, "Layout"),
        ("react-router", "/about", None, "About"),
    }


def test_a_routes_handler_imported_from_another_es_module_is_what_that_module_exports():
    found = entrypoint_rows(
        {
            "web/src/main.jsx": (
                "import { createBrowserRouter } from 'react-router-dom';\nimport Root from './routes/root';\n"
                "import { Contact } from './routes';\n\n"
                "export const router = createBrowserRouter([\n  { path: '/', element: <Root /> },\n"
                "  { path: '/contacts/:id', Component: Contact },\n]);\n"
            ),
            "web/src/routes/root.jsx": "export default function Root() { return <div /> }\n",
            "web/src/routes/index.js": "export { Contact } from './contact';\n",
            "web/src/routes/contact.jsx": "export function Contact() { return <div /> }\n",
            "api/server.js": (
                "import express from 'express';\nimport listUsers from './handlers/list';\n\nconst app = express();\n"
                "app.get('/users', listUsers);\n"
            ),
            "api/handlers/list.js": "export default function listUsers(req, res) { res.json([]) }\n",
        },
        "route_or_command", "handler", kind="http_route",
    )

    assert found == {
        ("/", "web.src.routes.root.Root"),
        ("/contacts/:id", "web.src.routes.contact.Contact"),
        ("/users", "api.handlers.list.listUsers"),
    }


def test_remix_route_modules_are_routes_named_by_their_flat_file_names():
    page = "export default function Page() { return null }\n"
    found = entrypoint_rows(
        {
            "app/routes/_index.tsx": page,
            "app/routes/posts.$slug.tsx": (
                "export async function loader({ params }) { return null }\n"
                "export const action = async ({ request }) => null\nexport default function Post() { return null }\n"
            ),
            "app/routes/posts_.$slug.edit/route.tsx": page,
            "app/routes/_auth.login.tsx": page,
            "app/routes/($lang).about.tsx": page,
            "app/routes/files.$.tsx": page,
            "app/routes/sitemap[.]xml.ts": "export const loader = () => null\n",
            # A module of a folder route that is not its route.
            "app/routes/posts.$slug.edit/form.tsx": page,
        },
        "route_or_command", "methods", "handler", kind="http_route",
    )

    assert found == {
        ("/", ("GET",), "app.routes._index.Page"),
        ("/posts/:slug", ("GET",), "app.routes.posts.$slug.loader"),
        ("/posts/:slug", ("POST",), "app.routes.posts.$slug.action"),
        ("/posts/:slug", ("GET",), "app.routes.posts.$slug.Post"),
        ("/posts/:slug/edit", ("GET",), "app.routes.posts_.$slug.edit.route.Page"),
        ("/login", ("GET",), "app.routes._auth.login.Page"),
        ("/:lang?/about", ("GET",), "app.routes.($lang).about.Page"),
        ("/files/*", ("GET",), "app.routes.files.$.Page"),
        ("/sitemap.xml", ("GET",), "app.routes.sitemap[.]xml.loader"),
    }


def test_fastify_routes_an_autoload_registers_serve_under_their_folder_s_path():
    plugin = "module.exports = async function (fastify, opts) {{\n  fastify.get('{route}', async function (request, reply) {{\n    return {{}}\n  }})\n}}\n"
    found = entrypoint_rows(
        {
            # fastify-cli's template, in JavaScript ...
            "app.js": (
                "const path = require('node:path')\nconst AutoLoad = require('@fastify/autoload')\n\n"
                "module.exports = async function (fastify, opts) {\n"
                "  fastify.register(AutoLoad, {\n    dir: path.join(__dirname, 'plugins'),\n    options: Object.assign({}, opts)\n  })\n"
                "  fastify.register(AutoLoad, {\n    dir: path.join(__dirname, 'routes'),\n    options: Object.assign({}, opts)\n  })\n}\n"
            ),
            "routes/root.js": plugin.format(route="/"),
            "routes/example/index.js": plugin.format(route="/"),
            "routes/users/profile/settings.js": plugin.format(route="/:id"),
            # ... and in TypeScript, under a prefix of its options.
            "api/src/app.ts": (
                "import { join } from 'node:path'\nimport AutoLoad from '@fastify/autoload'\n\n"
                "export default async function app (fastify, opts) {\n"
                "  void fastify.register(AutoLoad, { dir: join(__dirname, 'routes'), options: { prefix: '/api' } })\n}\n"
            ),
            "api/src/routes/items/index.ts": "export default async function (fastify) {\n  fastify.post('/', async () => ({}))\n}\n",
            # A plugin registered by hand is not autoloaded.
            "other/server.js": "const fastify = require('fastify')()\nfastify.register(require('./routes'))\nfastify.get('/health', async () => 'ok')\n",
        },
        "path", "route_or_command", kind="http_route",
    )

    assert found == {
        ("routes/root.js", "/"),
        ("routes/example/index.js", "/example"),
        ("routes/users/profile/settings.js", "/users/profile/:id"),
        ("api/src/routes/items/index.ts", "/api/items"),
        ("other/server.js", "/health"),
    }


def test_trpc_procedures_are_rpc_services_named_by_the_keys_of_the_routers_that_include_them():
    # create-t3-app's layout: routers import their helpers from ~/server/api/trpc (tsconfig's paths).
    found = entrypoint_rows(
        {
            "tsconfig.json": '{"compilerOptions": {"baseUrl": ".", "paths": {"~/*": ["./src/*"]}}}\n',
            "src/server/api/routers/post.ts": (
                'import { z } from "zod";\nimport { createTRPCRouter, protectedProcedure, publicProcedure } from "~/server/api/trpc";\n\n'
                "export const postRouter = createTRPCRouter({\n"
                "  hello: publicProcedure\n    .input(z.object({ text: z.string() }))\n    .query(({ input }) => ({ greeting: input.text })),\n"
                "  create: protectedProcedure\n    .input(z.object({ name: z.string() }))\n"
                "    .mutation(async ({ ctx, input }) => ctx.db.post.create({ data: input })),\n"
                "  onAdd: publicProcedure.subscription(() => observable()),\n"
                "});\n"
            ),
            "src/server/api/routers/admin/users.ts": (
                'import { router, publicProcedure } from "../../trpc";\n\nexport const usersRouter = router({\n'
                "  list: publicProcedure.query(() => []),\n});\n"
            ),
            "src/server/api/routers/admin/index.ts": (
                'import { router } from "../../trpc";\nimport { usersRouter } from "./users";\n\n'
                "export const adminRouter = router({ users: usersRouter });\n"
            ),
            "src/server/api/root.ts": (
                'import { postRouter } from "~/server/api/routers/post";\nimport { adminRouter } from "~/server/api/routers/admin";\n'
                'import { createTRPCRouter } from "~/server/api/trpc";\n\n'
                "export const appRouter = createTRPCRouter({\n  post: postRouter,\n  admin: adminRouter,\n});\n"
            ),
            # The same shape without tRPC: no procedures.
            "src/lib/menu.ts": "export const menu = createRouter({\n  open: items.query(() => null),\n});\n",
        },
        "entry_type", "framework", "route_or_command", "methods", "path", kind="rpc_service",
    )

    assert found == {
        ("rpc_service", "trpc", "post.hello", ("GET",), "src/server/api/routers/post.ts"),
        ("rpc_service", "trpc", "post.create", ("POST",), "src/server/api/routers/post.ts"),
        ("rpc_service", "trpc", "post.onAdd", (), "src/server/api/routers/post.ts"),
        ("rpc_service", "trpc", "admin.users.list", ("GET",), "src/server/api/routers/admin/users.ts"),
    }


def test_the_operations_of_graphql_schemas_are_rpc_services_named_by_root_type_and_field():
    found = entrypoint_rows(
        {
            "graph/schema.resolvers.go": (
            'package graph\n\n'
            'func (r *mutationResolver) CreateTodo(ctx context.Context, input model.NewTodo) (*model.Todo, error) { return nil, nil }\n'
            '\n'
            'func (r *queryResolver) Todos(ctx context.Context) ([]*model.Todo, error) { return nil, nil }\n'
            '\n'
            'func (r *todoResolver) User(ctx context.Context, obj *model.Todo) (*model.User, error) { return nil, nil }\n'
            ),
            "src/recipes/recipes.resolver.ts": (
            "import { Resolver, Query, Mutation, Args } from '@nestjs/graphql'\n\n"
            '@Resolver(() => Recipe)\nexport class RecipesResolver {\n'
            '  constructor(private readonly recipesService: RecipesService) {}\n\n  @Query(() => Recipe)\n'
            "  async recipe(@Args('id') id: string): Promise<Recipe> { return this.recipesService.findOneById(id) }\n"
            '\n  @Query(() => [Recipe])\n  recipes(@Args() args: RecipesArgs) { return [] }\n\n'
            '  @Mutation(() => Recipe)\n'
            "  async addRecipe(@Args('newRecipeData') data: NewRecipeInput) { return null }\n\n"
            '  @Subscription(() => Recipe)\n'
            "  recipeAdded() { return pubSub.asyncIterator('recipeAdded') }\n}\n"
            ),
            "server/index.js": (
            "const { ApolloServer } = require('@apollo/server')\n\nconst resolvers = {\n  Query: {\n"
            '    books: () => books,\n    author(parent, args) { return find(args.id) },\n  },\n'
            '  Mutation: {\n    addBook: async (_, { title }) => add(title),\n  },\n'
            '  Subscription: {\n    bookAdded: { subscribe: () => pubsub.asyncIterator("BOOK_ADDED") },\n  },\n  Book: {\n'
            '    author: (book) => find(book.authorId),\n  },\n}\n'
            ),
            # An object with a Query key in a file that serves no GraphQL.
            "web/config.js": "export default { Query: { a: () => 1 } }\n",
            "app/graphql/types/query_type.rb": (
                "module Types\n  class QueryType < Types::BaseObject\n    field :all_posts, [PostType], null: false\n"
                "    def all_posts\n      Post.all\n    end\n  end\nend\n"
            ),
            "app/graphql/types/mutation_type.rb": (
                "class Types::MutationType < Types::BaseObject\n  field :create_post, mutation: Mutations::CreatePost\nend\n"
            ),
            # A field of a type that is no root.
            "app/graphql/types/post_type.rb": "module Types\n  class PostType < Types::BaseObject\n    field :title, String\n  end\nend\n",
        },
        "framework", "route_or_command", "handler", kind="rpc_service",
    )

    assert found == {
        ("gqlgen", "Query.todos", "graph.queryResolver.Todos"),
        ("gqlgen", "Mutation.createTodo", "graph.mutationResolver.CreateTodo"),
        ("nestjs", "Query.recipe", "src.recipes.recipes.resolver.RecipesResolver.recipe"),
        ("nestjs", "Query.recipes", "src.recipes.recipes.resolver.RecipesResolver.recipes"),
        ("nestjs", "Mutation.addRecipe", "src.recipes.recipes.resolver.RecipesResolver.addRecipe"),
        ("nestjs", "Subscription.recipeAdded", "src.recipes.recipes.resolver.RecipesResolver.recipeAdded"),
        ("graphql", "Query.books", "server.index.books"),
        ("graphql", "Query.author", "server.index.author"),
        ("graphql", "Mutation.addBook", "server.index.addBook"),
        ("graphql", "Subscription.bookAdded", None),
        ("graphql-ruby", "Query.allPosts", "app.graphql.types.query_type.Types.QueryType"),
        ("graphql-ruby", "Mutation.createPost", "app.graphql.types.mutation_type.MutationType"),
    }


def test_a_graphql_resolver_map_in_a_module_of_its_own_is_the_schemas_operations():
    # Resolvers merged where the server starts: the module imports the codegen types of its resolvers, or graphql
    # itself, not a server; a field may name its resolver, defined here or imported.
    found = entrypoint_rows(
        {
            "src/resolvers/books.ts": (
                "import type { Resolvers } from '../__generated__/resolvers-types'\n"
                "import { getBooks, resolveAuthor } from '../books'\n\n"
                "export const resolvers: Resolvers = {\n  Query: {\n    books: () => getBooks(),\n"
                "    author: resolveAuthor,\n    getBooks,\n  },\n"
                "  Mutation: {\n    async addBook(_, args) { return { title: args.title } },\n  },\n}\n"
            ),
            "src/books.ts": "export function getBooks() { return [] }\nexport function resolveAuthor() { return null }\n",
            "resolvers/users.js": (
                "const { GraphQLError } = require('graphql')\nconst users = require('./store')\n\n"
                "module.exports = {\n  Query: { user: users.byId },\n}\n"
            ),
            "resolvers/store.js": "exports.byId = function byId() {}\n",
            # The same shape in a file that has nothing of GraphQL.
            "src/settings.ts": "import { load } from './load'\n\nexport const limits = { Query: { timeout: () => load() } }\n",
        },
        "framework", "route_or_command", "handler", kind="rpc_service",
    )

    assert found == {
        ("graphql", "Query.books", "src.resolvers.books.books"),
        ("graphql", "Query.author", "src.books.resolveAuthor"),
        ("graphql", "Query.getBooks", "src.books.getBooks"),
        ("graphql", "Mutation.addBook", "src.resolvers.books.addBook"),
        ("graphql", "Query.user", "resolvers.store.byId"),
    }


def test_routes_and_commands_a_test_registers_are_no_entrypoints_of_the_project():
    analysis = analyze_repository({
        "routes/web.php": "<?php\nRoute::get('/users', [UserController::class, 'index']);\n",
        "tests/Integration/CookieTest.php": (
            "<?php\nclass CookieTest extends TestCase {\n    public function test_it() {\n"
            "        Route::get('/', function () { return 'ok'; });\n    }\n}\n"
        ),
        "test/routing_test.rb": "class RoutingTest < Minitest::Test\n  it 'routes' do\n    mock_app { get('/') { 'ok' } }\n  end\nend\n",
        "spec/app_spec.rb": "get '/hello' do\n  'hi'\nend\n",
    })
    found = {(entry.path, entry.route_or_command) for file in analysis.files.values() for entry in file.entrypoints}

    assert found == {("routes/web.php", "/users")}


def test_slim_routes_in_a_file_that_uses_slim_are_entrypoints_under_their_group():
    found = _entries({
        "public/index.php": (
            "<?php\nuse Slim\\Factory\\AppFactory;\nuse Slim\\Routing\\RouteCollectorProxy;\n\n$app = AppFactory::create();\n"
            '$app->get("/hello/{name}", function ($request, $response, $args) { return $response; });\n'
            "$app->group('/api', function (RouteCollectorProxy $group) {\n"
            "    $group->post('/users', CreateUserAction::class);\n"
            "    $group->get('/orders', [OrderController::class, 'list']);\n});\n"
        ),
        "src/Controller/OrderController.php": (
            "<?php\nnamespace App\\Controller;\n\nclass OrderController\n{\n    public function list($request, $response) { return $response; }\n}\n"
        ),
        # A cache's get with a key that looks like a path, in a file that does not use Slim.
        "src/Store.php": "<?php\nfunction load($cache) { return $cache->get('/settings', []); }\n",
    })

    assert found == {
        ("http_route", "slim", "/hello/{name}", ("GET",), None),
        ("http_route", "slim", "/api/users", ("POST",), None),
        # A callable array names the controller's method.
        ("http_route", "slim", "/api/orders", ("GET",), "App.Controller.OrderController.list"),
    }


def test_c_and_cpp_main_functions_are_entrypoints():
    found = _entries({"tools/pack/main.c": "int main(int argc, char **argv) { return 0; }\n", "src/server.cpp": "int main() { return 0; }\n"})

    assert found == {
        ("cli_command", "main", "pack", (), "tools.pack.main.main"),
        ("cli_command", "main", "server", (), "src.server.main"),
    }


def test_package_json_bins_and_scripts_are_cli_commands():
    analysis = analyze_repository({
        "package.json": (
            '{\n  "name": "@acme/shop",\n  "bin": {\n    "shop": "./bin/shop.js"\n  },\n'
            '  "scripts": {\n    "build": "tsc -p .",\n    "test": "jest"\n  }\n}\n'
        ),
        "tools/package.json": '{\n  "name": "@acme/pack",\n  "bin": "./cli.js"\n}\n',
        "bin/shop.js": "console.log('shop');\n",
    })
    found = {
        (path, entry.entry_type, entry.framework, entry.route_or_command, entry.handler_raw, entry.start_line)
        for path, file in analysis.files.items()
        for entry in file.entrypoints
    }

    assert found == {
        ("package.json", "cli_command", "npm_bin", "shop", "./bin/shop.js", 4),
        ("package.json", "cli_command", "npm_script", "build", "tsc -p .", 7),
        ("package.json", "cli_command", "npm_script", "test", "jest", 8),
        ("tools/package.json", "cli_command", "npm_bin", "pack", "./cli.js", 3),
    }


def test_cargo_bins_aim_at_their_files_main_functions():
    analysis = analyze_repository({
        "shop/Cargo.toml": (
            '[package]\nname = "shop"\n\n[[bin]]\nname = "shop"\n\n[[bin]]\nname = "shop-admin"\npath = "src/admin.rs"\n\n'
            '[[bin]]\nname = "migrate"\n'
        ),
        "shop/src/main.rs": "fn main() {}\n",
        "shop/src/admin.rs": "fn main() {}\n",
        "shop/src/bin/migrate.rs": "fn main() {}\n",
    })
    found = {
        (entry.route_or_command, entry.handler, entry.start_line) for entry in analysis.files["shop/Cargo.toml"].entrypoints
    }

    assert found == {
        ("shop", "shop.src.main.main", 5),
        ("shop-admin", "shop.src.admin.main", 8),
        ("migrate", "shop.src.bin.migrate.main", 12),
    }
    assert all(entry.framework == "cargo_bin" for entry in analysis.files["shop/Cargo.toml"].entrypoints)


@pytest.mark.parametrize(("qname", "module", "path", "kind", "written"), [
    ("src.internal.isadetection.simdjson.internal.detect", "src.internal.isadetection", "src/internal/isadetection.h", "function",
     "simdjson::internal::detect"),
    ("src.format.fmt.detail.buffer.push_back", "src.format", "src/format.cc", "method", "fmt::detail::buffer::push_back"),
    ("src.jv.jv_parse", "src.jv", "src/jv.c", "function", "jv_parse"),
    ("src.walk.builder.Walk.run", "src.walk.builder", "src/walk/builder.rs", "method", "crate::walk::builder::Walk::run"),
    ("src.lib.Walk", "src.lib", "src/lib.rs", "class", "crate::Walk"),
    ("src.cli.main.run", "src.cli.main", "src/cli/main.rs", "function", "crate::cli::main::run"),
    ("src.walk.mod.Walk", "src.walk.mod", "src/walk/mod.rs", "class", "crate::walk::Walk"),
    ("tests.macros.DisplayDebug.fmt", "tests.macros", "tests/macros.rs", "method", "tests::macros::DisplayDebug::fmt"),
    ("lib.sinatra.base.Sinatra.Base.halt", "lib.sinatra.base", "lib/sinatra/base.rb", "method", "Sinatra::Base#halt"),
    ("com.google.gson.Gson.toJson", "com.google.gson.Gson", "gson/src/main/java/com/google/gson/Gson.java", "method",
     "com.google.gson.Gson#toJson"),
    ("zrpc.RpcServer.Start", "zrpc.server", "zrpc/server.go", "method", "zrpc.RpcServer.Start"),
    ("src.index.dayjs", "src.index", "src/index.js", "function", "src.index.dayjs"),
    ("shopapp.pricing.compute_tax", "shopapp.pricing", "src/shopapp/pricing.py", "function", "shopapp.pricing.compute_tax"),
])
def test_a_qualified_name_is_written_in_its_languages_own_form(qname, module, path, kind, written):
    assert written_name(qname, module, path, kind) == written


def test_a_large_class_inside_a_module_or_another_class_is_split_by_its_own_methods():
    methods = "".join(f"    def step_{n}\n" + "      work\n" * 8 + "    end\n\n" for n in range(14))
    ruby = "module Shop\n  class Checkout\n" + methods + "  end\nend\n"
    java_methods = "".join(f"        void step{n}() {{\n" + "            work();\n" * 8 + "        }\n\n" for n in range(14))
    java = "package shop;\n\npublic class Outer {\n    static class Checkout {\n" + java_methods + "    }\n}\n"

    analysis = analyze_repository({"lib/shop/checkout.rb": ruby, "src/shop/Outer.java": java})

    for path, step in (("lib/shop/checkout.rb", "step_"), ("src/shop/Outer.java", "step")):
        chunks = analysis.files[path].chunks
        titles = [chunk.title for chunk in chunks]
        assert [t for t in titles if step in t] == [f"Checkout.{step}{n}" for n in range(14)]
        # Each method's chunk is the method: its first line declares it, and no chunk is a window.
        first = next(c for c in chunks if c.title == f"Checkout.{step}3")
        assert f"{step}3" in first.content.splitlines()[0]
        assert all(c.metadata["chunk_type"] != "window" for c in chunks)


def test_a_method_of_an_object_a_property_holds_is_chunked_with_the_property_and_a_companion_with_its_member():
    methods = "".join(f"  fun step{n}() {{\n" + "    work()\n" * 8 + "  }\n\n" for n in range(14))
    kotlin = (
        "package shop\n\nclass Checkout {\n  private val timeout =\n    object : Timer() {\n"
        "      override fun timedOut() {\n        cancel()\n      }\n    }.apply {\n      start()\n    }\n\n"
        + methods + "  private companion object {\n    fun create(): Checkout {\n      return Checkout()\n    }\n  }\n}\n"
    )

    chunks = analyze_repository({"src/main/kotlin/shop/Checkout.kt": kotlin}).files["src/main/kotlin/shop/Checkout.kt"].chunks

    assert all(chunk.start_line <= chunk.end_line for chunk in chunks)
    (timeout,) = [chunk for chunk in chunks if chunk.start_line <= 6 <= chunk.end_line]
    assert (timeout.start_line, timeout.end_line) == (4, 11)
    assert [c.title for c in chunks if "step" in c.title] == [f"Checkout.step{n}" for n in range(14)]
    # The line that opens the companion object is read with its member, not as a chunk of its own.
    (create,) = [chunk for chunk in chunks if "fun create" in chunk.content]
    assert create.content.splitlines()[0].strip() == "private companion object {"


def test_a_gap_of_closing_ends_and_visibility_keywords_alone_is_no_chunk():
    methods = "".join(f"    def step_{n}\n" + "      work\n" * 8 + "    end\n\n" for n in range(14))
    ruby = "module Shop\n  class Checkout\n" + methods + "    private\n\n" + methods.replace("step_", "inner_") + "  end\nend\n"
    cpp_methods = "".join(f"    void step{n}() {{\n" + "        work();\n" * 8 + "    }\n\n" for n in range(14))
    cpp = "class Checkout {\n  public:\n" + cpp_methods + "  private:\n    int total;\n};\n"

    analysis = analyze_repository({"lib/shop/checkout.rb": ruby, "src/checkout.hpp": cpp})

    for path in ("lib/shop/checkout.rb", "src/checkout.hpp"):
        bare = [c.content for c in analysis.files[path].chunks if all(
            line.strip() in ("", "end", "private", "public:", "private:", "};") for line in c.content.splitlines()
        )]
        assert bare == []


def test_a_javascript_or_typescript_class_property_holding_a_function_is_a_method_of_the_class():
    found = symbol_rows(
        {
            "src/cart.ts": (
                "export class Cart {\n  items: string[] = [];\n  handle = async (e: Event) => {\n    this.total();\n  };\n"
                "  total(): number {\n    return this.items.length;\n  }\n}\n"
            ),
            "src/App.tsx": "export class App extends Component {\n  onClick = () => this.setState({});\n  render() { return <b onClick={this.onClick} />; }\n}\n",
            "src/Menu.jsx": "export class Menu extends Component {\n  open = function () {\n    this.setState({ open: true });\n  };\n}\n",
        },
        "kind", "start_line",
    )

    assert found["src.cart.Cart.handle"] == ("method", 3)
    assert found["src.App.App.onClick"] == ("method", 2)
    assert found["src.Menu.Menu.open"] == ("method", 2)
    # A property holding data stays no method.
    assert "src.cart.Cart.items" not in found or found["src.cart.Cart.items"][0] != "method"


def test_a_java_record_s_compact_constructor_and_an_annotation_type_are_symbols():
    found = symbol_rows(
        {
            "src/main/java/com/shop/Money.java": (
                "package com.shop;\n\npublic record Money(long cents) {\n    public Money {\n"
                "        if (cents < 0) throw new IllegalArgumentException();\n    }\n}\n"
            ),
            "src/main/java/com/shop/Audited.java": "package com.shop;\n\npublic @interface Audited {\n    String value();\n}\n",
        },
        "kind", "start_line",
    )

    assert found["com.shop.Money.Money"] == ("method", 4)
    assert found["com.shop.Audited"] == ("class", 3)


def test_astro_pages_are_routes_by_their_paths_and_their_frontmatter_is_read_as_typescript():
    files = {
        "src/pages/blog/[slug].astro": (
            "---\nimport Card from '../../components/Card.astro';\nconst { slug } = Astro.params;\n---\n<Card title={slug} />\n"
        ),
        "src/pages/index.astro": "<h1>Home</h1>\n",
        "src/components/Card.astro": (
            "---\ninterface Props { title: string }\nconst { title } = Astro.props;\n"
            "function shout(s: string): string {\n  return s.toUpperCase();\n}\n---\n<h1>{shout(title)}</h1>\n"
            "<script>\n  function track() { console.log('seen'); }\n</script>\n"
        ),
    }

    assert entrypoint_rows(files, "framework", "route_or_command", "methods") == {
        ("astro", "/blog/[slug]", ("GET",)),
        ("astro", "/", ("GET",)),
    }
    symbols = symbol_rows(files, "kind", "start_line")
    assert symbols["src.components.Card.shout"] == ("function", 4)
    assert symbols["src.components.Card.Props"] == ("class", 2)
    assert symbols["src.components.Card.track"] == ("function", 10)


def test_hanami_routes_are_handled_by_the_action_their_key_names():
    found = entrypoint_rows(
        {
            "config/routes.rb": (
                "module Bookshelf\n  class Routes < Hanami::Routes\n    get \"/books\", to: \"books.index\"\n"
                "    get \"/books/:id\", to: \"books.show\"\n  end\nend\n"
            ),
            "app/actions/books/index.rb": (
                "module Bookshelf\n  module Actions\n    module Books\n      class Index < Bookshelf::Action\n"
                "        def handle(request, response)\n          response.body = \"Books\"\n        end\n      end\n    end\n  end\nend\n"
            ),
            # Another action's handle, of another key.
            "app/actions/books/show.rb": (
                "module Bookshelf\n  module Actions\n    module Books\n      class Show < Bookshelf::Action\n"
                "        def handle(request, response)\n        end\n      end\n    end\n  end\nend\n"
            ),
        },
        "framework", "route_or_command", "methods", "handler",
    )

    index, show = ("app.actions.books.{}.Bookshelf.Actions.Books.{}.handle".format(*names) for names in (("index", "Index"), ("show", "Show")))
    assert found == {("hanami", "/books", ("GET",), index), ("hanami", "/books/:id", ("GET",), show)}


def test_the_root_route_of_rails_and_hanami_is_a_get_of_the_path_around_it():
    found = entrypoint_rows(
        {
            "config/routes.rb": (
                "Rails.application.routes.draw do\n  root \"pages#home\"\n  namespace :admin do\n    root to: \"dashboard#index\"\n"
                "  end\nend\n"
            ),
            "app/controllers/pages_controller.rb": "class PagesController < ApplicationController\n  def home; end\nend\n",
            "app/controllers/admin/dashboard_controller.rb": (
                "module Admin\n  class DashboardController < ApplicationController\n    def index; end\n  end\nend\n"
            ),
            "hanami/config/routes.rb": "module Shelf\n  class Routes < Hanami::Routes\n    root to: \"pages.show\"\n  end\nend\n",
            "hanami/app/actions/pages/show.rb": (
                "module Shelf\n  module Actions\n    module Pages\n      class Show < Shelf::Action\n"
                "        def handle(request, response); end\n      end\n    end\n  end\nend\n"
            ),
            # A call of that name elsewhere is no route.
            "lib/tree.rb": "class Tree\n  def build\n    root \"trunk\"\n  end\nend\n",
        },
        "framework", "route_or_command", "methods", "handler",
    )

    assert found == {
        ("rails", "/", ("GET",), "app.controllers.pages_controller.PagesController.home"),
        ("rails", "/admin", ("GET",), "app.controllers.admin.dashboard_controller.Admin.DashboardController.index"),
        ("hanami", "/", ("GET",), "hanami.app.actions.pages.show.Shelf.Actions.Pages.Show.handle"),
    }


def test_an_azure_function_run_by_an_http_request_is_a_route_under_api():
    found = entrypoint_rows(
        {
            "src/Functions/Orders.cs": (
                "using Microsoft.Azure.Functions.Worker;\n\nnamespace Shop.Functions;\n\npublic class Orders\n{\n"
                "    [Function(\"GetOrder\")]\n    public IActionResult Run([HttpTrigger(AuthorizationLevel.Function, \"get\", \"post\", "
                "Route = \"orders/{id}\")] HttpRequest req, string id) => null;\n\n"
                "    [Function(\"Ping\")]\n    public IActionResult Ping([HttpTrigger(AuthorizationLevel.Anonymous)] HttpRequest req) => null;\n\n"
                "    [Function(\"Cleanup\")]\n    public void Cleanup([TimerTrigger(\"0 */5 * * * *\")] TimerInfo timer) { }\n}\n"
            ),
        },
        "entry_type", "route_or_command", "methods", "handler",
    )

    assert found == {
        ("http_route", "/api/orders/{id}", ("GET", "POST"), "Shop.Functions.Orders.Run"),
        ("http_route", "/api/Ping", (), "Shop.Functions.Orders.Ping"),
        ("task", "Cleanup", (), "Shop.Functions.Orders.Cleanup"),
    }


def test_a_spring_api_interface_s_routes_are_under_its_mapping_and_handled_by_the_controller_that_implements_it():
    found = entrypoint_rows(
        {
            # The API an OpenAPI generator writes, and the controller a team writes for it.
            "src/main/java/com/shop/api/UsersApi.java": (
                "package com.shop.api;\n\nimport org.springframework.web.bind.annotation.*;\n\n@RequestMapping(\"/api\")\n"
                "public interface UsersApi {\n    @GetMapping(\"/users/{id}\")\n    User getUser(@PathVariable Long id);\n\n"
                "    @PostMapping(\"/users\")\n    User createUser(@RequestBody User user);\n}\n"
            ),
            "src/main/java/com/shop/web/UsersController.java": (
                "package com.shop.web;\n\nimport com.shop.api.UsersApi;\nimport org.springframework.web.bind.annotation.RestController;\n\n"
                "@RestController\npublic class UsersController implements UsersApi {\n"
                "    @Override\n    public User getUser(Long id) { return null; }\n}\n"
            ),
        },
        "route_or_command", "methods", "handler",
    )

    assert found == {
        ("/api/users/{id}", ("GET",), "com.shop.web.UsersController.getUser"),
        # A method the controller does not define stays the interface's.
        ("/api/users", ("POST",), "com.shop.api.UsersApi.createUser"),
    }


def test_a_connect_service_handler_is_an_rpc_service_implemented_by_its_server():
    found = entrypoint_rows(
        {
            "cmd/server/main.go": (
                "package main\n\nimport (\n\t\"net/http\"\n\n\tgreetv1connect \"example.com/gen/greet/v1/greetv1connect\"\n)\n\n"
                "type GreetServer struct{}\n\nfunc (s *GreetServer) Greet() {}\n\nfunc main() {\n\tmux := http.NewServeMux()\n"
                "\tpath, handler := greetv1connect.NewGreetServiceHandler(&GreetServer{})\n\tmux.Handle(path, handler)\n"
                "\thttp.ListenAndServe(\"localhost:8080\", mux)\n}\n"
            ),
            # A constructor of that shape in a package that is no Connect one is no service.
            "cmd/other/main.go": "package main\n\nimport \"example.com/web\"\n\nfunc main() {\n\tweb.NewFileHandler(nil)\n}\n",
        },
        "entry_type", "framework", "route_or_command", "handler", kind="rpc_service",
    )

    assert found == {("rpc_service", "connect", "GreetService", "cmd.server.GreetServer")}
