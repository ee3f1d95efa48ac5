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


def test_route_tables_of_aiohttp_starlette_falcon_and_tornado_and_litestar_s_handlers():
    files = {
        "aio/app.py": (
            "from aiohttp import web\n\n\nasync def handle(request):\n    pass\n\n\nclass ItemView(web.View):\n"
            "    async def get(self):\n        pass\n\n    async def delete(self):\n        pass\n\n\n"
            "app = web.Application()\napp.add_routes([web.get('/', handle), web.post('/items', handle), web.view('/items/{id}', ItemView)])\n"
            "app.router.add_get('/health', handle)\napp.router.add_route('PUT', '/items/{id}', handle)\n"
        ),
        "star/app.py": (
            "from starlette.applications import Starlette\nfrom starlette.routing import Mount, Route, WebSocketRoute\n\n\n"
            "async def homepage(request):\n    pass\n\n\nasync def user(request):\n    pass\n\n\nasync def feed(websocket):\n    pass\n\n\n"
            "routes = [\n    Route('/', homepage),\n    Mount('/users', routes=[\n        Route('/{username}', user, methods=['GET', 'POST']),\n"
            "        Mount('/admin', routes=[Route('/', user)]),\n    ]),\n    WebSocketRoute('/ws', feed),\n]\napp = Starlette(routes=routes)\n"
        ),
        "fal/app.py": (
            "import falcon\n\n\nclass ThingsResource:\n    def on_get(self, req, resp):\n        pass\n\n    def on_post(self, req, resp):\n"
            "        pass\n\n\napp = falcon.App()\napp.add_route('/things', ThingsResource())\n"
        ),
        "tor/app.py": (
            "import tornado.web\nfrom tornado.web import url\n\n\nclass MainHandler(tornado.web.RequestHandler):\n    def get(self):\n        pass\n\n\n"
            "class StoryHandler(tornado.web.RequestHandler):\n    def get(self, story_id):\n        pass\n\n    def put(self, story_id):\n        pass\n\n\n"
            "def make_app():\n    return tornado.web.Application([\n        (r'/', MainHandler),\n        url(r'/story/([0-9]+)', StoryHandler, name='story'),\n    ])\n"
        ),
        "lite/app.py": (
            "from litestar import Controller, Litestar, get, post, websocket\n\n\n@get(['/', '/home'])\nasync def index() -> str:\n    return 'x'\n\n\n"
            "class UserController(Controller):\n    path = '/users'\n\n    @get('/{user_id:int}')\n    async def get_user(self, user_id: int) -> dict:\n"
            "        return {}\n\n    @post()\n    async def create(self, data: dict) -> dict:\n        return data\n\n\n"
            "app = Litestar([index, UserController])\n"
        ),
        # Calls of the same names in a file that imports none of these frameworks.
        "client.py": "import requests\n\nrequests.get('/items', timeout=3)\nroutes = [Route('/x', print)]\n",
    }

    assert _routes(files) == {
        ("/", ("GET",), "aio.app.handle"),
        ("/items", ("POST",), "aio.app.handle"),
        ("/items/{id}", ("GET", "DELETE"), "aio.app.ItemView"),
        ("/health", ("GET",), "aio.app.handle"),
        ("/items/{id}", ("PUT",), "aio.app.handle"),
        ("/", ("GET",), "star.app.homepage"),
        ("/users/{username}", ("GET", "POST"), "star.app.user"),
        ("/users/admin/", ("GET",), "star.app.user"),
        ("/ws", ("WEBSOCKET",), "star.app.feed"),
        ("/things", ("GET", "POST"), "fal.app.ThingsResource"),
        ("/", ("GET",), "tor.app.MainHandler"),
        ("/story/([0-9]+)", ("GET", "PUT"), "tor.app.StoryHandler"),
        ("/", ("GET",), "lite.app.index"),
        ("/home", ("GET",), "lite.app.index"),
        ("/users/{user_id:int}", ("GET",), "lite.app.UserController.get_user"),
        ("/users", ("POST",), "lite.app.UserController.create"),
    }


def test_django_channels_websocket_routes_are_handled_by_their_consumers():
    files = {
        "chat/routing.py": (
            "from django.urls import path, re_path\n\nfrom chat import consumers\n\nwebsocket_urlpatterns = [\n"
            '    path("ws/chats/<int:session_id>/", consumers.ChatConsumer.as_asgi()),\n'
            '    re_path(r"^ws/rooms/(?P<room>\\w+)/$", consumers.RoomConsumer.as_asgi()),\n]\n'
        ),
        "chat/consumers.py": (
            "from channels.generic.websocket import AsyncWebsocketConsumer\n\n\nclass ChatConsumer(AsyncWebsocketConsumer):\n"
            "    async def receive(self, text_data=None):\n        pass\n\n\nclass RoomConsumer(AsyncWebsocketConsumer):\n    pass\n"
        ),
        "shop/urls.py": 'from django.urls import path\n\nfrom shop import views\n\nurlpatterns = [path("cart/", views.cart)]\n',
        "shop/views.py": "def cart(request):\n    pass\n",
    }
    found = entrypoint_rows(files, "framework", "route_or_command", "methods", "handler", kind="http_route")

    assert found == {
        ("channels", "/ws/chats/<int:session_id>/", ("WEBSOCKET",), "chat.consumers.ChatConsumer"),
        ("channels", "/ws/rooms/(?P<room>\\w+)/", ("WEBSOCKET",), "chat.consumers.RoomConsumer"),
        ("django", "/cart/", (), "shop.views.cart"),
    }


def test_pyramid_views_serve_at_the_paths_their_route_names_are_given():
    files = {
        "shop/__init__.py": (
            "from pyramid.config import Configurator\n\n\ndef main(global_config, **settings):\n"
            "    with Configurator(settings=settings) as config:\n        config.add_route('home', '/')\n"
            "        config.add_route('user', '/users/{id}')\n        config.scan()\n    return config.make_wsgi_app()\n"
        ),
        "shop/views.py": (
            "from pyramid.view import view_config\n\n\n@view_config(route_name='home', renderer='json')\ndef home(request):\n    return {}\n\n\n"
            "@view_config(route_name='user', request_method=('GET', 'POST'))\ndef user(request):\n    return {}\n\n\n"
            "@view_config(route_name='missing')\ndef orphan(request):\n    return {}\n"
        ),
    }

    assert _routes(files) == {("/", (), "shop.views.home"), ("/users/{id}", ("GET", "POST"), "shop.views.user")}


def test_pyramid_class_views_take_their_class_s_defaults_and_views_added_by_the_configurator_serve_too():
    files = {
        "shop/__init__.py": (
            "from pyramid.config import Configurator\n\nfrom shop.views import hello\n\n\ndef main(global_config, **settings):\n"
            "    config = Configurator(settings=settings)\n    config.add_route('user', '/users/{id}')\n"
            "    config.add_route('hello', '/hello')\n    config.add_route('orders', '/orders')\n"
            "    config.add_view(hello, route_name='hello', request_method='GET')\n"
            "    config.add_view('shop.views.OrderViews', attr='create', route_name='orders', request_method='POST')\n"
            "    config.add_view(hello, route_name='missing')\n"
            "    config.scan()\n    return config.make_wsgi_app()\n"
        ),
        "shop/views.py": (
            "from pyramid.view import view_config, view_defaults\n\n\n"
            "@view_defaults(route_name='user', renderer='json')\nclass UserViews:\n"
            "    def __init__(self, request):\n        self.request = request\n\n"
            "    @view_config(request_method='GET')\n    def show(self):\n        return {}\n\n"
            "    @view_config(request_method='DELETE')\n    def remove(self):\n        return {}\n\n\n"
            "class OrderViews:\n    def __init__(self, request):\n        self.request = request\n\n"
            "    def create(self):\n        return {}\n\n\n"
            "def hello(request):\n    return {}\n"
        ),
    }

    assert _routes(files) == {
        ("/users/{id}", ("GET",), "shop.views.UserViews.show"),
        ("/users/{id}", ("DELETE",), "shop.views.UserViews.remove"),
        ("/hello", ("GET",), "shop.views.hello"),
        ("/orders", ("POST",), "shop.views.OrderViews.create"),
    }


def test_robyn_routes_under_their_sub_router_s_prefix():
    files = {
        "app.py": (
            "from robyn import Robyn, SubRouter\n\napp = Robyn(__file__)\n\n\n@app.get('/')\nasync def hello(request):\n    return 'Hello'\n\n\n"
            "frogs = SubRouter(__file__, prefix='/frogs')\n\n\n@frogs.post('/{name}')\ndef make(request):\n    return ''\n\n\n"
            "app.include_router(frogs)\n"
        ),
    }
    assert _routes(files) == {("/", ("GET",), "app.hello"), ("/frogs/{name}", ("POST",), "app.make")}


def test_flask_restx_resources_serve_under_their_namespace_s_path_and_the_api_s_prefix():
    files = {
        "app/api.py": (
            "from flask import Flask\nfrom flask_restx import Api, Namespace, Resource\n\nfrom app.users import users\n\n"
            "app = Flask(__name__)\napi = Api(app, prefix='/api')\n"
            "todos = Namespace('todos')\napi.add_namespace(todos, path='/v1/todos')\napi.add_namespace(users)\n\n\n"
            "@todos.route('/<int:id>')\nclass Todo(Resource):\n    def get(self, id):\n        return {}\n\n"
            "    def delete(self, id):\n        return '', 204\n\n\n"
            "@api.route('/hello')\nclass Hello(Resource):\n    def get(self):\n        return {}\n"
        ),
        # A namespace of another module, mounted without a path: its name.
        "app/users.py": (
            "from flask_restx import Namespace, Resource\n\nusers = Namespace('users')\n\n\n"
            "@users.route('/')\nclass UserList(Resource):\n    def post(self):\n        return {}, 201\n"
        ),
    }

    assert _routes(files) == {
        ("/api/v1/todos/<int:id>", ("GET", "DELETE"), "app.api.Todo"),
        ("/api/hello", ("GET",), "app.api.Hello"),
        ("/api/users/", ("POST",), "app.users.UserList"),
    }


def test_a_rest_framework_function_view_answers_the_methods_its_api_view_lists():
    files = {
        "shop/views.py": (
            "from rest_framework.decorators import api_view\n\n\n@api_view(['GET', 'POST'])\ndef orders(request):\n    pass\n\n\n"
            "@api_view()\ndef health(request):\n    pass\n"
        ),
        "shop/urls.py": (
            "from django.urls import path\n\nfrom shop import views\n\n"
            "urlpatterns = [path('orders/', views.orders), path('health/', views.health)]\n"
        ),
    }

    assert _routes(files) == {("/orders/", ("GET", "POST"), "shop.views.orders"), ("/health/", ("GET",), "shop.views.health")}


def test_a_django_project_s_routes_serve_under_its_force_script_name():
    files = {
        "site/manage.py": "import os\n\nos.environ.setdefault('DJANGO_SETTINGS_MODULE', 'mysite.settings')\n",
        "site/mysite/settings.py": "ROOT_URLCONF = 'mysite.urls'\nFORCE_SCRIPT_NAME = '/shop'\n",
        "site/mysite/urls.py": "from django.urls import include, path\n\nurlpatterns = [path('polls/', include('polls.urls'))]\n",
        "site/polls/urls.py": "from django.urls import path\n\nfrom polls import views\n\nurlpatterns = [path('', views.index), path('<int:pk>/', views.detail)]\n",
        "site/polls/views.py": "def index(request):\n    return None\n\n\ndef detail(request, pk):\n    return None\n",
        # Another project of the repository, without one.
        "admin/manage.py": "",
        "admin/backoffice/urls.py": "from django.urls import path\n\nfrom backoffice import views\n\nurlpatterns = [path('reports/', views.reports)]\n",
        "admin/backoffice/views.py": "def reports(request):\n    return None\n",
    }

    assert {route for route, _, _ in _routes(files)} == {"/shop/polls/", "/shop/polls/<int:pk>/", "/reports/"}


def test_azure_functions_python_routes_serve_under_api_and_triggers_are_tasks():
    files = {
        "function_app.py": (
            "import azure.functions as func\n\napp = func.FunctionApp(http_auth_level=func.AuthLevel.ANONYMOUS)\n\n\n"
            "@app.route(route='orders/{id}', methods=['GET', 'POST'])\ndef get_order(req: func.HttpRequest) -> func.HttpResponse:\n"
            "    return func.HttpResponse('x')\n\n\n@app.route()\ndef ping(req):\n    return None\n\n\n"
            "@app.timer_trigger(schedule='0 */5 * * * *', arg_name='timer')\ndef cleanup(timer):\n    pass\n"
        ),
    }

    assert _routes(files) == {("/api/orders/{id}", ("GET", "POST"), "function_app.get_order"), ("/api/ping", (), "function_app.ping")}
    assert entrypoint_rows(files, "route_or_command", "handler", kind="task") == {("cleanup", "function_app.cleanup")}
