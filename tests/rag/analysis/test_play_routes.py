"""Play's routes files: ``conf/routes`` and the files and routers it includes, handled by Scala's and Java's controllers."""

from __future__ import annotations

from tests.rag.analysis.readings import entrypoint_rows

HOME_CONTROLLER = (
    "package controllers\n\n"
    "import javax.inject._\nimport play.api.mvc._\n\n"
    "@Singleton\n"
    "class HomeController @Inject()(val controllerComponents: ControllerComponents) extends BaseController {\n"
    "  def index() = Action { Ok(\"home\") }\n"
    "  def show(page: String) = Action { Ok(page) }\n"
    "}\n"
)
CLIENTS_CONTROLLER = (
    "package controllers;\n\n"
    "import play.mvc.*;\n\n"
    "public class Clients extends Controller {\n"
    "    public Result show(Long id) { return ok(\"client\"); }\n"
    "    public Result list(Integer page) { return ok(\"clients\"); }\n"
    "    public Result upload(Http.Request request) { return ok(\"uploaded\"); }\n"
    "}\n"
)
USERS_CONTROLLER = (
    "package controllers.admin;\n\n"
    "import play.mvc.*;\n\n"
    "public class Users extends Controller {\n"
    "    public Result index() { return ok(\"users\"); }\n"
    "    public Result show(Long id) { return ok(\"user\"); }\n"
    "}\n"
)


def _routes(files: dict[str, str]) -> set[tuple]:
    """(route, methods, handler, path, line) of every entrypoint found in ``files``, all of them Play's."""
    rows = entrypoint_rows(files, "framework", "entry_type", "route_or_command", "methods", "handler", "path", "start_line")
    assert {row[:2] for row in rows} <= {("play", "http_route")}
    return {row[2:] for row in rows}


def test_routes_file_lines_are_routes_handled_by_scala_and_java_controller_methods():
    found = _routes({
        "app/controllers/HomeController.scala": HOME_CONTROLLER,
        "app/controllers/Clients.java": CLIENTS_CONTROLLER,
        "conf/routes": (
            "# Routes\n"
            "# This file defines all application routes (Higher priority routes first)\n"
            "# ~~~~\n"
            "\n"
            "GET     /                       controllers.HomeController.index\n"
            "GET     /about                  controllers.HomeController.show(page = \"about\")\n"
            "# GET   /old                    controllers.HomeController.index\n"
            "+ nocsrf\n"
            "POST    /clients/upload         @controllers.Clients.upload(request: Request)\n"
            "GET     /clients                controllers.Clients.list(page: Integer ?= 1)\n"
            "GET     /clients/:id            controllers.Clients.show(id: Long)\n"
            "DELETE  /clients/$id<[0-9]+>    controllers.Clients.show(id: Long)\n"
            "\n"
            "GET     /assets/*file           controllers.Assets.versioned(path=\"/public\", file: Asset)\n"
        ),
    })

    assert found == {
        ("/", ("GET",), "controllers.HomeController.index", "conf/routes", 5),
        ("/about", ("GET",), "controllers.HomeController.show", "conf/routes", 6),
        ("/clients/upload", ("POST",), "controllers.Clients.upload", "conf/routes", 9),
        ("/clients", ("GET",), "controllers.Clients.list", "conf/routes", 10),
        ("/clients/:id", ("GET",), "controllers.Clients.show", "conf/routes", 11),
        ("/clients/$id<[0-9]+>", ("DELETE",), "controllers.Clients.show", "conf/routes", 12),
        # Play's own controller: no method of the repository.
        ("/assets/*file", ("GET",), None, "conf/routes", 14),
    }


def test_an_included_routes_file_serves_under_the_prefixes_of_its_includes():
    found = _routes({
        "app/controllers/HomeController.scala": HOME_CONTROLLER,
        "app/controllers/admin/Users.java": USERS_CONTROLLER,
        "conf/routes": (
            "GET     /          controllers.HomeController.index\n"
            "\n"
            "->      /admin     admin.Routes\n"
        ),
        "conf/admin.routes": (
            "GET     /            controllers.admin.Users.index\n"
            "GET     /users/:id   controllers.admin.Users.show(id: Long)\n"
            "->      /reports     reports.Routes\n"
        ),
        "conf/reports.routes": "GET     /daily/    controllers.HomeController.show(page = \"daily\")\n",
    })

    assert found == {
        ("/", ("GET",), "controllers.HomeController.index", "conf/routes", 1),
        ("/admin", ("GET",), "controllers.admin.Users.index", "conf/admin.routes", 1),
        ("/admin/users/:id", ("GET",), "controllers.admin.Users.show", "conf/admin.routes", 2),
        ("/admin/reports/daily/", ("GET",), "controllers.HomeController.show", "conf/reports.routes", 1),
    }


def test_an_include_names_the_routes_file_of_its_own_application_and_only_play_routes_in_conf_are_read():
    routes = "->  /admin  admin.Routes\n"
    admin_routes = "GET  /users  controllers.admin.Users.index\n"
    found = _routes({
        "shop/app/controllers/admin/Users.java": USERS_CONTROLLER,
        "shop/conf/routes": routes,
        "shop/conf/admin.routes": admin_routes,
        "blog/conf/admin.routes": admin_routes,
        # Read from ``conf/`` only.
        "docs/routes": "GET  /guide  controllers.HomeController.index\n",
        # Revel's routes name a controller in no package.
        "server/conf/routes": "GET  /login  App.Login\n",
    })

    assert found == {
        ("/admin/users", ("GET",), "controllers.admin.Users.index", "shop/conf/admin.routes", 1),
        ("/users", ("GET",), "controllers.admin.Users.index", "blog/conf/admin.routes", 1),
    }


def test_an_included_router_class_serves_its_routing_dsl_routes_under_the_prefix():
    found = _routes({
        "conf/routes": "->         /v1/posts               v1.post.PostRouter\n",
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

    # A router class serves below its prefix: its ``/`` is ``/v1/posts/``.
    assert found == {
        ("/v1/posts/", ("GET",), "v1.post.PostController.index", "app/v1/post/PostRouter.scala", 8),
        ("/v1/posts/$id", ("GET",), "v1.post.PostController.show", "app/v1/post/PostRouter.scala", 9),
    }
