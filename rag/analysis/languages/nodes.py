"""What the walker and the entrypoint finder read off a syntax tree: the definitions of a file by their
spans (``_Spans``), a definition's doc comment and signature, a node's text and literal value.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TypeVar

import tree_sitter

from rag.analysis.languages.spec import LanguageSpec

# A definition's signature is its first line, cut here.
SIGNATURE_CHARS = 200


@dataclass
class _Definition:
    node: tree_sitter.Node
    name: str
    kind: str
    receiver: str = ""
    # A naming scope only (no symbol): a Rust impl block (kind ``class``), a C++ namespace (``namespace``).
    container: bool = False
    # Named at the file's top level whatever encloses it (``@global``: a preprocessor macro).
    is_global: bool = False
    children: list[_Definition] = field(default_factory=list)
    qname: str = ""
    # Its doc comment and attributes (``_preamble``), read once for its doc and for its chunk.
    preamble: list[tree_sitter.Node] = field(default_factory=list)
    # The row its text starts on: its preamble's, else its ``_outer`` node's (where its chunk starts).
    first_row: int = 0
    # The statement that declares it (``_declaring_statement``): itself, but for a definition that is one
    # token of a statement.
    statement: tree_sitter.Node | None = None
    # Declarations of it without a body right above it (``_fold_declarations``), first first.
    declarations: list[_Definition] = field(default_factory=list)


_V = TypeVar("_V")


class _Spans(dict[tuple[int, int], _V]):
    """Values by the span of a tree node, and the spans around a node (``chain``, ``around``).

    Those are found among the spans, not by walking up the tree: tree-sitter finds a node's parent by
    walking down from the root, so each step up costs the node's depth, and the references of a call
    chained or nested thousands of times (a file of 14 KB) took minutes. Spans of tree nodes nest or
    are apart; the index of them is built at the first question after a change.
    """

    _index: tuple[list[int], list[tuple[int, int]], list[int]] | None = None

    def __setitem__(self, key: tuple[int, int], value: _V) -> None:
        self._index = None
        super().__setitem__(key, value)

    def __delitem__(self, key: tuple[int, int]) -> None:
        self._index = None
        super().__delitem__(key)

    def setdefault(self, key: tuple[int, int], default: _V) -> _V:  # type: ignore[override]
        self._index = None
        return super().setdefault(key, default)

    def chain(self, node: tree_sitter.Node) -> list[tuple[int, int]]:
        """The spans around ``node``, outermost first: the spans of its ancestors (its own span only
        when the node it is wrapped in alone has it too, as a Go call and its statement)."""
        if self._index is None:
            spans = sorted(self, key=lambda span: (span[0], -span[1]))
            # Each span's nearest span around it (-1: none), by a stack of the spans still open.
            parents: list[int] = []
            open_spans: list[int] = []
            for number, (_, end) in enumerate(spans):
                while open_spans and spans[open_spans[-1]][1] < end:
                    open_spans.pop()
                parents.append(open_spans[-1] if open_spans else -1)
                open_spans.append(number)
            self._index = ([start for start, _ in spans], spans, parents)
        starts, spans, parents = self._index
        own = (node.start_byte, node.end_byte)
        # The last span to start at or before the node is inside the innermost one around it, or is it.
        number = bisect.bisect_right(starts, own[0]) - 1
        while number >= 0 and spans[number][1] < own[1]:
            number = parents[number]
        if number >= 0 and spans[number] == own:
            parent = node.parent
            if parent is None or (parent.start_byte, parent.end_byte) != own:
                number = parents[number]
        found = []
        while number >= 0:
            found.append(spans[number])
            number = parents[number]
        return found[::-1]

    def around(self, node: tree_sitter.Node) -> _V | None:
        """The value of the innermost span around ``node`` (None outside every one)."""
        found = self.chain(node)
        return self[found[-1]] if found else None


# A file's definitions by their node's span.
_Definitions = _Spans[_Definition]


def _text(node: tree_sitter.Node) -> str:
    return node.text.decode("utf-8", "replace") if node.text is not None else ""


# Siblings above a definition that belong to it: its comments, and Rust's attributes (``#[derive]``)
# and TypeScript's decorators of class members, which the grammars put beside it rather than in it.
_PREAMBLE_TYPES = ("attribute_item", "decorator")
# Nodes that wrap a definition after a header of their own: C++'s ``template <typename T>``.
_WRAPPER_TYPES = ("template_declaration",)


def _outer(node: tree_sitter.Node) -> tree_sitter.Node:
    """The node a definition's text starts with: the definition, or a node wrapping it that ends with it
    and that it starts (``export function``, an annotated declaration) or that has a header of its own
    (``_WRAPPER_TYPES``); not the body of a class whose first member it is."""
    while (
        node.parent is not None and node.parent.parent is not None
        and node.parent.end_point[0] == node.end_point[0]
        and (node.prev_named_sibling is None or node.parent.type in _WRAPPER_TYPES)
    ):
        node = node.parent
    return node


def _preamble(node: tree_sitter.Node, attribute_node: str = "") -> list[tree_sitter.Node]:
    """The comments and attributes right above a definition's ``_outer`` node, top first: no blank
    line between them and it, none ending a line of code (that comment is the code's). ``attribute_node``:
    the language's own attributes (``LanguageSpec.attribute_node``)."""
    found: list[tree_sitter.Node] = []
    while node.prev_sibling is None and node.parent is not None and node.parent.start_byte == node.start_byte:
        # The first statement of a body that starts with it (Ruby's ``body_statement``): the comment
        # above is the body's sibling.
        node = node.parent
    previous = node.prev_sibling
    below = node.start_point[0]
    while (
        previous is not None
        and ("comment" in previous.type or previous.type in _PREAMBLE_TYPES or previous.type == attribute_node)
        and _last_row(previous) >= below - 1
    ):
        before = previous.prev_sibling
        if before is not None and _last_row(before) >= previous.start_point[0]:
            break
        found.insert(0, previous)
        below = previous.start_point[0]
        previous = before
    return found


def _attribute_doc(attribute: tree_sitter.Node, doc_attributes: frozenset[str]) -> str:
    """The string an attribute of one of those names holds (its first string's content); "" for another."""
    named = next((node for node in _walk(attribute) if node.type == "identifier"), None)
    if named is None or _text(named) not in doc_attributes:
        return ""
    content = next((node for node in _walk(attribute) if node.type == "quoted_content"), None)
    return _text(content) if content is not None else ""


def _body_doc(node: tree_sitter.Node, spec: LanguageSpec) -> str:
    """The documentation a definition opens its body with (``body_doc_attributes``): its first attribute's,
    when that is one of them."""
    if not spec.body_doc_attributes:
        return ""
    # Not into a definition inside it (a nested ``defmodule``: a node of the same type).
    first = next((child for child in _walk(node, stop=node.type) if child.type == spec.attribute_node), None)
    text = _attribute_doc(first, spec.body_doc_attributes) if first is not None else ""
    return "\n".join(line.strip() for line in text.strip().splitlines())


def _walk(node: tree_sitter.Node, stop: str = "") -> Iterator[tree_sitter.Node]:
    """A node and its named descendants, in order (depth first); not below a descendant of type ``stop``."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        if current is node or current.type != stop:
            stack.extend(reversed(current.named_children))


def _declaring_statement(node: tree_sitter.Node, around: tree_sitter.Node) -> tree_sitter.Node:
    """The definition, or for a definition that is one token of a statement (``:name`` of Ruby's
    ``attr_reader :name, :email``) that statement: its ancestor in the body of ``around``, the
    definition (or file) it is in."""
    if node.child_count:
        return node
    while node.parent is not None and node.parent.parent is not None and around not in (node.parent, node.parent.parent):
        node = node.parent
    return node


def _last_row(node: tree_sitter.Node) -> int:
    """The last row a node has text on (a Rust line comment ends at the start of the next row; so does a Scala or
    Swift definition that runs to the end of the file, and a file's root)."""
    row, column = node.end_point
    return row - 1 if column == 0 and row > node.start_point[0] else row


# The markup of doc comments: C#'s XML documentation (``<summary>``, ``<param name="x">``) and the
# HTML of Javadoc (``<p>``, ``<code>``). Only these tags, in lower case, so ``Vec<String>`` or ``List<Item>`` stay.
_DOC_REFERENCE = re.compile(r'<(?:see|seealso|paramref|typeparamref)\s+(?:cref|name|langword|href)="([^"]*)"\s*/>')
# What a C# parameter's or exception's documentation is about: ``<param name="request">`` reads ``request:``.
_DOC_NAMED = re.compile(r'<(?:param|typeparam|exception)\s+(?:name|cref)="([^"]*)"\s*>')
_DOC_TAG = re.compile(
    r"</?(?:summary|remarks|returns|param|typeparam|value|example|exception|para|c|code|see|seealso|list|item|"
    r"description|term|inheritdoc|include|p|br|b|i|em|strong|ul|ol|li|pre|tt|a|blockquote)\b[^<>]*>"
)


# A bundler's annotation in a comment (``/*#__PURE__*/``, ``/*@__NO_SIDE_EFFECTS__*/``): no documentation.
_ANNOTATION_COMMENT = re.compile(r"[#@]__\w+__")


def _doc(preamble: list[tree_sitter.Node], doc_attributes: frozenset[str] = frozenset()) -> str:
    """A definition's doc comment (JSDoc, Javadoc, GoDoc, rustdoc, Doxygen ...): its preamble's comments,
    markers and documentation markup stripped; or the text of its doc attribute (``doc_attributes``:
    Elixir's ``@doc "..."``, a heredoc's lines without their indentation; ``@doc false`` says nothing)."""
    cleaned = []
    for comment in preamble:
        if "comment" not in comment.type:
            if doc_attributes and (text := _attribute_doc(comment, doc_attributes)):
                cleaned.extend(line.strip() for line in text.strip().splitlines())
            continue
        text = _text(comment)
        dashed = text.startswith("--")  # Lua's ``--- Makes a cart.``, ``--[[ ... ]]``
        for line in text.splitlines():
            line = line.strip()
            if dashed:
                line = line.removeprefix("--[[").removesuffix("]]").lstrip("-")
            line = line.strip().removeprefix("/**").removeprefix("/*").removesuffix("*/").strip()
            line = _DOC_NAMED.sub(r"\1: ", _DOC_REFERENCE.sub(r"\1", line.lstrip("/!#*")))
            line = _DOC_TAG.sub("", line).strip()
            if line and not _ANNOTATION_COMMENT.fullmatch(line):
                cleaned.append(line)
    return "\n".join(cleaned)


# Lines a declaration may start with before the one that names it: annotations and decorators
# (``@Override``), Rust and C# attributes (``#[inline]``, ``[HttpGet]``), C++ template headers.
_BEFORE_DECLARATION = re.compile(r"\s*(?:@|#\[|\[.*\]\s*$|template\s*<)")


def _signature(node: tree_sitter.Node) -> str:
    """The line that declares the definition, up to its body."""
    lines = _text(node).split("\n")
    first = next((line for line in lines if line.strip() and not _BEFORE_DECLARATION.match(line)), lines[0])
    return _before_body(first[:SIGNATURE_CHARS]).strip()


def _path_before(node: tree_sitter.Node) -> list[str]:
    """The names written before ``node`` in the same path: its earlier siblings in its parent's ``path`` field
    since the last comma (tree-sitter-scala writes ``import com.shop.Cart`` as three names side by side)."""
    parent = node.parent
    names: list[str] = []
    if parent is None:
        return names
    for index, child in enumerate(parent.children):
        if child.start_byte >= node.start_byte:
            break
        if child.is_named and parent.field_name_for_child(index) == "path":
            names.append(_text(child))
        elif child.type == ",":
            names = []
    return names


def _before_body(line: str) -> str:
    """The line up to its first ``{`` where the parentheses and brackets before it close as many as they open: the
    braces of a parameter list are the signature's (JavaScript's ``function save({ id, name }) {``, Dart's ``int add(Item item, {bool gift = false}) {``)."""
    brace = line.find("{")
    head = line if brace < 0 else line[:brace]
    if head.count("(") + head.count("[") == head.count(")") + head.count("]"):
        return head  # no bracket open at the first brace: the common case, without a pass over the characters
    depth = 0
    for index, char in enumerate(line):
        if char in "([":
            depth += 1
        elif char in ")]":
            depth -= 1
        elif char == "{" and depth == 0:
            return line[:index]
    return line
_QUOTES = "\"'`"


def _literal(node: tree_sitter.Node) -> str:
    """A string or symbol as written, without its quotes (``'/x'``, ``:photos``)."""
    text = _text(node).strip(_QUOTES)
    return text.removeprefix(":") if "symbol" in node.type else text


def _enclosing(node: tree_sitter.Node, definitions: _Definitions) -> _Definition | None:
    """The innermost definition around ``node``."""
    return definitions.around(node)


def _scope(node: tree_sitter.Node, definitions: _Definitions, unit: str) -> str:
    """The qualified name of the innermost definition around ``node`` (the file's unit outside any)."""
    around = _enclosing(node, definitions)
    return around.qname if around is not None else unit
