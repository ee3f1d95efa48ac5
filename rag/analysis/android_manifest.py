"""Android's ``AndroidManifest.xml``: the app's components, the classes Android starts it from.

An app is entered through the activities, services, broadcast receivers and content providers its manifest
declares, not through a ``main``: each is an ``app_component`` entrypoint (framework ``android``) named by
its class, ``.MainActivity`` written relative to the manifest's ``package`` (``com.example.app.MainActivity``),
with the kind of component (``activity``, ``service``, ``receiver``, ``provider``) as its method, and
``launcher`` too for the activity the home screen opens (an intent filter of ``MAIN`` and ``LAUNCHER``).
An activity alias is handled by the activity it targets. Each link an activity opens (an intent filter's
``<data>``: every scheme with every host and path it lists, ``https://example.com/items*`` for a path prefix) is
an entrypoint of its own, method ``deep link``, handled by the same class. A component the manifest merger
is told to remove (``tools:node="remove"``) is none.

The handler is written as the class the manifest names (``handler_raw``), found by the repository pass
among Kotlin's and Java's classes (``rag.analysis.repository``); a name relative to a package the manifest
does not give (build scripts give it as ``namespace`` since Android's Gradle plugin 7) keeps its leading dot,
and is the class whose whole name ends so.

The file is read with expat, element by element with its lines; a manifest that declares a document type
(none does: that is where XML's entity expansions live) or is not well-formed gives what was read before
the fault, with no error.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from xml.parsers import expat

from rag.analysis.facts import FileFacts
from rag.analysis.records import Entrypoint

ANDROID = "http://schemas.android.com/apk/res/android"
TOOLS = "http://schemas.android.com/tools"
COMPONENTS = {"activity": "activity", "activity-alias": "activity", "service": "service", "receiver": "receiver", "provider": "provider"}
# Most links one intent filter lists (its schemes times hosts times paths): a manifest may list many.
MAX_LINKS_PER_FILTER = 64


@dataclass
class _Filter:
    actions: set[str] = field(default_factory=set)
    categories: set[str] = field(default_factory=set)
    schemes: list[str] = field(default_factory=list)
    hosts: list[str] = field(default_factory=list)
    paths: list[str] = field(default_factory=list)
    start_line: int = 0
    end_line: int = 0


@dataclass
class _Component:
    kind: str
    name: str
    start_line: int
    end_line: int = 0
    filters: list[_Filter] = field(default_factory=list)


class _Refused(Exception):
    pass


def android_components(path: str, text: str) -> FileFacts:
    """The components ``text``, an ``AndroidManifest.xml``, declares, as ``app_component`` entrypoints of ``path``."""
    package = ""
    components: list[_Component] = []
    stack: list[str] = []
    current: _Component | None = None
    intent: _Filter | None = None
    parser = expat.ParserCreate(namespace_separator=" ")

    def start(tag: str, attributes: dict[str, str]) -> None:
        nonlocal package, current, intent
        stack.append(tag)
        line = parser.CurrentLineNumber
        name = attributes.get(f"{ANDROID} name", "").strip()
        if tag == "manifest" and len(stack) == 1:
            package = attributes.get("package", "").strip()
        elif tag in COMPONENTS and stack[:-1] == ["manifest", "application"]:
            if attributes.get(f"{TOOLS} node") in ("remove", "removeAll"):
                return
            # An alias is handled by the activity it stands for.
            written = attributes.get(f"{ANDROID} targetActivity", "").strip() if tag == "activity-alias" else name
            if written:
                current = _Component(COMPONENTS[tag], written, line)
        elif tag == "intent-filter" and current is not None and len(stack) == 4:
            intent = _Filter(start_line=line)
        elif intent is not None and len(stack) == 5:
            if tag == "action" and name:
                intent.actions.add(name)
            elif tag == "category" and name:
                intent.categories.add(name)
            elif tag == "data":
                _add_data(intent, attributes)

    def end(tag: str) -> None:
        nonlocal current, intent
        line = parser.CurrentLineNumber
        if intent is not None and tag == "intent-filter" and len(stack) == 4:
            intent.end_line = line
            if current is not None:
                current.filters.append(intent)
            intent = None
        elif current is not None and len(stack) == 3:
            current.end_line = line
            components.append(current)
            current = None
        stack.pop()

    def refuse(*_args: object) -> None:
        raise _Refused

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.StartDoctypeDeclHandler = refuse
    parser.EntityDeclHandler = refuse
    try:
        parser.Parse(text, True)
    except (expat.ExpatError, _Refused):
        pass
    return FileFacts(entrypoints=tuple(entry for component in components for entry in _entries(path, package, component)))


def _add_data(intent: _Filter, attributes: dict[str, str]) -> None:
    """A ``<data>`` element's parts of its filter's links (Android joins the parts of all of a filter's elements)."""
    def attribute(name: str) -> str:
        return attributes.get(f"{ANDROID} {name}", "").strip()

    if scheme := attribute("scheme"):
        intent.schemes.append(scheme)
    if host := attribute("host"):
        intent.hosts.append(host + (f":{port}" if (port := attribute("port")) else ""))
    for kind, written in (("path", "{}"), ("pathPrefix", "{}*"), ("pathPattern", "{}"), ("pathAdvancedPattern", "{}"), ("pathSuffix", "*{}")):
        if value := attribute(kind):
            intent.paths.append(written.format(value))


def _class_name(package: str, written: str) -> str:
    """The class a component's name is: ``.Main`` and ``Main`` are in the manifest's package, when it gives one."""
    if written.startswith("."):
        return package + written if package else written
    if "." not in written:
        return f"{package}.{written}" if package else f".{written}"
    return written


def _entries(path: str, package: str, component: _Component) -> list[Entrypoint]:
    handler = _class_name(package, component.name)
    launcher = any(
        "android.intent.action.MAIN" in f.actions and "android.intent.category.LAUNCHER" in f.categories for f in component.filters
    )
    methods = (component.kind, "launcher") if launcher else (component.kind,)
    entries = [Entrypoint(
        entry_type="app_component", framework="android", route_or_command=handler.lstrip("."), handler=None, path=path,
        start_line=component.start_line, end_line=max(component.start_line, component.end_line), methods=methods,
        handler_raw=handler,
    )]
    if component.kind != "activity":
        return entries
    for intent in component.filters:
        if "android.intent.action.VIEW" not in intent.actions:
            continue
        links = itertools.islice(_links(intent), MAX_LINKS_PER_FILTER)
        entries.extend(
            Entrypoint(
                entry_type="app_component", framework="android", route_or_command=link, handler=None, path=path,
                start_line=intent.start_line, end_line=max(intent.start_line, intent.end_line), methods=("deep link",),
                handler_raw=handler,
            )
            for link in dict.fromkeys(links)
        )
    return entries


def _links(intent: _Filter):
    """Every link an intent filter's data opens: each scheme with each host and each path (a path needs a host)."""
    for scheme in intent.schemes:
        if not intent.hosts:
            yield f"{scheme}:"
            continue
        for host in intent.hosts:
            if not intent.paths:
                yield f"{scheme}://{host}"
            for written in intent.paths:
                yield f"{scheme}://{host}{written if written.startswith(('/', '*', '.')) else '/' + written}"
