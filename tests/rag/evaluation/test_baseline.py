from __future__ import annotations

from rag.evaluation.baseline import Bm25FileBaseline, code_tokens
from rag.evaluation.snapshots import Snapshot


def test_code_tokens_keep_identifiers_and_their_parts():
    assert code_tokens("getHTTPResponse(max_retries=3)") == [
        "gethttpresponse", "get", "http", "response", "max_retries", "max", "retries", "3",
    ]


def _snapshot(files: dict[str, str]) -> Snapshot:
    return Snapshot(
        commit="c",
        blobs={path: f"blob-{text}" for path, text in files.items()},
        contents={path: text.encode() for path, text in files.items()},
    )


def test_bm25_ranks_the_file_that_shares_the_rare_terms_first_and_ignores_non_python():
    snapshot = _snapshot(
        {
            "shop/cart.py": "class Cart:\n    def add_item(self, item): ...\n",
            "shop/payment.py": "def charge_card(card, amount):\n    refund_amount = amount\n",
            "shop/util.py": "def add(a, b):\n    return a + b\n",
            "docs/payment.md": "charge card refund amount charge card refund",
        }
    )
    ranking = Bm25FileBaseline().rank(snapshot, "Refund amount is wrong when charge_card fails")
    assert ranking[0] == "shop/payment.py"
    assert "docs/payment.md" not in ranking
    assert sorted(ranking) == ["shop/cart.py", "shop/payment.py", "shop/util.py"]
