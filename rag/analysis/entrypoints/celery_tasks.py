"""Celery tasks: ``@shared_task``, ``@app.task`` and a bare ``@task`` imported from celery."""

from __future__ import annotations

from rag.analysis.entrypoints.context import FinderContext
from rag.analysis.facts import DecoratorCall
from rag.analysis.records import Entrypoint, Symbol
from rag.analysis.results import FileAnalysis


def celery_task(context: FinderContext, analysis: FileAnalysis, symbol: Symbol, call: DecoratorCall) -> None:
    name = call.kwarg("name")
    context.add(
        analysis.path,
        Entrypoint(
            entry_type="task",
            framework="celery",
            route_or_command=name if isinstance(name, str) else symbol.qname,
            handler=symbol.qname,
            path=analysis.path,
            start_line=symbol.start_line,
            end_line=symbol.end_line,
            handler_raw=symbol.qname,
        ),
    )
