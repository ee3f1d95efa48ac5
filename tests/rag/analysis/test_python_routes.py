"""FastAPI's and Flask's routes under every router and blueprint they are included in, and prefixes given by a name."""

from __future__ import annotations

from tests.rag.analysis.readings import entrypoint_rows

# The layout of FastAPI's full-stack template: the app includes one router under the settings' prefix, which
# includes each module's router, one under a prefix of its own.
FASTAPI = {
    "app/main.py": (
        "from fastapi import FastAPI\n\nfrom app.api.main import api_router\nfrom app.core.config import settings\n\n"
        "app = FastAPI()\napp.include_router(api_router, prefix=settings.API_V1_STR)\n"
    ),
    "app/api/main.py": (
        "from fastapi import APIRouter\n\nfrom app.api.routes import items, login\n\n"
        "api_router = APIRouter()\napi_router.include_router(login.router)\n"
        'api_router.include_router(items.router, prefix="/items", tags=["items"])\n'
    ),
    "app/api/routes/items.py": (
        'from fastapi import APIRouter\n\nrouter = APIRouter()\n\n\n@router.get("/")\ndef read_items():\n    pass\n\n\n'
        '@router.get("/{id}")\ndef read_item(id: int):\n    pass\n'
    ),
    "app/api/routes/login.py": (
        'from fastapi import APIRouter\n\nrouter = APIRouter(tags=["login"])\n\n\n@router.post("/login/access-token")\n'
        "def login_access_token():\n    pass\n"
    ),
    "app/core/config.py": (
        "from pydantic_settings import BaseSettings\n\n\nclass CommonSettings(BaseSettings):\n"
        '    API_V1_STR: str = "/api/v1"\n\n\nclass Settings(CommonSettings):\n    PROJECT_NAME: str = "shop"\n\n\n'
        "settings = Settings()\n"
    ),
}


def _routes(files: dict[str, str]) -> set[tuple]:
    return entrypoint_rows(files, "route_or_command", "methods", "handler", kind="http_route")


def test_fastapi_routes_serve_under_every_router_they_are_included_in_and_a_prefix_a_setting_gives():
    assert _routes(FASTAPI) == {
        ("/api/v1/items/", ("GET",), "app.api.routes.items.read_items"),
        ("/api/v1/items/{id}", ("GET",), "app.api.routes.items.read_item"),
        ("/api/v1/login/access-token", ("POST",), "app.api.routes.login.login_access_token"),
    }


def test_a_prefix_named_by_a_module_s_constant_and_a_router_included_twice():
    files = {
        **FASTAPI,
        "app/main.py": (
            "from fastapi import FastAPI\n\nfrom app.api.main import api_router\nfrom app.core import paths\n\n"
            "app = FastAPI()\napp.include_router(api_router, prefix=paths.API_PREFIX)\n"
            'app.include_router(api_router, prefix="/v2")\n'
        ),
        "app/core/paths.py": 'API_PREFIX = "/api"\n',
    }
    assert {route for route, _, _ in _routes(files)} == {
        "/api/items/", "/api/items/{id}", "/api/login/access-token", "/v2/items/", "/v2/items/{id}", "/v2/login/access-token",
    }


def test_a_prefix_given_by_a_name_the_repository_does_not_bind_is_left_out():
    files = {**FASTAPI, "app/main.py": FASTAPI["app/main.py"].replace("settings.API_V1_STR", "os.environ['PREFIX']")}
    assert {route for route, _, _ in _routes(files)} == {"/items/", "/items/{id}", "/login/access-token"}


def test_flask_blueprints_nested_in_blueprints_serve_under_each_prefix():
    files = {
        "shop/__init__.py": (
            "from flask import Flask\n\nfrom shop.api import api\n\n\ndef create_app():\n    app = Flask(__name__)\n"
            '    app.register_blueprint(api, url_prefix="/api")\n    return app\n'
        ),
        "shop/api.py": (
            'from flask import Blueprint\n\nfrom shop.orders import bp as orders\n\napi = Blueprint("api", __name__)\n'
            "api.register_blueprint(orders)\n"
        ),
        "shop/orders.py": (
            'from flask import Blueprint\n\nbp = Blueprint("orders", __name__, url_prefix="/orders")\n\n\n'
            '@bp.route("/<int:id>")\ndef show(id):\n    pass\n'
        ),
    }
    assert _routes(files) == {("/api/orders/<int:id>", ("GET",), "shop.orders.show")}
