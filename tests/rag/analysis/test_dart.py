"""Dart and Flutter as their users write them: libraries of classes, mixins and extensions, shelf and Dart Frog
servers, package:args commands, test folders."""

from __future__ import annotations

from rag.analysis.languages.spec import is_test_file
from tests.rag.analysis.readings import edge_targets, entrypoint_rows, symbol_rows

CART = (
    "import 'item.dart';\n"
    "\n"
    "/// The most items a cart holds.\n"
    "const maxItems = 10;\n"
    "\n"
    "/// A shopping cart.\n"
    "class Cart extends Base with Priced implements Comparable<Cart> {\n"
    "  /// The items in the cart.\n"
    "  final List<Item> items;\n"
    "  static const String label = 'cart';\n"
    "\n"
    "  Cart(this.items);\n"
    "\n"
    "  /// A cart with nothing in it.\n"
    "  Cart.empty() : items = [];\n"
    "\n"
    "  factory Cart.fromJson(Map<String, dynamic> json) {\n"
    "    return Cart.empty();\n"
    "  }\n"
    "\n"
    "  /// The sum of the items.\n"
    "  int get total => sum();\n"
    "\n"
    "  int sum() {\n"
    "    return items.length;\n"
    "  }\n"
    "\n"
    "  static Cart of(List<Item> items) => Cart.empty();\n"
    "\n"
    "  void close();\n"
    "}\n"
    "\n"
    "class Base {\n"
    "  void reset() {}\n"
    "}\n"
    "\n"
    "mixin Priced on Base {\n"
    "  double price() => 0;\n"
    "}\n"
    "\n"
    "enum Size { small, large }\n"
    "\n"
    "/// Cart helpers.\n"
    "extension CartTools on Cart {\n"
    "  bool get isEmpty => items.isEmpty;\n"
    "\n"
    "  void clearAll() {\n"
    "    reset();\n"
    "    sum();\n"
    "  }\n"
    "}\n"
)


def _symbols(files: dict[str, str]) -> dict[str, tuple]:
    """qname -> (kind, signature, doc, first line, last line) of every symbol of ``files``."""
    return symbol_rows(files, "kind", "signature", "docstring", "start_line", "end_line")




def _entries(files: dict[str, str]) -> set[tuple]:
    """(kind, framework, route or command, methods, handler) of every entrypoint found in ``files``."""
    return entrypoint_rows(files, "entry_type", "framework", "route_or_command", "methods", "handler")


def test_dart_library_symbols_are_named_by_their_file_with_their_doc_comments():
    symbols = _symbols({"lib/src/cart.dart": CART, "lib/src/item.dart": "class Item {}\n"})

    assert {qname: kind for qname, (kind, *_) in symbols.items() if qname.startswith("lib.src.cart.")} == {
        "lib.src.cart.maxItems": "const",
        "lib.src.cart.Cart": "class",
        "lib.src.cart.Cart.items": "const",
        "lib.src.cart.Cart.label": "const",
        "lib.src.cart.Cart.Cart": "method",
        "lib.src.cart.Cart.empty": "method",
        "lib.src.cart.Cart.fromJson": "method",
        "lib.src.cart.Cart.total": "method",
        "lib.src.cart.Cart.sum": "method",
        "lib.src.cart.Cart.of": "method",
        "lib.src.cart.Cart.close": "method",
        "lib.src.cart.Base": "class",
        "lib.src.cart.Base.reset": "method",
        "lib.src.cart.Priced": "class",
        "lib.src.cart.Priced.price": "method",
        "lib.src.cart.Size": "class",
        "lib.src.cart.Size.small": "const",
        "lib.src.cart.Size.large": "const",
        # An extension is a symbol; its members are named after the type it extends.
        "lib.src.cart.CartTools": "class",
        "lib.src.cart.CartTools.Cart.isEmpty": "method",
        "lib.src.cart.CartTools.Cart.clearAll": "method",
    }
    assert symbols["lib.src.cart.Cart"][1:3] == (
        "class Cart extends Base with Priced implements Comparable<Cart>", "A shopping cart."
    )
    assert symbols["lib.src.cart.Cart.items"][1:3] == ("final List<Item> items", "The items in the cart.")
    assert symbols["lib.src.cart.Cart.empty"][1:3] == ("Cart.empty() : items = []", "A cart with nothing in it.")
    assert symbols["lib.src.cart.Cart.total"][1:3] == ("int get total", "The sum of the items.")
    assert symbols["lib.src.cart.CartTools"][1:3] == ("extension CartTools on Cart", "Cart helpers.")
    # A method runs from its signature to the end of its body, which the grammar puts beside it.
    assert symbols["lib.src.cart.Cart.sum"][3:] == (24, 26)
    assert symbols["lib.src.cart.Cart.fromJson"][3:] == (17, 19)


def test_dart_calls_are_resolved_across_files_by_the_declared_or_constructed_type():
    edges = edge_targets({
        "lib/src/cart.dart": CART,
        "lib/src/item.dart": "class Item {}\n",
        "lib/checkout.dart": (
            "import 'src/cart.dart';\n"
            "\n"
            "void checkout() {\n"
            "  final Cart cart = Cart.empty();\n"
            "  cart.sum();\n"
            "  var other = Cart([]);\n"
            "  other.sum();\n"
            "  Cart.of([]);\n"
            "  cart.clearAll();\n"
            "  final made = Cart.fromJson({});\n"
            "  made.price();\n"
            "}\n"
        ),
    }, "calls")

    assert edges[("lib.checkout.checkout", "empty", 4)] == "lib.src.cart.Cart.empty"
    assert edges[("lib.checkout.checkout", "sum", 5)] == "lib.src.cart.Cart.sum"
    assert edges[("lib.checkout.checkout", "Cart", 6)] == "lib.src.cart.Cart"
    assert edges[("lib.checkout.checkout", "sum", 7)] == "lib.src.cart.Cart.sum"
    assert edges[("lib.checkout.checkout", "of", 8)] == "lib.src.cart.Cart.of"
    # An extension's member is called as a member of the type it extends.
    assert edges[("lib.checkout.checkout", "clearAll", 9)] == "lib.src.cart.CartTools.Cart.clearAll"
    # A mixin's method, on a value of the class that mixes it in.
    assert edges[("lib.checkout.checkout", "price", 11)] == "lib.src.cart.Priced.price"
    # Within the class: a method called bare, a named constructor; within the extension, the extended type's
    # methods, its own and its base's.
    assert edges[("lib.src.cart.Cart.total", "sum", 22)] == "lib.src.cart.Cart.sum"
    assert edges[("lib.src.cart.Cart.fromJson", "empty", 18)] == "lib.src.cart.Cart.empty"
    assert edges[("lib.src.cart.CartTools.Cart.clearAll", "reset", 48)] == "lib.src.cart.Base.reset"
    assert edges[("lib.src.cart.CartTools.Cart.clearAll", "sum", 49)] == "lib.src.cart.Cart.sum"


def test_dart_calls_on_this_super_in_cascades_of_new_objects_and_on_names_asserted_not_null():
    edges = edge_targets({
        "lib/shop.dart": (
            "class Shelf {\n"
            "  void stock() {}\n"
            "  void open() {}\n"
            "}\n"
            "\n"
            "class Store extends Shelf {\n"
            "  Shelf shelf = Shelf();\n"
            "\n"
            "  @override\n"
            "  void stock() {\n"
            "    super.stock();\n"
            "    this.open();\n"
            "    shelf..stock()..stock();\n"
            "    new Store().open();\n"
            "    spare!.open();\n"
            "  }\n"
            "\n"
            "  Shelf? spare;\n"
            "  void open() {}\n"
            "}\n"
        ),
    }, "calls")

    assert edges[("lib.shop.Store.stock", "stock", 11)] == "lib.shop.Shelf.stock"
    assert edges[("lib.shop.Store.stock", "open", 12)] == "lib.shop.Store.open"
    assert edges[("lib.shop.Store.stock", "stock", 13)] == "lib.shop.Shelf.stock"
    assert edges[("lib.shop.Store.stock", "Store", 14)] == "lib.shop.Store"
    # On a name asserted not null: the method of the name's declared type.
    assert edges[("lib.shop.Store.stock", "open", 15)] == "lib.shop.Shelf.open"


def test_dart_classes_inherit_their_superclass_mixins_and_interfaces():
    edges = edge_targets({"lib/src/cart.dart": CART, "lib/src/item.dart": "class Item {}\n"}, "inherits")

    assert edges == {
        ("lib.src.cart.Cart", "Base", 7): "lib.src.cart.Base",
        ("lib.src.cart.Cart", "Priced", 7): "lib.src.cart.Priced",
        ("lib.src.cart.Cart", "Comparable", 7): None,
        ("lib.src.cart.Priced", "Base", 37): "lib.src.cart.Base",
    }


def test_dart_imports_exports_and_parts_reach_the_files_they_name():
    edges = edge_targets({
        "pubspec.yaml": "name: shop\ndescription: A shop.\n",
        "lib/shop.dart": (
            "import 'dart:async';\n"
            "import 'package:shop/src/cart.dart' as cart;\n"
            "import '../tool/item.dart';\n"
            "import 'package:http/http.dart';\n"
            "export 'src/cart.dart';\n"
            "part 'shop.g.dart';\n"
        ),
        "lib/src/cart.dart": "class Cart {}\n",
        "lib/shop.g.dart": "part of 'shop.dart';\n\nclass ShopGenerated {}\n",
        "tool/item.dart": "class Item {}\n",
    }, "imports")

    assert {(src, raw, line): dst for (src, raw, line), dst in edges.items() if src == "lib.shop"} == {
        # The SDK's and pub.dev's packages are not the repository's.
        ("lib.shop", "dart:async", 1): None,
        # package:shop/ is the lib/ folder of the package whose pubspec.yaml names it shop.
        ("lib.shop", "package:shop/src/cart.dart", 2): "lib.src.cart",
        ("lib.shop", "../tool/item.dart", 3): "tool.item",
        ("lib.shop", "package:http/http.dart", 4): None,
        ("lib.shop", "src/cart.dart", 5): "lib.src.cart",
        ("lib.shop", "shop.g.dart", 6): "lib.shop.g",
    }


def test_dart_programs_shelf_router_routes_and_args_commands_are_entrypoints():
    found = _entries({
        "bin/server.dart": (
            "import 'package:shelf/shelf.dart';\n"
            "import 'package:shelf_router/shelf_router.dart';\n"
            "\n"
            "final _router = Router()\n"
            "  ..get('/', _root)\n"
            "  ..post('/echo/<message>', _echo);\n"
            "\n"
            "Response _root(Request request) => Response.ok('hello');\n"
            "Response _echo(Request request, String message) => Response.ok(message);\n"
            "\n"
            "class UsersApi {\n"
            "  Router get router {\n"
            "    final router = Router();\n"
            "    router.get('/users/<id>', _user);\n"
            "    router.delete('/users/<id>', (Request request, String id) => Response.ok(id));\n"
            "    return router;\n"
            "  }\n"
            "\n"
            "  @Route.put('/users/<id>')\n"
            "  Response _update(Request request, String id) => Response.ok(id);\n"
            "\n"
            "  Response _user(Request request, String id) => Response.ok(id);\n"
            "}\n"
            "\n"
            "void main(List<String> args) async {\n"
            "  await serve(_router.call, 'localhost', 8080);\n"
            "}\n"
        ),
        # A client's calls in a file that does not import shelf_router are no routes.
        "lib/client.dart": "void load(Dio dio) {\n  dio.get('/users/1', options);\n}\n",
        "lib/main.dart": "import 'package:flutter/material.dart';\n\nvoid main() => runApp(const App());\n",
        "lib/src/commands/commit.dart": (
            "import 'package:args/command_runner.dart';\n"
            "\n"
            "class CommitCommand extends Command<int> {\n"
            "  @override\n"
            "  final name = 'commit';\n"
            "}\n"
            "\n"
            "class PushCommand extends ToolCommand {\n"
            "  @override\n"
            "  String get name => 'push';\n"
            "}\n"
        ),
    })

    assert found == {
        ("http_route", "shelf_router", "/", ("GET",), "bin.server._root"),
        ("http_route", "shelf_router", "/echo/<message>", ("POST",), "bin.server._echo"),
        ("http_route", "shelf_router", "/users/<id>", ("GET",), "bin.server.UsersApi._user"),
        ("http_route", "shelf_router", "/users/<id>", ("DELETE",), None),
        ("http_route", "shelf_router", "/users/<id>", ("PUT",), "bin.server.UsersApi._update"),
        ("cli_command", "main", "server", (), "bin.server.main"),
        ("cli_command", "main", "lib", (), "lib.main.main"),
        ("cli_command", "args", "commit", (), "lib.src.commands.commit.CommitCommand"),
        ("cli_command", "args", "push", (), "lib.src.commands.commit.PushCommand"),
    }


def test_dart_frog_route_files_are_routes_served_by_their_on_request():
    handler = "Response onRequest(RequestContext context) {\n  return Response(body: 'hi');\n}\n"
    found = _entries({
        "routes/index.dart": handler,
        "routes/users/index.dart": handler,
        "routes/users/[id].dart": "Future<Response> onRequest(RequestContext context, String id) async {\n  return Response();\n}\n",
        # Middleware, the tests of routes (no entrypoints either), and a Flutter app's own routes/ folder are no routes.
        "routes/_middleware.dart": "Handler middleware(Handler handler) => handler;\n",
        "test/routes/index_test.dart": "void main() {}\n",
        "lib/routes/home.dart": "class HomeRoute {}\n",
    })

    assert found == {
        ("http_route", "dart_frog", "/", (), "routes.index.onRequest"),
        ("http_route", "dart_frog", "/users", (), "routes.users.index.onRequest"),
        ("http_route", "dart_frog", "/users/[id]", (), "routes.users.[id].onRequest"),
    }


def test_dart_test_folders_and_test_files_are_tests():
    assert is_test_file("test/cart_test.dart")
    assert is_test_file("packages/shop/test/helpers/fakes.dart")
    assert is_test_file("integration_test/app_test.dart")
    assert is_test_file("example/integration_test/flows.dart")
    assert is_test_file("lib/src/cart_test.dart")
    assert not is_test_file("lib/src/cart.dart")
    assert not is_test_file("lib/src/testing.dart")
