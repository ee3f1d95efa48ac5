"""Imports through the module systems of Rust (Cargo crates and their module trees), Go (go.mod) and ES modules
(a workspace's package.json names, a tsconfig's paths)."""

from __future__ import annotations

from rag.analysis.languages.spec import import_paths
from rag.analysis.repository import analyze_repository
from rag.analysis.serialization import file_analysis_from_dict, file_analysis_to_dict

# A workspace of two crates: ``shop-core`` (a library with nested modules) and ``shop`` (a binary using it).
WORKSPACE: dict[str, str] = {
    "Cargo.toml": '[workspace]\nmembers = ["core", "app"]\n',
    "core/Cargo.toml": '[package]\nname = "shop-core"\nversion = "0.1.0"\n',
    "core/src/lib.rs": (
        "pub mod cart;\npub mod pricing;\npub use crate::cart::Cart;\npub use std::fmt::Debug;\npub fn version() -> u32 { 1 }\n"
    ),
    "core/src/cart.rs": "pub mod line;\nuse super::pricing::{self, Rule, tax::Vat};\npub struct Cart;\n",
    "core/src/cart/line.rs": "use super::Cart;\nuse crate::pricing::tax;\nuse self::detail::Row;\nmod detail { pub struct Row; }\npub struct Line;\n",
    "core/src/pricing/mod.rs": "pub mod tax;\npub struct Rule;\nuse tax::Vat as V;\n",
    "core/src/pricing/tax.rs": "pub struct Vat;\npub fn rate() -> u32 { 20 }\n",
    "app/Cargo.toml": '[package]\nname = "shop"\nversion = "0.1.0"\n\n[dependencies]\nshop-core = { path = "../core" }\nserde = "1"\n',
    "app/src/main.rs": (
        "mod cli;\nuse shop_core::{Cart, Debug, cart::line::Line, pricing::tax::rate};\nuse shop_core::pricing::*;\n"
        "use std::collections::HashMap;\nuse serde::Serialize;\nuse cli::Args;\nfn main() {}\n"
    ),
    "app/src/cli.rs": "use crate::main;\npub struct Args;\n",
    "app/tests/smoke.rs": "use shop_core::version;\nmod common;\nuse common::setup;\n",
    "app/tests/common/mod.rs": "pub fn setup() {}\n",
}


def _imports(files: dict[str, str]) -> dict[tuple[str, str], str | None]:
    analysis = analyze_repository(files)
    return {
        (path, edge.raw): edge.dst
        for path, file in analysis.files.items()
        for edge in file.edges
        if edge.kind == "imports"
    }


def test_a_group_is_one_import_per_path_without_aliases():
    assert import_paths("a::{self, b as c, d::{E, *}}", "::") == ["a", "a::b", "a::d::E", "a::d::*"]
    assert import_paths("std::{\n    // why\n    io::{self, Write},\n}", "::") == ["std::io", "std::io::Write"]


def test_rust_uses_follow_the_crates_module_trees():
    imports = _imports(WORKSPACE)

    assert imports == {
        # A re-export at the crate root: the item of the module it names.
        ("core/src/lib.rs", "crate::cart::Cart"): "core.src.cart.Cart",
        ("core/src/lib.rs", "std::fmt::Debug"): None,
        # super:: from a file module is its parent (the crate root); a group is one import per path.
        ("core/src/cart.rs", "super::pricing"): "core.src.pricing.mod",
        ("core/src/cart.rs", "super::pricing::Rule"): "core.src.pricing.mod.Rule",
        ("core/src/cart.rs", "super::pricing::tax::Vat"): "core.src.pricing.tax.Vat",
        # cart/line.rs is module cart::line: super:: is cart, self:: is itself (an inline module's item).
        ("core/src/cart/line.rs", "super::Cart"): "core.src.cart.Cart",
        ("core/src/cart/line.rs", "crate::pricing::tax"): "core.src.pricing.tax",
        ("core/src/cart/line.rs", "self::detail::Row"): "core.src.cart.line.detail.Row",
        # A module in scope of the file's own module (pricing/mod.rs declares tax).
        ("core/src/pricing/mod.rs", "tax::Vat"): "core.src.pricing.tax.Vat",
        # Another crate of the workspace by its package name, ``-`` read as ``_``; its root's
        # re-export leads on to the item it names, a glob to the module file.
        ("app/src/main.rs", "shop_core::Cart"): "core.src.cart.Cart",
        ("app/src/main.rs", "shop_core::cart::line::Line"): "core.src.cart.line.Line",
        ("app/src/main.rs", "shop_core::pricing::tax::rate"): "core.src.pricing.tax.rate",
        ("app/src/main.rs", "shop_core::pricing::*"): "core.src.pricing.mod",
        # A re-export of a library's name: the root file that re-exports it.
        ("app/src/main.rs", "shop_core::Debug"): "core.src.lib",
        ("app/src/main.rs", "cli::Args"): "app.src.cli.Args",
        # The standard library and external crates stay partial.
        ("app/src/main.rs", "std::collections::HashMap"): None,
        ("app/src/main.rs", "serde::Serialize"): None,
        ("app/src/cli.rs", "crate::main"): "app.src.main.main",
        # An integration test is a crate of its own: its modules sit beside it.
        ("app/tests/smoke.rs", "shop_core::version"): "core.src.lib.version",
        ("app/tests/smoke.rs", "common::setup"): "app.tests.common.mod.setup",
    }


def test_a_test_crate_in_a_folder_and_a_file_outside_any_crate_tree():
    files = WORKSPACE | {
        "app/tests/filters/main.rs": "mod boxed;\nfn helper() {}\n",
        "app/tests/filters/boxed.rs": "use super::*;\nuse super::helper;\n",
        "fuzz/fuzz_targets/cart.rs": "use shop_core::cart::Cart;\nuse crate::x::Y;\n",
    }
    imports = _imports(files)

    assert {key: dst for key, dst in imports.items() if key[0].startswith(("app/tests/filters/", "fuzz/"))} == {
        # tests/filters/main.rs is the root of a test crate whose modules sit beside it.
        ("app/tests/filters/boxed.rs", "super::*"): "app.tests.filters.main",
        ("app/tests/filters/boxed.rs", "super::helper"): "app.tests.filters.main.helper",
        ("fuzz/fuzz_targets/cart.rs", "shop_core::cart::Cart"): "core.src.cart.Cart",
        ("fuzz/fuzz_targets/cart.rs", "crate::x::Y"): None,
    }


def test_a_use_inside_an_inline_module_is_relative_to_it():
    files = {
        "Cargo.toml": '[package]\nname = "globs"\n',
        "src/lib.rs": "pub mod glob;\npub struct Set;\n",
        "src/glob.rs": (
            "pub struct Glob;\n\n#[cfg(test)]\nmod tests {\n    use super::{Glob, *};\n    use super::super::Set;\n"
            "    mod fixtures { pub fn one() {} }\n    use self::fixtures::one;\n\n    fn check() { use super::Glob; }\n}\n"
        ),
    }

    assert _imports(files) == {
        ("src/glob.rs", "super::Glob"): "src.glob.Glob",
        ("src/glob.rs", "super::*"): "src.glob",
        ("src/glob.rs", "super::super::Set"): "src.lib.Set",
        ("src/glob.rs", "self::fixtures::one"): "src.glob.tests.fixtures.one",
    }


def test_a_crate_whose_manifest_names_its_root_elsewhere_starts_at_that_root():
    # ripgrep's binary: ``[[bin]] path = "crates/core/main.rs"``, no ``src`` folder.
    files = {
        "Cargo.toml": '[package]\nname = "rg"\n\n[[bin]]\nname = "rg"\npath = "crates/core/main.rs"\n',
        "crates/core/main.rs": "mod flags;\nuse crate::flags::parse;\nfn main() {}\n",
        "crates/core/flags/mod.rs": "mod config;\npub fn parse() {}\n",
        "crates/core/flags/config.rs": "use super::parse;\n",
    }

    assert _imports(files) == {
        ("crates/core/main.rs", "crate::flags::parse"): "crates.core.flags.mod.parse",
        ("crates/core/flags/config.rs", "super::parse"): "crates.core.flags.mod.parse",
    }


def test_a_name_only_the_tail_of_shares_stays_partial():
    # A crate that is not in the tree does not resolve to a module of the same name inside it.
    files = {
        "Cargo.toml": '[package]\nname = "tool"\n',
        "src/lib.rs": "pub mod regex;\n",
        "src/regex.rs": "pub struct Regex;\n",
        "src/search.rs": "use regex::Regex;\nuse crate::regex::Regex as Own;\n",
    }

    assert _imports(files) == {
        ("src/search.rs", "regex::Regex"): None,
        ("src/search.rs", "crate::regex::Regex"): "src.regex.Regex",
    }


GO_MODULES: dict[str, str] = {
    "services/shop/go.mod": "module github.com/acme/shop\n\ngo 1.22\n\nrequire github.com/acme/kit v1.0.0\n",
    "services/shop/internal/cart/cart.go": "package cart\n\nfunc Total() int { return 0 }\n",
    "services/shop/cmd/server/main.go": (
        'package main\n\nimport (\n\t"fmt"\n\tc "github.com/acme/shop/internal/cart"\n\t"github.com/acme/kit/cart"\n)\n\n'
        "func main() { fmt.Println(c.Total(), cart.X) }\n"
    ),
    "cart/cart.go": "package cart\n\nvar X = 1\n",
}


def test_go_import_paths_resolve_below_the_go_mod_of_their_module():
    imports = _imports(GO_MODULES)

    assert imports == {
        ("services/shop/cmd/server/main.go", "fmt"): None,
        ("services/shop/cmd/server/main.go", "github.com/acme/shop/internal/cart"): "services.shop.internal.cart",
        # Another module's package of the same folder name is no package of this tree.
        ("services/shop/cmd/server/main.go", "github.com/acme/kit/cart"): None,
    }


def test_a_go_call_on_an_imported_package_is_that_packages_function_whatever_others_define_of_that_name():
    files = {
        "go.mod": "module github.com/acme/tool/v2\n",
        "cmd/alias/delete/delete.go": "package delete\n\nfunc NewCmdDelete() int { return 1 }\n",
        "cmd/cache/delete/delete.go": "package delete\n\nfunc NewCmdDelete() int { return 2 }\n",
        "cmd/cache/cache.go": "package cache\n\nfunc Purge() {}\n",
        "cmd/root.go": (
            'package cmd\n\nimport (\n\tdeleteCmd "github.com/acme/tool/v2/cmd/alias/delete"\n'
            '\t"github.com/acme/tool/v2/cmd/cache"\n)\n\n'
            "func Root() {\n\tdeleteCmd.NewCmdDelete()\n\tcache.Purge()\n\tcache.NewCmdDelete()\n}\n"
        ),
    }
    analysis = analyze_repository(files).files["cmd/root.go"]

    calls = {(edge.raw, edge.dst) for edge in analysis.edges if edge.kind == "calls"}
    # The package named by the file (deleteCmd), and one called by its path's last element (cache), which
    # defines no NewCmdDelete: not the other package's.
    assert calls == {("NewCmdDelete", "cmd.alias.delete.NewCmdDelete"), ("Purge", "cmd.cache.Purge"), ("NewCmdDelete", None)}


def _recipe(name: str) -> dict[str, str]:
    """One example of a repository of examples: each declares ``module app`` in its own go.mod."""
    return {
        f"{name}/go.mod": "module app\n",
        f"{name}/handlers/auth.go": (
            "package handlers\n\ntype AuthHandler struct{}\n\n"
            "func NewAuthHandler() *AuthHandler { return &AuthHandler{} }\n\n"
            "func (h *AuthHandler) Login(c fiber.Ctx) error { return nil }\n\n"
            "func GetBooks(s Service) fiber.Handler { return nil }\n"
        ),
        f"{name}/router/router.go": (
            'package router\n\nimport (\n\t"app/handlers"\n\n\t"github.com/gofiber/fiber/v3"\n)\n\n'
            "func Setup(app *fiber.App) {\n\tauth := handlers.NewAuthHandler()\n"
            '\tapp.Post("/login", auth.Login)\n\tapp.Get("/books", handlers.GetBooks(nil))\n}\n'
        ),
    }


def test_go_imports_of_a_module_path_several_go_mod_files_declare_resolve_in_the_importers_own_module():
    analysis = analyze_repository({**_recipe("auth-jwt"), **_recipe("auth-gorm")})
    router = analysis.files["auth-jwt/router/router.go"]

    edges = {(edge.kind, edge.raw): edge.dst for edge in router.edges}
    assert edges[("imports", "app/handlers")] == "auth_jwt.handlers"
    # A method called on what another package's function returns (``handlers.NewAuthHandler``) is that
    # function's type's, as the call itself is: the importer's module's, not the other example's.
    assert edges[("calls", "NewAuthHandler")] == "auth_jwt.handlers.NewAuthHandler"
    assert edges[("calls", "Login")] == "auth_jwt.handlers.AuthHandler.Login"
    # A route's handler given as a method value, or made by a call of another package's function.
    assert {(entry.framework, entry.route_or_command, entry.handler) for entry in router.entrypoints} == {
        ("fiber", "/login", "auth_jwt.handlers.AuthHandler.Login"),
        ("fiber", "/books", "auth_jwt.handlers.GetBooks"),
    }


# A TypeScript monorepo: workspace packages imported by name, and paths of the root tsconfig (JSON with a
# comment and trailing commas, as tsconfig files are written) and of a package's own.
ES_WORKSPACE: dict[str, str] = {
    "package.json": '{"name": "acme", "private": true, "workspaces": ["packages/*", "apps/*"]}',
    "tsconfig.json": (
        '{\n  // one place for the libraries\n  "compilerOptions": {\n    "baseUrl": ".",\n'
        '    "paths": {"@lib/*": ["libs/*/src"], "@lib/money/rates": ["libs/money/src/rates/latest.ts"],},\n  },\n}\n'
    ),
    "packages/shared/package.json": '{"name": "@acme/shared", "main": "dist/index.js"}',
    "packages/shared/src/index.ts": "export function formatPrice(cents: number): string {\n  return String(cents)\n}\n",
    "packages/shared/src/dates.ts": "export function formatDate(d: Date): string {\n  return d.toISOString()\n}\n",
    "libs/money/src/index.ts": "export function addTax(cents: number): number {\n  return cents * 2\n}\n",
    "libs/money/src/rates/latest.ts": "export const rate = 2\n",
    "apps/web/tsconfig.json": '{"compilerOptions": {"paths": {"~/*": ["./src/*"]}}}',
    "apps/web/src/config.ts": "export function loadConfig() {\n  return {}\n}\n",
    "apps/web/src/cart.ts": (
        "import { formatPrice } from '@acme/shared'\nimport { formatDate } from '@acme/shared/dates'\n"
        "import { addTax } from '@lib/money'\nimport { rate } from '@lib/money/rates'\nimport { loadConfig } from '~/config'\n"
        "import express from 'express'\nimport { ref } from '@vue/reactivity'\n\n"
        "export function total(cents: number): string {\n  loadConfig()\n  formatDate(new Date())\n"
        "  return formatPrice(addTax(cents) * rate)\n}\n"
    ),
    # The root tsconfig's ``~/*`` is the web app's own: another folder's file does not see it.
    "libs/money/src/report.ts": "import { loadConfig } from '~/config'\n",
}


def test_es_imports_by_name_resolve_through_the_workspaces_packages_and_tsconfig_paths():
    imports = _imports(ES_WORKSPACE)

    cart = "apps/web/src/cart.ts"
    assert imports[(cart, "@acme/shared")] == "packages.shared.src.index"
    assert imports[(cart, "@acme/shared/dates")] == "packages.shared.src.dates"
    assert imports[(cart, "@lib/money")] == "libs.money.src.index"
    # The pattern without a ``*`` that is the specifier itself wins over ``@lib/*``.
    assert imports[(cart, "@lib/money/rates")] == "libs.money.src.rates.latest"
    assert imports[(cart, "~/config")] == "apps.web.src.config"
    # Packages from the registry stay partial.
    assert imports[(cart, "express")] is None and imports[(cart, "@vue/reactivity")] is None
    assert imports[("libs/money/src/report.ts", "~/config")] is None


def test_manifest_names_survive_a_stored_analysis():
    analysis = analyze_repository(WORKSPACE | GO_MODULES | ES_WORKSPACE).extracted
    for path, name in (
        ("core/Cargo.toml", "shop_core"), ("services/shop/go.mod", "github.com/acme/shop"), ("packages/shared/package.json", "@acme/shared")
    ):
        stored = file_analysis_from_dict(file_analysis_to_dict(analysis[path]))
        assert stored is not None and stored.facts is not None
        assert stored.facts.manifest_name == name
    stored = file_analysis_from_dict(file_analysis_to_dict(analysis["tsconfig.json"]))
    # With a ``baseUrl``, names no pattern maps are looked for below it: the last pattern, ``*``.
    assert stored.facts.module_paths == (
        ("@lib/*", ("libs/*/src",)), ("@lib/money/rates", ("libs/money/src/rates/latest.ts",)), ("*", ("*",))
    )


def test_a_tsconfig_that_is_no_configuration_gives_no_paths():
    from rag.analysis.console_scripts import MAX_TSCONFIG_CHARS, tsconfig_paths

    assert tsconfig_paths("tsconfig.json", "[" * 100_000) == ()  # nested past the parser's limit: refused at once
    assert tsconfig_paths("tsconfig.json", '{"compilerOptions": {"paths": {"a/*": ["b/*"]}}') == ()  # not closed
    padded = '{"compilerOptions": {"paths": {"a/*": ["b/*"]}}, "x": "' + "y" * MAX_TSCONFIG_CHARS + '"}'
    assert tsconfig_paths("tsconfig.json", padded) == ()
    assert tsconfig_paths("web/tsconfig.json", '{"compilerOptions": {"paths": {"a/*": ["b/*"]}}}') == (("a/*", ("web/b/*",)),)


# Two modules define ``warn``; the shared package passes names on from its modules.
NAMED_IMPORTS = {
    "package.json": '{"name": "shop", "workspaces": ["packages/*"]}',
    "packages/shared/package.json": '{"name": "@shop/shared"}',
    "packages/shared/src/index.ts": "export * from './general'\nexport { warn, format as formatText } from './warning'\n",
    "packages/shared/src/general.ts": "export function camelize(s: string) {\n  return s\n}\n",
    "packages/shared/src/warning.ts": "export function warn(m: string) {}\nexport function format(m: string) {\n  return m\n}\n",
    "packages/compiler/src/warn.ts": "export function warn(m: string) {}\n",
    "packages/core/src/lib.ts": "export function deepClone(x: unknown) {\n  return x\n}\n",
    "packages/core/src/model.ts": (
        "import { warn, camelize, formatText as f } from '@shop/shared'\nimport { deepClone } from 'lodash'\n"
        "export { warn as report } from '../../compiler/src/warn'\n\n"
        "export function useModel(name: string) {\n  warn(camelize(name))\n  f(name)\n  report(name)\n  return deepClone(name)\n}\n"
    ),
    "packages/core/src/legacy.js": "const { warn } = require('../../shared/src/warning')\nfunction old() {\n  warn('old')\n}\n",
    "packages/web/tsconfig.json": '{"compilerOptions": {"baseUrl": "src"}}',
    "packages/web/src/utils/color.ts": "export function parse(c: string) {\n  return c\n}\n",
    "packages/web/src/page.ts": (
        "import { parse } from 'utils/color'\nimport type { Theme } from 'definitions'\n"
        "export function paint(theme: Theme) {\n  parse('red')\n}\n"
    ),
    "packages/web/src/definitions.d.ts": "export interface Theme {\n  mode: number\n}\n",
    "packages/web/src/render.ts": "export default function render(page: string) {\n  return page\n}\n",
    "packages/web/src/layout.ts": "function frame() {\n  return 1\n}\nexport default frame\n",
    "packages/web/src/tools.ts": "function trim(s: string) {\n  return s\n}\nexport { trim as clean }\n",
    "packages/web/src/app.ts": (
        "import draw from './render'\nimport layout from './layout'\nimport React from 'react'\nimport { clean } from './tools'\n"
        "export function main() {\n  draw(layout())\n  React()\n  clean('x')\n}\n"
    ),
    "packages/web/src/shim.ts": "export function React() {}\n",
}


def test_a_call_on_a_module_imported_or_passed_on_whole_under_a_name_is_of_what_that_module_exports():
    analysis = analyze_repository({
        "src/utils/format.ts": "export function formatPrice(c: number): string { return String(c) }\n",
        # Another module's function of that name: not the one called.
        "src/utils/other.ts": "export function formatPrice(c: number): string { return '' }\n",
        "src/index.ts": "export * as fmt from './utils/format'\n",
        "src/barrel.ts": "export * from './index'\n",
        "src/app.ts": (
            "import * as fmt from './utils/format'\nimport { fmt as direct } from './index'\n"
            "import { fmt as through } from './barrel'\n"
            "export function show() {\n  fmt.formatPrice(1)\n  direct.formatPrice(2)\n  through.formatPrice(3)\n  fmt.missing()\n}\n"
        ),
    })

    calls = {(edge.line, edge.raw): edge.dst for edge in analysis.files["src/app.ts"].edges if edge.kind == "calls"}
    assert calls == {
        (5, "formatPrice"): "src.utils.format.formatPrice",
        (6, "formatPrice"): "src.utils.format.formatPrice",
        (7, "formatPrice"): "src.utils.format.formatPrice",
        # What the module does not export is nothing of the repository's.
        (8, "missing"): None,
    }


def test_a_name_an_es_module_imports_is_what_the_module_it_names_exports_by_it():
    analysis = analyze_repository(NAMED_IMPORTS)
    calls = {
        (path, edge.raw): edge.dst for path, file in analysis.files.items() for edge in file.edges if edge.kind == "calls"
    }
    model = "packages/core/src/model.ts"
    # Through the package's index: its own ``export { warn } from``, a renaming one, and ``export *``.
    assert calls[(model, "warn")] == "packages.shared.src.warning.warn"
    assert calls[(model, "f")] == "packages.shared.src.warning.format"
    assert calls[(model, "camelize")] == "packages.shared.src.general.camelize"
    # A package from the registry: none of the repository's, though the repository defines one by that name.
    assert calls[(model, "deepClone")] is None
    # A name a module passes on is not bound in it.
    assert calls[(model, "report")] is None
    # CommonJS's destructured require; a name found below the tsconfig's ``baseUrl``.
    assert calls[("packages/core/src/legacy.js", "warn")] == "packages.shared.src.warning.warn"
    assert calls[("packages/web/src/page.ts", "parse")] == "packages.web.src.utils.color.parse"
    # A default import is the module's default export: its function, or the definition it names.
    app = "packages/web/src/app.ts"
    assert (calls[(app, "draw")], calls[(app, "layout")], calls[(app, "React")]) == (
        "packages.web.src.render.render", "packages.web.src.layout.frame", None
    )
    # A module's own definition under the name its export list gives it.
    assert calls[(app, "clean")] == "packages.web.src.tools.trim"
    # A declaration file is a module an import may name.
    imports = _imports(NAMED_IMPORTS)
    assert imports[("packages/web/src/page.ts", "definitions")] == analysis.files["packages/web/src/definitions.d.ts"].facts.module
