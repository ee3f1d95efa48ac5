"""One pass over a Python file's AST: symbols (C1), chunk blocks (C0) and the file's facts.

The walk records what each scope refers to as written (calls, base classes,
decorators, imports) and the framework declarations entrypoints come from;
names are resolved across files later by ``resolution``. Calls to builtins
the file does not rebind (``len``, ``print``) are left out.
"""

from __future__ import annotations

import ast
import builtins
import re
from dataclasses import dataclass, field, replace

from rag.analysis.chunking import Block
from rag.analysis.facts import (
    ArgparseCommand,
    AttributeType,
    DecoratorCall,
    FileFacts,
    ImportBinding,
    Instance,
    LiteralValue,
    Mount,
    Reference,
    RouteRegistration,
    UrlPattern,
    http_methods,
)
from rag.analysis.python_routes import ROUTE_TABLE_PACKAGES, route_tables
from rag.analysis.records import Symbol

CONST_NAME = re.compile(r"_*[A-Z][A-Z0-9_]*")
BUILTIN_NAMES = frozenset(dir(builtins))
ENTRY_DECORATORS = frozenset(
    {
        "route",
        "get",
        "post",
        "put",
        "delete",
        "patch",
        "api_route",
        "websocket",
        "command",
        "group",
        "task",
        "shared_task",
    }
)
MOUNT_METHODS = frozenset({"register_blueprint", "include_router", "add_typer", "add_command", "add_namespace", "add_router"})
# The longest string a module's assignment to a name is kept with (``FileFacts.class_strings``): prefixes and
# names, not templates or texts.
MAX_NAMED_STRING = 200
ROUTE_REGISTRATIONS = {"add_url_rule": ("view_func", 2), "add_api_route": ("endpoint", 1)}
"""Method -> (keyword, position) of the view argument."""
URL_FUNCTIONS = frozenset({"path", "re_path", "url"})
GRPC_REGISTRATION = re.compile(r"add_(\w+)Servicer_to_server")
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
# Searching expressions for calls is the hot loop of the walk: skip fields that never hold
# expressions and nodes that never contain any (ast.iter_child_nodes visits both).
_NON_EXPRESSION_FIELDS = frozenset(
    {"ctx", "op", "ops", "id", "arg", "attr", "name", "names", "module", "kind", "type_comment", "level"}
)
_LEAVES = frozenset({ast.Name, ast.Constant})
_EXPRESSION_FIELDS: dict[type, tuple[str, ...]] = {}
COMPOUND_STATEMENTS = frozenset(
    {ast.If, ast.Try, ast.With, ast.AsyncWith, ast.For, ast.AsyncFor, ast.While, ast.Match, ast.TryStar}
)
_SPACE_AFTER_OPEN = re.compile(r"([(\[{])\s+")
_SPACE_BEFORE_CLOSE = re.compile(r"\s+([)\]}])")
_COMMA_BEFORE_CLOSE = re.compile(r",([)\]}])")


def dotted_name(node: ast.AST) -> str | None:
    """``a.b.c`` for a chain of attributes on a name (or on ``super()``); None for anything else."""
    parts = []
    while type(node) is ast.Attribute:
        parts.append(node.attr)
        node = node.value
    if type(node) is ast.Name:
        parts.append(node.id)
    elif type(node) is ast.Call and type(node.func) is ast.Name and node.func.id == "super":
        parts.append("super()")
    else:
        return None
    parts.reverse()
    return ".".join(parts)


def literal(node: ast.AST | None) -> LiteralValue:
    """The value of a literal expression in JSON-safe form (lists become tuples); None otherwise."""
    if node is None:
        return None
    try:
        return json_safe(ast.literal_eval(node))
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None


def json_safe(value: object) -> LiteralValue:
    """Strings, numbers, booleans and None as they are; lists/tuples as tuples; dicts with string keys."""
    if value is None or isinstance(value, (str, bool, int, float)):
        return value
    if isinstance(value, (list, tuple)):
        return tuple(json_safe(item) for item in value)
    if isinstance(value, dict) and all(isinstance(key, str) for key in value):
        return {key: json_safe(item) for key, item in value.items()}
    return None


def collapse_whitespace(text: str) -> str:
    """A header or decorator spread over several lines, on one line; one-line text is kept as written."""
    if "\n" not in text:
        return text.strip()
    text = " ".join(text.split())
    text = _SPACE_AFTER_OPEN.sub(r"\1", text)
    text = _SPACE_BEFORE_CLOSE.sub(r"\1", text)
    return _COMMA_BEFORE_CLOSE.sub(r"\1", text)


@dataclass
class _ParserState:
    command: str
    line: int
    end_line: int
    handler: str | None = None
    has_children: bool = False


@dataclass
class _Scope:
    """Where the walk is: the symbol calls are attributed to, the enclosing class, locals."""

    qname: str
    context: str  # "module", "class" (directly in a class body) or "function"
    class_qname: str | None = None
    local_types: dict[str, str] = field(default_factory=dict)
    parsers: dict[str, _ParserState] = field(default_factory=dict)
    subparsers: dict[str, str] = field(default_factory=dict)


class PythonExtractor:
    """Walks one parsed module; call ``run`` once."""

    def __init__(self, path: str, lines: list[str], module: str, is_package: bool) -> None:
        self.path = path
        self.lines = lines
        self.module = module
        self.is_package = is_package
        self.symbols: dict[str, Symbol] = {}
        self.blocks: list[Block] = []
        self.imports: list[ImportBinding] = []
        self.references: dict[tuple[str, str, str], Reference] = {}
        self.attribute_types: dict[tuple[str, str], AttributeType] = {}
        self.class_strings: list[tuple[str, str, str]] = []
        self.class_calls: list[tuple[str, str, str]] = []
        self.decorators: list[tuple[str, tuple[DecoratorCall, ...]]] = []
        self.top_level: set[str] = set()
        self.instances: list[Instance] = []
        self.mounts: list[Mount] = []
        self.route_registrations: list[RouteRegistration] = []
        # The names the module's imports bind (``web`` -> ``aiohttp.web``) and the top-level packages they import,
        # for the frameworks whose routes are tables of calls (``rag.analysis.python_routes``); the calls of a
        # table already read with the table (a ``Mount``'s routes).
        self._imported_names: dict[str, str] = {}
        self._imported_packages: set[str] = set()
        self._read_routes: set[int] = set()
        self.url_lists: dict[str, list[UrlPattern]] = {}
        self.argparse_commands: list[ArgparseCommand] = []
        self.entry_candidates: set[str] = set()

    # -- public -----------------------------------------------------------

    def run(self, tree: ast.Module) -> tuple[list[Symbol], list[Block], FileFacts]:
        scope = _Scope(qname=self.module, context="module")
        for statement in tree.body:
            block = self._top_level_block(statement)
            if block is not None:
                self.blocks.append(block)
        self._body(tree.body, scope)
        self._finish_parsers(scope)
        facts = FileFacts(
            module=self.module,
            is_package=self.is_package,
            imports=tuple(self.imports),
            references=self._kept_references(),
            attribute_types=tuple(self.attribute_types.values()),
            class_strings=tuple(self.class_strings),
            class_calls=tuple(self.class_calls),
            decorators=tuple(self.decorators),
            top_level=tuple(sorted(self.top_level)),
            instances=tuple(self.instances),
            mounts=tuple(self.mounts),
            route_registrations=tuple(self.route_registrations),
            url_lists=tuple((name, tuple(patterns)) for name, patterns in self.url_lists.items()),
            argparse_commands=tuple(self.argparse_commands),
            management_command=self._management_command(),
            entry_candidates=frozenset(self.entry_candidates),
        )
        return list(self.symbols.values()), self.blocks, facts

    def _kept_references(self) -> tuple[Reference, ...]:
        """References without calls to builtins the module does not rebind (``len``, ``print``)."""
        bound = self.top_level | {binding.name for binding in self.imports}
        if any(binding.is_star for binding in self.imports):
            bound |= BUILTIN_NAMES  # a star import may rebind any of them; resolution decides
        return tuple(
            sorted(
                (
                    reference
                    for reference in self.references.values()
                    if reference.raw not in BUILTIN_NAMES or reference.raw in bound
                ),
                key=lambda reference: (reference.line, reference.kind, reference.raw),
            )
        )

    # -- text -------------------------------------------------------------

    def _segment(self, node: ast.AST) -> str:
        """The source of ``node`` as written (AST columns are UTF-8 byte offsets)."""
        first, last = node.lineno, node.end_lineno or node.lineno
        text = "\n".join(self.lines[first - 1 : last])
        end_offset = node.end_col_offset if node.end_col_offset is not None else len(text)
        if text.isascii():
            start = node.col_offset
            stop = len(text) - len(self.lines[last - 1]) + end_offset
            return text[start:stop]
        data = text.encode("utf-8", "surrogatepass")
        stop = len(data) - len(self.lines[last - 1].encode("utf-8", "surrogatepass")) + end_offset
        return data[node.col_offset : stop].decode("utf-8", "replace")

    def _header(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> str:
        """``def name(args) -> ret`` / ``class Name(Base)`` as written, on one line."""
        text = "\n".join(self.lines[node.lineno - 1 : node.body[0].lineno])
        indent = len(self.lines[node.lineno - 1]) - len(self.lines[node.lineno - 1].lstrip())
        text = text[indent:]
        depth = 0
        index = 0
        length = len(text)
        while index < length:
            char = text[index]
            if char in "\"'":
                quote = text[index : index + 3] if text[index : index + 3] in ('"""', "'''") else char
                index += len(quote)
                while index < length and not text.startswith(quote, index):
                    index += 2 if text[index] == "\\" else 1
                index += len(quote)
                continue
            if char == "#":
                newline = text.find("\n", index)
                index = length if newline < 0 else newline
                continue
            if char in "([{":
                depth += 1
            elif char in ")]}":
                depth -= 1
            elif char == ":" and depth <= 0:
                return collapse_whitespace(text[:index])
            index += 1
        return collapse_whitespace(text.split("\n", 1)[0])

    def _leading_comment_start(self, start: int, floor: int) -> int:
        while start - 1 > floor and self.lines[start - 2].lstrip().startswith("#"):
            start -= 1
        return start

    # -- structure ----------------------------------------------------------

    def _qualify(self, scope: _Scope, name: str) -> str:
        return f"{scope.qname}.{name}" if scope.qname else name

    def _title(self, qname: str) -> str:
        local = qname[len(self.module) + 1 :] if qname.startswith(self.module + ".") else qname
        return f"{self.path}::{local}"

    def _top_level_block(self, statement: ast.stmt) -> Block | None:
        if not isinstance(statement, (*_FUNCTIONS, ast.ClassDef)):
            return None
        qname = self._qualify(_Scope(self.module, "module"), statement.name)
        block = self._block(statement, qname, floor=0)
        if isinstance(statement, ast.ClassDef):
            floor = statement.body[0].lineno - 1 if statement.body else statement.lineno
            for member in statement.body:
                if isinstance(member, (*_FUNCTIONS, ast.ClassDef)):
                    member_block = self._block(member, f"{qname}.{member.name}", floor=floor)
                    block.members.append(member_block)
                    floor = member.end_lineno or member.lineno
        return block

    def _block(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef, qname: str, floor: int) -> Block:
        start = min([node.lineno] + [decorator.lineno for decorator in node.decorator_list])
        start = self._leading_comment_start(start, floor)
        return Block(start=start, end=node.end_lineno or node.lineno, qname=qname, title=self._title(qname))

    def _management_command(self) -> str | None:
        parts = self.path.split("/")
        name = parts[-1][:-3] if parts[-1].endswith(".py") else ""
        if len(parts) >= 3 and parts[-3:-1] == ["management", "commands"] and name and not name.startswith("_"):
            if f"{self.module}.Command" in self.symbols:
                return name
        return None

    # -- walking ----------------------------------------------------------

    def _body(self, statements: list[ast.stmt], scope: _Scope) -> None:
        for statement in statements:
            self._statement(statement, scope)

    def _statement(self, node: ast.stmt, scope: _Scope) -> None:
        kind = type(node)
        if kind is ast.FunctionDef or kind is ast.AsyncFunctionDef:
            self._function(node, scope)
        elif kind is ast.ClassDef:
            self._class(node, scope)
        elif kind is ast.Import or kind is ast.ImportFrom:
            self._import(node, scope)
        elif kind is ast.Assign or kind is ast.AnnAssign or kind is ast.AugAssign:
            self._assignment(node, scope)
            self._expressions(node, scope)
        elif kind in COMPOUND_STATEMENTS:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.stmt):
                    self._statement(child, scope)
                elif isinstance(child, ast.excepthandler):
                    self._expressions_of(child.type, scope)
                    self._body(child.body, scope)
                elif isinstance(child, ast.match_case):
                    self._expressions_of(child.guard, scope)
                    self._body(child.body, scope)
                else:
                    self._expressions_of(child, scope)
        else:
            self._expressions(node, scope)

    def _expressions(self, node: ast.AST, scope: _Scope) -> None:
        for child in ast.iter_child_nodes(node):
            self._expressions_of(child, scope)

    def _expressions_of(self, node: ast.AST | None, scope: _Scope) -> None:
        """Every call inside an expression tree (lambdas and comprehensions included)."""
        if node is None:
            return
        stack = [node]
        while stack:
            current = stack.pop()
            kind = type(current)
            if kind is ast.Call:
                self._call(current, scope)
            fields = _EXPRESSION_FIELDS.get(kind)
            if fields is None:
                fields = _EXPRESSION_FIELDS[kind] = tuple(f for f in kind._fields if f not in _NON_EXPRESSION_FIELDS)
            for name in fields:
                value = getattr(current, name, None)
                if type(value) is list:
                    stack.extend(item for item in value if isinstance(item, ast.AST) and type(item) not in _LEAVES)
                elif isinstance(value, ast.AST) and type(value) not in _LEAVES:
                    stack.append(value)

    def _decorator_arguments(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef, scope: _Scope) -> None:
        """Calls inside decorators; a symbol's own decorator calls are attributed to the symbol."""
        for decorator in node.decorator_list:
            if scope.context == "function":
                self._expressions_of(decorator, scope)
            elif type(decorator) is ast.Call:
                for argument in (*decorator.args, *(keyword.value for keyword in decorator.keywords)):
                    self._expressions_of(argument, scope)

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef, scope: _Scope) -> None:
        self._decorator_arguments(node, scope)
        for default in (*node.args.defaults, *node.args.kw_defaults):
            self._expressions_of(default, scope)
        if scope.context == "function":
            inner = _Scope(scope.qname, "function", scope.class_qname, dict(scope.local_types))
        else:
            qname = self._qualify(scope, node.name)
            kind = "method" if scope.context == "class" else "function"
            self._add_symbol(node, qname, kind, scope)
            inner = _Scope(qname, "function", scope.class_qname)
        self._annotate_arguments(node.args, inner)
        self._body(node.body, inner)
        self._finish_parsers(inner)

    def _class(self, node: ast.ClassDef, scope: _Scope) -> None:
        self._decorator_arguments(node, scope)
        for keyword in node.keywords:
            self._expressions_of(keyword.value, scope)
        if scope.context == "function":
            for base in node.bases:
                self._expressions_of(base, scope)
            self._body(node.body, _Scope(scope.qname, "function", scope.class_qname, dict(scope.local_types)))
            return
        qname = self._qualify(scope, node.name)
        self._add_symbol(node, qname, "class", scope)
        for base in node.bases:
            raw = dotted_name(base)
            if raw is not None:
                self._reference("inherits", qname, raw, base.lineno, scope.class_qname)
            else:
                self._expressions_of(base, scope)
        self._body(node.body, _Scope(qname, "class", qname))

    def _add_symbol(self, node: ast.AST, qname: str, kind: str, scope: _Scope) -> None:
        if scope.context == "module":
            self.top_level.add(node.name)
        decorators = tuple(self._decorator(decorator, qname, scope) for decorator in node.decorator_list)
        if decorators:
            self.decorators.append((qname, decorators))
        if kind != "class" and (
            node.name == "main" or any(call.target.rsplit(".", 1)[-1] in ENTRY_DECORATORS for call in decorators)
        ):
            self.entry_candidates.add(qname)
        if qname in self.symbols:
            return
        start = min([node.lineno] + [decorator.lineno for decorator in node.decorator_list])
        self.symbols[qname] = Symbol(
            qname=qname,
            name=node.name,
            kind=kind,  # type: ignore[arg-type]
            path=self.path,
            module=self.module,
            start_line=start,
            end_line=node.end_lineno or node.lineno,
            signature=self._header(node),
            docstring=ast.get_docstring(node) or "",
            decorators=tuple(collapse_whitespace(self._segment(decorator)) for decorator in node.decorator_list),
            parent=scope.qname if scope.context == "class" else None,
            is_async=isinstance(node, ast.AsyncFunctionDef),
        )

    def _decorator(self, node: ast.expr, qname: str, scope: _Scope) -> DecoratorCall:
        is_call = type(node) is ast.Call
        target_node = node.func if is_call else node
        target = dotted_name(target_node) or ""
        if target:
            self._reference("calls", qname, target, node.lineno, scope.class_qname)
        args: tuple[LiteralValue, ...] = ()
        kwargs: tuple[tuple[str, LiteralValue], ...] = ()
        if is_call:
            args = tuple(literal(arg) for arg in node.args)
            kwargs = tuple((keyword.arg, literal(keyword.value)) for keyword in node.keywords if keyword.arg)
        return DecoratorCall(
            target=target,
            raw=collapse_whitespace(self._segment(node)),
            args=args,
            kwargs=kwargs,
            is_call=is_call,
            scope=scope.qname,
            class_scope=scope.class_qname,
            line=node.lineno,
        )

    def _annotate_arguments(self, arguments: ast.arguments, scope: _Scope) -> None:
        for argument in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs):
            annotation = argument.annotation
            if annotation is None:
                continue
            if type(annotation) is ast.BinOp:  # ``Type | None``
                annotation = annotation.left
            if type(annotation) is ast.Constant and isinstance(annotation.value, str):
                name = annotation.value.strip()
                if name.replace(".", "").isidentifier():
                    scope.local_types[argument.arg] = name
                continue
            name = dotted_name(annotation)
            if name is not None:
                scope.local_types[argument.arg] = name

    # -- statements with meaning --------------------------------------------

    def _import(self, node: ast.Import | ast.ImportFrom, scope: _Scope) -> None:
        if type(node) is ast.Import:
            for alias in node.names:
                if alias.asname:
                    self._bind(alias.asname, alias.name, alias.name, scope, node.lineno)
                else:
                    head = alias.name.split(".", 1)[0]
                    self._bind(head, head, alias.name, scope, node.lineno)
            return
        base = self._import_base(node)
        if base == "__future__":
            return
        for alias in node.names:
            if alias.name == "*":
                self.imports.append(ImportBinding("*", base, scope.qname, node.lineno, is_star=True))
                continue
            target = f"{base}.{alias.name}" if base else alias.name
            self._bind(alias.asname or alias.name, target, target, scope, node.lineno)

    def _bind(self, name: str, target: str, imported: str, scope: _Scope, line: int) -> None:
        """Record that ``name`` means ``target``; for ``import a.b`` the edge names ``a.b``."""
        self.imports.append(ImportBinding(name, target, scope.qname, line))
        if imported != target:
            self.imports.append(ImportBinding("", imported, scope.qname, line))
        if scope.context == "module":
            self.top_level.add(name)
            self._imported_names[name] = target
        self._imported_packages.add(target.split(".", 1)[0])

    def _import_base(self, node: ast.ImportFrom) -> str:
        if not node.level:
            return node.module or ""
        package = self.module.split(".") if self.is_package else self.module.split(".")[:-1]
        if node.level > 1:
            package = package[: len(package) - (node.level - 1)] if node.level - 1 <= len(package) else []
        if node.module:
            package.append(node.module)
        return ".".join(package)

    def _assignment(self, node: ast.Assign | ast.AnnAssign | ast.AugAssign, scope: _Scope) -> None:
        targets = node.targets if type(node) is ast.Assign else [node.target]
        value = node.value
        names = [target.id for target in targets if type(target) is ast.Name]
        if scope.context == "module":
            for target in targets:
                for element in ast.walk(target):
                    if type(element) is ast.Name:
                        self.top_level.add(element.id)
            for name in names:
                if CONST_NAME.fullmatch(name) and type(node) is not ast.AugAssign:
                    self._add_const(node, name)
            self._url_list(names, value, augmented=type(node) is ast.AugAssign)
            if len(names) == 1 and type(value) is ast.Constant and type(value.value) is str and len(value.value) <= MAX_NAMED_STRING:
                self.class_strings.append((self.module, names[0], value.value))
        if scope.class_qname is not None:
            self._attribute_types(node, targets, scope)
            if scope.context == "class" and len(names) == 1 and type(value) is ast.Constant and type(value.value) is str:
                self.class_strings.append((scope.class_qname, names[0], value.value))
        if type(value) is ast.IfExp and type(value.body) is ast.Call:
            # ``DefaultRouter() if settings.DEBUG else SimpleRouter()``: a value of the kind its first branch makes.
            value = value.body
        if value is None or type(value) is not ast.Call or len(names) != 1:
            return
        name = names[0]
        callee = dotted_name(value.func)
        if callee is None:
            return
        if scope.context == "class" and scope.class_qname is not None:
            self.class_calls.append((scope.class_qname, name, callee))
        if scope.context == "module":
            self.instances.append(
                Instance(
                    name=name,
                    callee=callee,
                    args=tuple(literal(arg) for arg in value.args),
                    kwargs=tuple((kw.arg, literal(kw.value)) for kw in value.keywords if kw.arg),
                    line=node.lineno,
                )
            )
        elif callee.rsplit(".", 1)[-1][:1].isupper():
            scope.local_types[name] = callee
        self._argparse_assignment(name, callee, value, scope)

    def _attribute_types(self, node: ast.stmt, targets: list[ast.expr], scope: _Scope) -> None:
        """Types of instance attributes, so ``self.repo.save()`` can resolve to ``Repository.save``."""
        class_qname = scope.class_qname or ""
        for target in targets:
            if scope.context == "class" and type(target) is ast.Name and type(node) is ast.AnnAssign:
                attribute, type_name = target.id, dotted_name(node.annotation) or ""
            elif (
                scope.context == "function"
                and type(target) is ast.Attribute
                and type(target.value) is ast.Name
                and target.value.id in ("self", "cls")
            ):
                attribute, type_name = target.attr, self._expression_type(node, scope)
            else:
                continue
            if type_name and (class_qname, attribute) not in self.attribute_types:
                self.attribute_types[(class_qname, attribute)] = AttributeType(
                    class_qname, attribute, type_name, scope.qname
                )

    def _expression_type(self, node: ast.stmt, scope: _Scope) -> str:
        if type(node) is ast.AnnAssign:
            return dotted_name(node.annotation) or ""
        value = node.value
        if type(value) is ast.Call:
            callee = dotted_name(value.func) or ""
            return callee if callee.rsplit(".", 1)[-1][:1].isupper() else ""
        if type(value) is ast.Name:
            return scope.local_types.get(value.id, "")
        return ""

    def _add_const(self, node: ast.stmt, name: str) -> None:
        qname = f"{self.module}.{name}"
        if qname in self.symbols:
            return
        first_line = self.lines[node.lineno - 1].strip()
        self.symbols[qname] = Symbol(
            qname=qname,
            name=name,
            kind="const",
            path=self.path,
            module=self.module,
            start_line=node.lineno,
            end_line=node.end_lineno or node.lineno,
            signature=first_line[:200],
        )

    def _call(self, node: ast.Call, scope: _Scope) -> None:
        raw = dotted_name(node.func)
        if raw is None:
            return
        if not self._imported_packages.isdisjoint(ROUTE_TABLE_PACKAGES) and id(node) not in self._read_routes:
            for call, registration in route_tables(node, raw, self._imported_names, self._imported_packages, literal, dotted_name):
                self._read_routes.add(id(call))
                if registration is not None:
                    self.route_registrations.append(replace(registration, scope=scope.qname, class_scope=scope.class_qname))
        head, _, attr = raw.rpartition(".")
        if attr in MOUNT_METHODS and head and node.args:
            self._mount(node, head, attr, scope)
        elif attr == "register" and head and len(node.args) > 1 and isinstance(prefix := literal(node.args[0]), str):
            # Django REST framework's ``router.register("users", UserViewSet)`` (whether ``head`` is a router:
            # rag.analysis.entrypoints.drf).
            child = dotted_name(node.args[1])
            if child is not None:
                self.mounts.append(Mount(attr, head, child, prefix, scope.qname, node.lineno))
        elif attr in ROUTE_REGISTRATIONS and head and node.args:
            self._route_registration(node, head, attr, scope)
        elif attr == "add_route" and head and "pyramid" in self._imported_packages and len(node.args) > 1:
            # Pyramid's ``config.add_route('user', '/users/{id}')``: a name given a path, which views name
            # (``@view_config(route_name='user')``: rag.analysis.entrypoints.web).
            name, pattern = literal(node.args[0]), literal(node.args[1])
            if isinstance(name, str) and isinstance(pattern, str):
                self.mounts.append(Mount(attr, head, name, pattern, scope.qname, node.lineno))
        elif attr == "add_view" and head and "pyramid" in self._imported_packages:
            self._pyramid_view(node, head, scope)
        elif attr == "add_job" and head and node.args:
            # APScheduler's ``scheduler.add_job(send_report, "cron", hour=3, id="report")`` (whether ``head`` is a
            # scheduler: rag.analysis.entrypoints.tasks); the job's id, when given, names it.
            job = dotted_name(node.args[0])
            job_id = next((literal(kw.value) for kw in node.keywords if kw.arg == "id"), None)
            if job is not None:
                self.route_registrations.append(RouteRegistration(
                    attr, head, job_id if isinstance(job_id, str) else "", job, None, scope.qname, scope.class_qname,
                    node.lineno, node.end_lineno or node.lineno,
                ))
        elif attr == "add_resource" and head and len(node.args) > 1:
            # Flask-RESTful's ``api.add_resource(Todo, "/todos/<id>", "/todo/<id>")``: the resource class at each URL.
            resource = dotted_name(node.args[0])
            for url in node.args[1:]:
                route = literal(url)
                if isinstance(route, str):
                    self.route_registrations.append(RouteRegistration(
                        attr, head, route, resource, None, scope.qname, scope.class_qname, node.lineno, node.end_lineno or node.lineno,
                    ))
        elif (service := GRPC_REGISTRATION.fullmatch(attr)) is not None and node.args:
            # gRPC's generated ``add_GreeterServicer_to_server(Greeter(), server)``: the Greeter service, served by that class.
            servicer = node.args[0]
            view = dotted_name(servicer.func if type(servicer) is ast.Call else servicer)
            self.route_registrations.append(RouteRegistration(
                "grpc", head, service.group(1), view, None, scope.qname, scope.class_qname, node.lineno, node.end_lineno or node.lineno,
            ))
        elif attr == "set_defaults" and head in scope.parsers:
            for keyword in node.keywords:
                if keyword.arg == "func":
                    scope.parsers[head].handler = dotted_name(keyword.value)
        self._reference("calls", scope.qname, raw, node.lineno, scope.class_qname, scope)

    def _reference(
        self, kind: str, src: str, raw: str, line: int, class_scope: str | None, scope: _Scope | None = None
    ) -> None:
        key = (kind, src, raw)
        earlier = self.references.get(key)
        if earlier is not None and earlier.line <= line:
            return
        receiver_type = ""
        if scope is not None and "." in raw:
            receiver_type = scope.local_types.get(raw.split(".", 1)[0], "")
        self.references[key] = Reference(kind, src, raw, line, class_scope, receiver_type)  # type: ignore[arg-type]

    def _mount(self, node: ast.Call, parent: str, method: str, scope: _Scope) -> None:
        if method == "add_router":
            # Django Ninja's ``api.add_router("/shop/", router)``: the prefix first, then the router.
            self._ninja_router(node, parent, scope)
            return
        child = dotted_name(node.args[0])
        if child is None:
            return
        prefix, prefix_name = None, ""
        for keyword in node.keywords:
            if keyword.arg in ("url_prefix", "prefix", "name") or (method == "add_namespace" and keyword.arg == "path"):
                value = literal(keyword.value)
                prefix = value if isinstance(value, str) else None
                # Given by a name (``prefix=settings.API_V1_STR``): the string it is bound to, found later.
                prefix_name = dotted_name(keyword.value) or "" if prefix is None else ""
        if prefix is None and method == "add_command" and len(node.args) > 1:
            value = literal(node.args[1])
            prefix = value if isinstance(value, str) else None
        self.mounts.append(Mount(method, parent, child, prefix, scope.qname, node.lineno, prefix_name))

    def _ninja_router(self, node: ast.Call, parent: str, scope: _Scope) -> None:
        arguments = {keyword.arg: keyword.value for keyword in node.keywords}
        prefix_node = node.args[0] if node.args else arguments.get("prefix")
        router_node = node.args[1] if len(node.args) > 1 else arguments.get("router")
        child = dotted_name(router_node) if router_node is not None else None
        prefix = literal(prefix_node) if prefix_node is not None else None
        if child is not None and isinstance(prefix, str):
            self.mounts.append(Mount("add_router", parent, child, prefix, scope.qname, node.lineno))

    def _route_registration(self, node: ast.Call, receiver: str, method: str, scope: _Scope) -> None:
        route = literal(node.args[0])
        if not isinstance(route, str):
            return
        keyword, position = ROUTE_REGISTRATIONS[method]
        view_node = next((kw.value for kw in node.keywords if kw.arg == keyword), None)
        if view_node is None and len(node.args) > position:
            view_node = node.args[position]
        if type(view_node) is ast.Call and type(view_node.func) is ast.Attribute and view_node.func.attr == "as_view":
            view_node = view_node.func.value
        methods = next((literal(kw.value) for kw in node.keywords if kw.arg == "methods"), None)
        self.route_registrations.append(
            RouteRegistration(
                method=method,
                receiver=receiver,
                route=route,
                view=dotted_name(view_node) if view_node is not None else None,
                methods=http_methods(methods),
                scope=scope.qname,
                class_scope=scope.class_qname,
                line=node.lineno,
                end_line=node.end_lineno or node.lineno,
            )
        )

    def _pyramid_view(self, node: ast.Call, receiver: str, scope: _Scope) -> None:
        """Pyramid's ``config.add_view(hello, route_name='hello', request_method='POST')``: the view (a name, a
        dotted string, a class with the ``attr`` method that answers) at the route of that name
        (rag.analysis.entrypoints.web)."""
        keywords = {kw.arg: kw.value for kw in node.keywords if kw.arg}
        given = node.args[0] if node.args else keywords.get("view")
        route_name = literal(keywords["route_name"]) if "route_name" in keywords else None
        if given is None or not isinstance(route_name, str):
            return
        view = literal(given) if type(given) is ast.Constant else dotted_name(given)
        attribute = literal(keywords["attr"]) if "attr" in keywords else None
        if not isinstance(view, str):
            return
        if isinstance(attribute, str):
            view = f"{view}.{attribute}"
        methods = http_methods(literal(keywords["request_method"])) if "request_method" in keywords else None
        self.route_registrations.append(RouteRegistration(
            "add_view", receiver, route_name, view, methods, scope.qname, scope.class_qname, node.lineno, node.end_lineno or node.lineno,
        ))

    # -- argparse -----------------------------------------------------------

    def _argparse_assignment(self, name: str, callee: str, value: ast.Call, scope: _Scope) -> None:
        head, _, attr = callee.rpartition(".")
        end_line = value.end_lineno or value.lineno
        if attr == "ArgumentParser" or callee == "ArgumentParser":
            prog = next((literal(kw.value) for kw in value.keywords if kw.arg == "prog"), None)
            scope.parsers[name] = _ParserState(prog if isinstance(prog, str) else "", value.lineno, end_line)
        elif attr == "add_subparsers" and head in scope.parsers:
            scope.subparsers[name] = head
            scope.parsers[head].has_children = True
        elif attr == "add_parser" and head in scope.subparsers and value.args:
            command = literal(value.args[0])
            if isinstance(command, str):
                parent = scope.parsers[scope.subparsers[head]]
                full = f"{parent.command} {command}".strip()
                scope.parsers[name] = _ParserState(full, value.lineno, end_line)

    def _finish_parsers(self, scope: _Scope) -> None:
        for state in scope.parsers.values():
            if state.has_children:
                continue
            command = state.command or self.module.rsplit(".", 1)[-1]
            self.argparse_commands.append(
                ArgparseCommand(command, state.handler, scope.qname, scope.class_qname, state.line, state.end_line)
            )

    # -- Django URL lists ---------------------------------------------------

    def _url_list(self, names: list[str], value: ast.expr | None, augmented: bool) -> None:
        if len(names) != 1 or value is None:
            return
        elements: list[ast.expr] = []
        pending = [value]
        while pending:
            current = pending.pop()
            if type(current) in (ast.List, ast.Tuple):
                elements.extend(current.elts)
            elif type(current) is ast.BinOp and type(current.op) is ast.Add:
                pending.extend((current.right, current.left))
            elif (name := dotted_name(current)) is not None and name.endswith(".urls"):
                # A router's URLs added as they are (``urlpatterns += router.urls``): included at the list's root.
                elements.append(current)
        patterns = [pattern for pattern in map(self._url_pattern, elements) if pattern is not None]
        if not patterns and not (names[0] == "urlpatterns" and not augmented):
            return
        existing = self.url_lists.setdefault(names[0], [])
        if not augmented:
            existing.clear()
        existing.extend(patterns)

    def _url_pattern(self, node: ast.expr) -> UrlPattern | None:
        if type(node) is ast.Attribute and (name := dotted_name(node)) is not None and name.endswith(".urls"):
            return UrlPattern("path", "", node.lineno, node.end_lineno or node.lineno, include=name)
        if type(node) is not ast.Call or len(node.args) < 2:
            return None
        function = dotted_name(node.func)
        if function is None or function.rsplit(".", 1)[-1] not in URL_FUNCTIONS:
            return None
        route = literal(node.args[0])
        if not isinstance(route, str):
            return None
        function = function.rsplit(".", 1)[-1]
        line, end_line = node.lineno, node.end_lineno or node.lineno
        target = node.args[1]
        if type(target) is ast.Call:
            callee = dotted_name(target.func)
            if callee is not None and callee.rsplit(".", 1)[-1] == "include" and target.args:
                return self._url_include(function, route, line, end_line, target.args[0])
            if type(target.func) is ast.Attribute and target.func.attr in ("as_view", "as_asgi"):
                # A class view, or a Channels consumer (``ChatConsumer.as_asgi()``), which is its own handler.
                view = dotted_name(target.func.value)
                return UrlPattern(function, route, line, end_line, view=view, is_class_view=view is not None and target.func.attr == "as_view")
            return UrlPattern(function, route, line, end_line)
        if type(target) is ast.Constant and isinstance(target.value, str):
            return UrlPattern(function, route, line, end_line, view=target.value)
        return UrlPattern(function, route, line, end_line, view=dotted_name(target))

    def _url_include(self, function: str, route: str, line: int, end_line: int, argument: ast.expr) -> UrlPattern:
        if type(argument) is ast.Tuple and argument.elts:
            argument = argument.elts[0]
        if type(argument) is ast.Constant and isinstance(argument.value, str):
            return UrlPattern(function, route, line, end_line, include=argument.value, include_is_module_string=True)
        if type(argument) in (ast.List, ast.Tuple):
            children = tuple(p for p in map(self._url_pattern, argument.elts) if p is not None)
            return UrlPattern(function, route, line, end_line, children=children)
        return UrlPattern(function, route, line, end_line, include=dotted_name(argument))


def extract_python(
    path: str, lines: list[str], tree: ast.Module, module: str, is_package: bool
) -> tuple[list[Symbol], list[Block], FileFacts]:
    return PythonExtractor(path, lines, module, is_package).run(tree)
