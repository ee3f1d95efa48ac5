"""Kotlin and C# as their users write them: generics, members, extension functions, test projects."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from rag.analysis.repository import analyze_repository
from rag.services.graph import declared_kind
from tests.rag.analysis.readings import edge_targets, entrypoint_rows


def test_csharp_generic_calls_and_constructors_are_resolved_by_their_type():
    calls = edge_targets({
        "Shop/Ledger.cs": (
            "namespace Shop.Core;\n\npublic class Ledger<T>\n{\n    public void Add<U>(U item) { }\n}\n\n"
            "public class Money { }\n"
        ),
        "Shop/Store.cs": "namespace Shop;\n\npublic class Store\n{\n    public void Add<U>(U item) { }\n}\n",
        "Shop/Cart.cs": (
            "using Shop.Core;\n\nnamespace Shop;\n\npublic class Cart\n{\n"
            "    private readonly Ledger<int> _ledger = new Ledger<int>();\n\n"
            "    public Money Total()\n    {\n"
            "        _ledger.Add<int>(3);\n"
            "        Make<int>();\n"
            "        return new Shop.Core.Money();\n    }\n\n"
            "    static T Make<T>() => default;\n}\n"
        ),
    })

    assert calls[("Shop.Cart", "Ledger", 7)] == "Shop.Core.Ledger"
    assert calls[("Shop.Cart.Total", "Add", 11)] == "Shop.Core.Ledger.Add"
    assert calls[("Shop.Cart.Total", "Make", 12)] == "Shop.Cart.Make"
    assert calls[("Shop.Cart.Total", "Money", 13)] == "Shop.Core.Money"


def _symbols(files: dict[str, str]) -> set[tuple[str, str]]:
    analysis = analyze_repository(files)
    return {(symbol.kind, symbol.qname) for file in analysis.files.values() for symbol in file.symbols}


def test_csharp_properties_constants_delegates_and_local_functions_are_symbols():
    symbols = _symbols({
        "Shop/Cart.cs": (
            "namespace Shop;\n\npublic record Order(int Id, string Name);\n\npublic delegate void Changed(Cart cart);\n\n"
            "public class Cart\n{\n    public const int Max = 10;\n    private int _count;\n"
            "    /// <summary>How many items.</summary>\n    public int Count { get; set; }\n\n"
            "    public int Total()\n    {\n        int Twice(int y) => y * 2;\n        var local = 1;\n"
            "        return Twice(local);\n    }\n}\n"
        ),
    })

    assert symbols == {
        ("class", "Shop.Order"), ("const", "Shop.Order.Id"), ("const", "Shop.Order.Name"),
        ("class", "Shop.Changed"),
        ("class", "Shop.Cart"), ("const", "Shop.Cart.Max"), ("const", "Shop.Cart.Count"),
        ("method", "Shop.Cart.Total"), ("function", "Shop.Cart.Total.Twice"),
    }


def test_kotlin_properties_and_type_aliases_are_symbols_and_locals_are_not():
    symbols = _symbols({
        "src/main/kotlin/com/shop/Cart.kt": (
            "package com.shop\n\ntypealias Items = List<Int>\n\nval emptyCart = Cart(emptyList(), \"\")\n\n"
            "data class Cart(val items: Items, private var owner: String, note: String) {\n"
            "    /** The sum of the items. */\n    val total: Int get() = items.sum()\n\n"
            "    fun add(x: Int): Cart {\n        val next = items + x\n        return copy(items = next)\n    }\n\n"
            "    companion object {\n        const val MAX = 10\n    }\n}\n"
        ),
    })

    assert symbols == {
        ("class", "com.shop.Items"), ("const", "com.shop.emptyCart"),
        ("class", "com.shop.Cart"), ("const", "com.shop.Cart.items"), ("const", "com.shop.Cart.owner"),
        ("const", "com.shop.Cart.total"), ("method", "com.shop.Cart.add"), ("const", "com.shop.Cart.MAX"),
    }


def test_type_aliases_and_delegates_are_shown_as_such():
    assert declared_kind("class", "typealias Items = List<Int>") == "type"
    assert declared_kind("class", "public typealias Handler = suspend () -> Unit") == "type"
    assert declared_kind("class", "public delegate void Changed(Cart cart);") == "delegate"


def test_properties_are_shown_as_properties_and_constants_as_constants():
    properties = ["public int Count", "int Id", "val total: Int get() = items.sum()", "private var owner: String",
                  "public val Compression: RouteScopedPlugin<CompressionConfig> = createRouteScopedPlugin(",
                  "private ?Foo $foo = null;"]
    constants = ["const val MAX = 10", "public const int Max = 10;", "MAX_SIZE = 10", "export const API_URL = 'x'"]

    assert [declared_kind("const", signature) for signature in properties] == ["property"] * len(properties)
    assert [declared_kind("const", signature) for signature in constants] == ["const"] * len(constants)


def test_a_property_is_no_call_target_nor_a_scope_of_the_functions_in_its_value():
    files = {
        "src/main/kotlin/com/shop/Client.kt": (
            "package com.shop\n\nclass Client {\n    val plugins: List<String> = listOf()\n"
            "    val logger = object : Logger {\n        override fun trace(message: String) {}\n    }\n}\n"
        ),
        "build.gradle.kts": "plugins {\n    kotlin(\"jvm\")\n}\n",
    }

    assert ("method", "com.shop.Client.trace") in _symbols(files)
    assert edge_targets(files)[("build.gradle", "plugins", 1)] is None


def test_kotlin_extension_functions_are_called_on_their_type_and_call_its_members_bare():
    calls = edge_targets({
        "src/main/kotlin/com/shop/routing/Route.kt": (
            "package com.shop.routing\n\ninterface Route {\n    fun createChild(path: String): Route\n}\n\n"
            "class Routing : Route {\n    override fun createChild(path: String): Route = this\n}\n"
        ),
        "src/main/kotlin/com/shop/routing/Builders.kt": (
            "package com.shop.routing\n\n"
            "fun Route.route(path: String, build: Route.() -> Unit): Route = createChild(path)\n\n"
            "fun Route.get(path: String): Route = route(path) { }\n"
        ),
        "src/main/kotlin/com/shop/other/Labels.kt": "package com.other\n\nfun com.shop.routing.Route.label(): String = \"\"\n",
        "src/main/kotlin/com/shop/app/Application.kt": (
            "package com.shop.app\n\nimport com.shop.routing.Routing\nimport com.shop.routing.get\n\n"
            "fun module(routing: Routing) {\n    routing.get(\"/x\")\n    routing.label()\n}\n"
        ),
    })

    assert calls[("com.shop.routing.route", "createChild", 3)] == "com.shop.routing.Route.createChild"
    assert calls[("com.shop.routing.get", "route", 5)] == "com.shop.routing.route"
    assert calls[("com.shop.app.module", "get", 7)] == "com.shop.routing.get"
    # An extension the caller does not import is not the one called.
    assert calls[("com.shop.app.module", "label", 8)] is None


def test_csharp_extension_methods_are_called_on_the_type_they_extend():
    calls = edge_targets({
        "Shop/ServiceCollectionExtensions.cs": (
            "namespace Microsoft.Extensions.DependencyInjection;\n\npublic static class ServiceCollectionExtensions\n{\n"
            "    public static IServiceCollection AddShop(this IServiceCollection services) => services;\n}\n"
        ),
        "Shop/Carts.cs": "namespace Shop;\n\npublic static class Carts\n{\n    public static int AddShop(this Cart cart) => 1;\n}\n",
        "App/Startup.cs": (
            "using Microsoft.Extensions.DependencyInjection;\n\nnamespace App;\n\npublic class Startup\n{\n"
            "    public void Configure(IServiceCollection services)\n    {\n        services.AddShop();\n    }\n\n"
            "    public void Build()\n    {\n        var services = new ServiceCollection();\n        services.AddShop();\n    }\n}\n"
        ),
    })
    extension = "Microsoft.Extensions.DependencyInjection.ServiceCollectionExtensions.AddShop"

    assert calls[("App.Startup.Configure", "AddShop", 9)] == extension
    # A library's class whose interfaces are not known here: the extension on a library's type, not the Cart's.
    assert calls[("App.Startup.Build", "AddShop", 15)] == extension


_INHERITED_CALL = """
import json
from rag.analysis.repository import analyze_repository

analysis = analyze_repository({
    "Shop/IMapper.cs": "namespace Shop;\\npublic interface IMapper\\n{\\n    int Map(object source);\\n}\\n",
    "Shop/Mapper.cs": (
        "namespace Shop;\\ninternal interface IRuntimeMapper\\n{\\n    int Map(object source, object destination);\\n}\\n"
        "public class Mapper : IMapper, IRuntimeMapper\\n{\\n    public int Run(object source) => Map(source, null);\\n}\\n"
    ),
})
print(json.dumps([edge.dst for edge in analysis.files["Shop/Mapper.cs"].edges if edge.raw == "Map"]))
"""


def test_a_method_two_bases_have_is_the_nearest_bases_whatever_the_hash_seed():
    # The order of a set of names changes with the hash seed: each run is a process of its own.
    found = set()
    for seed in range(6):
        environment = {**os.environ, "PYTHONHASHSEED": str(seed)}
        result = subprocess.run(
            [sys.executable, "-c", _INHERITED_CALL], capture_output=True, text=True, check=True, env=environment,
            cwd=Path(__file__).resolve().parents[3],
        )
        found.add(tuple(json.loads(result.stdout)))

    assert found == {("Shop.IRuntimeMapper.Map",)}


def _entries(files: dict[str, str]) -> set[tuple[str, str, tuple[str, ...], str | None, str]]:
    """(kind, route or command, methods, handler, handler as written) of every entrypoint found in ``files``."""
    analysis = analyze_repository(files)
    return {
        (entry.entry_type, entry.route_or_command, entry.methods, entry.handler, entry.handler_raw)
        for file in analysis.files.values()
        for entry in file.entrypoints
    }


def test_csharp_top_level_statements_are_a_program_and_minimal_api_lambdas_their_routes_handlers():
    found = _entries({
        "src/Shop.Api/Program.cs": (
            "var builder = WebApplication.CreateBuilder(args);\nvar app = builder.Build();\n\n"
            "app.MapGet(\"/health\", () => \"ok\");\napp.MapPost(\"/orders\", CreateOrder);\n\napp.Run();\n\n"
            "static string CreateOrder() => \"x\";\n"
        ),
    })

    assert found == {
        ("cli_command", "Shop.Api", (), None, "block at src/Shop.Api/Program.cs:1"),
        ("http_route", "/health", ("GET",), None, "block at src/Shop.Api/Program.cs:4"),
        ("http_route", "/orders", ("POST",), "src.Shop.Api.Program.CreateOrder", "CreateOrder"),
    }


def test_aspnet_minimal_api_routes_called_on_a_route_group_are_under_its_prefix():
    found = _entries({
        "src/Ordering.API/Apis/OrdersApi.cs": (
            "namespace Shop.Ordering;\n\npublic static class OrdersApi\n{\n"
            "    public static RouteGroupBuilder MapOrdersApi(this IEndpointRouteBuilder app)\n    {\n"
            "        var api = app.MapGroup(\"api/orders\").HasApiVersion(1.0);\n"
            "        var admin = api.MapGroup(\"/admin\");\n"
            "        api.MapGet(\"{orderId:int}\", GetOrder);\n"
            "        admin.MapPost(\"/refunds\", Refund);\n"
            "        api.MapMethods(\"/check\", [HttpMethods.Options], () => 1);\n"
            "        app.MapGroup(\"api/v2/orders\").MapGet(\"{orderId:int}\", GetOrder);\n"
            "        return api;\n    }\n\n"
            "    public static int GetOrder(int orderId) => orderId;\n\n    public static int Refund() => 0;\n}\n"
        ),
    })

    assert {(route, handler, written) for _, route, _, handler, written in found} == {
        ("/api/orders/{orderId:int}", "Shop.Ordering.OrdersApi.GetOrder", "GetOrder"),
        ("/api/orders/admin/refunds", "Shop.Ordering.OrdersApi.Refund", "Refund"),
        ("/api/orders/check", None, "block at src/Ordering.API/Apis/OrdersApi.cs:11"),
        # A group called on in place.
        ("/api/v2/orders/{orderId:int}", "Shop.Ordering.OrdersApi.GetOrder", "GetOrder"),
    }


def test_ktor_routes_are_handled_by_their_blocks():
    found = _entries({
        "src/main/kotlin/com/shop/Application.kt": (
            "package com.shop\n\nfun Application.module() {\n    routing {\n"
            "        get(\"/health\") { call.respondText(\"ok\") }\n        post { }\n"
            "        route(\"/items\") {\n            get(\"{id}\") { call.respondText(\"item\") }\n        }\n    }\n}\n"
        ),
    })

    assert found == {
        ("http_route", "/health", ("GET",), None, "block at src/main/kotlin/com/shop/Application.kt:5"),
        ("http_route", "/items/{id}", ("GET",), None, "block at src/main/kotlin/com/shop/Application.kt:8"),
    }


def test_aspnet_route_tokens_are_the_controllers_and_actions_names():
    found = _entries({
        "Shop/Controllers/OrdersController.cs": (
            "namespace Shop.Controllers;\n\n[ApiController]\n[Route(\"api/[controller]\")]\n"
            "public class OrdersController : ControllerBase\n{\n"
            "    [HttpGet(\"{id}\")]\n    public int Get(int id) => id;\n\n"
            "    [Route(\"[action]\")]\n    public int Ping() => 0;\n}\n"
        ),
    })

    assert found == {
        ("http_route", "/api/Orders/{id}", ("GET",), "Shop.Controllers.OrdersController.Get", "HttpGet"),
        ("http_route", "/api/Orders/Ping", (), "Shop.Controllers.OrdersController.Ping", ""),
    }


def test_csharp_xml_docs_keep_what_each_parameter_is_about():
    analysis = analyze_repository({
        "Shop/ISender.cs": (
            "namespace Shop;\n\npublic interface ISender\n{\n    /// <summary>\n    /// Sends a request to a single handler\n"
            "    /// </summary>\n    /// <typeparam name=\"TResponse\">Response type</typeparam>\n"
            "    /// <param name=\"request\">Request object</param>\n"
            "    /// <exception cref=\"ArgumentNullException\">When <paramref name=\"request\"/> is null</exception>\n"
            "    /// <returns>The handler's response</returns>\n"
            "    Task<TResponse> Send<TResponse>(IRequest<TResponse> request);\n}\n"
        ),
    })
    (send,) = [symbol for symbol in analysis.files["Shop/ISender.cs"].symbols if symbol.name == "Send"]

    assert send.docstring == (
        "Sends a request to a single handler\nTResponse: Response type\nrequest: Request object\n"
        "ArgumentNullException: When request is null\nThe handler's response"
    )


def test_a_kotlin_import_through_a_companion_object_is_of_its_classs_member():
    analysis = analyze_repository({
        "src/main/kotlin/com/shop/Cart.kt": (
            "package com.shop\n\nclass Cart {\n    companion object {\n        fun empty(): Cart = Cart()\n    }\n}\n"
        ),
        "src/main/kotlin/com/shop/app/Main.kt": "package com.shop.app\n\nimport com.shop.Cart.Companion.empty\n\nfun main() { empty() }\n",
    })
    edges = {(edge.kind, edge.raw): edge.dst for edge in analysis.files["src/main/kotlin/com/shop/app/Main.kt"].edges}

    assert edges[("imports", "com.shop.Cart.Companion.empty")] == "com.shop.Cart.empty"
    assert edges[("calls", "empty")] == "com.shop.Cart.empty"


def test_one_line_properties_are_read_with_the_code_around_them_not_as_chunks_of_their_own():
    members = "".join(f"    val field{index}: Int = {index}\n" for index in range(130))
    analysis = analyze_repository({
        "src/main/kotlin/com/shop/Cart.kt": (
            "package com.shop\n\nval first = 1\nval second = 2\n\n"
            "val plugin = createPlugin(\"cart\") {\n    onCall { }\n}\n\n"
            f"class Cart(val id: String) {{\n{members}    fun total(): Int = 0\n}}\n"
        ),
    })
    titles = [chunk.title for chunk in analysis.files["src/main/kotlin/com/shop/Cart.kt"].chunks]

    assert "first" not in titles and "second" not in titles and "Cart.field0" not in titles and "Cart.id" not in titles
    assert "plugin" in titles and "Cart.total" in titles


def test_a_csharp_local_declared_with_an_interface_and_built_by_a_class_has_the_interfaces_methods():
    calls = edge_targets({
        "Shop/Stores.cs": (
            "namespace Shop;\n\npublic interface IStore\n{\n    int Load();\n}\n\n"
            "public class Store : IStore\n{\n    public int Load() => 1;\n}\n\n"
            "public class Cache\n{\n    public int Load() => 2;\n}\n"
        ),
        "Shop/Cart.cs": (
            "namespace Shop;\n\npublic class Cart\n{\n    public int Total()\n    {\n"
            "        IStore store = new Store();\n        return store.Load();\n    }\n}\n"
        ),
    })

    assert calls[("Shop.Cart.Total", "Load", 8)] == "Shop.IStore.Load"


def test_a_kotlin_call_with_no_receiver_reaches_functions_of_its_package_or_its_imports_only():
    calls = edge_targets({
        "src/main/kotlin/com/shop/net/Checks.kt": "package com.shop.net\n\nfun check(value: Boolean) {}\n",
        "src/main/kotlin/com/shop/client/Requests.kt": "package com.shop.client\n\nfun get(url: String) {}\n",
        "src/main/kotlin/com/shop/server/Routes.kt": "package com.shop.server\n\nfun get(path: String) {}\n",
        "src/main/kotlin/com/shop/app/Main.kt": (
            "package com.shop.app\n\nimport com.shop.server.*\n\n"
            "fun main() {\n    check(true)\n    get(\"/x\")\n    File(\"a\")\n}\n"
        ),
        "src/main/kotlin/com/shop/docs/Source.kt": "package com.shop.docs\n\nclass File(val path: String)\n",
    })

    # The standard library's check and java.io's File, not the repository's that the file does not import.
    assert calls[("com.shop.app.main", "check", 6)] is None
    assert calls[("com.shop.app.main", "File", 8)] is None
    # Of two functions of one name, the one whose package the file imports.
    assert calls[("com.shop.app.main", "get", 7)] == "com.shop.server.get"


def test_an_overload_that_calls_another_overload_calls_its_own_name_not_a_bases():
    calls = edge_targets({
        "Shop/Mapper.cs": (
            "namespace Shop;\n\npublic interface IMapper\n{\n    int Map(object source, object destination);\n}\n\n"
            "public class Mapper : IMapper\n{\n"
            "    public int Map(object source) => Map(source, null);\n"
            "    public int Map(object source, object destination) => 0;\n}\n"
        ),
    })

    assert calls[("Shop.Mapper.Map", "Map", 10)] == "Shop.Mapper.Map"


def test_a_csharp_namespace_nested_in_another_names_what_is_inside_it():
    symbols = _symbols({
        "Shop/Orders.cs": (
            "namespace Shop\n{\n    namespace Orders\n    {\n        public class Order { public int Total() { return 0; } }\n    }\n\n"
            "    public class Cart { }\n}\n"
        ),
    })

    assert symbols == {("class", "Shop.Orders.Order"), ("method", "Shop.Orders.Order.Total"), ("class", "Shop.Cart")}


def test_an_aspnet_routes_name_is_not_its_path():
    found = _entries({
        "WebApi/Controllers/WeatherForecastController.cs": (
            "namespace WebApi.Controllers;\n\n[ApiController]\n[Route(\"[controller]\")]\n"
            "public class WeatherForecastController : ControllerBase\n{\n"
            "    [HttpGet(Name = \"GetWeatherForecast\")]\n    public int Get() => 0;\n\n"
            "    [HttpPost(\"{id}\", Name = \"Create\")]\n    public int Create(int id) => id;\n}\n"
        ),
    })

    assert found == {
        ("http_route", "/WeatherForecast", ("GET",), "WebApi.Controllers.WeatherForecastController.Get", "HttpGet"),
        ("http_route", "/WeatherForecast/{id}", ("POST",), "WebApi.Controllers.WeatherForecastController.Create", "HttpPost"),
    }


def test_kotlin_and_java_import_and_call_each_others_classes():
    analysis = analyze_repository({
        "src/main/java/com/shop/Cart.java": (
            "package com.shop;\n\npublic class Cart {\n    public int total() { return 1; }\n"
            "    public static Cart empty() { return new Cart(); }\n}\n"
        ),
        "src/main/java/com/shop/Checkout.java": (
            "package com.shop;\n\nimport com.shop.web.Api;\n\npublic class Checkout extends LibraryBase {\n"
            "    Api api() { return new Api(); }\n    int pay() { return helper(); }\n}\n"
        ),
        "src/main/kotlin/com/shop/web/Api.kt": (
            "package com.shop.web\n\nimport com.shop.Cart\n\nclass Api {\n    fun get(): Int {\n"
            "        val cart = Cart.empty()\n        return cart.total()\n    }\n}\n\nfun helper(): Int = 3\n"
        ),
    })
    edges = {(path, edge.raw): edge.dst for path, file in analysis.files.items() for edge in file.edges}
    api, checkout = "src/main/kotlin/com/shop/web/Api.kt", "src/main/java/com/shop/Checkout.java"
    assert edges[(api, "com.shop.Cart")] == "com.shop.Cart"
    assert edges[(api, "empty")] == "com.shop.Cart.empty" and edges[(api, "total")] == "com.shop.Cart.total"
    assert edges[(checkout, "com.shop.web.Api")] == "com.shop.web.Api" and edges[(checkout, "Api")] == "com.shop.web.Api"
    # Kotlin's top-level ``helper`` is ``ApiKt.helper`` to Java: a bare call of ``helper`` there (a method
    # of the library's base) is not it.
    assert edges[(checkout, "helper")] is None


def test_aspnet_mvc_actions_without_a_route_of_their_own_serve_the_conventional_route():
    found = _entries({
        "Shop/Controllers/HomeController.cs": (
            "namespace Shop.Controllers;\n\npublic class HomeController : Controller\n{\n"
            "    public IActionResult Index() => View();\n\n"
            "    [HttpPost]\n    public async Task<IActionResult> Contact(string text) => View();\n\n"
            "    [HttpGet(\"about-us\")]\n    public IActionResult About() => View();\n\n"
            "    public override void OnActionExecuting(ActionExecutingContext context) { }\n\n"
            "    private IActionResult Hidden() => View();\n}\n"
        ),
        "Shop/Controllers/AdminController.cs": (
            "namespace Shop.Controllers;\n\n[Route(\"admin\")]\npublic class AdminController : ShopController\n{\n"
            "    public ActionResult Dashboard() => View();\n}\n"
        ),
        # An API controller's methods are routed only by their attributes.
        "Shop/Controllers/OrdersController.cs": (
            "namespace Shop.Controllers;\n\n[ApiController]\npublic class OrdersController : ControllerBase\n{\n"
            "    public IActionResult List() => Ok();\n}\n"
        ),
    })

    assert found == {
        ("http_route", "/Home/Index", (), "Shop.Controllers.HomeController.Index", ""),
        ("http_route", "/Home/Contact", ("POST",), "Shop.Controllers.HomeController.Contact", "HttpPost"),
        ("http_route", "/about-us", ("GET",), "Shop.Controllers.HomeController.About", "HttpGet"),
        # Under its class's route (attribute routing), not the conventional one.
        ("http_route", "/admin", (), "Shop.Controllers.AdminController.Dashboard", ""),
    }


def test_an_area_s_mvc_actions_serve_under_the_area():
    found = _entries({
        "Shop/Areas/Admin/Controllers/OrdersController.cs": (
            "namespace Shop.Areas.Admin.Controllers;\n\n[Area(\"Admin\")]\npublic class OrdersController : Controller\n{\n"
            "    public IActionResult Index() => View();\n\n    [HttpPost]\n    public IActionResult Delete(int id) => View();\n}\n"
        ),
        # An area's routes by attribute name it where they say [area].
        "Shop/Areas/Admin/Controllers/ReportsController.cs": (
            "namespace Shop.Areas.Admin.Controllers;\n\n[Area(\"Admin\")]\n[Route(\"[area]/reports/[action]\")]\n"
            "public class ReportsController : Controller\n{\n    public IActionResult Sales() => View();\n}\n"
        ),
        "Shop/Controllers/HomeController.cs": (
            "namespace Shop.Controllers;\n\npublic class HomeController : Controller\n{\n    public IActionResult Privacy() => View();\n}\n"
        ),
    })

    assert found == {
        ("http_route", "/Admin/Orders/Index", (), "Shop.Areas.Admin.Controllers.OrdersController.Index", ""),
        ("http_route", "/Admin/Orders/Delete", ("POST",), "Shop.Areas.Admin.Controllers.OrdersController.Delete", "HttpPost"),
        ("http_route", "/Admin/reports/Sales", (), "Shop.Areas.Admin.Controllers.ReportsController.Sales", ""),
        ("http_route", "/Home/Privacy", (), "Shop.Controllers.HomeController.Privacy", ""),
    }


def test_razor_pages_are_routed_by_their_files_and_their_handlers_say_the_methods():
    found = _entries({
        "Shop/Pages/Index.cshtml.cs": "namespace Shop.Pages;\n\npublic class IndexModel : PageModel\n{\n    public void OnGet() { }\n}\n",
        "Shop/Pages/Products/Edit.cshtml.cs": (
            "namespace Shop.Pages.Products;\n\npublic class EditModel : PageModel\n{\n"
            "    public async Task<IActionResult> OnGetAsync(int id) => Page();\n\n"
            "    public IActionResult OnPostDelete(int id) => Page();\n\n"
            "    private void Load() { }\n}\n"
        ),
        "Shop/Pages/Privacy.cshtml.cs": "namespace Shop.Pages;\n\npublic class PrivacyModel : PageModel { }\n",
        # A page of an area is under the area's name.
        "Shop/Areas/Identity/Pages/Account/Login.cshtml.cs": (
            "namespace Shop.Areas.Identity.Pages.Account;\n\npublic class LoginModel : PageModel\n{\n"
            "    public Task OnPostAsync() => Task.CompletedTask;\n}\n"
        ),
        # Not a page: a class of its own beside the pages.
        "Shop/Pages/Shared/Helpers.cs": "namespace Shop.Pages.Shared;\n\npublic static class Helpers\n{\n    public static void OnGetDone() { }\n}\n",
    })

    assert found == {
        ("http_route", "/", ("GET",), "Shop.Pages.IndexModel.OnGet", "OnGet"),
        ("http_route", "/Products/Edit", ("GET",), "Shop.Pages.Products.EditModel.OnGetAsync", "OnGetAsync"),
        ("http_route", "/Products/Edit", ("POST",), "Shop.Pages.Products.EditModel.OnPostDelete", "OnPostDelete"),
        ("http_route", "/Privacy", ("GET",), None, "default"),
        ("http_route", "/Identity/Account/Login", ("POST",), "Shop.Areas.Identity.Pages.Account.LoginModel.OnPostAsync", "OnPostAsync"),
    }


def test_spring_graphql_and_dgs_operations_are_rpc_services_named_by_type_and_field():
    found = entrypoint_rows(
        {
            "src/main/java/com/shop/BookController.java": (
                "package com.shop;\n\nimport org.springframework.graphql.data.method.annotation.*;\n\n@Controller\n"
                "public class BookController {\n"
                "    @QueryMapping\n    public Book bookById(@Argument String id) { return null; }\n\n"
                "    @QueryMapping(\"books\")\n    public List<Book> all() { return null; }\n\n"
                "    @MutationMapping(name = \"createBook\")\n    public Book addBook(@Argument BookInput input) { return null; }\n\n"
                "    @SchemaMapping(typeName = \"Book\", field = \"author\")\n    public Author writer(Book book) { return null; }\n\n"
                "    @BatchMapping(typeName = \"Book\")\n    public Map<Book, Price> price(List<Book> books) { return null; }\n\n"
                "    public void helper() { }\n}\n"
            ),
            "src/main/java/com/shop/ShowsDataFetcher.java": (
                "package com.shop;\n\nimport com.netflix.graphql.dgs.*;\n\n@DgsComponent\npublic class ShowsDataFetcher {\n"
                "    @DgsQuery\n    public List<Show> shows() { return null; }\n\n"
                "    @DgsSubscription(field = \"showAdded\")\n    public Publisher<Show> added() { return null; }\n\n"
                "    @DgsData(parentType = \"Mutation\", field = \"addShow\")\n    public Show addShow() { return null; }\n}\n"
            ),
            "src/main/kotlin/com/shop/ReviewController.kt": (
                "package com.shop\n\n@Controller\nclass ReviewController {\n"
                "    @QueryMapping\n    fun reviews(@Argument bookId: String): List<Review> = emptyList()\n\n"
                "    @MutationMapping(\"addReview\")\n    fun add(@Argument input: ReviewInput): Review? = null\n\n"
                "    @SchemaMapping(typeName = \"Review\")\n    fun book(review: Review): Book? = null\n}\n"
            ),
        },
        "entry_type", "route_or_command", "handler",
    )

    assert found == {
        ("rpc_service", "Query.bookById", "com.shop.BookController.bookById"),
        ("rpc_service", "Query.books", "com.shop.BookController.all"),
        ("rpc_service", "Mutation.createBook", "com.shop.BookController.addBook"),
        ("rpc_service", "Book.author", "com.shop.BookController.writer"),
        ("rpc_service", "Book.price", "com.shop.BookController.price"),
        ("rpc_service", "Query.shows", "com.shop.ShowsDataFetcher.shows"),
        ("rpc_service", "Subscription.showAdded", "com.shop.ShowsDataFetcher.added"),
        ("rpc_service", "Mutation.addShow", "com.shop.ShowsDataFetcher.addShow"),
        ("rpc_service", "Query.reviews", "com.shop.ReviewController.reviews"),
        ("rpc_service", "Mutation.addReview", "com.shop.ReviewController.add"),
        ("rpc_service", "Review.book", "com.shop.ReviewController.book"),
    }


def test_hot_chocolate_types_public_methods_are_graphql_fields_named_as_hot_chocolate_names_them():
    found = entrypoint_rows(
        {
            "Api/Types/Query.cs": (
                "using HotChocolate;\n\nnamespace Shop.Api.Types;\n\npublic class Query\n{\n"
                "    public Book GetBook(int id) => new Book();\n"
                "    public async Task<IEnumerable<Author>> GetAuthorsAsync([Service] Db db) => db.Authors;\n"
                "    private void Helper() { }\n}\n"
            ),
            "Api/Types/BookMutations.cs": (
                "using HotChocolate.Types;\n\nnamespace Shop.Api.Types;\n\n[MutationType]\npublic static class BookMutations\n{\n"
                "    public static Book AddBook(BookInput input) => new Book();\n}\n"
            ),
            "Api/Types/AuthorQueries.cs": (
                "using HotChocolate.Types;\n\nnamespace Shop.Api.Types;\n\n[ExtendObjectType(OperationTypeNames.Query)]\n"
                "public class AuthorQueries\n{\n    public Author GetAuthorById(int id) => null;\n}\n"
            ),
            # A class named Query in a file that does not use Hot Chocolate.
            "Data/Query.cs": "namespace Shop.Data;\n\npublic class Query\n{\n    public string Sql() => \"\";\n}\n",
        },
        "entry_type", "framework", "route_or_command", "handler",
    )

    assert found == {
        ("rpc_service", "hotchocolate", "Query.book", "Shop.Api.Types.Query.GetBook"),
        ("rpc_service", "hotchocolate", "Query.authors", "Shop.Api.Types.Query.GetAuthorsAsync"),
        ("rpc_service", "hotchocolate", "Mutation.addBook", "Shop.Api.Types.BookMutations.AddBook"),
        ("rpc_service", "hotchocolate", "Query.authorById", "Shop.Api.Types.AuthorQueries.GetAuthorById"),
    }


def test_javalin_and_vertx_routes_and_signalr_hubs():
    found = entrypoint_rows(
        {
            "src/main/java/app/Main.java": (
                "package app;\n\nimport io.javalin.Javalin;\n\npublic class Main {\n    public static void main(String[] args) {\n"
                "        var app = Javalin.create().start(7070);\n        app.get(\"/users/{id}\", UserController::getOne);\n"
                "        app.post(\"/users\", ctx -> ctx.result(\"ok\"));\n        headers.put(\"Content-Type\", type);\n    }\n}\n"
            ),
            "src/main/java/app/UserController.java": (
                "package app;\n\npublic class UserController {\n    public static void getOne(Context ctx) { }\n}\n"
            ),
            "src/main/java/app/Verticle.java": (
                "package app;\n\nimport io.vertx.ext.web.Router;\n\npublic class Verticle extends AbstractVerticle {\n"
                "    public void start() {\n        Router router = Router.router(vertx);\n"
                "        router.get(\"/api/whiskies\").handler(this::getAll);\n        router.route(\"/static/*\").handler(rc -> rc.next());\n"
                "    }\n\n    private void getAll(RoutingContext rc) { }\n}\n"
            ),
            # Without Javalin or Vert.x the same calls are none.
            "src/main/java/app/Cache.java": "package app;\n\nclass Cache {\n    void fill() { map.put(\"/x\", value); }\n}\n",
            "Chat/Program.cs": "var app = WebApplication.CreateBuilder(args).Build();\napp.MapHub<ChatHub>(\"/chat\");\napp.Run();\n",
            "Chat/ChatHub.cs": "namespace Chat;\n\npublic class ChatHub : Hub\n{\n    public Task Send(string message) => Task.CompletedTask;\n}\n",
        },
        "framework", "route_or_command", "methods", "handler", kind="http_route",
    )

    assert found == {
        ("javalin", "/users/{id}", ("GET",), "app.UserController.getOne"),
        ("javalin", "/users", ("POST",), None),
        ("vertx", "/api/whiskies", ("GET",), "app.Verticle.getAll"),
        ("vertx", "/static/*", (), None),
        ("signalr", "/chat", (), "Chat.ChatHub"),
    }


def test_blazor_components_are_routed_at_their_page_directives_and_handled_by_their_class():
    found = entrypoint_rows(
        {
            "Shop/Components/Pages/Counter.razor": (
                "@page \"/counter\"\n@rendermode InteractiveServer\n\n<h1>Counter</h1>\n\n@code {\n    private int count = 0;\n}\n"
            ),
            "Shop/Components/Pages/Counter.razor.cs": "namespace Shop.Components.Pages;\n\npublic partial class Counter\n{\n}\n",
            "Shop/Components/Pages/Product.razor": "@page \"/products/{id:int}\"\n@page \"/item/{id:int}\"\n@namespace Shop.Catalog\n\n<h1>@Id</h1>\n",
            "Shop/Components/Pages/Product.razor.cs": "namespace Shop.Catalog;\n\npublic partial class Product\n{\n}\n",
            # A component without a directive is no page.
            "Shop/Components/Layout/NavMenu.razor": "<nav class=\"nav\"></nav>\n",
        },
        "framework", "route_or_command", "methods", "handler", "start_line", kind="http_route",
    )

    assert found == {
        ("blazor", "/counter", ("GET",), "Shop.Components.Pages.Counter", 1),
        ("blazor", "/products/{id:int}", ("GET",), "Shop.Catalog.Product", 1),
        ("blazor", "/item/{id:int}", ("GET",), "Shop.Catalog.Product", 2),
    }


def test_spark_java_routes_under_their_paths():
    found = entrypoint_rows(
        {
            "src/main/java/app/Main.java": (
                "package app;\n\nimport static spark.Spark.*;\n\npublic class Main {\n    public static void main(String[] args) {\n"
                "        get(\"/hello\", (req, res) -> \"Hello World\");\n"
                "        path(\"/api\", () -> {\n            post(\"/users\", UserApi::create);\n        });\n    }\n}\n"
            ),
            "src/main/java/app/UserApi.java": "package app;\n\npublic class UserApi {\n    public static Object create(Request q, Response s) { return null; }\n}\n",
        },
        "framework", "route_or_command", "methods", "handler", kind="http_route",
    )

    assert found == {("spark", "/hello", ("GET",), None), ("spark", "/api/users", ("POST",), "app.UserApi.create")}
