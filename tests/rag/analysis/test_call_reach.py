"""What a call of a tree-sitter language can reach: implicit receivers, the language's own names, what
the caller can see, local variables that are no calls, and Rust's calls through a path."""

from __future__ import annotations

from rag.analysis.repository import analyze_repository


def _calls(files: dict[str, str]) -> dict[tuple[str, str], list[str | None]]:
    """(calling symbol, called name) -> the targets of its call edges, in order."""
    found: dict[tuple[str, str], list[str | None]] = {}
    for file in analyze_repository(files).files.values():
        for edge in file.edges:
            if edge.kind == "calls":
                found.setdefault((edge.src, edge.raw), []).append(edge.dst)
    return found


def test_a_go_builtin_is_not_the_repositorys_only_method_of_that_name():
    calls = _calls({
        "parser/visitor.go": "package parser\n\ntype ApiVisitor struct{}\n\nfunc (v *ApiVisitor) panic(msg string) {}\n",
        "core/run.go": "package core\n\nfunc Run() {\n\tpanic(\"stop\")\n\t_ = len(\"x\")\n}\n",
        "core/size.go": "package core\n\nfunc Size() int { return len(\"ab\") }\n",
        "other/len.go": "package other\n\nfunc len(s string) int { return 0 }\n",
        "mine/len.go": "package mine\n\nfunc len(s string) int { return 0 }\n\nfunc Use() int { return len(\"a\") }\n",
    })
    assert calls[("core.Run", "panic")] == [None]
    # A builtin is Go's unless the caller's own package defines the name.
    assert calls[("core.Size", "len")] == [None]
    assert calls[("mine.Use", "len")] == ["mine.len"]


def test_a_bare_call_reaches_a_method_only_through_the_languages_implicit_receiver():
    calls = _calls({
        # Go calls no method bare: check() is a function, not Filter's method beside it.
        "bloom/filter.go": "package bloom\n\ntype Filter struct{}\n\nfunc (f *Filter) check() {}\n\nfunc Add() { check() }\n",
        # Java calls its own class's methods (and its bases') bare, never another class's.
        "src/main/java/com/shop/Priced.java": "package com.shop;\npublic class Priced {\n    int price() { return 1; }\n}\n",
        "src/main/java/com/shop/Ledger.java": "package com.shop;\npublic class Ledger {\n    int audit() { return 2; }\n}\n",
        "src/main/java/com/shop/Cart.java": (
            "package com.shop;\npublic class Cart extends Priced {\n    int total() { return price() + tax() + audit(); }\n"
            "    int tax() { return 0; }\n}\n"
        ),
        # Ruby calls the methods of the modules a class mixes in bare.
        "lib/shop/helpers.rb": "module Shop\n  module Helpers\n    def halt(code)\n    end\n  end\nend\n",
        "lib/shop/spec_helpers.rb": "module SpecHelpers\n  def env\n  end\nend\n",
        "lib/shop/base.rb": "module Shop\n  class Base\n    include Helpers\n    def call(x)\n      halt(x)\n      env\n    end\n  end\nend\n",
        # A method a file imports by name (``import static``) is called bare.
        "src/main/java/com/shop/Checks.java": "package com.shop;\npublic class Checks {\n    public static int same(int x) { return x; }\n}\n",
        "src/main/java/com/app/Main.java": (
            "package com.app;\nimport static com.shop.Checks.same;\npublic class Main {\n    int run() { return same(1); }\n}\n"
        ),
        # Go's bare name is its own package's: not another package's only function of that name, nor a
        # function local to another function.
        "core/breaker/do.go": "package breaker\n\nfunc do(f func()) { f() }\n",
        "tools/swagger/walk.go": "package swagger\n\nfunc Walk(do func()) { do() }\n",
        "src/commands.rs": "pub fn commands() {\n    fn add(x: u32) {}\n    add(1);\n}\n",
        "src/flags.rs": "pub fn flags(add: fn(u32)) {\n    add(2);\n}\n",
        # Rust calls no method bare, but a function of an inline module around the call is in scope.
        "src/lib.rs": "mod tests {\n    fn setup() {}\n    fn it_works() { setup(); }\n}\n",
    })
    assert calls[("bloom.Add", "check")] == [None]
    assert calls[("com.shop.Cart.total", "price")] == ["com.shop.Priced.price"]
    assert calls[("com.shop.Cart.total", "tax")] == ["com.shop.Cart.tax"]
    assert calls[("com.shop.Cart.total", "audit")] == [None]
    assert calls[("lib.shop.base.Shop.Base.call", "halt")] == ["lib.shop.helpers.Shop.Helpers.halt"]
    assert calls[("lib.shop.base.Shop.Base.call", "env")] == [None]
    assert calls[("src.lib.tests.it_works", "setup")] == ["src.lib.tests.setup"]
    assert calls[("com.app.Main.run", "same")] == ["com.shop.Checks.same"]
    assert calls[("tools.swagger.Walk", "do")] == [None]
    assert calls[("src.commands.commands", "add")] == ["src.commands.commands.add"]
    assert calls[("src.flags.flags", "add")] == [None]


def test_rust_macros_and_prelude_functions_are_rusts_own():
    calls = _calls({
        "src/util/print.rs": "pub struct Printer;\nimpl Printer {\n    pub fn println(&self) {}\n}\npub fn drop(x: u32) {}\n",
        "src/main.rs": "fn main() {\n    println!(\"hi\");\n    drop(1);\n}\n",
    })
    assert calls[("src.main.main", "println")] == [None]
    assert calls[("src.main.main", "drop")] == [None]


# Two crates: the library's own methods, and a binary that uses one of them through an import.
CRATES: dict[str, str] = {
    "Cargo.toml": '[workspace]\nmembers = ["crates/*"]\n',
    "crates/regex/Cargo.toml": '[package]\nname = "grep-regex"\n',
    "crates/regex/src/lib.rs": (
        "pub mod literal;\npub struct GramQuery;\nimpl GramQuery {\n    pub fn unwrap(self) -> u32 { 0 }\n"
        "    pub fn simplify(self) -> u32 { 0 }\n}\n"
    ),
    "crates/regex/src/literal.rs": "pub fn shrink() -> u32 { make().literals() }\npub struct Set;\nimpl Set {\n    pub fn literals(&self) -> u32 { 0 }\n}\n",
    "crates/walk/Cargo.toml": '[package]\nname = "walk"\n',
    "crates/walk/src/lib.rs": "pub struct Walker;\nimpl Walker {\n    pub fn walk_all(&self) {}\n}\n",
    "crates/core/Cargo.toml": '[package]\nname = "core"\n[dependencies]\nwalk = { path = "../walk" }\n',
    "crates/core/src/main.rs": (
        "use walk::Walker;\nfn main() {\n    let x = std::env::args().next();\n    x.unwrap();\n    x.simplify();\n"
        "    x.walk_all();\n}\n"
    ),
}


def test_a_method_on_a_value_of_unknown_type_is_the_repositorys_only_when_the_caller_sees_it():
    calls = _calls(CRATES)
    # A standard library method, and a method of a crate the caller does not use: not the repository's.
    assert calls[("crates.core.src.main.main", "unwrap")] == [None]
    assert calls[("crates.core.src.main.main", "simplify")] == [None]
    # A method of what the file imports, and one of the caller's own crate, stay resolved.
    assert calls[("crates.core.src.main.main", "walk_all")] == ["crates.walk.src.lib.Walker.walk_all"]
    assert calls[("crates.regex.src.literal.shrink", "literals")] == ["crates.regex.src.literal.Set.literals"]


def test_ruby_parameters_block_parameters_and_locals_are_not_calls():
    calls = _calls({
        "lib/hash.rb": "class IndifferentHash\n  def key(value)\n  end\nend\n",
        "lib/base.rb": (
            "class Base\n  def dispatch!(params)\n    params.each do |key, val|\n      val = val.dup\n      store(key, val)\n    end\n"
            "    count = 1\n    count\n  rescue ::Exception => e\n    handle(e)\n  end\n\n  def store(k, v)\n  end\n\n"
            "  def handle(error)\n  end\n\n  def other\n    val\n  end\nend\n"
        ),
    })
    names = {name for (src, name) in calls if src == "lib.base.Base.dispatch!"}
    assert {"key", "val", "e", "count", "params"}.isdisjoint(names)
    assert calls[("lib.base.Base.dispatch!", "store")] == ["lib.base.Base.store"]
    # A name that is a local of another method only is a call here.
    assert ("lib.base.Base.other", "val") in calls


WALK: dict[str, str] = {
    "Cargo.toml": '[workspace]\nmembers = ["crates/*"]\n',
    "crates/ignore/Cargo.toml": '[package]\nname = "ignore"\n',
    "crates/ignore/src/lib.rs": "pub mod walk;\npub mod dir;\npub use crate::walk::WalkBuilder;\n",
    "crates/ignore/src/walk.rs": (
        "pub struct WalkBuilder;\nimpl WalkBuilder {\n    pub fn new(p: u32) -> WalkBuilder { WalkBuilder::from_iter(p) }\n"
        "    pub fn from_iter(p: u32) -> WalkBuilder { Self::build(p) }\n    fn build(p: u32) -> WalkBuilder { WalkBuilder }\n}\n"
        "pub struct Other;\nimpl Other {\n    pub fn new() -> Other { Other }\n}\n"
    ),
    "crates/ignore/src/dir.rs": "pub mod rules {\n    pub fn compile() {}\n}\npub fn load() { crate::dir::rules::compile(); rules::compile(); }\n",
    "crates/core/Cargo.toml": '[package]\nname = "core"\n',
    "crates/core/src/main.rs": (
        "mod flags;\nuse ignore::WalkBuilder;\nfn main() {\n    WalkBuilder::new(1);\n    ignore::WalkBuilder::new(2);\n"
        "    flags::parse();\n    Vec::<u8>::new();\n}\n"
    ),
    "crates/core/src/flags.rs": "pub fn parse() {}\n",
}


def test_rust_calls_through_a_path_resolve_among_the_types_or_modules_members():
    calls = _calls(WALK)
    walk = "crates.ignore.src.walk.WalkBuilder"
    assert calls[("crates.core.src.main.main", "new")] == [f"{walk}.new", f"{walk}.new", None]
    assert calls[(f"{walk}.new", "from_iter")] == [f"{walk}.from_iter"]
    assert calls[(f"{walk}.from_iter", "build")] == [f"{walk}.build"]
    assert calls[("crates.core.src.main.main", "parse")] == ["crates.core.src.flags.parse"]
    assert calls[("crates.ignore.src.dir.load", "compile")] == ["crates.ignore.src.dir.rules.compile"] * 2
