"""Code no one would write, made of the pieces the analysis reads (imports, routes, mounts, tasks, GraphQL
roots, manifests), in the files whose path means something (a file route, a program, a manifest): every
repository of them is analysed whole, and no file is one the analysis failed on (such a file would be read
as lines, the others analysed: the fault would not show otherwise)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rag.analysis.repository import analyze_repository

PIECES = {
    "pages/api/[...route].ts": [
        "app.get('/x', h)\n", "app.post(`/t`, (c) => c)\n", "const app = new Hono()\n", "export default app\n",
        "app.route('/b', books)\n", "import { books } from './b'\n", "export * as ns from './n'\n",
        "export function GET() {}\n", "server.route([{ method: 'GET', path: '/p', handler: h }])\n",
        "import", "export", "*", "as", "from", "'./a'", "'hono'", "'express'", "'fastify'", "{", "}", "(", ")", "[", "]",
        "=>", "const", "app", "=", "new", "Hono", "()", ".get", ".post", ".route", ".use", "('/x'", ",", "h", "function",
        "class", "@Query", "@Cron", "@Get", "('/y')", "m()", "{}", "Query:", "Mutation:", "default", ";", "\n", "async",
        "`/t`", "${x}", ".basePath", "register", "server.route", "method:", "path:", "handler:", "'GET'", "Worker",
        "require", "module.exports", "axios.create", "api",
    ],
    "cmd/api/main.go": [
        "package main\n", 'r.Get("/x", h)\n', 'r.Mount("/m", sub())\n', 'mux.HandleFunc("GET /i/{id}", h)\n',
        "func (r *queryResolver) Todos() {}\n", "import", '"github.com/go-chi/chi/v5"', '"github.com/hibiken/asynq"', '"net/http"', "func",
        "(r *queryResolver)", "Todos", "()", "{", "}", "r.Get", '("/x"', ",", "h)", "r.Mount", "r.Route",
        "mux.HandleFunc", '("email:x"', "c.AddFunc", "\n", "r.Group", ":=", "x", "return", "handlers.New()",
    ],
    "app/jobs/job.rb": [
        "class", "Foo", "<", "ApplicationJob", "include", "Sidekiq::Job", "def", "perform", "end", "\n", "field",
        ":all_posts", "QueryType", "Types::", "get", "'/x'", "do", "resources", ":photos", "namespace", ":admin",
    ],
    "src/main/java/p/A.java": [
        "package p;", "class", "A", "{", "}", "@Scheduled", '@KafkaListener(topics = {"a"})', '@GetMapping("/x")',
        "@FeignClient", "interface", "void", "m()", "(", ")", ";", "\n", "extends", "Worker", "doWork", "public",
        '@RequestMapping("/p")', "import p.B;",
    ],
    "src/main.rs": [
        "use", "actix_web::web::{get, scope};", "fn", "main()", "{", "}", "App::new()", ".route(", '"/x"', ",", "get()",
        ".to(h)", ")", "scope(", '"/s")', ".service(", "resource(", "Router::new()", "get(h)", ".nest(", "\n", ";",
        '#[get("/")]', "mod a;", "use crate::a::h;",
    ],
    "Program.cs": [
        "class", "W", ":", "BackgroundService", "{", "}", "ExecuteAsync()", "RecurringJob.AddOrUpdate(", '"id"', ",",
        "() => x", ")", ";", '[Function("F")]', "void", "M(", '[TimerTrigger("x")] T t', "app.MapGet(", '"/x"',
        "app.MapGrpcService<S>()", "\n", "namespace N;", "using N;",
    ],
    "app/schema.py": [
        "import graphene\n", "import strawberry\n", "class", "Query", "(graphene.ObjectType)", ":", "\n", "    ", "def",
        "resolve_x", "(self)", "pass", "@strawberry.field", "@app.get('/x')", "x = X.Field()", "@huey.task()",
        "huey = RedisHuey()",
    ],
    "app/Jobs/J.php": [
        "<?php\n", "class", "J", "implements", "ShouldQueue", "{", "}", "public function handle()", "#[AsCommand(name: 'x')]",
        "use Symfony\\Component\\Console\\Command\\Command;", "Route::get('/x', fn() => 1);", "\n", ";",
    ],
    "Sources/App/routes.swift": [
        "import Vapor\n", "app.get(", '"x"', ", use: h)", "let g = routes.grouped(", '"api")', "g.get(use: h)",
        "@main struct A { static func main() {} }", "func h(req: Request) {}", "{", "}", "(", ")", "\n",
    ],
    "src/main/scala/a/Main.scala": [
        "package a\n", "import a.b.C\n", "import org.http4s._\n", "object Main extends App", 'path("x") {', "get {",
        'complete("ok")', 'case GET -> Root / "x" =>', "HttpRoutes.of[IO] {", "{", "}", "(", ")", "\n",
    ],
    "lib/main.dart": [
        "import 'package:shelf_router/shelf_router.dart';\n", "import 'package:a/b.dart';\n", "void main() {}",
        "router.get('/x', h);", "final router = Router()", "..get('/y', h)", "class A extends B {}", "part 'a.g.dart';",
        "{", "}", "(", ")", "\n",
    ],
    "lib/app_web/router.ex": [
        "defmodule AppWeb.Router do\n", "use Phoenix.Router\n", 'scope "/api", AppWeb do\n', 'get "/x", XController, :show\n',
        'resources "/users", UserController\n', "defmodule Mix.Tasks.Db.Seed do", "def run(_), do: 1", "use Oban.Worker",
        "do", "end", "\n",
    ],
    "app.lua": [
        'local lapis = require("lapis")\n', "local app = lapis.Application()\n", 'app:get("/x", function(self) end)\n',
        "local M = {}", "function M.f() end", "return M", 'vim.api.nvim_create_user_command("X", f, {})', "function",
        "end", "(", ")", "\n",
    ],
    "scripts/deploy.sh": [
        "#!/bin/bash\n", 'case "$1" in', "start)", "run_it", ";;", "esac", "source ./lib.sh", "f() {", "}", "shift", "\n",
    ],
}
MANIFESTS = {
    "package.json": ['{"name": "a", "scripts": {"dev": "x"}}', "{", "[]", '{"bin": 3}'],
    "go.mod": ["module app\n", "module\n", ""],
    "pubspec.yaml": ["name: a\n", "name:\n", ""],
    "Cargo.toml": ['[package]\nname = "a"\n', "[[bin]]\nname = 3\n", "[", "bin = 3\nexample = true\n"],
}


def _soup(pieces: list[str]) -> st.SearchStrategy[str]:
    return st.lists(st.sampled_from(pieces), min_size=3, max_size=60).map(" ".join)


REPOSITORIES = st.fixed_dictionaries({
    **{path: _soup(pieces) for path, pieces in PIECES.items()},
    **{path: st.sampled_from(texts) for path, texts in MANIFESTS.items()},
})


@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(REPOSITORIES)
def test_any_repository_of_the_pieces_the_analysis_reads_is_analysed_without_an_error(files):
    # The same text also as an App Router route and a SvelteKit endpoint: files whose path is a route.
    files = {**files, "app/api/x/route.ts": files["pages/api/[...route].ts"], "src/routes/+server.ts": files["pages/api/[...route].ts"]}
    analysis = analyze_repository(files)

    assert set(analysis.files) == set(files)
    assert [f.error for f in analysis.files.values() if f.error and f.error.startswith("the analysis failed")] == []
