"""The background tasks of Python's task queues and schedulers: Celery (``@shared_task``, ``@app.task``, a bare
``@task`` imported from celery), Dramatiq (``@dramatiq.actor``), RQ (``@job('default')``), Huey (``@huey.task()``,
``@huey.periodic_task(...)``), APScheduler (``@scheduler.scheduled_job(...)``) and Airflow's DAGs (``@dag``)."""

from __future__ import annotations

from rag.analysis.entrypoints.context import FinderContext
from rag.analysis.facts import DecoratorCall
from rag.analysis.records import Symbol
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

