"""What a fresh machine needs before the product's commands can work: a migrated database and an account.

``serve`` does both at every start; the other commands a person runs
(``index_repo``, ``rag_search``, ``rag_eval``, ``bench_index``) call
``prepare_database`` first, so they work straight from a fresh clone.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.migrations.executor import MigrationExecutor


def unapplied_migrations() -> int:
    connection = connections[DEFAULT_DB_ALIAS]
    executor = MigrationExecutor(connection)
    return len(executor.migration_plan(executor.loader.graph.leaf_nodes()))


def prepare_database(stdout) -> None:
    """Migrate the embedded database when it is behind; an external one (``DATABASE_URL``) is left to its owner.

    Raises ``CommandError`` naming the command to run when an external database is not migrated.
    """
    pending = unapplied_migrations()
    if not pending:
        return
    if settings.EMBEDDED_POSTGRES is None:
        raise CommandError(
            f"The database has {pending} migrations to apply: run `python manage.py migrate` first."
        )
    stdout.write(f"Preparing the embedded database ({pending} migrations)...")
    call_command("migrate", interactive=False, verbosity=0)


def ensure_first_admin(stdout):
    """The only superuser, or on a database with none, a new ``admin`` whose one-time password is printed."""
    user_model = get_user_model()
    existing = list(user_model.objects.filter(is_superuser=True)[:2])
    if existing:
        return existing[0]
    password = secrets.token_urlsafe(12)
    admin = user_model.objects.create_superuser("admin", email="", password=password)
    stdout.write(
        "\n"
        "  First run: an administrator account was created.\n"
        "    username: admin\n"
        f"    password: {password}\n"
        "  This password is shown only once; change it in Admin > Users.\n"
    )
    return admin
