"""Lua as its users write it: module tables and class tables, require, Lapis routes, Neovim commands, scripts."""

from __future__ import annotations

from rag.analysis.languages.spec import is_test_file, written_name
from rag.analysis.repository import analyze_repository
from tests.rag.analysis.readings import edge_targets, entrypoint_rows


def _entries(files: dict[str, str]) -> set[tuple]:
    """(kind, framework, route or command, methods, handler, handler as written) of every entrypoint in ``files``."""
    return entrypoint_rows(files, "entry_type", "framework", "route_or_command", "methods", "handler", "handler_raw")


_CART = (
    "---@class Cart\nlocal Cart = {}\nCart.__index = Cart\n\n"
    "--- Makes a cart.\n---@param items table\nfunction Cart.new(items)\n"
    "  local self = setmetatable({}, Cart)\n  self.items = items\n  return self\nend\n\n"
    "--- The sum of the items' prices.\nfunction Cart:total()\n  return self:sum(self.items)\nend\n\n"
    "function Cart:sum(items)\n  local n = 0\n  for _, item in ipairs(items) do n = n + item.price end\n  return n\nend\n\n"
    "Cart.count = function(self) return #self.items end\n\nreturn Cart\n"
)
_UTIL = (
    "local M = {}\n\n--- Formats a price.\nfunction M.price(n)\n  return M.round(n) .. ' EUR'\nend\n\n"
    "function M.round(n) return math.floor(n + 0.5) end\n\n"
    "M.setup = function(opts) end\n\nlocal function insert(t, x) t[#t + 1] = x end\n\nreturn M\n"
)
_SHOP = (
    "local Cart = require(\"app.cart\")\nlocal util = require \"app.util\"\nlocal fmt = require('app.util')\n"
    "local insert = table.insert\n"
    "local function checkout(items, on_done)\n"
    "  local cart = Cart.new(items)\n"
    "  local total = cart:total()\n"
    "  print(util.price(total))\n"
    "  fmt.round(total)\n"
    "  table.insert(items, total)\n"
    "  require(\"app.util\").setup({})\n"
    "  insert(items, total)\n"
    "  on_done(total)\n"
    "  return total\nend\n\nreturn { checkout = checkout }\n"
)
# Another module's function of a name the others define too: a call is never taken for it by its name alone.
_UNITS = "local M = {}\n\nfunction M.round(n, unit) return n - n % unit end\n\nreturn M\n"


def test_functions_and_a_class_tables_functions_are_symbols_named_under_the_module_with_their_docs():
    analysis = analyze_repository({"lua/app/cart.lua": _CART, "lua/app/util.lua": _UTIL})
    symbols = {symbol.qname: symbol for file in analysis.files.values() for symbol in file.symbols}

    assert {(symbol.kind, qname, symbol.parent) for qname, symbol in symbols.items()} == {
        # A table bound to a capitalised name is a class: its functions are named under it, `:` ones are methods.
        ("class", "lua.app.cart.Cart", None),
        ("function", "lua.app.cart.Cart.new", "lua.app.cart.Cart"),
        ("method", "lua.app.cart.Cart.total", "lua.app.cart.Cart"),
        ("method", "lua.app.cart.Cart.sum", "lua.app.cart.Cart"),
        ("function", "lua.app.cart.Cart.count", "lua.app.cart.Cart"),
        # The module table's functions are the module's, as `require("app.util").price` names them.
        ("function", "lua.app.util.price", None),
        ("function", "lua.app.util.round", None),
        ("function", "lua.app.util.setup", None),
        ("function", "lua.app.util.insert", None),
    }
    new, total = symbols["lua.app.cart.Cart.new"], symbols["lua.app.cart.Cart.total"]
    # LuaDoc and EmmyLua comments are the docs, their annotations kept.
    assert new.docstring == "Makes a cart.\n@param items table"
    assert total.docstring == "The sum of the items' prices."
    assert symbols["lua.app.cart.Cart"].docstring == "@class Cart"
    assert symbols["lua.app.util.price"].docstring == "Formats a price."
    assert (new.signature, total.signature) == ("function Cart.new(items)", "function Cart:total()")
    # As Lua writes it: a method after a colon.
    assert written_name(total.qname, total.module, total.path, total.kind) == "lua.app.cart.Cart:total"


def test_calls_resolve_through_class_tables_the_module_table_self_and_the_names_requires_bind():
    calls = edge_targets({
        "lua/app/cart.lua": _CART, "lua/app/util.lua": _UTIL, "lua/app/shop.lua": _SHOP, "lua/app/units.lua": _UNITS,
    })
    checkout = "lua.app.shop.checkout"

    # `Cart.new` on the class's table, `cart:total()` on the object it makes.
    assert calls[(checkout, "new", 6)] == "lua.app.cart.Cart.new"
    assert calls[(checkout, "total", 7)] == "lua.app.cart.Cart.total"
    # On the name a require binds: the module's function, whatever the name (`fmt` for app.util).
    assert calls[(checkout, "price", 8)] == "lua.app.util.price"
    assert calls[(checkout, "round", 9)] == "lua.app.util.round"
    # The standard library's, not the repository's function of that name.
    assert calls[(checkout, "insert", 10)] is None
    assert calls[(checkout, "print", 8)] is None
    # A local bound to the standard library's function, a parameter: read, not called.
    assert (checkout, "insert", 12) not in calls
    assert (checkout, "on_done", 13) not in calls
    # `self:sum()` in a method of the class, `M.round()` in the module: their own.
    assert calls[("lua.app.cart.Cart.total", "sum", 15)] == "lua.app.cart.Cart.sum"
    assert calls[("lua.app.util.price", "round", 5)] == "lua.app.util.round"


def test_each_form_of_require_is_an_import_of_the_module_it_names():
    imports = edge_targets({
        "lua/app/cart.lua": _CART, "lua/app/util.lua": _UTIL, "lua/app/shop.lua": _SHOP,
        # A folder's init.lua is what requiring the folder loads.
        "lua/app/money/init.lua": "local M = {}\nreturn M\n",
        "lua/app/report.lua": "local money = require(\"app.money\")\nlocal json = require(\"cjson\")\n",
    }, "imports")

    assert imports == {
        ("lua.app.shop", "app.cart", 1): "lua.app.cart",
        ("lua.app.shop", "app.util", 2): "lua.app.util",
        ("lua.app.shop", "app.util", 3): "lua.app.util",
        # Called in place, bound to no name.
        ("lua.app.shop.checkout", "app.util", 11): "lua.app.util",
        ("lua.app.report", "app.money", 1): "lua.app.money.init",
        # A rock's module is not the repository's.
        ("lua.app.report", "cjson", 2): None,
    }


def test_lapis_routes_are_http_routes_in_a_file_that_requires_lapis():
    app = (
        "local lapis = require(\"lapis\")\nlocal app = lapis.Application()\n\n"
        "local function show_user(self)\n  return { json = { id = self.params.id } }\nend\n\n"
        "app:get(\"/users/:id\", show_user)\n"
        "app:post(\"/users\", function(self) return { status = 201 } end)\n"
        "app:match(\"index\", \"/\", function(self) return \"hi\" end)\n\nreturn app\n"
    )
    found = _entries({
        "app.lua": app,
        # No lapis here: a client's `api:get("/users")` is a request, not a route.
        "client.lua": "local http = require(\"http\")\nlocal app = http.new()\napp:get(\"/users\", function() end)\n",
    })

    assert found == {
        ("http_route", "lapis", "/users/:id", ("GET",), "app.show_user", "show_user"),
        ("http_route", "lapis", "/users", ("POST",), None, "block at app.lua:9"),
        # A named route that `match`es every method.
        ("http_route", "lapis", "/", (), None, "block at app.lua:10"),
    }


def test_kongs_admin_api_routes_are_a_table_of_paths_and_methods():
    found = _entries({
        "kong/api/routes/consumers.lua": (
            "return {\n  [\"/consumers/:consumers\"] = {\n    GET = function(self, db, helpers) end,\n"
            "    DELETE = function(self, db, helpers) end,\n    PATCH = endpoints.patch_entity_endpoint(schema),\n  },\n}\n"
        ),
    })

    assert found == {
        ("http_route", "kong", "/consumers/:consumers", ("GET",), None, "block at kong/api/routes/consumers.lua:3"),
        ("http_route", "kong", "/consumers/:consumers", ("DELETE",), None, "block at kong/api/routes/consumers.lua:4"),
        # Made by a call: the function that makes it, when the repository has it.
        ("http_route", "kong", "/consumers/:consumers", ("PATCH",), None, "endpoints.patch_entity_endpoint(schema)"),
    }


def test_neovim_user_commands_are_commands_and_keymaps_are_not():
    plugin = (
        "local M = {}\n\nfunction M.format(opts) end\n\n"
        "function M.setup()\n"
        "  vim.api.nvim_create_user_command(\"Format\", M.format, {})\n"
        "  vim.api.nvim_create_user_command(\"FormatAll\", function(opts) M.format(opts) end, { nargs = 0 })\n"
        "  vim.api.nvim_buf_create_user_command(0, \"FormatBuf\", \"echo 1\", {})\n"
        "  vim.keymap.set(\"n\", \"<leader>f\", M.format)\nend\n\nreturn M\n"
    )

    assert _entries({"lua/fmt/init.lua": plugin}) == {
        ("cli_command", "neovim", "Format", (), "lua.fmt.init.format", "M.format"),
        ("cli_command", "neovim", "FormatAll", (), None, "block at lua/fmt/init.lua:7"),
        ("cli_command", "neovim", "FormatBuf", (), None, "echo 1"),
    }


def test_a_lua_script_a_main_lua_and_a_love_games_callbacks_are_programs():
    found = _entries({
        "bin/deploy.lua": "#!/usr/bin/env lua\nlocal shop = require(\"app.shop\")\nprint(shop.checkout({}))\n",
        "tools/main.lua": "local args = { ... }\nprint(#args)\n",
        "game/main.lua": (
            "local player\nfunction love.load() player = { x = 0 } end\n"
            "function love.update(dt) player.x = player.x + dt end\n"
            "function love.draw() love.graphics.print(\"hi\", player.x, 0) end\n"
        ),
        # A module of a Neovim plugin named main.lua, a module with LÖVE's callbacks elsewhere, a plain module: none.
        "lua/fmt/main.lua": "local M = {}\nfunction M.run() end\nreturn M\n",
        "game/player.lua": "function love.keypressed(key) end\nfunction love.load() end\n",
        "lua/app/util.lua": _UTIL,
    })

    assert found == {
        ("cli_command", "main", "deploy", (), None, "block at bin/deploy.lua:1"),
        ("cli_command", "main", "tools", (), None, "block at tools/main.lua:1"),
        ("cli_command", "main", "game", (), None, "block at game/main.lua:1"),
        ("cli_command", "love", "game", (), "game.main.love.load", "game.main.love.load"),
        ("cli_command", "love", "game", (), "game.main.love.update", "game.main.love.update"),
        ("cli_command", "love", "game", (), "game.main.love.draw", "game.main.love.draw"),
    }


def test_busted_specs_and_test_folders_are_tests_of_lua_files():
    assert is_test_file("spec/cart_spec.lua")
    assert is_test_file("lua/app/cart_spec.lua")
    assert is_test_file("plugin/spec/helpers.lua")
    assert is_test_file("tests/minimal_init.lua")
    assert is_test_file("src/test/fixtures/cart.lua")
    assert is_test_file("test_cart.lua")
    assert not is_test_file("lua/app/cart.lua")
    assert not is_test_file("lua/app/testing.lua")
