"""The walker: one file's symbols, blocks, facts (calls, type references, imports) and entrypoints from
its language's tags query, as the records the Python analysis makes (``extract_tree_sitter``).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable

import tree_sitter

from rag.analysis.chunking import Block
from rag.analysis.facts import (
    EXPRESSION_RECEIVER,
    RETURNED,
    SELF_RECEIVER,
    FileFacts,
    NamedImport,
    Reference,
)
from rag.analysis.languages.nodes import (
    _body_doc,
    _declaring_statement,
    _Definition,
    _Definitions,
    _doc,
    _enclosing,
    _last_row,
    _literal,
    _outer,
    _path_before,
    _preamble,
    _scope,
    _signature,
    _Spans,
    _text,
)
from rag.analysis.languages.parsing import (
    MAX_PARSED_BYTES,
    NotParsed,
    _parsed,
    _source,
    _unqueryable,
)
from rag.analysis.languages.routes import _entrypoints
from rag.analysis.languages.spec import (
    NAMESPACE_SEPARATOR,
    LanguageSpec,
    _grammar,
    _locals_query,
    _matches,
    _types_query,
    import_paths,
    unit_name,
)
from rag.analysis.records import Symbol

# The kinds of the tags convention, as the catalog's kinds.
_KINDS = {
    "class": "class", "interface": "class", "module": "class", "type": "class", "struct": "class",
    "enum": "class", "trait": "class", "implementation": "class",
    "function": "function", "macro": "function",
    "method": "method",
    "constant": "const", "field": "const",
}


def extract_tree_sitter(
    path: str, text: str, spec: LanguageSpec
) -> tuple[list[Symbol], list[Block], FileFacts]:
    """Symbols, top-level blocks and facts of one file of a tree-sitter language."""
    unit = unit_name(path, spec)
    data = _source(spec, text)
    if len(data) > MAX_PARSED_BYTES:
        return [], [], FileFacts(module=unit)
    _, query = _grammar(spec)
    root = _parsed(spec, data).root_node
    if (reason := _unqueryable(root)) is not None:
        raise NotParsed(reason)
    # Definitions by their node's span; asked for the one around a node (``_Spans``) once all are found.
    found_definitions: dict[tuple[int, int], _Definition] = {}
    # Where definitions' names are: a query that takes every identifier for a reference (Ruby's)
    # must not make a definition call itself.
    defined_at: set[tuple[int, int]] = set()
    # (name node, name, edge kind, whether it is a call: only calls have receivers, the node the query
    # names as its receiver if any, whether the name is the whole reference: a bare identifier)
    calls: list[tuple[tree_sitter.Node, str, str, bool, tree_sitter.Node | None, bool]] = []
    imports: list[tuple[tree_sitter.Node, str, str]] = []
    named_imports: list[NamedImport] = []
    namespaces: set[tuple[int, int]] = set()
    # A pattern's ``(#set! strip "regex")`` removes what matches from its names (the colon of Ruby's
    # ``attr_reader :name``).
    strips = {
        pattern: re.compile(str(settings["strip"]))
        for pattern in range(query.pattern_count)
        if (settings := query.pattern_settings(pattern)).get("strip")
    }
    for pattern, captures in _matches(query, root):
        if "package" in captures:
            if spec.unit == "package":
                unit = NAMESPACE_SEPARATOR.sub(".", _text(captures["package"][0]))
            # The declaration the package is named in is no symbol of its own (PHP's tags call it a module).
            namespaces.update((node.start_byte, node.end_byte) for node in captures.get("namespace", ()))
            continue
        if "export.default" in captures or "export.local" in captures:
            # The module's own definition it exports as ``default`` or under a name of its export list:
            # passed on from itself (no source).
            node = (captures.get("export.default") or captures["export.local"])[0]
            member = _text(node)
            exported_as = "default" if "export.default" in captures else _text(captures["alias"][0]) if "alias" in captures else member
            named_imports.append(NamedImport(exported_as, member, "", node.start_point[0] + 1, reexport=True))
            continue
        if "import" in captures:
            node = captures["import"][0]
            # A string the grammar gives no node for its text inside the quotes (Dart's ``'src/cart.dart'``).
            written = _literal(node) if node.type == "string_literal" else _text(node)
            if "import.member" in captures or "import.reexport" in captures:
                # A name bound from the module, or passed on from it (ES modules: ``NamedImport``); the
                # statement's own match gives the module's import.
                reexport = "import.reexport" in captures
                member = _text(captures["import.reexport" if reexport else "import.member"][0])
                bound_as = _text(captures["alias"][0]) if "alias" in captures else member
                named_imports.append(NamedImport(bound_as, member, written, node.start_point[0] + 1, reexport))
                continue
            if "import.default" in captures:
                named_imports.append(NamedImport(_text(captures["import.default"][0]), "default", written, node.start_point[0] + 1))
                continue
            if "import_prefix" in captures:
                # A member of a group after the group's path (PHP's ``use App\Models\{User, Post};``), a path
                # written as names side by side (Scala's ``import com.shop.Cart``: ``com``, ``shop``, then ``Cart``).
                prefix = captures["import_prefix"][0]
                written = spec.import_separator.join((*_path_before(prefix), _text(prefix), written))
            # The name the file gives what it imports, when it renames it (PHP's ``use A\\B as C``).
            alias = _text(captures["alias"][0]) if "alias" in captures else ""
            for raw in import_paths(written, spec.import_separator) if spec.import_separator else (written,):
                imports.append((node, raw, alias))
            continue
        names = captures.get("name")
        if not names:
            continue
        name = _text(names[0])
        if pattern in strips:
            name = strips[pattern].sub("", name)
        receiver = _text(captures["receiver"][0]) if "receiver" in captures else ""
        container = next((capture for capture in captures if capture.partition(".")[0] == "container"), None)
        if container is not None and name:
            node = captures[container][0]
            kind = "namespace" if container == "container.namespace" else "class"
            # A nested namespace (C++17's ``namespace simdjson::dom``) is one name per namespace.
            name = ".".join(NAMESPACE_SEPARATOR.split(name))
            found_definitions.setdefault((node.start_byte, node.end_byte), _Definition(node, name, kind, container=True))
            continue
        for capture, nodes in captures.items():
            kind, _, role = capture.partition(".")
            if kind == "definition" and role in _KINDS and name:
                node = nodes[0]
                # The first capture of a span wins (a class is not also a type).
                found_definitions.setdefault(
                    (node.start_byte, node.end_byte), _Definition(node, name, _KINDS[role], receiver, is_global="global" in captures)
                )
                defined_at.add((names[0].start_byte, names[0].end_byte))
            elif kind == "reference" and role in ("call", "class", "implementation"):
                bare = (nodes[0].start_byte, nodes[0].end_byte) == (names[0].start_byte, names[0].end_byte)
                written_receiver = captures["receiver"][0] if "receiver" in captures else None
                edge_kind = "inherits" if role == "implementation" else "calls"
                calls.append((names[0], name, edge_kind, role == "call", written_receiver, bare))
    for span in namespaces:
        found_definitions.pop(span, None)
    definitions: _Definitions = _Spans(found_definitions)
    roots: list[_Definition] = []
    stack: list[_Definition] = []
    ordered: list[_Definition] = []
    for definition in sorted(definitions.values(), key=lambda d: (d.node.start_byte, -d.node.end_byte)):
        while stack and stack[-1].node.end_byte < definition.node.end_byte:
            stack.pop()
        # A property's value is no scope of names: the functions of an object it holds are its class's.
        parent = next((around for around in reversed(stack) if around.kind != "const"), None)
        if parent is not None and _is_value_of(definition, parent):
            # What is inside it belongs to the definition that names it.
            del definitions[(definition.node.start_byte, definition.node.end_byte)]
            continue
        ordered.append(definition)
        definition.statement = _declaring_statement(definition.node, parent.node if parent else root)
        outer = parent.qname if parent and not definition.is_global else unit
        definition.qname = f"{outer}.{definition.receiver}.{definition.name}" if definition.receiver else f"{outer}.{definition.name}"
        if parent is not None and definition.kind == "function" and parent.kind == "class" and not definition.is_global:
            definition.kind = "method"
        (parent.children if parent else roots).append(definition)
        stack.append(definition)
    folded = _fold_declarations([roots, *(definition.children for definition in ordered)], spec.overload_declarations)
    symbols: list[Symbol] = []
    for definition in ordered:
        if definition.container or id(definition) in folded:
            continue
        # A definition with declarations above it starts at the first: its doc, signature and chunk are there.
        first = definition.declarations[0] if definition.declarations else definition
        outer = _outer(first.statement or first.node)
        definition.preamble = _preamble(outer, spec.attribute_node)
        definition.first_row = (definition.preamble[0] if definition.preamble else outer).start_point[0]
        own = _preamble(_outer(definition.statement or definition.node), spec.attribute_node)
        own_doc = _doc(own, spec.doc_attributes) if definition.declarations else ""
        parent_qname = definition.qname.rsplit(".", 1)[0]
        symbols.append(
            Symbol(
                qname=definition.qname,
                name=definition.name,
                kind=definition.kind,  # type: ignore[arg-type]
                path=path,
                module=unit,
                start_line=first.node.start_point[0] + 1,
                end_line=_last_row(definition.node) + 1,
                signature=_signature(first.statement or first.node),
                docstring=_doc(definition.preamble, spec.doc_attributes) or own_doc or _body_doc(definition.node, spec),
                parent=parent_qname if parent_qname != unit else None,
            )
        )
    blocks = [block for definition in roots if _chunked(definition) for block in _blocks(definition, "")]
    declared = _declared_types(spec, root, definitions, unit)
    local_names = _local_names(spec, root)
    # A name a query also captures inside its call (Ruby's ``x.name``) is that call's, not a bare name.
    in_calls = {(node.start_byte, node.end_byte) for node, _, _, _, _, bare in calls if not bare}
    found: list[Reference] = []
    for node, name, kind, is_call, written_receiver, bare in calls:
        if name and (node.start_byte, node.end_byte) not in defined_at:
            if bare and ((node.start_byte, node.end_byte) in in_calls or _is_local(node, name, local_names)):
                continue  # a read of a parameter or local variable (Ruby's ``val``), not a call
            around = _enclosing(node, definitions)
            scope = around.qname if around is not None else unit
            # A bare name (Ruby's ``env``) is called on nothing, whatever stands before it.
            receiver = _receiver(node, around, scope, spec, declared, written_receiver) if is_call and not bare else {}
            found.append(Reference(kind=kind, scope=scope, raw=name, line=node.start_point[0] + 1, **receiver))  # type: ignore[arg-type]
    # Imports name the definition around them (a Rust ``use`` in a ``mod tests``), else the file's
    # unit, which the package capture may have set after them. An import may come in two matches, with
    # the name it is bound to and without (JavaScript's ``const users = require('./users')``): the name's.
    named = {(node.start_byte, raw) for node, raw, alias in imports if alias}
    for node, raw, alias in imports:
        if not alias and (node.start_byte, raw) in named:
            continue
        found.append(Reference(
            kind="imports", scope=_scope(node, definitions, unit), raw=raw, line=node.start_point[0] + 1, receiver=alias
        ))
    # The modules the file imports by the names it binds: the whole module's (``const users =
    # require('./users')``), or one of its exports (``import { books } from './books'``).
    modules = {binding.name: binding.source for binding in named_imports if binding.source and not binding.reexport}
    modules.update((alias, raw) for _, raw, alias in imports if alias)
    entrypoints, mounts, handler_values = _entrypoints(path, spec, root, definitions, unit, modules, declared)
    # A route's handler given as a method value (Go's ``r.GET("/users/:id", h.Show)``) refers to that method
    # as a call on its receiver would: the repository pass resolves it by the receiver's type.
    for node in handler_values:
        around = _enclosing(node, definitions)
        scope = around.qname if around is not None else unit
        found.append(Reference(
            kind="calls", scope=scope, raw=_text(node), line=node.start_point[0] + 1, **_receiver(node, around, scope, spec, declared),
        ))
    # One reference per place: the grammar's query and ours may both capture it.
    references = tuple(dict.fromkeys(found))
    top_level = tuple(definition.name for definition in roots)
    # The repository pass keys files by module: files sharing a package keep one each.
    module = unit if spec.unit == "file" else f"{unit}.{posixpath.splitext(posixpath.basename(path))[0]}"
    facts = FileFacts(
        module=module, references=references, top_level=top_level, entrypoints=entrypoints, mounts=mounts,
        named_imports=tuple(dict.fromkeys(named_imports)),
    )
    return symbols, blocks, facts


def _is_value_of(definition: _Definition, parent: _Definition) -> bool:
    """A function that is the value its enclosing definition names: JavaScript's
    ``res.send = function send() {}`` is one function, not ``send`` inside ``send``."""
    node = definition.node.parent
    return (
        definition.kind == "function" and parent.kind in ("function", "method") and node is not None
        and (node.start_byte, node.end_byte) == (parent.node.start_byte, parent.node.end_byte)
    )


def _fold_declarations(scopes: Iterable[list[_Definition]], declarations: frozenset[str]) -> set[int]:
    """Declarations (nodes of the ``declarations`` types: TypeScript's overload signatures) right above
    the definition of the same name and kind are that definition's, not symbols of their own: they
    leave their scope's list and become its ``declarations``. A run of them with nothing defined after
    it (an interface's overloaded methods) stays as it is. Returns the folded definitions' ids."""
    folded: set[int] = set()
    if not declarations:
        return folded
    for children in scopes:
        run: list[_Definition] = []
        for definition in children:
            if run and (run[-1].qname, run[-1].kind) != (definition.qname, definition.kind):
                run = []
            if definition.node.type in declarations:
                run.append(definition)
                continue
            if run:
                definition.declarations = run
                folded.update(id(declaration) for declaration in run)
                run = []
        if any(id(definition) in folded for definition in children):
            children[:] = [definition for definition in children if id(definition) not in folded]
    return folded


def _chunked(definition: _Definition) -> bool:
    """Whether a definition is a block of its own: a one-line property or constant (``val id: String``,
    a data class's parameters) is read with the code around it, not as a chunk of its own."""
    return definition.kind != "const" or definition.node.end_point[0] > definition.node.start_point[0]


def _blocks(definition: _Definition, parent: str) -> list[Block]:
    """A definition's block (a container's members stand in for it: an impl block is its methods)."""
    children = [child for child in definition.children if _chunked(child)]
    if definition.container:
        return [block for child in children for block in _blocks(child, definition.name)]
    # A method defined outside its type is titled with the type (Go's ``Cart.Total``, C++'s ``padded_string::load``).
    own = f"{definition.receiver}.{definition.name}" if definition.receiver else definition.name
    title = f"{parent}.{own}" if parent else own
    members = [block for child in children for block in _blocks(child, definition.name)]
    # The chunk starts at the definition's doc comment and attributes, so they are read and found with it.
    return [Block(
        start=definition.first_row + 1,
        end=_last_row(definition.node) + 1,
        qname=definition.qname,
        title=title,
        members=members,
    )]


_RECEIVER_NAME = re.compile(r"[$A-Za-z_][\w$]*")
# A field of the enclosing object: ``this.repo``, ``$this->repo``, ``self.repo``.
_OWN_FIELD = re.compile(r"([$A-Za-z_][\w$]*)\s*(?:\.|->|\?\.)\s*([A-Za-z_]\w*)")
# What may stand between a call's receiver and its name: type arguments (Java's ``list.<T>of()``).
_BETWEEN_RECEIVER_AND_NAME = frozenset({"type_arguments"})
_TYPE_NAME = re.compile(r"[A-Za-z_]\w*")
# Words a declaration writes where the type is left to the compiler.
_INFERRED_TYPES = frozenset({"var", "auto", "dynamic", "let", "val"})


def _receiver(
    name: tree_sitter.Node,
    around: _Definition | None,
    scope: str,
    spec: LanguageSpec,
    declared: dict[tuple[str, str], str],
    written_receiver: tree_sitter.Node | None = None,
) -> dict[str, str]:
    """What the called ``name`` is called on (``Reference.receiver``), and the type it is declared with
    when the file says (``Reference.receiver_type``): the query's ``@receiver`` when it names one (the
    path of Rust's ``walk::WalkBuilder::new()``, kept as written), else the node before the name in its
    expression (``obj`` of ``obj.name()``, ``Foo`` of ``Foo::name()``, ``$this->a`` of ``$this->a->name()``),
    or before the wrapper that holds it alone (Kotlin's navigation suffix)."""
    before = written_receiver or name.prev_named_sibling
    parent = name.parent if before is None else None
    if parent is not None and parent.named_child_count == 1 and parent.type != "call":
        before = parent.prev_named_sibling
    while before is not None and before.type in _BETWEEN_RECEIVER_AND_NAME:
        before = before.prev_named_sibling
    if before is None:
        return {}
    written = _text(before)
    own = _receiver_variable(around)
    if written in spec.self_names or written == own:
        return {"receiver": SELF_RECEIVER}
    if written_receiver is not None and not _RECEIVER_NAME.fullmatch(written):
        return {"receiver": written}
    if _RECEIVER_NAME.fullmatch(written):
        return {"receiver": written, "receiver_type": _declared_type(declared, scope, written.lstrip("$"))}
    field = _OWN_FIELD.fullmatch(written)
    if field is not None and (field.group(1) in spec.self_names or field.group(1) == own):
        return {"receiver": EXPRESSION_RECEIVER, "receiver_type": _declared_type(declared, scope, field.group(2))}
    return {"receiver": EXPRESSION_RECEIVER}


# A local scope (by its span): the names defined in it with the first byte each is defined at, and
# whether the scope sees the names of the scopes around it (a Ruby block does, a method does not).
_LocalScope = tuple[dict[str, int], bool]


def _local_names(spec: LanguageSpec, root: tree_sitter.Node) -> _Spans[_LocalScope]:
    """The parameters and local variables of each local scope (``@local.scope``, ``@local.definition``
    of the tree-sitter locals convention); empty for a language without a locals query."""
    scopes: _Spans[_LocalScope] = _Spans()
    query = _locals_query(spec)
    if query is None:
        return scopes
    definitions: list[tree_sitter.Node] = []
    for pattern, captures in _matches(query, root):
        for node in captures.get("local.scope", ()):
            inherits = query.pattern_settings(pattern).get("local.scope-inherits") != "false"
            scopes.setdefault((node.start_byte, node.end_byte), ({}, inherits))
        definitions.extend(captures.get("local.definition", ()))
    for node in definitions:
        around = scopes.around(node)
        if around is not None:
            names = around[0]
            name = _text(node)
            names[name] = min(names.get(name, node.start_byte), node.start_byte)
    return scopes


def _is_local(node: tree_sitter.Node, name: str, scopes: _Spans[_LocalScope]) -> bool:
    """Whether ``name`` at ``node`` is a parameter or a local variable defined before it in a scope
    around it that it can see."""
    for span in reversed(scopes.chain(node)):
        names, inherits = scopes[span]
        if names.get(name, node.end_byte) <= node.start_byte:
            return True
        if not inherits:
            return False
    return False


def _declared_types(
    spec: LanguageSpec, root: tree_sitter.Node, definitions: _Definitions, unit: str
) -> dict[tuple[str, str], str]:
    """(scope, name) -> the name of the type the name is declared with there (``types.scm``); empty
    when the scope declares it twice with different types. A ``@variable`` belongs to the definition
    around it, a ``@field`` to the one around that (``this.cart = new Cart()`` in a constructor, PHP's
    promoted constructor parameters: the class's). Names are kept without PHP's ``$``."""
    query = _types_query(spec)
    if query is None:
        return {}
    found: dict[tuple[str, str], str] = {}
    for _pattern, captures in _matches(query, root):
        named = captures.get("variable") or captures.get("field")
        if not named:
            continue
        if "returned" in captures:
            # Bound to a call's result: the type the called function returns, looked up with the
            # repository's functions (``Reference.receiver_type``).
            names = [_text(captures["returned"][0]) + RETURNED]
        elif "type" in captures:
            # The type's own name: ``Cart`` of ``*Cart``, ``shop.Cart``, ``List<Item>``, ``Cart[]``, ``?Cart``.
            names = _TYPE_NAME.findall(_text(captures["type"][0]).split("<", 1)[0].split("[", 1)[0])
        else:
            continue
        if not names or names[-1] in _INFERRED_TYPES:
            continue
        name = _text(named[0]).lstrip("$")
        scope = _scope(named[0], definitions, unit)
        # A property that is a symbol of its own (PHP's) is declared in the class around it.
        if "field" in captures or scope.rsplit(".", 1)[-1] == name:
            scope = scope.rsplit(".", 1)[0]
        key = (scope, name)
        if found.setdefault(key, names[-1]) != names[-1]:
            found[key] = ""
    return found


def _declared_type(declared: dict[tuple[str, str], str], scope: str, variable: str) -> str:
    """The type ``variable`` is declared with in ``scope`` or the nearest scope around it (a method's
    parameters and locals, then its class's fields)."""
    while True:
        found = declared.get((scope, variable))
        if found is not None or "." not in scope:
            return found or ""
        scope = scope.rsplit(".", 1)[0]


def _receiver_variable(around: _Definition | None) -> str:
    """The name a Go method gives its receiver (``f`` of ``func (f *Filter) Add()``); empty for
    other definitions."""
    receiver = around.node.child_by_field_name("receiver") if around is not None else None
    if receiver is None or not receiver.named_children:
        return ""
    variable = receiver.named_children[0].child_by_field_name("name")
    return _text(variable) if variable is not None else ""
