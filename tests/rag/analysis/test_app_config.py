"""The path a JVM server's configuration serves its application's routes under: Spring Boot's context path,
WebFlux's base path, Micronaut's and Quarkus's, from ``application.properties`` and ``application.yml``."""

from __future__ import annotations

import time

from rag.analysis.app_config import context_paths
from tests.rag.analysis.readings import entrypoint_rows

CONTROLLER = (
    "package com.shop.web;\n\nimport org.springframework.web.bind.annotation.*;\n\n@RestController\n"
    '@RequestMapping("/carts")\npublic class CartController {\n'
    '    @GetMapping("/{id}")\n    public Cart get(@PathVariable long id) { return null; }\n}\n'
)


def _routes(files: dict[str, str]) -> set[tuple]:
    return entrypoint_rows(files, "path", "route_or_command", kind="http_route")


def test_spring_routes_serve_under_their_application_s_context_path():
    found = _routes({
        # One application configured in properties ...
        "shop/src/main/resources/application.properties": "server.port=8081\n# server.servlet.context-path=/old\nserver.servlet.context-path = /shop\n",
        "shop/src/main/java/com/shop/web/CartController.java": CONTROLLER,
        # ... one in YAML, written nested, with a profile's document that sets another path ...
        "admin/src/main/resources/application.yml": (
            "server:\n  port: 8082\n  servlet:\n    context-path: /admin\n---\n"
            "spring:\n  config:\n    activate:\n      on-profile: dev\nserver:\n  servlet:\n    context-path: /dev-admin\n"
        ),
        "admin/src/main/java/com/shop/web/CartController.java": CONTROLLER,
        # ... a WebFlux one written with a dotted key, and one without a path: its routes as written.
        "stream/src/main/resources/application.yaml": "spring.webflux.base-path: /stream\n",
        "stream/src/main/java/com/shop/web/CartController.java": CONTROLLER,
        "shopping/src/main/java/com/shop/web/CartController.java": CONTROLLER,
    })

    assert found == {
        ("shop/src/main/java/com/shop/web/CartController.java", "/shop/carts/{id}"),
        ("admin/src/main/java/com/shop/web/CartController.java", "/admin/carts/{id}"),
        ("stream/src/main/java/com/shop/web/CartController.java", "/stream/carts/{id}"),
        ("shopping/src/main/java/com/shop/web/CartController.java", "/carts/{id}"),
    }


def test_a_context_path_is_the_configured_framework_s_alone():
    jaxrs = (
        "package com.shop;\n\nimport jakarta.ws.rs.*;\n\n@Path(\"/orders\")\npublic class Orders {\n"
        "    @GET\n    public String list() { return \"\"; }\n}\n"
    )
    found = _routes({
        "src/main/resources/application.properties": "quarkus.http.root-path=/api\nserver.servlet.context-path=/web\n",
        "src/main/java/com/shop/Orders.java": jaxrs,
        "src/main/java/com/shop/web/CartController.java": CONTROLLER,
    })

    assert found == {
        ("src/main/java/com/shop/Orders.java", "/api/orders"),
        ("src/main/java/com/shop/web/CartController.java", "/web/carts/{id}"),
    }


def test_a_path_the_environment_may_set_is_its_default():
    path = "src/main/resources/application.properties"
    assert [m.prefix for m in context_paths(path, "server.servlet.context-path=${CONTEXT_PATH:/api}\n").mounts] == ["/api"]
    # No default: the path is not known.
    assert context_paths(path, "server.servlet.context-path=${CONTEXT_PATH}\n") is None


def test_a_configuration_that_does_not_parse_or_repeats_itself_gives_no_path_in_bounded_time():
    path = "src/main/resources/application.yml"
    assert context_paths(path, "server:\n  servlet:\n    context-path: [/x\n") is None
    # Anchors that repeat a mapping nine times a level, nine levels deep.
    levels = ["a0: &a0 {k: v}"] + [f"a{i}: &a{i} {{{', '.join(f'k{j}: *a{i - 1}' for j in range(9))}}}" for i in range(1, 9)]
    bomb = "\n".join(levels) + "\nlevels: {" + ", ".join(f"x{i}: *a8" for i in range(9)) + "}\nserver: {servlet: {context-path: /x}}\n"
    started = time.monotonic()
    facts = context_paths(path, bomb)
    assert time.monotonic() - started < 10
    assert facts is not None and [mount.prefix for mount in facts.mounts] == ["/x"]
