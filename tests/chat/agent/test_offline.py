"""Without a model: general questions say a model is needed; project questions are answered from the index."""

from __future__ import annotations

import pytest

from chat.agent.events import Citation
from chat.agent.general import OFFLINE_GENERAL_TEXT, OFFLINE_NO_REPOSITORY_TEXT
from tests.chat.agent.conftest import answer_text, make_turn, one, run_turn_to_end

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def offline(settings):
    settings.LLM = {**settings.LLM, "PROVIDER": "offline"}


def test_it_finds_where_the_login_view_is_defined(shopapp):
    events = run_turn_to_end(make_turn("where is the login view defined?", shopapp))

    assert one(events, "intent").intent == "project_qa"
    text = answer_text(events)
    assert text.startswith("No language model is configured")
    assert "The best match is the function `djshop.orders.views.login_view`, defined in `djshop/orders/views.py:10-18`" in text
    assert "`/accounts/login/`" in text and "`djshop/djshop/urls.py:8-8`" in text
    citations = one(events, "citations").citations
    assert citations[0] == Citation("djshop/orders/views.py", 10, 18, "C1_SYMBOL_CATALOG", citations[0].score)
    assert ("djshop/djshop/urls.py", 8, 8) in {(c.path, c.start_line, c.end_line) for c in citations}
    assert events[-1].type == "done"


def test_the_keyword_router_explains_its_choice_in_the_trace(shopapp):
    events = run_turn_to_end(make_turn("where is the login view defined?", shopapp))

    route = next(event for event in events if event.type == "step" and event.node == "route_intent")
    assert route.detail["method"] == "keywords"
    assert route.detail["reason"] == "asks about the code ('where')"
    nodes = [event.node for event in events if event.type == "step"]
    assert nodes == ["route_intent", "start_project_qa", "answer_from_index", "cite_sources", "project_qa"]
    assert [event.depth for event in events if event.type == "step"] == [0, 1, 1, 1, 0]


def test_a_general_question_says_a_model_is_needed():
    events = run_turn_to_end(make_turn("What is a Python decorator?", None))

    assert one(events, "intent").intent == "general"
    assert answer_text(events) == OFFLINE_NO_REPOSITORY_TEXT
    assert events[-1].type == "done"


def test_in_a_chat_with_a_repository_a_question_in_plain_words_is_answered_from_its_index(shopapp):
    events = run_turn_to_end(make_turn("How is the tax computed?", shopapp))

    assert one(events, "intent").intent == "project_qa"
    assert OFFLINE_GENERAL_TEXT not in answer_text(events)
    assert "src/shopapp/pricing.py" in {c.path for c in one(events, "citations").citations}


def test_small_talk_in_a_chat_with_a_repository_is_not_searched_for(shopapp):
    events = run_turn_to_end(make_turn("Thanks a lot!", shopapp))

    assert one(events, "intent").intent == "general"
    assert answer_text(events) == OFFLINE_GENERAL_TEXT


def test_a_project_question_before_the_index_is_ready_says_so(shopapp):
    from asgiref.sync import async_to_sync

    from database_pool import in_database_pool
    from rag.models import Repository

    # Committed, as an upload is: the turn reads it on a database thread of its own.
    create = in_database_pool(lambda: Repository.objects.create(owner=shopapp.owner, name="not indexed yet"))
    pending = async_to_sync(create)()
    try:
        events = run_turn_to_end(make_turn("where is the login view defined?", pending))
    finally:
        async_to_sync(in_database_pool(Repository.objects.filter(pk=pending.pk).delete))()

    assert one(events, "intent").intent == "project_qa"
    assert "no ready index yet" in answer_text(events)


def test_docs_and_edits_are_routed_to_their_graphs_without_a_model(shopapp):
    from chat.agent.docs.reference import NO_MODEL_LABEL
    from chat.agent.edits.graph import NEEDS_MODEL_TEXT

    docs = run_turn_to_end(make_turn("Write documentation for the checkout service", shopapp))
    edits = run_turn_to_end(make_turn("Refactor the checkout service to use dataclasses", shopapp))

    assert one(docs, "intent").intent == "docs"
    assert NO_MODEL_LABEL in answer_text(docs)
    assert one(docs, "artifact").detail["kind"] == "markdown"
    assert one(edits, "intent").intent == "edits"
    assert answer_text(edits).startswith(NEEDS_MODEL_TEXT)
    assert not [event for event in edits if event.type == "artifact"]


def test_another_users_repository_is_not_searched(shopapp):
    from tests.factories import make_user

    stranger = make_user("stranger")
    turn = make_turn("where is the login view defined?", shopapp)
    events = run_turn_to_end(type(turn)(**{**turn.__dict__, "user_id": stranger.pk}))

    assert one(events, "intent").intent == "general"
    assert "login_view" not in answer_text(events)


def test_it_names_the_call_sites_of_the_best_match(shopapp):
    events = run_turn_to_end(make_turn("what calls compute_tax?", shopapp))

    text = answer_text(events)
    assert "The best match is the function `shopapp.pricing.compute_tax`, defined in `src/shopapp/pricing.py:10-11`" in text
    assert (
        "`compute_tax` is called from:\n"
        "- `shopapp.cli.tax_command` at `src/shopapp/cli.py:23`\n"
        "- `shopapp.pricing.apply_discount` at `src/shopapp/pricing.py:19`\n"
        "- `shopapp.reports.tax_report` at `src/shopapp/reports.py:15`"
    ) in text
    cited = {(c.path, c.start_line, c.end_line) for c in one(events, "citations").citations}
    assert {("src/shopapp/cli.py", 23, 23), ("src/shopapp/pricing.py", 10, 11)} <= cited


# A small project in Go and C++: names that share words, a test beside the code.
POLYGLOT = {
    "go.mod": "module example.com/app\n",
    "util/must.go": "package util\n\n// Must panics on an error.\nfunc Must(err error) {\n\tif err != nil {\n\t\tpanic(err)\n\t}\n}\n",
    "rest/server.go": (
        "package rest\n\n// Server answers HTTP requests.\ntype Server struct{ port int }\n\n"
        "// MustNewServer returns a server on the port, or panics.\n"
        "func MustNewServer(port int) *Server {\n\treturn &Server{port: port}\n}\n"
    ),
    "cmd/api/main.go": (
        'package main\n\nimport "example.com/app/rest"\n\nfunc main() {\n\tserver := rest.MustNewServer(8080)\n\t_ = server\n}\n'
    ),
    "apitest/server_test.go": (
        'package apitest\n\nimport (\n\t"testing"\n\n\t"example.com/app/rest"\n)\n\n'
        + "".join(f"func TestServer{n}(t *testing.T) {{\n\t_ = rest.MustNewServer({n})\n}}\n\n" for n in range(6))
    ),
    "codec/encode.go": "package codec\n\n// EncodeMap writes a map as JSON.\nfunc EncodeMap(m map[string]int) string {\n\treturn \"{}\"\n}\n",
    "codec/encode_test.go": (
        'package codec\n\nimport "testing"\n\nfunc TestSerializeMap(t *testing.T) {\n\tif EncodeMap(nil) != "{}" {\n\t\tt.Fail()\n\t}\n}\n'
    ),
    "include/fmt/format.h": "// Formats a value.\ntemplate <typename T>\nauto format(T value) -> int { return 0; }\n",
    "include/fmt/compile.h": "// Formats into an output iterator.\ntemplate <typename Out>\nauto format_to(Out out) -> Out { return out; }\n",
}


def _indexed(files: dict[str, str], name: str, tmp_path_factory, django_db_blocker):
    """``files`` indexed and committed, as an upload is: a turn reads it on database threads of its own."""
    from tests.chat.conftest import indexed_shopapp
    from tests.rag.conftest import make_zip

    return indexed_shopapp(f"{name}-owner", tmp_path_factory, django_db_blocker, name=name, archive=make_zip(files))


def _indexed_fixture(files: dict[str, str], name: str):
    """A module's fixture: ``files`` indexed once, as the repository of a user named for ``name``."""

    @pytest.fixture(scope="module")
    def repository(django_db_setup, django_db_blocker, tmp_path_factory):
        with _indexed(files, name, tmp_path_factory, django_db_blocker) as indexed:
            yield indexed

    return repository


polyglot = _indexed_fixture(POLYGLOT, "api")


def test_a_name_written_in_camel_case_is_the_best_match_not_the_name_of_its_first_word(polyglot):
    text = answer_text(run_turn_to_end(make_turn("Who calls MustNewServer?", polyglot)))

    assert "The best match is the function `rest.MustNewServer`, defined in `rest/server.go:7-9`" in text
    # Its caller in the code first, though six tests call it too and come before it by name.
    assert "`MustNewServer` is called from:\n- `cmd.api.main` at `cmd/api/main.go:6`\n- `apitest.TestServer0`" in text


def test_a_name_written_the_way_cpp_qualifies_it_is_the_best_match(polyglot):
    text = answer_text(run_turn_to_end(make_turn("Where is fmt::format_to defined?", polyglot)))

    assert "The best match is the function `format_to`, defined in `include/fmt/compile.h:3-3`" in text


def test_code_comes_before_its_tests_unless_the_question_is_about_tests(polyglot):
    code = answer_text(run_turn_to_end(make_turn("How does the code serialize a map?", polyglot)))
    tests = answer_text(run_turn_to_end(make_turn("Which function tests how a map is serialized?", polyglot)))

    assert "The best match is the function `codec.EncodeMap`" in code
    assert "The best match is the function `codec.TestSerializeMap`" in tests


def test_a_question_about_the_routes_lists_them(shopapp):
    routes = answer_text(run_turn_to_end(make_turn("What HTTP routes does the project define?", shopapp)))
    commands = answer_text(run_turn_to_end(make_turn("Which commands does the CLI have?", shopapp)))

    assert "- http route `/health/` (GET) handled by `djshop.orders.views.health`" in routes
    assert "- http route `/orders/` (GET) handled by `djshop.orders.views.OrderListView`" in routes
    assert "- cli command `" in commands and "- http route" not in commands


# Background work and a GraphQL schema, in three languages.
WORKERS = {
    "app/workers/receipt_job.rb": "class ReceiptJob\n  include Sidekiq::Job\n\n  def perform(order_id)\n  end\nend\n",
    "src/main/java/shop/Listeners.java": (
        'package shop;\n\npublic class Listeners {\n  @KafkaListener(topics = "orders")\n'
        "  public void onOrder(String message) {}\n}\n"
    ),
    "graph/schema.resolvers.go": (
        "package graph\n\nfunc (r *mutationResolver) CreateTodo(ctx context.Context, text string) (*Todo, error) {\n"
        "\treturn nil, nil\n}\n"
    ),
}
workers = _indexed_fixture(WORKERS, "workers")


def test_a_question_about_background_jobs_or_graphql_lists_the_tasks_or_operations_of_any_language(workers):
    jobs = answer_text(run_turn_to_end(make_turn("Which consumers are there?", workers)))
    graphql = answer_text(run_turn_to_end(make_turn("Show the GraphQL resolvers.", workers)))

    assert "- task `ReceiptJob` handled by `ReceiptJob#perform`" in jobs
    assert "- task `orders` handled by `shop.Listeners#onOrder`" in jobs
    assert "- rpc service `Mutation.createTodo` handled by `graph.mutationResolver.CreateTodo`" in graphql
    assert "- task" not in graphql


def test_a_span_is_quoted_by_its_code_and_a_span_of_imports_alone_is_not_worth_reading(polyglot):
    serialize = answer_text(run_turn_to_end(make_turn("How does the code serialize a map?", polyglot)))
    imports = answer_text(run_turn_to_end(make_turn("How does main import the rest package?", polyglot)))

    # The span starts at the function's doc comment; it is quoted by the function's first line.
    assert "- `codec/encode.go:3-6`: `func EncodeMap(m map[string]int) string {`" in serialize
    worth_reading = imports.split("Code worth reading:\n", 1)[1]
    assert "- `cmd/api/main.go:5-8`: `func main() {`" in worth_reading
    assert "`package " not in worth_reading and "`import" not in worth_reading


# A tool whose command line is one file, and a token class with a method named by one of the question's words.
TOOL = {
    "tool/lexer.py": (
        "class Token:\n    \"\"\"A lexical token.\"\"\"\n\n    def line(self):\n"
        "        \"\"\"The token's line number.\"\"\"\n        return self.row\n"
    ),
    "tool/cli.py": (
        "\"\"\"The tool's command line: argument parsing and the entry point.\"\"\"\n\nimport argparse\n\n\n"
        "def main(argv=None):\n    \"\"\"Run the command line: parse the arguments and dispatch the command.\"\"\"\n"
        "    parser = argparse.ArgumentParser(description=\"command line tool\")\n"
        "    parser.add_argument(\"command\")\n    return parser.parse_args(argv)\n"
    ),
    "tool/settings.py": (
        "def load(path):\n    \"\"\"Read the settings file.\"\"\"\n    with open(path) as handle:\n        text = handle.read()\n"
        "    # The retry delay when the settings file sets none: five seconds between retries.\n"
        "    retry_delay = 5\n    return text, retry_delay\n"
    ),
    "tool/errors.py": "class Failure(Exception):\n    def delay(self):\n        \"\"\"Seconds.\"\"\"\n        return 1\n",
}


tool = _indexed_fixture(TOOL, "tool")


def test_the_best_match_is_in_the_file_the_ranking_puts_first_not_the_name_that_holds_a_question_word(tool):
    text = answer_text(run_turn_to_end(make_turn("Where is the command line defined?", tool)))

    # The file list of ``search_code`` leads with the command line's file; a method named ``line`` is no match for it.
    assert "The best match is the function `tool.cli.main`, defined in `tool/cli.py:6-10`" in text


def test_a_definition_found_by_its_code_alone_can_be_the_best_match(tool):
    text = answer_text(run_turn_to_end(make_turn("What is the retry delay when the settings set none?", tool)))

    # ``load``'s name, signature and doc hold none of the question's words; its code does.
    assert "The best match is the function `tool.settings.load`, defined in `tool/settings.py:1-7`" in text


# A Rust source file with its tests in a module of their own, as Rust writes them: the tests' helper
# is named and documented in the question's words.
RUST_TESTS_INSIDE = {
    "Cargo.toml": '[package]\nname = "detect"\nversion = "0.1.0"\n',
    "src/lib.rs": "pub mod detect;\n",
    "src/detect.rs": (
        "/// The language a path is written in.\npub fn language_of(path: &str) -> String {\n    path.to_string()\n}\n\n"
        "#[cfg(test)]\nmod tests {\n    use super::*;\n\n    struct SyntaxDetection;\n\n    impl SyntaxDetection {\n"
        "        /// Detects the syntax for a file name.\n"
        "        fn detects_syntax_for_file(&self, name: &str) -> String {\n            language_of(name)\n        }\n    }\n\n"
        "    #[test]\n    fn by_name() {\n        assert_eq!(SyntaxDetection.detects_syntax_for_file(\"a\"), \"a\");\n    }\n}\n"
    ),
}


rust_tests_inside = _indexed_fixture(RUST_TESTS_INSIDE, "detect")


def test_a_helper_in_a_module_of_tests_inside_a_source_file_is_no_best_match_for_a_question_about_the_code(rust_tests_inside):
    text = answer_text(run_turn_to_end(make_turn("Which function detects the syntax for a file name?", rust_tests_inside)))

    assert "The best match is the method `crate::detect::tests::SyntaxDetection::detects_syntax_for_file`" not in text
    assert "- method `crate::detect::tests::SyntaxDetection::detects_syntax_for_file`" in text


# A command and a route named otherwise than the code that handles them, beside code named with the same words.
NAMED_ENTRYPOINTS: dict[str, str] = {
    "go.mod": "module example.com/tool\n",
    "cmd/root.go": (
        'package cmd\n\nimport (\n\t"github.com/spf13/cobra"\n\t"example.com/tool/cmd/cleanup"\n)\n\n'
        'func NewCmdRoot() *cobra.Command {\n\tcmd := &cobra.Command{Use: "tool"}\n\tcmd.AddCommand(cleanup.NewCmdCleanup())\n'
        "\treturn cmd\n}\n"
    ),
    "cmd/cleanup/cleanup.go": (
        'package cleanup\n\nimport (\n\t"github.com/spf13/cobra"\n\t"example.com/tool/cmd/cleanup/everything"\n)\n\n'
        'func NewCmdCleanup() *cobra.Command {\n\tcmd := &cobra.Command{Use: "purge"}\n\tcmd.AddCommand(everything.NewCmdEverything())\n'
        "\treturn cmd\n}\n"
    ),
    "cmd/cleanup/everything/everything.go": (
        'package everything\n\nimport "github.com/spf13/cobra"\n\n'
        'func NewCmdEverything() *cobra.Command {\n\treturn &cobra.Command{Use: "all", RunE: run}\n}\n\n'
        "func run(cmd *cobra.Command, args []string) error { return nil }\n"
    ),
    "internal/purge/all.go": "package purge\n\n// PurgeAll purges all the caches.\nfunc PurgeAll() error { return nil }\n",
    "web/server.js": (
        "const express = require('express');\nconst shipments = require('./shipments');\nconst app = express();\n"
        "app.use('/api/orders', shipments);\n"
    ),
    "web/shipments.js": (
        "const router = require('express').Router();\nrouter.post('/', addShipment);\nrouter.get('/', listShipments);\n"
        "function addShipment(req, res) { res.json({}); }\nfunction listShipments(req, res) { res.json([]); }\n"
        "module.exports = router;\n"
    ),
    "web/orders.js": "// The API's orders.\nfunction apiOrders() { return []; }\nmodule.exports = { apiOrders };\n",
}


named_entrypoints = _indexed_fixture(NAMED_ENTRYPOINTS, "purger")


@pytest.mark.parametrize(
    ("question", "best"),
    [
        ("How does `tool purge all` work?", "The best match is the function `cmd.cleanup.everything.run`"),
        ("What handles GET /api/orders/?", "The best match is the function `web.shipments.listShipments`"),
        ("Which function answers POST /api/orders", "The best match is the function `web.shipments.addShipment`"),
    ],
)
def test_the_handler_of_an_entrypoint_the_question_names_is_the_best_match(named_entrypoints, question, best):
    text = answer_text(run_turn_to_end(make_turn(question, named_entrypoints)))

    assert best in text


def test_a_quoted_text_is_shown_where_it_is_written(shopapp):
    events = run_turn_to_end(make_turn('Where do we handle the "WELCOME10" code and `login_view`?', shopapp))

    text = answer_text(events)
    written = text.split("\u201cWELCOME10\u201d is written at:\n", 1)[1].split("\n\n")[0]
    assert written.splitlines() == [
        '- `src/shopapp/pricing.py:7`: `DISCOUNT_CODES = {"WELCOME10": 10, "VIP25": 25}`',
        '- `tests/test_checkout.py:11`: `assert apply_discount(order, "WELCOME10") == 1080`',
    ]
    # A quoted name that is a definition is shown as the definition, not line by line.
    assert "`login_view` is written at" not in text and "login_view" in text
    assert ("src/shopapp/pricing.py", 7, 7) in {(c.path, c.start_line, c.end_line) for c in one(events, "citations").citations}
