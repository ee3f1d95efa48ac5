"""Every family's finder run over every file; decorators sent to the family of their framework."""

from __future__ import annotations

from rag.analysis.entrypoints.cli import click_command, flask_cli, typer_command
from rag.analysis.entrypoints.commands import (
    argparse_command,
    console_script,
    management_command,
)
from rag.analysis.entrypoints.context import WEB_FRAMEWORKS, FinderContext
from rag.analysis.entrypoints.django_urls import django_urls
from rag.analysis.entrypoints.graphql import (
    GRAPHQL_FIELDS,
    GRAPHQL_ROOTS,
    ariadne_field,
    graphene_operations,
    strawberry_field,
)
from rag.analysis.entrypoints.tasks import (
    HUEY_DECORATORS,
    SCHEDULER_DECORATORS,
    python_task,
    scheduled_job,
)
from rag.analysis.entrypoints.web import (
    LITESTAR_DECORATORS,
    ROUTE_DECORATORS,
    azure_function,
    decorated_route,
    litestar_route,
    pyramid_view,
    registered_route,
    restx_maker,
    restx_resource,
    socketio_event,
)
from rag.analysis.facts import DecoratorCall, FileFacts
from rag.analysis.names import RepositoryNames
from rag.analysis.records import Entrypoint
from rag.analysis.results import FileAnalysis


def find_entrypoints(names: RepositoryNames, analyses: dict[str, FileAnalysis]) -> dict[str, list[Entrypoint]]:
    """C3 entrypoints of every file, resolved against the whole repository, in line order per path."""
    context = FinderContext(names, analyses)
    # The URLconfs first: where they mount an API (Django Ninja's ``path("api/", api.urls)``) prefixes its routes.
    django_urls(context)
    for analysis in analyses.values():
        facts = analysis.facts
        if facts is None:
            continue
        for script in facts.console_scripts:
            console_script(context, analysis, script.name, script.target, script.line, script.group)
        if facts.module is None:
            continue
        for qname, calls in facts.decorators:
            for call in calls:
                _decorated(context, analysis, facts, qname, call)
        for registration in facts.route_registrations:
            if registration.method == "add_job":
                scheduled_job(context, analysis, facts, registration)
            else:
                registered_route(context, analysis, facts, registration)
        for command in facts.argparse_commands:
            argparse_command(context, analysis, facts.module, command)
        if facts.management_command:
            management_command(context, analysis, facts.module, facts.management_command)
    graphene_operations(context)
    for entries in context.found.values():
        entries.sort(key=lambda entry: (entry.start_line, entry.route_or_command))
    return context.found


def _decorated(context: FinderContext, analysis: FileAnalysis, facts: FileFacts, qname: str, call: DecoratorCall) -> None:
    """Flask, FastAPI, click, typer or a task queue's (Celery, Dramatiq, RQ, Huey, APScheduler, Airflow), by the
    decorator's receiver or what it was imported as."""
    module = facts.module or ""
    receiver, _, attr = call.target.rpartition(".")
    symbol = context.names.symbols.get(qname)
    if symbol is None:
        return
    # What the decorator is imported as: ``celery.shared_task``, ``dramatiq.actor``, ``huey.contrib.djhuey.task``.
    imported_from = context.names.expand(call.target, call.scope, module).split(".", 1)[0]
    if attr in HUEY_DECORATORS and imported_from == "huey":
        python_task(context, analysis, symbol, call, "huey")
        return
    if attr == "shared_task" or (not receiver and attr == "task"):
        if imported_from == "celery" or attr == "shared_task":
            python_task(context, analysis, symbol, call, "celery")
        return
    if attr in GRAPHQL_FIELDS and imported_from == "strawberry" and symbol.parent:
        root = symbol.parent.rsplit(".", 1)[-1]
        if root in GRAPHQL_ROOTS:
            strawberry_field(context, analysis, symbol, call, root)
        return
    if (attr, imported_from) in (("actor", "dramatiq"), ("job", "rq"), ("dag", "airflow")):
        python_task(context, analysis, symbol, call, imported_from)
        return
    if imported_from == "litestar" and not receiver and attr in LITESTAR_DECORATORS:
        litestar_route(context, analysis, symbol, call, attr)
        return
    if imported_from == "pyramid" and attr == "view_config":
        pyramid_view(context, analysis, symbol, call)
        return
    azure = attr.endswith("_trigger") or attr == "schedule"  # Azure Functions' triggers (``@app.timer_trigger(...)``)
    if not receiver or not azure and attr not in (
        *ROUTE_DECORATORS, "command", "group", "task", "field", "on", "event", *HUEY_DECORATORS, *SCHEDULER_DECORATORS
    ):
        return
    if attr == "command" and receiver.endswith(".cli") and flask_cli(context, analysis, facts, symbol, call):
        return
    framework, receiver_qname = context.framework(receiver, call.scope, module, facts)
    if framework == "azure-functions":
        azure_function(context, analysis, symbol, call, attr)
        return
    if attr == "route" and symbol.kind == "class" and (made_by := restx_maker(context, receiver_qname)) is not None:
        restx_resource(context, analysis, symbol, call, made_by, receiver_qname)
        return
    if attr in ROUTE_DECORATORS and framework in WEB_FRAMEWORKS:
        decorated_route(context, analysis, symbol, call, attr, framework, receiver_qname)
    elif attr in ("command", "group") and framework in ("click", "click_group"):
        click_command(context, analysis, symbol, call)
    elif attr == "command" and framework == "typer":
        typer_command(context, analysis, symbol, call, receiver_qname)
    elif attr == "task" and framework == "celery":
        python_task(context, analysis, symbol, call, "celery")
    elif attr in HUEY_DECORATORS and framework == "huey":
        python_task(context, analysis, symbol, call, "huey")
    elif attr in SCHEDULER_DECORATORS and framework == "apscheduler":
        python_task(context, analysis, symbol, call, "apscheduler")
    elif attr == "field" and framework in GRAPHQL_ROOTS:
        ariadne_field(context, analysis, symbol, call, framework)
    elif attr in ("on", "event") and framework == "socketio":
        socketio_event(context, analysis, symbol, call, attr)

