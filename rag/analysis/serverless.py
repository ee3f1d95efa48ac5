"""Serverless functions' configuration: what a Serverless Framework service (``serverless.yml``) or an AWS SAM
template (``template.yaml``) deploys, and what runs each function.

An HTTP event is a route (the Serverless Framework's ``http`` and ``httpApi``, SAM's ``Api`` and ``HttpApi``
events, at their path and method; ``ANY`` or ``*``: every method); any other event (a schedule, a queue, a
bucket, a stream) makes the function a task named by the function. The handler is the file and function the
configuration names (``src/handlers/users.create``: ``create`` of ``src/handlers/users.py`` or ``.js`` ... beside
the file; SAM's ``CodeUri`` folder first), written as that module's path and the name for the repository pass
(``rag.analysis.repository``) to find.

YAML is read by PyYAML's safe loader; CloudFormation's tags (``!Ref``, ``!GetAtt``, ``!Sub``) read as nothing, and
at most ``MAX_FUNCTIONS`` functions and ``MAX_EVENTS`` events of each are read.
"""

from __future__ import annotations

import posixpath
import re

import yaml

from rag.analysis.facts import FileFacts
from rag.analysis.records import Entrypoint

SERVERLESS_FILE = re.compile(r"(?:^|/)serverless\.ya?ml$")
SAM_FILE = re.compile(r"(?:^|/)template\.ya?ml$")
MAX_CONFIG_CHARS = 512 * 1024
MAX_FUNCTIONS = 1_000
MAX_EVENTS = 100
# The frameworks of the entrypoints read here (their handlers are found by the module path they name).
SERVERLESS_FRAMEWORKS = frozenset({"serverless", "aws-sam"})
_VERBS = frozenset({"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"})


class _Loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
    """The safe loader (libyaml's where PyYAML has it), reading a tagged value (CloudFormation's ``!Ref Table``) as
    nothing."""


_Loader.add_multi_constructor("!", lambda loader, suffix, node: None)


def is_serverless_config(path: str) -> bool:
    return bool(SERVERLESS_FILE.search(path) or SAM_FILE.search(path))


def serverless_functions(path: str, text: str) -> FileFacts | None:
    """The routes and tasks of the functions a configuration deploys; None when it deploys none (or does not parse)."""
    if len(text) > MAX_CONFIG_CHARS:
        return None
    try:
        document = yaml.load(text, Loader=_Loader)  # noqa: S506 (a safe loader, tags read as nothing)
    except (yaml.YAMLError, RecursionError, ValueError):
        return None
    if not isinstance(document, dict):
        return None
    folder = posixpath.dirname(path)
    lines = text.splitlines()
    if SERVERLESS_FILE.search(path):
        found = list(_serverless(document, folder, path, lines))
    else:
        found = list(_sam(document, folder, path, lines))
    return FileFacts(entrypoints=tuple(found)) if found else None


def _serverless(document: dict, folder: str, path: str, lines: list[str]):
    functions = document.get("functions")
    for name, function in list(functions.items())[:MAX_FUNCTIONS] if isinstance(functions, dict) else ():
        if not isinstance(function, dict) or not isinstance(function.get("handler"), str):
            continue
        handler = _module_path(folder, function["handler"])
        events = function.get("events")
        routes = []
        others = False
        for event in (events[:MAX_EVENTS] if isinstance(events, list) else ()):
            if not isinstance(event, dict) or not event:
                continue
            kind, settings = next(iter(event.items()))
            others = others or kind not in ("http", "httpApi")
            if kind in ("http", "httpApi"):
                if isinstance(settings, str):  # httpApi: "GET /users", http: "get users"
                    method, _, route = settings.strip().partition(" ")
                elif isinstance(settings, dict):
                    method, route = str(settings.get("method", "*")), str(settings.get("path", ""))
                else:
                    continue
                routes.append((route, method))
        yield from _entries("serverless", str(name), handler, routes, others, path, lines, function["handler"])


def _sam(document: dict, folder: str, path: str, lines: list[str]):
    resources = document.get("Resources")
    globals_ = document.get("Globals")
    defaults = globals_.get("Function") if isinstance(globals_, dict) else None
    defaults = defaults if isinstance(defaults, dict) else {}
    for name, resource in list(resources.items())[:MAX_FUNCTIONS] if isinstance(resources, dict) else ():
        if not isinstance(resource, dict) or resource.get("Type") != "AWS::Serverless::Function":
            continue
        properties = resource.get("Properties") if isinstance(resource.get("Properties"), dict) else {}
        written = properties.get("Handler", defaults.get("Handler"))
        if not isinstance(written, str):
            continue
        code = properties.get("CodeUri", defaults.get("CodeUri"))
        handler = _module_path(posixpath.join(folder, code) if isinstance(code, str) and "://" not in code else folder, written)
        events = properties.get("Events")
        routes = []
        others = False
        for event in list(events.values())[:MAX_EVENTS] if isinstance(events, dict) else ():
            others = others or not isinstance(event, dict) or event.get("Type") not in ("Api", "HttpApi")
            if isinstance(event, dict) and event.get("Type") in ("Api", "HttpApi"):
                settings = event.get("Properties") if isinstance(event.get("Properties"), dict) else {}
                routes.append((str(settings.get("Path", "")), str(settings.get("Method", "*"))))
        yield from _entries("aws-sam", str(name), handler, routes, others, path, lines, written)


def _module_path(folder: str, handler: str) -> str:
    """``src/handlers/users.create`` beside ``svc/serverless.yml``: ``svc/src/handlers/users.create`` (the module's
    path without its suffix, then the function)."""
    module, _, function = handler.strip().rpartition(".")
    return f"{posixpath.normpath(posixpath.join(folder, module))}.{function}" if module and function else handler


def _entries(framework: str, name: str, handler: str, routes: list[tuple[str, str]], tasks: bool, path: str,
             lines: list[str], written: str):
    line = next((number for number, text in enumerate(lines, 1) if written in text), 1)
    common = {"framework": framework, "handler": None, "path": path, "start_line": line, "end_line": line, "handler_raw": handler}
    for route, method in routes:
        verb = method.strip().upper()
        yield Entrypoint(
            entry_type="http_route", route_or_command="/" + route.strip().strip("/"),
            methods=(verb,) if verb in _VERBS else (), **common,
        )
    if tasks:
        yield Entrypoint(entry_type="task", route_or_command=name, **common)
