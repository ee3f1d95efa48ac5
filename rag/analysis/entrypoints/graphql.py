"""The operations of the GraphQL schemas Python code builds: Strawberry's (``@strawberry.field`` on a method of
``Query``), Ariadne's (``@query.field("books")`` of ``query = QueryType()``) and Graphene's (a ``resolve_books``
method of a ``Query`` that is a ``graphene.ObjectType``, or of one of its bases, and the mutations its body
assigns). Each is an ``rpc_service`` entrypoint named by root type and field (``Query.allBooks``)."""

from __future__ import annotations

from rag.analysis.entrypoints.context import FinderContext
from rag.analysis.facts import DecoratorCall
from rag.analysis.records import Symbol
from rag.analysis.results import FileAnalysis

# The root types of a GraphQL schema: a field of one is an operation clients call.
GRAPHQL_ROOTS = frozenset({"Query", "Mutation", "Subscription"})
GRAPHQL_FIELDS = frozenset({"field", "mutation", "subscription"})


def _camel(name: str) -> str:
    """A Python name as GraphQL schemas built from Python name it: ``all_books`` is ``allBooks``."""
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def graphql_field(
    context: FinderContext, path: str, symbol: Symbol, root: str, field: str, framework: str
) -> None:
    """The operation ``root.field`` of a GraphQL schema, resolved by ``symbol``."""
    context.add_handled(path, symbol, "rpc_service", framework, f"{root}.{field}")


def strawberry_field(context: FinderContext, analysis: FileAnalysis, symbol: Symbol, call: DecoratorCall, root: str) -> None:
    """A Strawberry resolver of a root type (``@strawberry.field`` on ``Query.all_books``): the operation
    ``Query.allBooks``, named as Strawberry names it (its ``name=``, else the method's name in camel case)."""
    name = call.kwarg("name")
    field = name if isinstance(name, str) else _camel(symbol.qname.rsplit(".", 1)[-1])
    graphql_field(context, analysis.path, symbol, root, field, "strawberry")


def ariadne_field(context: FinderContext, analysis: FileAnalysis, symbol: Symbol, call: DecoratorCall, root: str) -> None:
    """An Ariadne resolver, ``@query.field("books")``: the operation ``Query.books``."""
    field = call.args[0] if call.args and isinstance(call.args[0], str) else None
    if field:
        graphql_field(context, analysis.path, symbol, root, field, "ariadne")


def graphene_operations(context: FinderContext) -> None:
    """Graphene's operations: each ``resolve_<field>`` method of a root type (a class named ``Query``,
    ``Mutation`` or ``Subscription`` whose bases include Graphene's ``ObjectType``) or of its bases in the
    repository (the mixins a schema's ``Query`` gathers: ``class Query(ProductQueries, graphene.ObjectType)``)
    is the operation ``Query.<field>``, the field's name in camel case, as Graphene names it; so is each field a
    root type's body assigns a mutation's ``Field()`` (``create_product = ProductCreate.Field()``:
    ``Mutation.createProduct``, handled by the mutation's ``mutate``)."""
    names = context.names
    roots = [
        symbol for symbol in names.symbols.values()
        if symbol.kind == "class" and symbol.name in GRAPHQL_ROOTS and symbol.path.endswith(".py")
        and "ObjectType" in context.framework_bases(symbol.qname)
    ]
    if not roots:
        return
    resolvers: dict[str, list[Symbol]] = {}
    for symbol in names.symbols.values():
        if symbol.kind == "method" and symbol.parent and symbol.name.startswith("resolve_"):
            resolvers.setdefault(symbol.parent, []).append(symbol)
    for root in roots:
        for owner, facts in context.lineage(root.qname):
            for method in resolvers.get(owner, ()):
                graphql_field(context, method.path, method, root.name, _camel(method.name.removeprefix("resolve_")), "graphene")
            for assigned_to, attribute, callee in facts.class_calls if facts is not None and facts.module else ():
                if assigned_to == owner and callee.endswith(".Field"):
                    mutation = _mutation(context, callee.removesuffix(".Field"), owner, facts.module or "")
                    if mutation is not None:
                        graphql_field(context, mutation.path, mutation, root.name, _camel(attribute), "graphene")


def _mutation(context: FinderContext, written: str, scope: str, module: str) -> Symbol | None:
    """The class a field of a root type is made of (``ProductCreate`` of ``ProductCreate.Field()``): its own
    ``mutate`` or ``perform_mutation``, else the class."""
    names = context.names
    found = names.locate(names.expand(written, scope, module))
    if found is None or found[0] != "symbol" or found[1] not in names.symbols:
        return None
    for method in ("mutate", "perform_mutation"):
        if (own := names.symbols.get(f"{found[1]}.{method}")) is not None:
            return own
    return names.symbols[found[1]]
