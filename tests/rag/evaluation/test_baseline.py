from __future__ import annotations

from rag.evaluation.baseline import Bm25FileBaseline, code_tokens, is_source_file
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


def test_source_files_are_code_in_any_recognised_language_but_not_tests_docs_or_config():
    assert is_source_file("cmd/server/main.go")
    assert is_source_file("src/main/java/com/acme/Parser.java")
    assert is_source_file("src/lib.rs")
    assert is_source_file("src/builtin.c")
    assert not is_source_file("src/test/java/com/acme/ParserTest.java")
    assert not is_source_file("tests/test_parser.py")
    assert not is_source_file("README.md")
    assert not is_source_file("config/settings.yaml")
    assert not is_source_file("data/blob.bin")


def test_bm25_ranks_files_of_other_languages_and_leaves_their_tests_out():
    snapshot = _snapshot(
        {
            "src/main/java/com/acme/JsonParser.java": (
                "public class JsonParser {\n  public Token nextToken() { return readNumber(); }\n"
                "  private Token readNumber() { throw new NumberOverflow(); }\n}\n"
            ),
            "src/main/java/com/acme/JsonWriter.java": "public class JsonWriter {\n  void writeString(String s) {}\n}\n",
            "src/test/java/com/acme/JsonParserTest.java": (
                "class JsonParserTest { void readNumber() { nextToken(); NumberOverflow overflow; } }\n"
            ),
            "internal/cache/store.go": "package cache\n\nfunc (s *Store) Evict(key string) error { return nil }\n",
            "docs/parser.md": "readNumber NumberOverflow nextToken readNumber NumberOverflow",
        }
    )
    query = "JsonParser.nextToken throws NumberOverflow in readNumber for big numbers"
    ranking = Bm25FileBaseline().rank(snapshot, query)
    assert ranking[0] == "src/main/java/com/acme/JsonParser.java"
    assert sorted(ranking) == [
        "internal/cache/store.go",
        "src/main/java/com/acme/JsonParser.java",
        "src/main/java/com/acme/JsonWriter.java",
    ]
