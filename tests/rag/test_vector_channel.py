"""The vector channel in a store that holds several versions: the searched version's nearest rows, as many as asked."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command
from django.db import connection

from rag.models import CODE_LAYERS, IndexRun
from rag.services import DEFAULT_PARAMS
from rag.services.retrieval.vector import MAX_EF_SEARCH, nearest_items, query_vector, search_list, store_rows
from rag.evaluation.indexing import repository_name
from rag.services import run_index, start_index_run
from tests.rag.conftest import make_zip

REPO = "acme/billing"
MODULES = 60
VERSIONS = 5


def _project(version: int) -> dict[str, str]:
    """Every module changes from one version to the next, so each version has rows of its own in the store."""
    return {
        f"billing/invoice_{i}.py": (
            f"def parse_invoice_lines_{i}(invoice):\n"
            f'    """Parse the invoice lines and add up the invoice totals {i}, as revision{version} does."""\n'
            f"    return sum(line.amount for line in invoice.lines) * {version}\n"
            "\n"
            "\n"
            f"class InvoiceTotals{i}:\n"
            f'    """Totals of the invoice lines, with taxes {i} after revision{version}."""\n'
            "\n"
            "    def total(self, invoice):\n"
            f"        return sum(line.amount for line in invoice.lines) + {version}\n"
        )
        for i in range(MODULES)
    }


@pytest.fixture
def versions(owner, upload_dir, settings) -> list[IndexRun]:
    # Each version written into the first one's store, and all of them kept.
    settings.RAG = {**settings.RAG, "REWRITE_SHARE": 1.0, "KEEP_SUPERSEDED": VERSIONS}
    runs = []
    for version in range(1, VERSIONS + 1):
        # Named as the evaluation names its snapshots' versions, which the recall benchmark reads.
        run = start_index_run(
            owner=owner, name=repository_name(REPO), archive=io.BytesIO(make_zip(_project(version))),
            archive_name=f"commit{version}.zip", defer=False,
        )
        runs.append(run_index(run.pk))
    assert all(run.status == IndexRun.Status.READY for run in runs), [run.error for run in runs]
    assert len({run.store_id for run in runs}) == 1
    return runs


def test_a_version_gets_as_many_of_its_nearest_rows_as_asked_in_a_store_of_several_versions(versions, settings):
    last = versions[-1]
    # The store's rows as PostgreSQL's statistics count them, without reading them.
    assert store_rows(last) == sum(run.counts["items_sent"] for run in versions)
    configured = settings.RAG["HNSW_EF_SEARCH"]
    # The list is lengthened by the store's rows over the version's: about five times here.
    assert search_list(last, DEFAULT_PARAMS.candidates) == pytest.approx(configured * VERSIONS, rel=0.1)
    with connection.cursor() as cursor:
        # A store this small is read whole by the planner's choice; a repository's store is searched
        # through its index, as here.
        cursor.execute("SET enable_seqscan = off")
    vector = query_vector(last, "parse the invoice lines and add up the invoice totals", [])
    found = nearest_items(last, CODE_LAYERS, None, False, vector, DEFAULT_PARAMS)
    # The list as configured held about a fifth of the version's rows: fewer than asked for.
    assert len(found) == DEFAULT_PARAMS.candidates


def test_the_list_is_as_configured_for_a_version_alone_in_its_store_or_indexed_without_its_count(versions, settings):
    configured = max(settings.RAG["HNSW_EF_SEARCH"], DEFAULT_PARAMS.candidates)
    first = IndexRun(pk=versions[0].pk, store_id=versions[0].store_id, counts={})
    assert search_list(first, DEFAULT_PARAMS.candidates) == configured
    alone = IndexRun(pk=versions[0].pk, store_id=versions[0].store_id, counts={"items": store_rows(versions[0])})
    assert search_list(alone, DEFAULT_PARAMS.candidates) == configured
    # At most pgvector's limit.
    tiny = IndexRun(pk=versions[0].pk, store_id=versions[0].store_id, counts={"items": 1})
    assert search_list(tiny, DEFAULT_PARAMS.candidates) == MAX_EF_SEARCH


def test_the_recall_benchmark_compares_the_list_as_configured_and_the_channel_with_an_exact_search(versions, tmp_path):
    dataset = tmp_path / "set.jsonl"
    instance = {"instance_id": "acme-1", "repo": REPO, "base_commit": f"commit{VERSIONS}", "mirror": "acme+billing",
                "query": "parse the invoice lines and add up the invoice totals", "gold_files": ["billing/invoice_1.py"]}
    dataset.write_text(json.dumps(instance) + "\n" + json.dumps({**instance, "instance_id": "acme-2", "base_commit": "gone"}) + "\n")
    out = io.StringIO()
    call_command("bench_vector_recall", str(dataset), stdout=out)
    text = out.getvalue()
    assert "1 searches in kept versions (1 instances without one)" in text
    rows = {line.split(" | ")[0].strip("| "): line.split(" | ")[1] for line in text.splitlines() if line.startswith("| ") and "recall" not in line}
    assert float(rows["exact"]) == 1.0 and float(rows["the vector channel"]) >= float(rows["HNSW list as configured"])
