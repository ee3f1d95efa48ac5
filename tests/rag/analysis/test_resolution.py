"""Cross-file name resolution (C2) and entrypoint detection (C3) on small repositories."""

from __future__ import annotations

import textwrap

from rag.analysis.repository import analyze_repository


def analyze(files: dict[str, str]):
    return analyze_repository({path: textwrap.dedent(text) for path, text in files.items()})


def edges_of(analysis, src_prefix: str = "") -> set[tuple[str, str, str, str | None]]:
    return {(e.kind, e.src, e.raw, e.dst) for e in analysis.edges() if e.src.startswith(src_prefix)}


def entries_of(analysis) -> set[tuple]:
    return {(e.entry_type, e.framework, e.route_or_command, e.methods, e.handler) for e in analysis.entrypoints()}


def test_it_resolves_relative_imports_reexports_and_module_attribute_calls():
    analysis = analyze(
        {
            "app/__init__.py": "from .core.engine import Engine as Motor\n",
            "app/core/__init__.py": "",
            "app/core/engine.py": """\
                class Engine:
                    def start(self):
                        return self.spin()

                    def spin(self):
                        return 1
            """,
            "app/core/helpers.py": "def tune(x):\n    return x\n",
            "app/cli/run.py": """\
                import app.core.helpers as h
                import app.core.engine
                from .. import Motor
                from ..core import helpers


                def run():
                    engine = Motor()
                    engine.start()
                    h.tune(1)
                    helpers.tune(2)
                    app.core.engine.Engine().spin()
            """,
        }
    )
    assert edges_of(analysis, "app.cli.run") == {
        ("imports", "app.cli.run", "app.core.helpers", "app.core.helpers"),
        ("imports", "app.cli.run", "app.core.engine", "app.core.engine"),
        ("imports", "app.cli.run", "app.Motor", "app.core.engine.Engine"),
        ("imports", "app.cli.run", "app.core.helpers", "app.core.helpers"),
        ("calls", "app.cli.run.run", "Motor", "app.core.engine.Engine"),
        ("calls", "app.cli.run.run", "engine.start", "app.core.engine.Engine.start"),
        ("calls", "app.cli.run.run", "h.tune", "app.core.helpers.tune"),
        ("calls", "app.cli.run.run", "helpers.tune", "app.core.helpers.tune"),
        ("calls", "app.cli.run.run", "app.core.engine.Engine", "app.core.engine.Engine"),
    }
    assert ("calls", "app.core.engine.Engine.start", "self.spin", "app.core.engine.Engine.spin") in edges_of(analysis)


def test_it_resolves_inherited_methods_super_and_annotated_parameters_across_files():
    analysis = analyze(
        {
            "shop/base.py": """\
                class Model:
                    def save(self):
                        return self.validate()

                    def validate(self):
                        return True
            """,
            "shop/order.py": """\
                from shop.base import Model


                class Order(Model):
                    def save(self):
                        self.validate()
                        return super().save()
            """,
            "shop/service.py": """\
                from __future__ import annotations

                from shop import order as orders


                def persist(item: orders.Order | None, other: "orders.Order"):
                    item.save()
                    other.validate()
                    item.missing()
                    len([item])
            """,
        }
    )
    assert edges_of(analysis, "shop.order.Order") == {
        ("inherits", "shop.order.Order", "Model", "shop.base.Model"),
        ("calls", "shop.order.Order.save", "self.validate", "shop.base.Model.validate"),
        ("calls", "shop.order.Order.save", "super().save", "shop.base.Model.save"),
    }
    assert edges_of(analysis, "shop.service.persist") == {
        ("calls", "shop.service.persist", "item.save", "shop.order.Order.save"),
        ("calls", "shop.service.persist", "other.validate", "shop.base.Model.validate"),
        ("calls", "shop.service.persist", "item.missing", None),
    }


def test_star_imports_function_level_imports_and_shadowed_builtins():
    analysis = analyze(
        {
            "lib/api.py": "def fetch():\n    return 1\n\n\ndef open(name):\n    return name\n",
            "lib/use.py": """\
                from lib.api import *


                def first():
                    return fetch()


                def second():
                    from lib import api
                    print(api.fetch())
                    return open("x")
            """,
        }
    )
    assert edges_of(analysis, "lib.use") == {
        ("imports", "lib.use", "lib.api", "lib.api"),
        ("calls", "lib.use.first", "fetch", "lib.api.fetch"),
        ("imports", "lib.use.second", "lib.api", "lib.api"),
        ("calls", "lib.use.second", "api.fetch", "lib.api.fetch"),
        ("calls", "lib.use.second", "open", "lib.api.open"),
    }


def test_a_repository_that_is_itself_a_package_resolves_its_own_absolute_imports():
    analysis = analyze(
        {
            "__init__.py": "",
            "db/__init__.py": "",
            "db/models.py": "class Model:\n    pass\n",
            "contrib/auth.py": "from mypkg.db.models import Model\n\n\nclass User(Model):\n    pass\n",
        }
    )
    assert ("inherits", "contrib.auth.User", "Model", "db.models.Model") in edges_of(analysis)


def test_it_finds_flask_fastapi_and_celery_entrypoints_on_app_objects():
    analysis = analyze(
        {
            "svc/web.py": """\
                import flask
                from fastapi import FastAPI
                from celery import Celery

                app = flask.Flask(__name__)
                api = FastAPI()
                worker = Celery("svc")


                @app.route("/")
                def index():
                    return "ok"


                @app.route("/items", methods=("get", "post"))
                def items():
                    return "[]"


                @api.api_route("/things", methods=["PUT", "PATCH"])
                async def things():
                    return {}


                @api.websocket("/ws")
                async def stream(socket):
                    return None


                @worker.task(bind=True)
                def reindex(self):
                    return None
            """
        }
    )
    assert entries_of(analysis) == {
        ("http_route", "flask", "/", ("GET",), "svc.web.index"),
        ("http_route", "flask", "/items", ("GET", "POST"), "svc.web.items"),
        ("http_route", "fastapi", "/things", ("PUT", "PATCH"), "svc.web.things"),
        ("http_route", "fastapi", "/ws", ("WEBSOCKET",), "svc.web.stream"),
        ("task", "celery", "svc.web.reindex", (), "svc.web.reindex"),
    }


def test_the_tasks_of_dramatiq_rq_huey_and_apscheduler_are_named_as_their_decorators_name_them():
    analysis = analyze(
        {
            "app/tasks.py": """\
                import dramatiq
                from dramatiq import actor
                from rq import job
                from huey import RedisHuey, crontab
                from apscheduler.schedulers.background import BackgroundScheduler

                huey = RedisHuey("app")
                scheduler = BackgroundScheduler()
                registry = dict()


                @dramatiq.actor(queue_name="mail")
                def send_mail(to):
                    pass


                @actor(actor_name="resize")
                def resize_image(path):
                    pass


                @job("default")
                def count_words(url):
                    pass


                @huey.periodic_task(crontab(minute="0", hour="3"))
                def nightly():
                    pass


                @scheduler.scheduled_job("interval", minutes=3, id="poll")
                def poll():
                    pass


                def send_report():
                    pass


                def tidy():
                    pass


                scheduler.add_job(send_report, "cron", hour=3, id="report")
                scheduler.add_job(tidy, "interval", hours=1)
                registry.add_job(not_a_task)


                @registry.task()
                def not_a_task():
                    pass
            """
        }
    )
    assert entries_of(analysis) == {
        ("task", "dramatiq", "app.tasks.send_mail", (), "app.tasks.send_mail"),
        ("task", "dramatiq", "resize", (), "app.tasks.resize_image"),
        ("task", "rq", "app.tasks.count_words", (), "app.tasks.count_words"),
        ("task", "huey", "app.tasks.nightly", (), "app.tasks.nightly"),
        ("task", "apscheduler", "poll", (), "app.tasks.poll"),
        ("task", "apscheduler", "report", (), "app.tasks.send_report"),
        ("task", "apscheduler", "app.tasks.tidy", (), "app.tasks.tidy"),
    }


def test_airflow_dags_are_tasks_named_by_their_dag_id_and_the_tasks_inside_them_are_not():
    analysis = analyze(
        {
            "dags/etl.py": """\
                from airflow.decorators import dag, task


                @dag(schedule="@daily")
                def etl():
                    @task
                    def extract():
                        return 1

                    extract()


                @dag(dag_id="nightly_report", schedule="0 3 * * *")
                def report():
                    pass


                etl()
                report()
            """
        }
    )
    assert entries_of(analysis) == {
        ("task", "airflow", "etl", (), "dags.etl.etl"),
        ("task", "airflow", "nightly_report", (), "dags.etl.report"),
    }


def test_the_event_handlers_of_socket_io_servers_are_the_messages_their_clients_send():
    analysis = analyze(
        {
            "app/chat.py": """\
                from flask import Flask
                from flask_socketio import SocketIO

                app = Flask(__name__)
                socketio = SocketIO(app)


                @socketio.on("message")
                def handle_message(data):
                    pass


                @socketio.on("join", namespace="/chat")
                def on_join(data):
                    pass
            """,
            "app/realtime.py": """\
                import socketio

                sio = socketio.AsyncServer()


                @sio.event
                async def connect(sid, environ):
                    pass


                @sio.event
                async def typing(sid, data):
                    pass


                @sio.on("ping")
                async def ping(sid, data):
                    pass
            """,
            # A Server of another library is no Socket.IO server.
            "app/other.py": """\
                from events import Server

                bus = Server()


                @bus.on("tick")
                def tick():
                    pass
            """,
        }
    )
    assert entries_of(analysis) == {
        ("rpc_service", "socketio", "message", (), "app.chat.handle_message"),
        ("rpc_service", "socketio", "join", (), "app.chat.on_join"),
        ("rpc_service", "socketio", "typing", (), "app.realtime.typing"),
        ("rpc_service", "socketio", "ping", (), "app.realtime.ping"),
    }


def test_strawberry_resolvers_of_root_types_are_operations_named_as_strawberry_names_them():
    analysis = analyze(
        {
            "app/schema.py": """\
                import strawberry


                @strawberry.type
                class Query:
                    @strawberry.field
                    def all_books(self) -> list[str]:
                        return []

                    @strawberry.field(name="topBook")
                    def best(self) -> str:
                        return ""


                @strawberry.type
                class Mutation:
                    @strawberry.mutation
                    def add_book(self, title: str) -> str:
                        return title


                @strawberry.type
                class Book:
                    @strawberry.field
                    def author(self) -> str:
                        return ""
            """
        }
    )
    assert entries_of(analysis) == {
        ("rpc_service", "strawberry", "Query.allBooks", (), "app.schema.Query.all_books"),
        ("rpc_service", "strawberry", "Query.topBook", (), "app.schema.Query.best"),
        ("rpc_service", "strawberry", "Mutation.addBook", (), "app.schema.Mutation.add_book"),
    }


def test_graphene_and_ariadne_resolvers_of_root_types_are_operations():
    analysis = analyze(
        {
            "app/schema.py": """\
                import graphene
                from app.products import ProductQueries


                class Query(ProductQueries, graphene.ObjectType):
                    hello = graphene.String()

                    def resolve_hello(root, info):
                        return "hi"


                class Book(graphene.ObjectType):
                    title = graphene.String()

                    def resolve_title(root, info):
                        return ""
            """,
            "app/products.py": """\
                import graphene

                from app.mutations import ProductCreate, ProductDelete


                class ProductQueries(graphene.ObjectType):
                    all_products = graphene.List(graphene.String)

                    def resolve_all_products(root, info):
                        return []


                class Mutation(graphene.ObjectType):
                    product_create = ProductCreate.Field()
                    product_delete = ProductDelete.Field()
                    description = graphene.String()
            """,
            "app/mutations.py": """\
                import graphene


                class ProductCreate(graphene.Mutation):
                    ok = graphene.Boolean()

                    def mutate(root, info, name):
                        return ProductCreate(ok=True)


                class ProductDelete(graphene.Mutation):
                    ok = graphene.Boolean()
            """,
            "app/resolvers.py": """\
                from ariadne import MutationType, QueryType

                query = QueryType()
                mutation = MutationType()


                @query.field("books")
                def resolve_books(*_):
                    return []


                @mutation.field("addBook")
                def resolve_add_book(*_, title):
                    return title
            """,
        }
    )
    assert entries_of(analysis) == {
        ("rpc_service", "graphene", "Query.hello", (), "app.schema.Query.resolve_hello"),
        ("rpc_service", "graphene", "Query.allProducts", (), "app.products.ProductQueries.resolve_all_products"),
        ("rpc_service", "graphene", "Mutation.productCreate", (), "app.mutations.ProductCreate.mutate"),
        ("rpc_service", "graphene", "Mutation.productDelete", (), "app.mutations.ProductDelete"),
        ("rpc_service", "ariadne", "Query.books", (), "app.resolvers.resolve_books"),
        ("rpc_service", "ariadne", "Mutation.addBook", (), "app.resolvers.resolve_add_book"),
    }


def test_routes_of_sanic_quart_bottle_aiohttp_and_django_ninja_are_their_apps_decorators():
    analysis = analyze(
        {
            "app/server.py": """\
                from aiohttp import web
                from bottle import Bottle
                from ninja import NinjaAPI
                from quart import Quart
                from sanic import Sanic

                sanic_app = Sanic("shop")
                quart_app = Quart(__name__)
                bottle_app = Bottle()
                routes = web.RouteTableDef()
                api = NinjaAPI()
                registry = dict()


                @sanic_app.get("/ping")
                async def ping(request):
                    pass


                @quart_app.route("/items", methods=["POST"])
                async def items():
                    pass


                @bottle_app.route("/hello")
                def hello():
                    pass


                @routes.get("/health")
                async def health(request):
                    pass


                @api.post("/add")
                def add(request, a: int, b: int):
                    pass


                @registry.get("/nothing")
                def nothing():
                    pass
            """
        }
    )
    assert entries_of(analysis) == {
        ("http_route", "sanic", "/ping", ("GET",), "app.server.ping"),
        ("http_route", "quart", "/items", ("POST",), "app.server.items"),
        ("http_route", "bottle", "/hello", ("GET",), "app.server.hello"),
        ("http_route", "aiohttp", "/health", ("GET",), "app.server.health"),
        ("http_route", "ninja", "/add", ("POST",), "app.server.add"),
    }


def test_a_django_ninja_api_serves_under_the_path_its_urlconf_mounts_its_urls_at():
    analysis = analyze(
        {
            "shop/api.py": """\
                from ninja import NinjaAPI

                api = NinjaAPI()


                @api.get("/add")
                def add(request, a: int, b: int):
                    return a + b
            """,
            "shop/urls.py": """\
                from django.urls import path

                from shop.api import api
                from shop.views import home

                urlpatterns = [
                    path("", home),
                    path("api/v1/", api.urls),
                ]
            """,
            "shop/views.py": """\
                def home(request):
                    return None
            """,
        }
    )
    assert entries_of(analysis) == {
        ("http_route", "django", "/", (), "shop.views.home"),
        ("http_route", "ninja", "/api/v1/add", ("GET",), "shop.api.add"),
    }


def test_a_django_ninja_router_serves_under_the_prefix_its_api_adds_it_at():
    analysis = analyze(
        {
            "shop/orders/api.py": """\
                from ninja import Router

                router = Router()


                @router.post("/")
                def create(request):
                    return None
            """,
            "shop/api.py": """\
                from ninja import NinjaAPI

                from shop.orders.api import router as orders_router

                api = NinjaAPI()
                api.add_router("/orders/", orders_router)
            """,
            "shop/urls.py": """\
                from django.urls import path

                from shop.api import api

                urlpatterns = [path("api/", api.urls)]
            """,
            # A Router of another library is no route table.
            "shop/events.py": """\
                from bus import Router

                events = Router()


                @events.post("/ignored")
                def on_event(message):
                    return None
            """,
        }
    )
    assert entries_of(analysis) == {("http_route", "ninja", "/api/orders/", ("POST",), "shop.orders.api.create")}


def test_django_includes_compose_prefixes_and_resolve_views_through_imports():
    analysis = analyze(
        {
            "site/urls.py": """\
                from django.urls import include, path

                from blog import urls as blog_urls

                extra = [path("about/", "blog.views.about")]

                urlpatterns = [
                    path("blog/", include(blog_urls)),
                    path("api/", include(("api.urls", "api"), namespace="api")),
                    path("", include(extra)),
                    path("nested/", include([path("deep/", include("blog.urls"))])),
                ]
            """,
            "blog/__init__.py": "",
            "blog/views.py": """\
                from django.views.decorators.http import require_POST


                @require_POST
                def publish(request):
                    return None


                def about(request):
                    return None
            """,
            "blog/urls.py": """\
                from django.urls import re_path

                from blog.views import publish

                urlpatterns = [re_path(r"^publish/(?P<pk>\\d+)/$", publish)]
            """,
        }
    )
    assert entries_of(analysis) == {
        ("http_route", "django", "/blog/publish/(?P<pk>\\d+)/", ("POST",), "blog.views.publish"),
        ("http_route", "django", "/api/", (), None),
        ("http_route", "django", "/about/", (), "blog.views.about"),
        ("http_route", "django", "/nested/deep/publish/(?P<pk>\\d+)/", ("POST",), "blog.views.publish"),
    }
    assert {(e.route_or_command, e.path, e.start_line) for e in analysis.entrypoints()} == {
        ("/blog/publish/(?P<pk>\\d+)/", "blog/urls.py", 5),
        ("/api/", "site/urls.py", 9),
        ("/about/", "site/urls.py", 5),
        ("/nested/deep/publish/(?P<pk>\\d+)/", "blog/urls.py", 5),
    }


def test_rest_framework_routers_serve_the_actions_of_their_viewsets_where_they_are_included():
    analysis = analyze(
        {
            "shop/urls.py": """\
                from django.urls import include, path
                from rest_framework.routers import DefaultRouter

                from shop import views

                router = DefaultRouter()
                router.register(r"users", views.UserViewSet, basename="user")
                router.register("orders", views.OrderViewSet)
                admin.site.register("orders", views.OrderViewSet)

                urlpatterns = [path("api/", include(router.urls))]
            """,
            "shop/views.py": """\
                from rest_framework import mixins, viewsets
                from rest_framework.decorators import action


                class AccountViewSet(viewsets.ModelViewSet):
                    lookup_field = "username"

                    def destroy(self, request, pk=None):
                        return None


                class UserViewSet(AccountViewSet):
                    def list(self, request):
                        return None

                    @action(detail=True, methods=["post"], url_path="set-password")
                    def set_password(self, request, pk=None):
                        return None


                class OrderViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
                    lookup_field = "id"
                    lookup_url_kwarg = "number"

                    @action(detail=False)
                    def recent(self, request):
                        return None
            """,
            # A router no URLconf includes by name: its URLs added to a list as they are.
            "blog/urls.py": """\
                from rest_framework import routers

                from blog.api import PostViewSet

                router = routers.SimpleRouter()
                router.register("posts", PostViewSet)
                urlpatterns = []
                urlpatterns += router.urls
            """,
            "blog/api.py": """\
                from rest_framework.viewsets import ReadOnlyModelViewSet


                class PostViewSet(ReadOnlyModelViewSet):
                    pass
            """,
        }
    )
    users, orders = "shop.views.UserViewSet", "shop.views.OrderViewSet"
    assert entries_of(analysis) == {
        ("http_route", "drf", "/api/users/", ("GET",), f"{users}.list"),
        ("http_route", "drf", "/api/users/", ("POST",), users),
        ("http_route", "drf", "/api/users/{username}/", ("GET",), users),
        ("http_route", "drf", "/api/users/{username}/", ("PUT",), users),
        ("http_route", "drf", "/api/users/{username}/", ("PATCH",), users),
        # Inherited from the repository's own base, as is its ``lookup_field``.
        ("http_route", "drf", "/api/users/{username}/", ("DELETE",), "shop.views.AccountViewSet.destroy"),
        ("http_route", "drf", "/api/users/{username}/set-password/", ("POST",), f"{users}.set_password"),
        ("http_route", "drf", "/api/orders/", ("GET",), orders),
        ("http_route", "drf", "/api/orders/{number}/", ("GET",), orders),
        ("http_route", "drf", "/api/orders/recent/", ("GET",), f"{orders}.recent"),
        ("http_route", "drf", "/posts/", ("GET",), "blog.api.PostViewSet"),
        ("http_route", "drf", "/posts/{pk}/", ("GET",), "blog.api.PostViewSet"),
    }
    assert {(e.path, e.start_line) for e in analysis.entrypoints() if e.route_or_command == "/api/orders/"} == {("shop/urls.py", 8)}


def test_a_router_chosen_by_a_setting_and_included_as_a_module_serves_under_the_include():
    analysis = analyze(
        {
            "config/urls.py": """\
                from django.urls import include, path

                urlpatterns = [path("api/", include("config.api_router"))]
            """,
            "config/api_router.py": """\
                from django.conf import settings
                from rest_framework.routers import DefaultRouter, SimpleRouter

                from users.views import UserViewSet

                router = DefaultRouter() if settings.DEBUG else SimpleRouter()
                router.register("users", UserViewSet)
                urlpatterns = router.urls
            """,
            "users/views.py": """\
                from rest_framework.mixins import ListModelMixin
                from rest_framework.viewsets import GenericViewSet


                class UserViewSet(ListModelMixin, GenericViewSet):
                    pass
            """,
        }
    )
    assert entries_of(analysis) == {("http_route", "drf", "/api/users/", ("GET",), "users.views.UserViewSet")}


def test_a_grpc_servicer_added_to_a_server_is_an_rpc_service_served_by_its_class():
    analysis = analyze(
        {
            "greeter/server.py": """\
                import grpc

                from greeter import helloworld_pb2_grpc
                from greeter.service import Greeter


                def serve():
                    server = grpc.server(None)
                    helloworld_pb2_grpc.add_GreeterServicer_to_server(Greeter(), server)
                    server.start()
            """,
            "greeter/service.py": """\
                class Greeter:
                    def SayHello(self, request, context):
                        return None
            """,
        }
    )
    assert entries_of(analysis) == {("rpc_service", "grpc", "Greeter", (), "greeter.service.Greeter")}


def test_flask_restful_resources_answer_the_methods_they_define_at_each_url():
    analysis = analyze(
        {
            "api/resources.py": """\
                from flask import Flask
                from flask_restful import Api, Resource

                app = Flask(__name__)
                api = Api(app, prefix="/v1")


                class Todo(Resource):
                    def get(self, todo_id):
                        return {}

                    def delete(self, todo_id):
                        return "", 204


                api.add_resource(Todo, "/todos/<todo_id>", "/todo/<todo_id>")
            """,
        }
    )
    assert entries_of(analysis) == {
        ("http_route", "flask", "/v1/todos/<todo_id>", ("GET", "DELETE"), "api.resources.Todo"),
        ("http_route", "flask", "/v1/todo/<todo_id>", ("GET", "DELETE"), "api.resources.Todo"),
    }


def test_a_router_without_trailing_slashes_and_the_rest_frameworks_generic_views_answer_their_methods():
    analysis = analyze(
        {
            "articles/urls.py": """\
                from django.urls import include, re_path
                from rest_framework.routers import DefaultRouter

                from articles.views import ArticleViewSet, CommentsView, TagsView

                router = DefaultRouter(trailing_slash=False)
                router.register(r"articles", ArticleViewSet)

                urlpatterns = [
                    re_path(r"^api/", include(router.urls)),
                    re_path(r"^api/comments/?$", CommentsView.as_view()),
                    re_path(r"^api/tags/?$", TagsView.as_view()),
                ]
            """,
            "articles/views.py": """\
                from rest_framework import generics, mixins, viewsets


                class ArticleViewSet(mixins.RetrieveModelMixin, viewsets.GenericViewSet):
                    pass


                class CommentsView(generics.ListCreateAPIView):
                    def delete(self, request):
                        return None


                class TagsView(generics.ListAPIView):
                    pass
            """,
        }
    )
    assert entries_of(analysis) == {
        ("http_route", "drf", "/api/articles/{pk}", ("GET",), "articles.views.ArticleViewSet"),
        ("http_route", "django", "/api/comments/?", ("DELETE", "GET", "POST"), "articles.views.CommentsView"),
        ("http_route", "django", "/api/tags/?", ("GET",), "articles.views.TagsView"),
    }


def test_cli_entrypoints_from_argparse_setup_py_and_poetry_scripts():
    analysis = analyze(
        {
            "setup.py": """\
                from setuptools import setup

                setup(name="tool", entry_points={"console_scripts": ["tool = tool.main:run"]})
            """,
            "pyproject.toml": '[tool.poetry.scripts]\ntool-dev = "tool.main:run"\n',
            "tool/main.py": """\
                import argparse


                def run():
                    parser = argparse.ArgumentParser(description="no subcommands")
                    parser.parse_args()
            """,
            "tool/management/commands/_private.py": "class Command:\n    pass\n",
            "tool/management/commands/cleanup.py": "class Command:\n    pass\n",
        }
    )
    assert entries_of(analysis) == {
        ("cli_command", "console_scripts", "tool", (), "tool.main.run"),
        ("cli_command", "console_scripts", "tool-dev", (), "tool.main.run"),
        ("cli_command", "argparse", "main", (), "tool.main.run"),
        ("cli_command", "django", "cleanup", (), "tool.management.commands.cleanup.Command"),
    }
    setup_entry = next(e for e in analysis.entrypoints() if e.path == "setup.py")
    assert (setup_entry.start_line, setup_entry.handler_raw) == (3, "tool.main:run")


def test_click_commands_added_with_add_command_take_the_group_path():
    analysis = analyze(
        {
            "ops/cli.py": """\
                import click

                from ops.jobs import backup_group


                @click.group("ops")
                def main():
                    pass


                main.add_command(backup_group, "backup")
            """,
            "ops/jobs.py": """\
                import click


                @click.group()
                def backup_group():
                    pass


                @backup_group.command()
                def run_now():
                    pass
            """,
        }
    )
    assert {(e.route_or_command, e.handler) for e in analysis.entrypoints()} == {
        ("ops", "ops.cli.main"),
        ("ops backup", "ops.jobs.backup_group"),
        ("ops backup run-now", "ops.jobs.run_now"),
    }


def test_routes_registered_by_call_resolve_their_view_functions():
    analysis = analyze(
        {
            "web/views.py": """\
                class Health:
                    @classmethod
                    def as_view(cls, name):
                        return cls


                # A class view (Flask's MethodView): it answers the methods it defines.
                class Users:
                    @classmethod
                    def as_view(cls, name):
                        return cls

                    def get(self, user_id):
                        return user_id

                    def put(self, user_id):
                        return user_id


                def items():
                    return []
            """,
            "web/app.py": """\
                from fastapi import APIRouter
                from flask import Blueprint

                from web import views

                bp = Blueprint("web", __name__, url_prefix="/web")
                bp.add_url_rule("/items", view_func=views.items, methods=["GET", "POST"])
                bp.add_url_rule("/health", "health", views.Health.as_view("health"))
                bp.add_url_rule("/users/<int:user_id>", view_func=views.Users.as_view("users"))

                router = APIRouter(prefix="/api")
                router.add_api_route("/items", views.items, methods=["DELETE"])
            """,
        }
    )
    assert entries_of(analysis) == {
        ("http_route", "flask", "/web/items", ("GET", "POST"), "web.views.items"),
        ("http_route", "flask", "/web/health", ("GET",), "web.views.Health"),
        ("http_route", "flask", "/web/users/<int:user_id>", ("GET", "PUT"), "web.views.Users"),
        ("http_route", "fastapi", "/api/items", ("DELETE",), "web.views.items"),
    }


def test_flask_cli_commands_are_named_as_the_flask_command_runs_them():
    analysis = analyze(
        {
            "site/app.py": """\
                from flask import Blueprint, Flask

                app = Flask(__name__)
                admin = Blueprint("admin", __name__)


                @app.cli.command()
                def init_db_command():
                    pass


                @admin.cli.command("purge")
                def purge():
                    pass
            """
        }
    )
    assert entries_of(analysis) == {
        ("cli_command", "flask", "flask init-db", (), "site.app.init_db_command"),
        ("cli_command", "flask", "flask admin purge", (), "site.app.purge"),
    }


def test_calls_on_typed_instance_attributes_resolve_through_the_attribute_type():
    analysis = analyze(
        {
            "store/repo.py": """\
                class Repository:
                    def save(self, item):
                        return item


                class Cache:
                    def clear(self):
                        pass
            """,
            "store/service.py": """\
                from store.repo import Cache, Repository


                class Service:
                    cache: Cache

                    def __init__(self, repo: Repository):
                        self.repo = repo
                        self.backup = Repository()

                    def __call__(self):
                        return self()

                    def run(self):
                        self.repo.save(1)
                        self.backup.save(2)
                        self.cache.clear()
                        self.unknown.go()


                class Nightly(Service):
                    def run(self):
                        self.repo.save(3)
            """,
        }
    )
    assert {(e.src, e.raw, e.dst) for e in analysis.edges() if e.raw.startswith("self.")} == {
        ("store.service.Service.run", "self.repo.save", "store.repo.Repository.save"),
        ("store.service.Service.run", "self.backup.save", "store.repo.Repository.save"),
        ("store.service.Service.run", "self.cache.clear", "store.repo.Cache.clear"),
        ("store.service.Service.run", "self.unknown.go", None),
        ("store.service.Nightly.run", "self.repo.save", "store.repo.Repository.save"),
    }


def test_a_method_name_many_classes_define_resolves_by_its_receivers_type_and_never_to_the_caller_itself():
    # ``toString`` of every class: a call is looked up among that type's members (and its bases'), with the
    # calling definition itself left out, as a scan of every definition of the name would find it.
    files = {f"src/main/java/p/C{i}.java": f"package p;\nclass C{i} extends Base {{ public String toString() {{ C{(i + 1) % 50} next = null; return next.toString() + toString(); }} }}\n" for i in range(50)}
    files["src/main/java/p/Base.java"] = "package p;\nclass Base { public String describe() { return name(); } String name() { return toString(); } }\n"
    files["src/main/java/p/Use.java"] = "package p;\nclass Use { String use(C7 c) { return c.describe() + c.toString() + this.own(); } String own() { return \"\"; } }\n"
    analysis = analyze(files)

    assert ("calls", "p.C3.toString", "toString", "p.C4.toString") in edges_of(analysis, "p.C3")
    assert ("calls", "p.C49.toString", "toString", "p.C0.toString") in edges_of(analysis, "p.C49")
    assert edges_of(analysis, "p.Use") >= {
        ("calls", "p.Use.use", "describe", "p.Base.describe"),
        ("calls", "p.Use.use", "toString", "p.C7.toString"),
        ("calls", "p.Use.use", "own", "p.Use.own"),
    }
    # In Base, ``toString()`` names no member of Base or of a base of it: not one of the 50 subclasses'.
    assert ("calls", "p.Base.name", "toString", None) in edges_of(analysis, "p.Base")
