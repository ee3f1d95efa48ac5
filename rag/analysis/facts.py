"""What one file says about itself, before the repository is looked at as a whole.

A file's facts depend only on its path and text, so they are computed once per
content hash and reused. The repository pass (``resolution``) reads the facts of
all files together to resolve names across files: imports, calls, base classes,
route handlers, URL includes and console scripts.

References are kept as written (dotted, e.g. ``views.login_view``,
``self.save``, ``super().clean``) with the scope they appear in, so resolution
can follow the module's imports and the enclosing class.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from rag.analysis.records import Entrypoint

LiteralValue = Any
"""A value read with ``ast.literal_eval`` (str, number, bool, None, list/tuple of those)."""


# ``Reference.receiver`` of a call on the enclosing object, and of one on anything longer than a name.
SELF_RECEIVER = "this"
EXPRESSION_RECEIVER = "(expression)"
# Ends a ``receiver_type`` that names a function (``NewCart()``): the receiver is what it returns.
RETURNED = "()"


@dataclass(frozen=True)
class ImportBinding:
    """One name bound by an import; ``target`` is absolute (relative imports resolved)."""

    name: str
    target: str
    scope: str
    line: int
    is_star: bool = False


@dataclass(frozen=True)
class NamedImport:
    """A name an ES module binds from another (``import { warn as w } from './warning'``: ``w``, ``warn``,
    ``./warning``; CommonJS's ``const { warn } = require('./warning')``), or passes on from it without
    binding it (``reexport``: ``export { ref } from './ref'``; ``export * from './general'``, member ``*``).
    A default import binds the member ``default``; a module's default export of its own definition is
    ``default`` passed on from no source (``export default function helper``: member ``helper``)."""

    name: str
    member: str
    source: str
    line: int
    reexport: bool = False


@dataclass(frozen=True)
class Reference:
    """A call, decorator use or base class as written, inside ``scope``.

    ``class_scope`` is the enclosing class qname, for ``self.x``/``cls.x``/``super().x``.
    ``receiver_type`` is a dotted type for the first name when it is a local
    variable built by a constructor call or annotated as a parameter; for a
    tree-sitter language's method call, the name of the type its receiver is
    declared with (a field, parameter or local the file declares), or a
    function's name and ``RETURNED`` when the receiver was bound to its result.
    """

    kind: Literal["calls", "inherits"]
    scope: str
    raw: str
    line: int
    class_scope: str | None = None
    receiver_type: str = ""
    # A tree-sitter language's method call: what the name is called on (``receiver.name()``). Empty
    # for a plain call; ``SELF_RECEIVER`` for the enclosing object, whatever the language calls it
    # (``this``, ``$this``, ``self``, a Go method's receiver); a name as written (``errors``,
    # ``JsonParser``, ``client``); ``EXPRESSION_RECEIVER`` for anything longer (``a.b``, ``f()``).
    # For an import, the name the file gives it when it renames it (PHP's ``use A\\B as C``).
    receiver: str = ""


@dataclass(frozen=True)
class AttributeType:
    """``self.attr = Class(...)``, ``self.attr = param`` (annotated) or ``attr: Class`` in a class body.

    ``type_name`` is written as in ``scope`` and resolved from there.
    """

    class_qname: str
    attribute: str
    type_name: str
    scope: str


def http_methods(written: LiteralValue) -> tuple[str, ...] | None:
    """The HTTP methods a decorator's or a call's argument names, one or a list (``"POST"``, ``["GET", "POST"]``),
    upper-cased; None when it names none that way (no argument, a name, a call)."""
    if isinstance(written, str):
        return (written.upper(),)
    if isinstance(written, (list, tuple)):
        return tuple(str(method).upper() for method in written)
    return None


class _KeywordArguments:
    """For facts that keep a call's keyword arguments as ``kwargs`` pairs."""

    kwargs: tuple[tuple[str, LiteralValue], ...]

    def kwarg(self, name: str, default: LiteralValue = None) -> LiteralValue:
        for key, value in self.kwargs:
            if key == name:
                return value
        return default


@dataclass(frozen=True)
class DecoratorCall(_KeywordArguments):
    """A decorator on a function or class, with its literal arguments."""

    target: str
    raw: str
    args: tuple[LiteralValue, ...]
    kwargs: tuple[tuple[str, LiteralValue], ...]
    is_call: bool
    scope: str
    class_scope: str | None
    line: int


@dataclass(frozen=True)
class Instance(_KeywordArguments):
    """``name = Callee(...)`` at module level: apps, blueprints, routers, Typer/Celery apps."""

    name: str
    callee: str
    args: tuple[LiteralValue, ...]
    kwargs: tuple[tuple[str, LiteralValue], ...]
    line: int


@dataclass(frozen=True)
class Mount:
    """``parent.register_blueprint(child, url_prefix=...)`` and its kin.

    ``method`` is the attribute called (``register_blueprint``, ``include_router``,
    ``add_typer``, ``add_command``; Pyramid's ``add_route``, whose ``child`` is a route's name
    and ``prefix`` its path); ``prefix`` the URL prefix or command name given, or
    ``prefix_name`` the name it is given by (``settings.API_V1_STR``), read where the name is bound.
    """

    method: str
    parent: str
    child: str
    prefix: str | None
    scope: str
    line: int
    prefix_name: str = ""


@dataclass(frozen=True)
class RouteRegistration:
    """``app.add_url_rule(rule, view_func=...)`` (Flask) or ``app.add_api_route(path, endpoint)`` (FastAPI), and the
    other calls that register a handler: a route table's, a gRPC servicer's, APScheduler's ``add_job(f, id=...)``
    (``route`` the job's id, ``view`` the function)."""

    method: str
    receiver: str
    route: str
    view: str | None
    methods: tuple[str, ...] | None
    scope: str
    class_scope: str | None
    line: int
    end_line: int


@dataclass(frozen=True)
class UrlPattern:
    """One ``path()``/``re_path()``/``url()`` element of a Django URL list.

    Exactly one of ``view``, ``include`` or ``children`` says where it leads:
    a view reference (``as_view()`` stripped, ``is_class_view`` set), an
    included module or list (dotted string or a reference), or an inline list.
    """

    function: str
    route: str
    line: int
    end_line: int
    view: str | None = None
    is_class_view: bool = False
    include: str | None = None
    include_is_module_string: bool = False
    children: tuple[UrlPattern, ...] = ()


@dataclass(frozen=True)
class ArgparseCommand:
    """An argparse parser or subparser; ``handler`` is the ``set_defaults(func=...)`` reference."""

    command: str
    handler: str | None
    scope: str
    class_scope: str | None
    line: int
    end_line: int


@dataclass(frozen=True)
class ConsoleScript:
    """A console script from pyproject.toml, setup.cfg or setup.py: ``name = module:attr``."""

    name: str
    target: str
    line: int
    group: str = "console_scripts"


@dataclass(frozen=True)
class FileFacts:
    """Everything the repository pass needs from one file."""

    module: str | None = None
    is_package: bool = False
    imports: tuple[ImportBinding, ...] = ()
    # An ES module's names bound from other modules, and what it re-exports (``NamedImport``).
    named_imports: tuple[NamedImport, ...] = ()
    references: tuple[Reference, ...] = ()
    attribute_types: tuple[AttributeType, ...] = ()
    # Strings a class body or a module assigns to a name (the class's or the module's qname, name, string):
    # Django REST framework's ``lookup_field = "slug"``, a settings class's ``API_V1_STR: str = "/api/v1"``,
    # a module's ``API_PREFIX = "/api"`` (at most ``MAX_NAMED_STRING`` characters).
    class_strings: tuple[tuple[str, str, str], ...] = ()
    # Calls a class body assigns to a name (class qname, name, the callee as written): Graphene's
    # ``create_product = ProductCreate.Field()``.
    class_calls: tuple[tuple[str, str, str], ...] = ()
    decorators: tuple[tuple[str, tuple[DecoratorCall, ...]], ...] = ()
    top_level: tuple[str, ...] = ()
    instances: tuple[Instance, ...] = ()
    mounts: tuple[Mount, ...] = ()
    route_registrations: tuple[RouteRegistration, ...] = ()
    url_lists: tuple[tuple[str, tuple[UrlPattern, ...]], ...] = ()
    argparse_commands: tuple[ArgparseCommand, ...] = ()
    console_scripts: tuple[ConsoleScript, ...] = ()
    management_command: str | None = None
    entry_candidates: frozenset[str] = field(default_factory=frozenset)
    # Entrypoints a file of a tree-sitter language declares by itself (a main function, a route
    # registration), already named within the file (rag/analysis/languages/*/entrypoints.scm).
    entrypoints: tuple[Entrypoint, ...] = ()
    # The name a manifest gives what it builds, as other code imports it: a ``Cargo.toml``'s crate
    # (``[lib] name``, else ``[package] name``, ``-`` read as ``_``), a ``go.mod``'s module path,
    # a ``package.json``'s ``name`` (``@vue/shared``: a workspace's package, imported by that name).
    manifest_name: str | None = None
    # A ``tsconfig.json``'s (or ``jsconfig.json``'s) ``compilerOptions.paths``: each pattern
    # (``@app/*``) with the places it maps to, from the repository's root (``baseUrl`` applied).
    module_paths: tuple[tuple[str, tuple[str, ...]], ...] = ()
