"""The project tools over a repository in Java, Rust, Go and an Android app: names, kinds and counts in each
language's own words."""

from __future__ import annotations

import pytest

from chat.agent.config import AgentConfig
from chat.agent.tools import ProjectToolbox
from llm.types import ToolCall

pytestmark = pytest.mark.django_db

# More callers than a list shows, so the tools have to say how many they leave out.
CALLERS = 64

PROJECT = {
    "src/main/java/com/shop/Cart.java": (
        "package com.shop;\n\n/** A customer's cart. */\npublic class Cart {\n"
        "    /** The cart's total in cents. */\n    public int total() { return 0; }\n}\n"
    ),
    "src/main/java/com/shop/Checkout.java": (
        "package com.shop;\n\npublic class Checkout {\n"
        + "".join(f"    public int pay{n}(Cart cart) {{ return cart.total(); }}\n" for n in range(CALLERS))
        + "}\n"
    ),
    "src/main/java/com/shop/Priced.java": "package com.shop;\n\npublic interface Priced {\n    int total();\n}\n",
    "crates/walk/Cargo.toml": '[package]\nname = "walk"\n',
    "crates/walk/src/lib.rs": (
        "/// Builds a walk over a tree.\npub struct WalkBuilder { depth: usize }\n\n"
        "/// Whether a walk goes on.\npub enum WalkState { Continue, Quit }\n\n"
        "/// What a visitor does.\npub trait Visitor { fn visit(&mut self); }\n"
    ),
    "go.mod": "module example.com/app\n",
    "rest/server.go": (
        "package rest\n\n// Server answers HTTP requests.\ntype Server struct{ port int }\n\n"
        "// Start listens.\nfunc (s *Server) Start() {}\n"
    ),
    "cmd/greet/main.go": (
        'package main\n\nimport (\n\t"google.golang.org/grpc"\n\n\tpb "example.com/app/greet"\n)\n\n'
        "type server struct{}\n\nfunc main() {\n\ts := grpc.NewServer()\n\tpb.RegisterGreeterServer(s, &server{})\n}\n"
    ),
    "web/routes.go": (
        'package web\n\nimport "net/http"\n\nfunc Routes(mux *http.ServeMux) {\n'
        "\tmux.HandleFunc(\"/health\", func(w http.ResponseWriter, r *http.Request) {})\n"
        "\tmux.HandleFunc(\"/login\", auth.Login)\n}\n"
    ),
    # A test's own type of the same name, in a folder that sorts first.
    "a_test/server_test.go": "package a_test\n\ntype Server struct{}\n",
    "app/src/main/AndroidManifest.xml": (
        '<manifest xmlns:android="http://schemas.android.com/apk/res/android" package="com.shop.app">\n'
        "  <application>\n"
        '    <activity android:name=".ShopActivity">\n'
        '      <intent-filter><action android:name="android.intent.action.MAIN" />'
        '<category android:name="android.intent.category.LAUNCHER" /></intent-filter>\n'
        '      <intent-filter><action android:name="android.intent.action.VIEW" />'
        '<data android:scheme="https" android:host="shop.example.com" android:pathPrefix="/carts" /></intent-filter>\n'
        "    </activity>\n"
        "  </application>\n"
        "</manifest>\n"
    ),
    "app/src/main/java/com/shop/app/ShopActivity.kt": "package com.shop.app\n\nclass ShopActivity : Activity()\n",
}


@pytest.fixture(scope="module")
def project(django_db_setup, django_db_blocker, tmp_path_factory):
    from tests.chat.conftest import indexed_shopapp
    from tests.rag.conftest import make_zip

    with indexed_shopapp("languages-owner", tmp_path_factory, django_db_blocker, name="shop", archive=make_zip(PROJECT)) as repository:
        yield repository


def call(project, tool: str, **arguments) -> str:
    outcome = ProjectToolbox(project, AgentConfig(), window_tokens=8192).call_sync(ToolCall(id="call_1", name=tool, arguments=arguments))
    assert not outcome.error, outcome.content
    return outcome.content


def test_callers_are_named_as_their_language_writes_them_and_the_list_says_what_it_leaves_out(project):
    lines = call(project, "callers", symbol="com.shop.Cart#total").splitlines()

    assert lines[0] == f"the first 60 of {CALLERS} callers of 'com.shop.Cart#total' (depth up to 1):"
    assert len(lines) == 61
    assert lines[1] == (
        "- depth 1: com.shop.Checkout#pay0  [com.shop.Checkout#pay0 -> com.shop.Cart#total "
        "at src/main/java/com/shop/Checkout.java:4]"
    )


def test_references_are_named_as_their_language_writes_them_and_counted(project):
    lines = call(project, "find_references", symbol="Cart#total").splitlines()

    assert lines[0] == f"the first 60 of {CALLERS} references to 'Cart#total':"
    assert lines[1] == "- calls: com.shop.Checkout#pay0 at src/main/java/com/shop/Checkout.java:4  [total]"


def test_a_definition_says_the_kind_of_type_its_language_declares(project):
    assert "- struct walk::WalkBuilder at crates/walk/src/lib.rs:2-2" in call(project, "get_symbol", name="WalkBuilder")
    assert "- enum walk::WalkState at" in call(project, "get_symbol", name="WalkState")
    assert "- trait walk::Visitor at" in call(project, "get_symbol", name="Visitor")
    assert "- interface com.shop.Priced at" in call(project, "get_symbol", name="Priced")
    assert "- struct rest.Server at rest/server.go:4-4" in call(project, "get_symbol", name="Server")
    cart = call(project, "get_symbol", name="Cart")
    assert cart.startswith("1 definition of 'Cart':\n- class com.shop.Cart at")


def test_a_go_name_is_found_in_the_forms_go_writes_it_and_the_code_comes_before_its_tests(project):
    assert call(project, "get_symbol", name="Server").startswith("2 definitions of 'Server':\n- struct rest.Server at rest/server.go:4-4")
    imported = call(project, "get_symbol", name="example.com/app/rest.Server")
    assert imported.startswith("1 definition of 'example.com/app/rest.Server':\n- struct rest.Server at rest/server.go:4-4")
    method = call(project, "get_symbol", name="rest.(*Server).Start")
    assert method.startswith("1 definition of 'rest.(*Server).Start':\n- method rest.Server.Start at rest/server.go:7-7")


def test_grpc_services_are_listed_as_rpc_services_handled_by_their_implementation(project):
    listed = call(project, "list_entrypoints", kind="rpc_service")

    assert listed.startswith("1 entrypoint:\n- rpc_service (grpc)")
    assert "- rpc_service (grpc) Greeter -> cmd.greet.server at cmd/greet/main.go:13-13" in listed
    assert "rpc_service" not in call(project, "list_entrypoints", kind="http_route")


def test_a_handler_that_is_no_symbol_is_shown_as_written(project):
    routes = call(project, "list_entrypoints", kind="http_route")

    assert "/health -> the block written in place at web/routes.go:6-6" in routes
    assert "/login -> auth.Login (unresolved) at web/routes.go:7-7" in routes


def test_an_android_apps_components_and_links_are_listed_with_their_classes(project):
    listed = call(project, "list_entrypoints", kind="app_component")

    assert listed.splitlines() == [
        "2 entrypoints:",
        "- app_component (android) activity,launcher com.shop.app.ShopActivity -> com.shop.app.ShopActivity "
        "at app/src/main/AndroidManifest.xml:3-6",
        "- app_component (android) deep link https://shop.example.com/carts* -> com.shop.app.ShopActivity "
        "at app/src/main/AndroidManifest.xml:5-5",
    ]
    assert "app_component" not in call(project, "list_entrypoints", kind="http_route")
