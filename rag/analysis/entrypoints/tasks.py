"""The background tasks of Python's task queues and schedulers: Celery (``@shared_task``, ``@app.task``, a bare
``@task`` imported from celery), Dramatiq (``@dramatiq.actor``), RQ (``@job('default')``), Huey (``@huey.task()``,
``@huey.periodic_task(...)``), APScheduler (``@scheduler.scheduled_job(...)``, ``scheduler.add_job(f, ...)``) and
Airflow's DAGs (``@dag``)."""

from __future__ import annotations

from rag.analysis.entrypoints.context import FinderContext
from rag.analysis.facts import DecoratorCall, FileFacts, RouteRegistration
from rag.analysis.records import Entrypoint, Symbol
from rag.analysis.results import FileAnalysis

# The keyword argument that names a framework's task, when it has one (Celery's ``name``, Dramatiq's ``actor_name``).
NAME_ARGUMENTS = {"celery": "name", "dramatiq": "actor_name", "huey": "name", "apscheduler": "id", "airflow": "dag_id"}
# The decorators of Huey's instances and of an APScheduler's scheduler that make a task.
HUEY_DECORATORS = frozenset({"task", "periodic_task", "db_task", "db_periodic_task", "lock_task"})
SCHEDULER_DECORATORS = frozenset({"scheduled_job"})


def python_task(context: FinderContext, analysis: FileAnalysis, symbol: Symbol, call: DecoratorCall, framework: str) -> None:
    """The decorated function as a task of ``framework``, named as the decorator names it, else by its qname."""
    name = call.kwarg(NAME_ARGUMENTS[framework]) if framework in NAME_ARGUMENTS else None
    if not isinstance(name, str):
        # An Airflow DAG is named by its function (the dag_id Airflow gives it), other tasks by their qname.
        name = symbol.qname.rsplit(".", 1)[-1] if framework == "airflow" else symbol.qname
    context.add_handled(analysis.path, symbol, "task", framework, name)


def scheduled_job(context: FinderContext, analysis: FileAnalysis, facts: FileFacts, registration: RouteRegistration) -> None:
    """APScheduler's ``scheduler.add_job(send_report, "cron", hour=3, id="report")`` on a scheduler of the file's: a
    task named by its ``id``, else by the function's qname, handled by that function."""
    module = facts.module or ""
    framework, _ = context.framework(registration.receiver, registration.scope, module, facts)
    if framework != "apscheduler" or registration.view is None:
        return
    handler = context.names.resolve(registration.view, registration.scope, module, registration.class_scope)
    context.add(analysis.path, Entrypoint(
        entry_type="task", framework="apscheduler", route_or_command=registration.route or handler or registration.view,
        handler=handler, path=analysis.path, start_line=registration.line, end_line=registration.end_line,
        handler_raw=registration.view,
    ))
