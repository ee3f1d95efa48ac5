"""A whole evaluation over a tiny real git history, indexed through the product into the test database."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command

from rag.evaluation.dataset import Instance
from rag.evaluation.indexing import EVALUATION_USERNAME, repository_name
from rag.evaluation.report import summary_table
from rag.evaluation.runner import evaluate
from rag.models import Repository
from tests.rag.evaluation.gitrepos import bare_clone, commit_files, init_repository

BILLING = (
    "def compute_invoice_total(lines, discount_rate):\n"
    '    """Sum invoice lines and apply the customer discount."""\n'
    "    subtotal = sum(line.amount for line in lines)\n"
    "    return subtotal * (1 - discount_rate)\n"
)
SHIPPING = (
    "class ParcelRouter:\n"
    "    def choose_carrier(self, parcel):\n"
    "        return 'post' if parcel.weight < 2 else 'freight'\n"
)
NOTIFY = "def send_receipt_email(customer, invoice):\n    return customer.email\n"


@pytest.fixture
def mirrors(tmp_path):
    work = init_repository(tmp_path / "work")
    first = commit_files(
        work,
        {"README.md": "# Store\n", "store/__init__.py": "", "store/billing.py": BILLING,
         "store/shipping.py": SHIPPING, "store/notify.py": NOTIFY},
        "first",
        date="2024-01-01T00:00:00Z",
    )
    second = commit_files(
        work,
        {"store/shipping.py": SHIPPING + "\n    def track(self, parcel):\n        return parcel.tracking_code\n"},
        "second",
        date="2024-02-01T00:00:00Z",
    )
    root = tmp_path / "mirrors"
    (root / "octo+store").mkdir(parents=True)
    bare_clone(work, root / "octo+store" / "repo")
    return root, first, second


def _instances(first: str, second: str) -> list[Instance]:
    return [
        # Listed newest first: the run still walks history oldest first.
        Instance("store-2", "octo/store", second, "ParcelRouter.track fails when parcel has no tracking code",
                 ("store/shipping.py",), "octo+store"),
        Instance("store-1", "octo/store", first, "compute_invoice_total ignores the discount rate for invoices",
                 ("store/billing.py",), "octo+store"),
        Instance("store-3", "octo/store", first, "the receipt email goes to the wrong customer",
                 ("store/notify.py", "store/billing.py"), "octo+store"),
    ]


def test_it_indexes_each_snapshot_through_the_product_and_reuses_unchanged_files(db, upload_dir, mirrors):
    root, first, second = mirrors
    results = evaluate(_instances(first, second), root, baseline="bm25")

    assert [result.instance.instance_id for result in results] == ["store-1", "store-2", "store-3"]
    assert all(not result.error for result in results)
    by_id = {result.instance.instance_id: result for result in results}
    assert by_id["store-1"].top_files[0] == "store/billing.py"
    assert by_id["store-2"].top_files[0] == "store/shipping.py"
    assert "C1_SYMBOL_CATALOG" in by_id["store-1"].gold_layers["store/billing.py"]
    # The snapshots are walked in commit order: the first indexes everything, later ones reuse
    # every file whose content did not change (only store/shipping.py differs).
    assert by_id["store-1"].files_unchanged == 0
    assert by_id["store-3"].files_unchanged == by_id["store-3"].files_total
    assert by_id["store-2"].files_unchanged == by_id["store-2"].files_total - 1
    assert by_id["store-1"].baseline_top_files[0] == "store/billing.py"
    # Evaluation repositories are removed when their walk ends.
    assert not Repository.objects.filter(owner__username=EVALUATION_USERNAME, name=repository_name("octo/store")).exists()

    record = results[0].as_record()
    assert record["gold_rank"] == 1 and record["bm25_gold_rank"] == 1
    assert record["gold_ranks"] == {"store/billing.py": 1}

    table = summary_table(results)
    assert "| octo/store | 3 |" in table
    assert "BM25 Acc@1/3/5/10" in table


def test_a_missing_mirror_is_recorded_as_a_miss_not_a_crash(db, upload_dir, tmp_path):
    instance = Instance("lost-1", "octo/lost", "0" * 40, "anything", ("a.py",), "octo+lost")
    [result] = evaluate([instance], tmp_path)
    assert "no git repository for mirror 'octo+lost'" in result.error
    assert result.ranked().all_gold_rank is None
    assert "1 instance(s) could not be evaluated" in summary_table([result])


def test_the_command_prints_the_table_and_writes_deterministic_json_lines(db, upload_dir, mirrors, tmp_path, capsys):
    root, first, second = mirrors
    dataset = tmp_path / "data.jsonl"
    dataset.write_text(
        "\n".join(
            json.dumps({"instance_id": i.instance_id, "repo": i.repo, "base_commit": i.base_commit, "query": i.query,
                        "gold_files": list(i.gold_files), "mirror": i.mirror,
                        # store-2's fix adds a method: it edits no function that was there.
                        "gold_symbols": [] if i.instance_id == "store-2" else ["compute_invoice_total"]})
            for i in _instances(first, second)
        )
    )
    outputs = []
    for name in ("a.jsonl", "b.jsonl"):
        call_command("rag_eval", str(dataset), "--mirrors", str(root), "--instances", "store-1,store-2",
                     "--baseline", "bm25", "--out", str(tmp_path / name))
        outputs.append((tmp_path / name).read_text())
    assert outputs[0] == outputs[1]
    lines = [json.loads(line) for line in outputs[0].splitlines()]
    assert [line["instance_id"] for line in lines] == ["store-1", "store-2"]
    printed = capsys.readouterr().out
    assert "| **overall** | 2 | 100.0 / 100.0 / 100.0 / 100.0 | 1.000 |" in printed
    # The subset SweRank and LocAgent report, BM25's figures beside the product's.
    assert "| **fix edits an existing function** | 1 | 100.0 / 100.0 / 100.0 / 100.0 | 1.000 | 100.0" in printed


def test_features_are_kept_for_every_candidate_file_in_the_fused_order(db, upload_dir, mirrors, tmp_path):
    from rag.evaluation.report import write_features
    from rag.services.file_ranker import FEATURES

    root, first, second = mirrors
    results = evaluate(_instances(first, second), root, features=True)

    by_id = {result.instance.instance_id: result for result in results}
    paths = [path for path, _ in by_id["store-1"].file_features]
    assert paths[: len(by_id["store-1"].top_files)] == by_id["store-1"].top_files[: len(paths)]
    assert all(len(row) == len(FEATURES) for _, row in by_id["store-1"].file_features)
    billing = dict(by_id["store-1"].file_features)["store/billing.py"]
    # compute_invoice_total is defined there and nowhere else; the query does not name the file.
    assert billing[FEATURES.index("defines_name")] == 1.0
    assert billing[FEATURES.index("named_in_query")] == 0.0
    out = tmp_path / "features.jsonl"
    with open(out, "w") as handle:
        write_features(results, handle)
    assert [json.loads(line)["instance_id"] for line in out.read_text().splitlines()] == ["store-1", "store-2", "store-3"]
