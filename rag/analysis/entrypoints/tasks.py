"""Entrypoints that Python frameworks declare by decorating a function: the background tasks of task queues
and schedulers, Celery (``@shared_task``, ``@app.task``, a bare ``@task`` imported from celery), Dramatiq
(``@dramatiq.actor``), RQ (``@job('default')``), Huey (``@huey.task()``, ``@huey.periodic_task(...)``) and
APScheduler (``@scheduler.scheduled_job(...)``); and the operations of a Strawberry GraphQL schema
(``@strawberry.field`` on a method of ``Query``)."""

from __future__ import annotations

from rag.analysis.entrypoints.context import FinderContext
from rag.analysis.facts import DecoratorCall
from rag.analysis.records import Entrypoint, Symbol
from rag.analysis.results import FileAnalysis

# The keyword argument that names a framework's task, when it has one (Celery's ``name``, Dramatiq's ``actor_name``).
NAME_ARGUMENTS = {"celery": "name", "dramatiq": "actor_name", "huey": "name", "apscheduler": "id"}
# The decorators of Huey's instances and of an APScheduler's scheduler that make a task.
HUEY_DECORATORS = frozenset({"task", "periodic_task", "db_task", "db_periodic_task", "lock_task"})
SCHEDULER_DECORATORS = frozenset({"scheduled_job"})


def python_task(context: FinderContext, analysis: FileAnalysis, symbol: Symbol, call: DecoratorCall, framework: str) -> None:
    """The decorated function as a task of ``framework``, named as the decorator names it, else by its qname."""
    name = call.kwarg(NAME_ARGUMENTS[framework]) if framework in NAME_ARGUMENTS else None
    context.add(
        analysis.path,
        Entrypoint(
            entry_type="task",
            framework=framework,
            route_or_command=name if isinstance(name, str) else symbol.qname,
            handler=symbol.qname,
            path=analysis.path,
            start_line=symbol.start_line,
            end_line=symbol.end_line,
            handler_raw=symbol.qname,
        ),
    )


# The root types of a GraphQL schema: a field of one is an operation clients call.
GRAPHQL_ROOTS = frozenset({"Query", "Mutation", "Subscription"})
GRAPHQL_FIELDS = frozenset({"field", "mutation", "subscription"})


def graphql_field(context: FinderContext, analysis: FileAnalysis, symbol: Symbol, call: DecoratorCall, root: str) -> None:
    """A Strawberry resolver of a root type (``@strawberry.field`` on ``Query.all_books``): the operation
    ``Query.allBooks``, named as Strawberry names it (its ``name=``, else the method's name in camel case)."""
    name = call.kwarg("name")
    if not isinstance(name, str):
        head, *rest = symbol.qname.rsplit(".", 1)[-1].split("_")
        name = head + "".join(part[:1].upper() + part[1:] for part in rest)
    context.add(
        analysis.path,
        Entrypoint(
            entry_type="rpc_service",
            framework="strawberry",
            route_or_command=f"{root}.{name}",
            handler=symbol.qname,
            path=analysis.path,
            start_line=symbol.start_line,
            end_line=symbol.end_line,
            handler_raw=symbol.qname,
        ),
    )
