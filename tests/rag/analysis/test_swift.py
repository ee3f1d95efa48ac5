"""Swift as its users write it: types and their extensions, calls across a module's files, Vapor, argument parser."""

from __future__ import annotations

from rag.analysis.languages.spec import is_test_file, written_name
from rag.analysis.repository import analyze_repository
from tests.rag.analysis.readings import edge_targets, entrypoint_rows


def _entries(files: dict[str, str]) -> set[tuple]:
    """(kind, framework, route or command, methods, handler, handler as written) of every entrypoint in ``files``."""
    return entrypoint_rows(files, "entry_type", "framework", "route_or_command", "methods", "handler", "handler_raw")


_CART = (
    "import Foundation\n\n"
    "/// A shopping cart.\n/// Holds the items a customer picked.\npublic struct Cart: Priced, Codable {\n"
    "    /** The items, in the order they were added. */\n    let items: [Item]\n"
    "    static let empty = Cart(items: [])\n\n"
    "    init(items: [Item]) { self.items = items }\n\n"
    "    func price() -> Int { total() }\n}\n\n"
    "protocol Priced {\n    func price() -> Int\n    var currency: String { get }\n}\n\n"
    "enum Size { case small, large\n    func label() -> String { \"\" }\n}\n\n"
    "final class Basket: NSObject {}\n\ntypealias Items = [Item]\n\nfunc makeCart() -> Cart { Cart.empty }\n"
)
_CART_TOTAL = (
    "extension Cart: CustomStringConvertible {\n    /// The sum of the items' prices.\n"
    "    func total() -> Int { items.count }\n\n    var description: String { \"cart\" }\n}\n"
)


def test_types_members_and_extension_members_are_symbols_named_by_the_module_folder_with_their_docs():
    analysis = analyze_repository({"Sources/Shop/Cart.swift": _CART, "Sources/Shop/Cart+Total.swift": _CART_TOTAL})
    symbols = {symbol.qname: symbol for file in analysis.files.values() for symbol in file.symbols}

    assert {(symbol.kind, qname) for qname, symbol in symbols.items()} == {
        ("class", "Sources.Shop.Cart"), ("const", "Sources.Shop.Cart.items"), ("const", "Sources.Shop.Cart.empty"),
        ("method", "Sources.Shop.Cart.init"), ("method", "Sources.Shop.Cart.price"),
        ("class", "Sources.Shop.Priced"), ("method", "Sources.Shop.Priced.price"), ("const", "Sources.Shop.Priced.currency"),
        ("class", "Sources.Shop.Size"), ("method", "Sources.Shop.Size.label"), ("class", "Sources.Shop.Basket"),
        ("class", "Sources.Shop.Items"), ("function", "Sources.Shop.makeCart"),
        # An extension is no symbol: its members are the extended type's.
        ("method", "Sources.Shop.Cart.total"), ("const", "Sources.Shop.Cart.description"),
    }
    cart, total = symbols["Sources.Shop.Cart"], symbols["Sources.Shop.Cart.total"]
    assert cart.docstring == "A shopping cart.\nHolds the items a customer picked."
    assert cart.signature == "public struct Cart: Priced, Codable"
    assert symbols["Sources.Shop.Cart.items"].docstring == "The items, in the order they were added."
    assert (total.docstring, total.parent, total.path) == (
        "The sum of the items' prices.", "Sources.Shop.Cart", "Sources/Shop/Cart+Total.swift"
    )
    # As Swift writes it: the type and its member, the module being the folder.
    assert written_name(total.qname, total.module, total.path, total.kind) == "Cart.total"


def test_a_type_inherits_its_superclass_and_the_protocols_it_and_its_extensions_conform_to():
    analysis = analyze_repository({"Sources/Shop/Cart.swift": _CART, "Sources/Shop/Cart+Total.swift": _CART_TOTAL})
    inherits = {
        (edge.src, edge.raw, edge.dst) for file in analysis.files.values() for edge in file.edges if edge.kind == "inherits"
    }

    assert inherits == {
        ("Sources.Shop.Cart", "Priced", "Sources.Shop.Priced"),
        ("Sources.Shop.Cart", "Codable", None),
        ("Sources.Shop.Cart", "CustomStringConvertible", None),
        ("Sources.Shop.Basket", "NSObject", None),
    }


def test_calls_resolve_across_the_module_by_declared_types_self_static_calls_and_initializers():
    calls = edge_targets({
        "Sources/Shop/Cart.swift": _CART,
        "Sources/Shop/Cart+Total.swift": _CART_TOTAL,
        "Sources/Shop/Store.swift": (
            "import Foundation\n\nfinal class Store {\n    static func shared() -> Store { Store() }\n\n"
            "    func save(_ cart: Cart) {}\n}\n"
        ),
        "Sources/Shop/Checkout/Checkout.swift": (
            "struct Checkout {\n    let store: Store\n\n"
            "    func run(cart: Cart, backup: Store?) {\n"
            "        let local = Store()\n"
            "        local.save(cart)\n"
            "        backup?.save(cart)\n"
            "        self.store.save(cart)\n"
            "        Store.shared().save(cart)\n"
            "        let made = makeCart()\n"
            "        _ = made.total()\n"
            "        self.finish()\n"
            "        finish()\n"
            "        print(cart.price())\n"
            "    }\n\n    private func finish() {}\n}\n"
        ),
    })
    run = "Sources.Shop.Checkout.Checkout.run"

    assert calls[(run, "Store", 5)] == "Sources.Shop.Store"
    assert calls[(run, "save", 6)] == "Sources.Shop.Store.save"
    assert calls[(run, "save", 7)] == "Sources.Shop.Store.save"
    assert calls[(run, "save", 8)] == "Sources.Shop.Store.save"
    assert calls[(run, "shared", 9)] == "Sources.Shop.Store.shared"
    assert calls[(run, "makeCart", 10)] == "Sources.Shop.makeCart"
    # An extension's method, on what a function of another file returns.
    assert calls[(run, "total", 11)] == "Sources.Shop.Cart.total"
    assert calls[(run, "finish", 12)] == "Sources.Shop.Checkout.Checkout.finish"
    assert calls[(run, "finish", 13)] == "Sources.Shop.Checkout.Checkout.finish"
    assert calls[(run, "print", 14)] is None
    # A protocol's requirement and its implementation share the name: the declared type's.
    assert calls[(run, "price", 14)] == "Sources.Shop.Cart.price"
    # A static member's initializer and an extension's call of its type's member.
    assert calls[("Sources.Shop.Cart.empty", "Cart", 8)] == "Sources.Shop.Cart"
    assert calls[("Sources.Shop.Cart.price", "total", 12)] == "Sources.Shop.Cart.total"


def test_a_main_type_main_swift_and_argument_parser_commands_are_programs_and_commands():
    found = _entries({
        "Sources/hello/main.swift": "import Foundation\n\nlet greeting = \"hi\"\nprint(greeting)\n",
        "Sources/server/Entrypoint.swift": (
            "import Vapor\n\n@main\nenum Entrypoint {\n    static func main() async throws {\n"
            "        let app = try await Application.make()\n    }\n}\n"
        ),
        "App/iOS/ShopApp.swift": "import SwiftUI\n\n@main\nstruct ShopApp: App {\n    var body: some Scene { WindowGroup { Text(\"x\") } }\n}\n",
        "Sources/math/Math.swift": (
            "import ArgumentParser\n\nstruct Math: ParsableCommand {\n"
            "    static let configuration = CommandConfiguration(commandName: \"math\", abstract: \"Math.\")\n\n"
            "    struct Add: ParsableCommand {\n        mutating func run() {}\n    }\n}\n"
        ),
        # The package's manifest and a playground are no programs, whatever code they hold.
        "Package.swift": "// swift-tools-version:5.9\nimport PackageDescription\n\nlet package = Package(name: \"x\")\npackage.targets.append(x)\n",
        "Sources/Shop/Shop.playground/Contents.swift": "import Foundation\n\nprint(1)\n",
        "Sources/Shop/Cart.swift": _CART,
    })

    assert found == {
        ("cli_command", "main", "hello", (), None, "block at Sources/hello/main.swift:1"),
        ("cli_command", "main", "server", (), "Sources.server.Entrypoint.main", "main"),
        ("cli_command", "main", "iOS", (), "App.iOS.ShopApp", "main"),
        ("cli_command", "argument-parser", "math", (), "Sources.math.Math", "Sources.math.Math"),
        ("cli_command", "argument-parser", "add", (), "Sources.math.Math.Add", "Sources.math.Math.Add"),
    }


_ROUTES = (
    "import Vapor\n\n"
    "func routes(_ app: Application) throws {\n"
    "    app.get { req in \"It works!\" }\n"
    "    app.get(\"hello\", \":name\") { req async throws -> String in\n        \"Hello\"\n    }\n"
    "    app.post(\"api\", \"users\", \":id\", use: update)\n"
    "    app.group(\"admin\") { admin in\n"
    "        admin.get(use: dashboard)\n"
    "        admin.delete(\"users\", \":id\", use: remove)\n"
    "    }\n"
    "    try app.register(collection: TodoController())\n"
    "    app.on(.POST, \"upload\", \":name\", body: .stream) { req in \"\" }\n"
    "    let response = try await req.client.get(\"https://example.com\")\n"
    "}\n\n"
    "func update(req: Request) -> String { \"\" }\n\nfunc dashboard(req: Request) -> String { \"\" }\n\n"
    "func remove(req: Request) -> String { \"\" }\n"
)
_TODOS = (
    "import Vapor\n\nstruct TodoController: RouteCollection {\n"
    "    func boot(routes: RoutesBuilder) throws {\n"
    "        routes.get(\"todos\", use: self.index)\n"
    "        routes.group(\"todos\", \":todoID\") { todo in\n            todo.delete(use: delete)\n        }\n    }\n\n"
    "    func index(req: Request) async throws -> [Todo] { [] }\n\n"
    "    func delete(req: Request) async throws -> HTTPStatus { .ok }\n}\n"
)


def test_vapor_routes_join_their_path_components_under_their_groups_prefix():
    found = _entries({"Sources/App/routes.swift": _ROUTES, "Sources/App/Controllers/TodoController.swift": _TODOS})
    todos = "Sources.App.Controllers.TodoController"

    assert {(route, methods, handler, written) for _, _, route, methods, handler, written in found} == {
        ("/", ("GET",), None, "block at Sources/App/routes.swift:4"),
        ("/hello/:name", ("GET",), None, "block at Sources/App/routes.swift:5"),
        ("/api/users/:id", ("POST",), "Sources.App.update", "update"),
        ("/admin", ("GET",), "Sources.App.dashboard", "dashboard"),
        ("/admin/users/:id", ("DELETE",), "Sources.App.remove", "remove"),
        ("/upload/:name", ("POST",), None, "block at Sources/App/routes.swift:14"),
        ("/todos", ("GET",), f"{todos}.index", "index"),
        ("/todos/:todoID", ("DELETE",), f"{todos}.delete", "delete"),
    }
    assert {framework for _, framework, *_ in found} == {"vapor"}


def test_vapor_routes_called_on_a_group_bound_to_a_name_are_under_its_prefix():
    found = _entries({
        "Sources/App/Controllers/TodoController.swift": (
            "import Vapor\n\nstruct TodoController: RouteCollection {\n"
            "    func boot(routes: RoutesBuilder) throws {\n"
            "        let todos = routes.grouped(\"todos\")\n        todos.get(use: index)\n"
            "        let todo = todos.grouped(\":todoID\")\n        todo.get(\"items\", use: items)\n    }\n\n"
            "    func index(req: Request) async throws -> [Todo] { [] }\n\n"
            "    func items(req: Request) async throws -> [Item] { [] }\n}\n"
        ),
    })
    todos = "Sources.App.Controllers.TodoController"

    assert {(route, methods, handler) for _, _, route, methods, handler, _ in found} == {
        ("/todos", ("GET",), f"{todos}.index"),
        ("/todos/:todoID/items", ("GET",), f"{todos}.items"),
    }


def test_a_vapor_group_made_on_a_group_bound_to_a_name_is_under_both_prefixes():
    # Vapor's template: the closure's routes serve /todos/:todoID.
    found = _entries({
        "Sources/App/Controllers/TodoController.swift": (
            "import Vapor\n\nstruct TodoController: RouteCollection {\n"
            "    func boot(routes: RoutesBuilder) throws {\n"
            "        let todos = routes.grouped(\"todos\")\n        todos.get(use: index)\n"
            "        todos.group(\":todoID\") { todo in\n            todo.delete(use: delete)\n"
            "            todo.group(\"items\") { items in\n                items.get(use: index)\n            }\n        }\n    }\n\n"
            "    func index(req: Request) async throws -> [Todo] { [] }\n\n"
            "    func delete(req: Request) async throws -> HTTPStatus { .ok }\n}\n"
        ),
    })
    todos = "Sources.App.Controllers.TodoController"

    assert {(route, methods, handler) for _, _, route, methods, handler, _ in found} == {
        ("/todos", ("GET",), f"{todos}.index"),
        ("/todos/:todoID", ("DELETE",), f"{todos}.delete"),
        ("/todos/:todoID/items", ("GET",), f"{todos}.index"),
    }


def test_vapor_routes_called_on_groups_made_in_place_or_of_several_components_are_under_every_prefix():
    found = _entries({
        "Sources/App/routes.swift": (
            "import Vapor\n\nfunc routes(_ app: Application) throws {\n"
            "    app.grouped(\"api\").grouped(\"v1\").get(\"users\", use: listUsers)\n"
            "    let v2 = app.grouped(\"api\", \"v2\")\n    v2.get(\"users\", use: listUsers)\n"
            "    let admin = app.grouped(\"admin\").grouped(\"tools\")\n    admin.post(\"reindex\", use: reindex)\n"
            "    let protected = app.grouped(\"me\").grouped(User.guardMiddleware())\n    protected.get(use: listUsers)\n}\n\n"
            "func listUsers(req: Request) async throws -> [String] { [] }\n\n"
            "func reindex(req: Request) async throws -> HTTPStatus { .ok }\n"
        ),
    })

    assert {(route, methods, handler) for _, _, route, methods, handler, _ in found} == {
        ("/api/v1/users", ("GET",), "Sources.App.listUsers"),
        ("/api/v2/users", ("GET",), "Sources.App.listUsers"),
        ("/admin/tools/reindex", ("POST",), "Sources.App.reindex"),
        ("/me", ("GET",), "Sources.App.listUsers"),
    }


def test_vapor_like_calls_are_routes_only_in_a_file_that_imports_a_server_framework():
    found = _entries({
        "Sources/App/Cache.swift": "import Foundation\n\nfunc warm(cache: Cache) {\n    cache.get(\"users\") { value in }\n}\n",
        "Sources/App/routes.swift": "import Hummingbird\n\nfunc build(router: Router) {\n    router.get(\"health\") { _, _ in \"ok\" }\n}\n",
    })

    assert found == {("http_route", "hummingbird", "/health", ("GET",), None, "block at Sources/App/routes.swift:4")}


def test_swiftpm_and_xcode_test_files_are_tests():
    assert is_test_file("Tests/AppTests/AppTests.swift")
    assert is_test_file("ShopTests/CartTests.swift")
    assert is_test_file("ShopUITests/LaunchUITests.swift")
    assert is_test_file("Sources/Shop/CartTest.swift")
    assert not is_test_file("Sources/Shop/Cart.swift")
    assert not is_test_file("Sources/Testing/Latest.swift")
