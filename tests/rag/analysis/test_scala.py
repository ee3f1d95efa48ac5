"""Scala as its users write it: packages, companion objects, case classes, imports, Java interop, entrypoints."""

from __future__ import annotations

from rag.analysis.languages.spec import is_test_file
from tests.rag.analysis.readings import edge_targets, entrypoint_rows, symbol_rows

CART = (
    "/*\n * Copyright the shop's authors.\n */\npackage com.shop\npackage model\n\n"
    "/** A customer's cart.\n  *\n  * Holds the items until checkout.\n  */\n"
    "case class Cart(items: List[Int], owner: String) {\n"
    "  val total: Int = items.sum\n"
    "  /** The cart with one more item. */\n"
    "  def add(x: Int): Cart = copy(items = items :+ x)\n"
    "}\n\n"
    "// Made the usual ways.\n"
    "object Cart {\n  def empty(): Cart = Cart(Nil, \"\")\n}\n\n"
    "trait Priced {\n  def price: Int\n}\n\n"
    "object Prices {\n  val Rate = 20\n  def tax(amount: Int): Int = amount * Rate / 100\n}\n\n"
    "enum Color {\n  case Red, Green\n}\n\n"
    "type Items = List[Int]\n\n"
    "def starter(owner: String): Cart = Cart(List(1), owner)\n"
)




def _symbols(files: dict[str, str]) -> dict[str, tuple]:
    """qname -> (kind, doc) of every symbol of ``files``."""
    return symbol_rows(files, "kind", "docstring")




def _entries(files: dict[str, str]) -> set[tuple]:
    """(kind, framework, route or command, methods, handler) of every entrypoint found in ``files``."""
    return entrypoint_rows(files, "entry_type", "framework", "route_or_command", "methods", "handler")


def test_scala_symbols_are_named_by_their_chained_packages_with_companion_members_under_their_class():
    symbols = _symbols({"src/main/scala/com/shop/model/Cart.scala": CART})

    assert symbols == {
        "com.shop.model.Cart": ("class", "A customer's cart.\nHolds the items until checkout."),
        "com.shop.model.Cart.items": ("const", ""),
        "com.shop.model.Cart.owner": ("const", ""),
        "com.shop.model.Cart.total": ("const", ""),
        "com.shop.model.Cart.add": ("method", "The cart with one more item."),
        # The companion object is no symbol of its own: its members are the class's.
        "com.shop.model.Cart.empty": ("method", ""),
        "com.shop.model.Priced": ("class", ""),
        "com.shop.model.Priced.price": ("method", ""),
        "com.shop.model.Prices": ("class", ""),
        "com.shop.model.Prices.Rate": ("const", ""),
        "com.shop.model.Prices.tax": ("method", ""),
        "com.shop.model.Color": ("class", ""),
        "com.shop.model.Color.Red": ("const", ""),
        "com.shop.model.Color.Green": ("const", ""),
        "com.shop.model.Items": ("class", ""),
        "com.shop.model.starter": ("function", ""),
    }


def test_scala_package_objects_and_braced_packages_name_their_definitions():
    symbols = _symbols({
        "src/main/scala/com/shop/package.scala": (
            "package com\n\npackage object shop {\n  def helper(): Int = 1\n}\n\n"
            "package other {\n  class Tool\n}\n"
        ),
    })

    assert symbols == {"com.shop.helper": ("function", ""), "com.other.Tool": ("class", "")}


CHECKOUT = {
    "src/main/scala/com/shop/model/Cart.scala": CART,
    "src/main/scala/com/shop/app/Checkout.scala": (
        "package com.shop.app\n\n"
        "import com.shop.model.{Cart, Prices => P}\n"
        "import com.shop.model.Prices.*\n"
        "import com.shop.model.Priced, scala.util.Try\n\n"
        "class Checkout {\n"
        "  def run(): Int = {\n"
        "    val cart: Cart = Cart.empty()\n"
        "    val next = new Cart(Nil, \"me\")\n"
        "    cart.add(1)\n"
        "    next.add(2)\n"
        "    P.tax(3)\n"
        "    Prices.tax(4)\n"
        "    finish()\n"
        "    val first = starter(\"me\")\n"
        "    first.add(5)\n"
        "  }\n"
        "  def finish(): Int = this.run()\n"
        "}\n"
    ),
}


def test_scala_imports_resolve_by_their_paths_braces_renames_and_wildcards():
    imports = edge_targets(CHECKOUT, "imports")

    assert imports == {
        ("com.shop.app", "com.shop.model.Cart", 3): "com.shop.model.Cart",
        ("com.shop.app", "com.shop.model.Prices", 3): "com.shop.model.Prices",
        ("com.shop.app", "com.shop.model.Prices", 4): "com.shop.model.Prices",
        ("com.shop.app", "com.shop.model.Priced", 5): "com.shop.model.Priced",
        ("com.shop.app", "scala.util.Try", 5): None,
    }


def test_scala_calls_resolve_on_typed_locals_objects_and_the_enclosing_class():
    calls = edge_targets(CHECKOUT, "calls")

    assert calls[("com.shop.app.Checkout.run", "empty", 9)] == "com.shop.model.Cart.empty"
    assert calls[("com.shop.app.Checkout.run", "Cart", 10)] == "com.shop.model.Cart"
    assert calls[("com.shop.app.Checkout.run", "add", 11)] == "com.shop.model.Cart.add"
    assert calls[("com.shop.app.Checkout.run", "add", 12)] == "com.shop.model.Cart.add"
    assert calls[("com.shop.app.Checkout.run", "tax", 14)] == "com.shop.model.Prices.tax"
    assert calls[("com.shop.app.Checkout.run", "finish", 15)] == "com.shop.app.Checkout.finish"
    # A name bound to what a function returns has the type its signature declares.
    assert calls[("com.shop.app.Checkout.run", "add", 17)] == "com.shop.model.Cart.add"
    assert calls[("com.shop.app.Checkout.finish", "run", 19)] == "com.shop.app.Checkout.run"


def test_scala_classes_inherit_what_they_extend_and_mix_in():
    inherits = edge_targets({
        "src/main/scala/com/shop/model/Cart.scala": CART,
        "src/main/scala/com/shop/model/Base.scala": "package com.shop.model\n\nabstract class Base(id: Int)\n",
        "src/main/scala/com/shop/model/Gift.scala": (
            "package com.shop.model\n\nclass Gift extends Base(1) with Priced with java.io.Serializable {\n"
            "  def price: Int = 0\n}\n"
        ),
    }, "inherits")

    assert inherits == {
        ("com.shop.model.Gift", "Base", 3): "com.shop.model.Base",
        ("com.shop.model.Gift", "Priced", 3): "com.shop.model.Priced",
        ("com.shop.model.Gift", "Serializable", 3): None,
    }


def test_scala_and_java_share_one_name_space():
    files = {
        "src/main/java/com/shop/legacy/Ledger.java": (
            "package com.shop.legacy;\n\npublic class Ledger {\n    public void record(int amount) { }\n}\n"
        ),
        "src/main/java/com/shop/legacy/Journal.java": (
            "package com.shop.legacy;\n\npublic class Journal {\n    public void record(int amount) { }\n}\n"
        ),
        "src/main/scala/com/shop/app/Audit.scala": (
            "package com.shop.app\n\nimport com.shop.legacy.Ledger\n\n"
            "class Audit(ledger: Ledger) extends Ledger {\n  def log(): Unit = ledger.record(1)\n}\n"
        ),
        "src/main/java/com/shop/legacy/Report.java": (
            "package com.shop.legacy;\n\nimport com.shop.app.Audit;\n\n"
            "public class Report {\n    void print(Audit audit) { audit.log(); }\n}\n"
        ),
    }

    assert edge_targets(files, "imports")[("com.shop.app", "com.shop.legacy.Ledger", 3)] == "com.shop.legacy.Ledger"
    assert edge_targets(files, "calls")[("com.shop.app.Audit.log", "record", 6)] == "com.shop.legacy.Ledger.record"
    assert edge_targets(files, "inherits")[("com.shop.app.Audit", "Ledger", 5)] == "com.shop.legacy.Ledger"
    # ... and Java sees Scala's classes.
    assert edge_targets(files, "imports")[("com.shop.legacy", "com.shop.app.Audit", 3)] == "com.shop.app.Audit"
    assert edge_targets(files, "calls")[("com.shop.legacy.Report.print", "log", 6)] == "com.shop.app.Audit.log"


def test_scala_programs_are_main_methods_apps_and_main_annotated_functions():
    found = _entries({
        "src/main/scala/shop/Server.scala": (
            "package shop\n\nobject Server {\n  def main(args: Array[String]): Unit = println(\"up\")\n}\n"
        ),
        "src/main/scala/shop/Tool.scala": "package shop\n\nobject Tool extends App {\n  println(\"tool\")\n}\n",
        "src/main/scala/shop/hello.scala": "package shop\n\n@main def hello(name: String): Unit = println(name)\n",
        # A `main` of a class is no program.
        "src/main/scala/shop/Widget.scala": "package shop\n\nclass Widget {\n  def main(args: Array[String]): Unit = ()\n}\n",
    })

    assert found == {
        ("cli_command", "main", "Server", (), "shop.Server.main"),
        ("cli_command", "main", "Tool", (), "shop.Tool"),
        ("cli_command", "main", "hello", (), "shop.hello"),
    }


def test_akka_http_routes_are_under_the_paths_around_them():
    routes = (
        "package shop\n\nimport akka.http.scaladsl.server.Directives._\n\n"
        "class UserRoutes {\n"
        "  val routes =\n"
        "    pathPrefix(\"api\") {\n"
        "      concat(\n"
        "        path(\"users\") {\n"
        "          concat(\n"
        "            get { complete(\"all\") },\n"
        "            post { complete(\"made\") })\n"
        "        },\n"
        "        path(\"ping\") { complete(\"PONG\") }\n"
        "      )\n"
        "    }\n"
        "}\n"
    )
    found = _entries({"src/main/scala/shop/UserRoutes.scala": routes})

    assert found == {
        ("http_route", "akka", "/api/users", ("GET",), None),
        ("http_route", "akka", "/api/users", ("POST",), None),
        ("http_route", "akka", "/api/ping", (), None),
    }
    # Pekko's are Pekko's; without either import, `get { }` is any method's call.
    pekko = routes.replace("akka.http", "org.apache.pekko.http")
    assert {entry[1] for entry in _entries({"src/main/scala/shop/UserRoutes.scala": pekko})} == {"pekko"}
    assert _entries({"src/main/scala/shop/UserRoutes.scala": routes.replace("import akka.http", "import other")}) == set()


def test_http4s_and_zio_http_routes_are_read_from_their_patterns():
    found = _entries({
        "src/main/scala/shop/HelloRoutes.scala": (
            "package shop\n\nimport cats.effect.IO\nimport org.http4s._\nimport org.http4s.dsl.io._\n\n"
            "object HelloRoutes {\n"
            "  val routes = HttpRoutes.of[IO] {\n"
            "    case GET -> Root / \"hello\" / name => Ok(s\"Hello, $name.\")\n"
            "    case req @ POST -> Root / \"users\" => Ok(\"made\")\n"
            "    case GET -> Root => Ok(\"root\")\n"
            "  }\n"
            "}\n"
        ),
        "src/main/scala/shop/Api.scala": (
            "package shop\n\nimport zio.http._\n\n"
            "object Api {\n"
            "  val routes = Routes(\n"
            "    Method.GET / \"users\" -> handler(Response.text(\"all\")),\n"
            "    Method.DELETE / \"users\" / int(\"id\") -> handler { (id: Int, req: Request) => Response.ok }\n"
            "  )\n"
            "}\n"
        ),
    })

    assert found == {
        ("http_route", "http4s", "/hello/name", ("GET",), None),
        ("http_route", "http4s", "/users", ("POST",), None),
        ("http_route", "http4s", "/", ("GET",), None),
        ("http_route", "zio-http", "/users", ("GET",), None),
        ("http_route", "zio-http", "/users/int(id)", ("DELETE",), None),
    }


def test_play_sird_routes_are_handled_by_the_actions_they_name():
    found = _entries({
        "app/v1/post/PostController.scala": (
            "package v1.post\n\nclass PostController {\n  def index = ???\n  def show(id: String) = ???\n}\n"
        ),
        "app/v1/post/PostRouter.scala": (
            "package v1.post\n\nimport play.api.routing.SimpleRouter\nimport play.api.routing.sird._\n\n"
            "class PostRouter(controller: PostController) extends SimpleRouter {\n"
            "  override def routes: Routes = {\n"
            "    case GET(p\"/\") => controller.index\n"
            "    case GET(p\"/$id\") => controller.show(id)\n"
            "  }\n"
            "}\n"
        ),
    })

    assert found == {
        ("http_route", "play", "/", ("GET",), "v1.post.PostController.index"),
        ("http_route", "play", "/$id", ("GET",), "v1.post.PostController.show"),
    }


def test_akka_actors_and_scheduled_blocks_are_tasks():
    found = _entries({
        "src/main/scala/shop/Worker.scala": (
            "package shop\n\nimport akka.actor._\nimport scala.concurrent.duration._\n\n"
            "class Worker extends Actor with ActorLogging {\n  def receive = { case job => log.info(\"done\") }\n}\n\n"
            "object Ticker {\n  def start(system: ActorSystem): Unit = {\n"
            "    system.scheduler.scheduleAtFixedRate(1.second, 5.seconds)(() => println(\"tick\"))\n"
            "  }\n\n  def later(system: ActorSystem): Unit =\n"
            "    system.scheduler.scheduleOnce(1.second)(println(\"once\"))\n}\n"
        ),
    })

    assert found == {
        ("task", "akka", "Worker", (), "shop.Worker.receive"),
        ("task", "akka", "shop.Ticker.start", (), "shop.Ticker.start"),
    }


def test_scala_test_files_follow_sbt_and_test_framework_conventions():
    assert is_test_file("src/test/scala/com/shop/CartSpec.scala")
    assert is_test_file("modules/core/src/test/scala/com/shop/Cart.scala")
    assert is_test_file("core/src/it/scala/com/shop/Checkout.scala")
    assert is_test_file("shop/test/src/com/shop/Cart.scala")
    assert is_test_file("src/main/scala/com/shop/CartSpec.scala")
    assert is_test_file("src/main/scala/com/shop/CartSuite.scala")
    assert is_test_file("src/main/scala/com/shop/CartTest.scala")
    assert not is_test_file("src/main/scala/com/shop/Cart.scala")
    assert not is_test_file("modules/core/src/main/scala/com/shop/Spectrum.scala")


def test_a_scala_import_is_read_by_its_whole_path_and_a_wildcard_names_the_package():
    imports = edge_targets({
        "src/main/scala/com/shop/model/Item.scala": "package com.shop.model\n\ncase class Item(price: Int)\n",
        "src/main/scala/com/shop/app/Main.scala": (
            "package com.shop.app\n\nimport com.shop.model._\nimport com.shop.model.Item\nimport org.shop.model.Item\n\n"
            "object Main\n"
        ),
    }, "imports")

    assert imports == {
        ("com.shop.app", "com.shop.model", 3): "com.shop.model",
        ("com.shop.app", "com.shop.model.Item", 4): "com.shop.model.Item",
        # Another organisation's class of the same name is not the repository's.
        ("com.shop.app", "org.shop.model.Item", 5): None,
    }
