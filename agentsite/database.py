"""Facts about the database the product needs: pgvector present and usable.

(The threads async code reaches the database through are ``database_pool``.)"""

from __future__ import annotations

from django.core import checks
from django.db import connection

PGVECTOR_HELP = (
    "The PostgreSQL server at DATABASE_URL has no 'vector' extension available. "
    "Install pgvector on that server (https://github.com/pgvector/pgvector#installation, "
    "for example the postgresql-16-pgvector package), or unset DATABASE_URL to use the "
    "embedded PostgreSQL that ships with pgvector."
)


def pgvector_available_version() -> str | None:
    """The pgvector version the server can install, or None when it cannot."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT default_version FROM pg_available_extensions WHERE name = 'vector'")
        row = cursor.fetchone()
    return row[0] if row else None


def pgvector_installed_version() -> str | None:
    """The pgvector version installed in the current database, or None."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT extversion FROM pg_extension WHERE extname = 'vector'")
        row = cursor.fetchone()
    return row[0] if row else None


def check_pgvector_available(app_configs=None, databases=None, **kwargs) -> list[checks.CheckMessage]:
    if not databases or "default" not in databases:
        return []
    if pgvector_available_version() is None:
        return [checks.Error(PGVECTOR_HELP, id="agentsite.E001")]
    return []
