"""The offline answers' benchmark over a tiny real git history: each issue title answered at its commit."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command

from tests.rag.evaluation.gitrepos import bare_clone, commit_files, init_repository

BILLING = (
    "def compute_invoice_total(lines, discount_rate):\n"
    '    """Sum invoice lines and apply the customer discount."""\n'
    "    return sum(line.amount for line in lines) * (1 - discount_rate)\n"
)
SHIPPING = (
    "class ParcelRouter:\n"
    '    """Routes parcels to carriers."""\n\n'
    "    def choose_carrier(self, parcel):\n"
    "        return 'post' if parcel.weight < 2 else 'freight'\n"
)


@pytest.fixture
def dataset(tmp_path, settings):
    settings.RAG = {**settings.RAG, "UPLOAD_DIR": str(tmp_path / "uploads")}
    work = init_repository(tmp_path / "work")
    commit = commit_files(work, {"store/__init__.py": "", "store/billing.py": BILLING, "store/shipping.py": SHIPPING}, "first")
    (tmp_path / "mirrors" / "octo+store").mkdir(parents=True)
    bare_clone(work, tmp_path / "mirrors" / "octo+store" / "repo")
    rows = [
        ("store-1", "The invoice total ignores the discount rate\nSteps: ...", ["store/billing.py"]),
        ("store-2", "Parcel carrier is chosen wrongly for heavy parcels", ["store/shipping.py"]),
        ("store-3", "Parcel carrier is chosen wrongly for heavy parcels", ["store/billing.py"]),
    ]
    path = tmp_path / "set.jsonl"
    path.write_text("".join(
        json.dumps({"instance_id": i, "repo": "octo/store", "base_commit": commit, "query": q, "gold_files": g, "mirror": "octo+store"}) + "\n"
        for i, q, g in rows
    ))
    return path, tmp_path / "mirrors"


@pytest.mark.django_db(transaction=True)
def test_each_title_is_answered_at_its_commit_and_its_hits_counted(dataset, capsys):
    path, mirrors = dataset
    call_command("bench_offline_answers", str(path), "--mirrors", str(mirrors), "--keep", verbosity=2)

    out = capsys.readouterr().out
    assert "store-1: best match hit" in out and "store-2: best match hit" in out and "store-3: best match miss" in out
    assert "3 answered, 0 failed to index or read" in out
    assert "best match in a file the fix changed: 66.7% (2 of 3)" in out
