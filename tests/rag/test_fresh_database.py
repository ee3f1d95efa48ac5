"""The commands a person runs work on a database nothing has prepared yet (a fresh clone)."""

from __future__ import annotations

import subprocess
import sys
import uuid

import psycopg
import pytest
from django.db import connection

from tests.conftest import ROOT, product_process_env


def _manage(database: str, *arguments: str) -> subprocess.CompletedProcess:
    env = product_process_env() | {"AGENTSITE_DB_NAME": database}
    return subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), *arguments], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=300,
    )


@pytest.fixture
def fresh_database():
    name = f"fresh_{uuid.uuid4().hex[:12]}"
    yield name
    params = connection.get_connection_params() | {"dbname": "postgres", "autocommit": True}
    with psycopg.connect(**params) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def test_index_repo_prepares_a_fresh_database_and_an_owner_then_indexes(fresh_database, tmp_path):
    project = tmp_path / "shop"
    project.mkdir()
    (project / "cart.py").write_text("def cart_total(items):\n    return sum(item.price for item in items)\n")

    indexed = _manage(fresh_database, "index_repo", str(project), "--name", "x")

    assert indexed.returncode == 0, indexed.stderr
    assert "Preparing the embedded database" in indexed.stdout
    assert "username: admin" in indexed.stdout
    assert "run #1 of x is ready" in indexed.stdout
    found = _manage(fresh_database, "rag_search", "x", "total price of the items in the cart")
    assert found.returncode == 0, found.stderr
    assert "cart.py" in found.stdout
