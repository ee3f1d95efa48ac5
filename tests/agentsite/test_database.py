from __future__ import annotations

from django.core import checks
from django.db import connection

from agentsite.database import check_pgvector_available, pgvector_installed_version


def test_migrations_install_the_vector_extension(db):
    version = pgvector_installed_version()
    assert version is not None and version.count(".") == 2
    with connection.cursor() as cursor:
        cursor.execute("SELECT '[1,0,0]'::vector <=> '[0,1,0]'::vector")
        assert cursor.fetchone()[0] == 1.0


def test_pgvector_check_passes_on_our_server(db):
    assert check_pgvector_available(databases=["default"]) == []
    assert check_pgvector_available(databases=None) == []


def test_database_checks_are_registered():
    registered = checks.registry.registry.get_checks(include_deployment_checks=False)
    assert check_pgvector_available in registered
