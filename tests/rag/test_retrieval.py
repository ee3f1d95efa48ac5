"""Hybrid retrieval against a real index: spans, filters, test penalty, hints, modes, file ranking."""

from __future__ import annotations

import re

import pytest

from rag.services import RankingParams, SearchError, SearchResult, rank_files, search, search_files
from rag.services.retrieval import glob_to_regex
from rag.query_analysis import lexical_words, query_hints
from rag.terms import split_identifier, split_terms


def test_results_carry_their_line_spans(shop):
    top = search(shop, "login_view", mode="code", limit=3)[0]
    assert (top.path, top.start_line, top.end_line) == ("shop/views.py", 4, 7)
    assert top.content.startswith("def login_view") or "login_view" in top.title
    assert top.citation == "shop/views.py:4-7"
    symbol = next(r for r in search(shop, "login_view", mode="code", limit=5) if r.layer == "C1_SYMBOL_CATALOG")
    assert symbol.metadata["kind"] == "function" and symbol.metadata["qname"] == "shop.views.login_view"


def test_the_path_glob_keeps_only_matching_files(shop):
    in_models = search(shop, "cart", mode="code", path_glob="shop/models.py", limit=20)
    assert in_models.items and {r.path for r in in_models} == {"shop/models.py"}
    anywhere_py = search(shop, "cart", mode="code", path_glob="*.py", limit=20)
    assert {r.path for r in anywhere_py} >= {"shop/models.py", "shop/views.py"}
    under_tests = search(shop, "login_view", mode="code", path_glob="tests/**", limit=20)
    assert {r.path for r in under_tests} == {"tests/test_views.py"}


def test_test_files_rank_below_code_and_less_so_when_the_query_is_about_tests(shop):
    paths = [r.path for r in search(shop, "login_view", mode="code", limit=20)]
    assert paths.index("shop/views.py") < paths.index("tests/test_views.py")
    plain = {(r.path, r.layer): r.score for r in search(shop, "login_view opens the cart", mode="code", limit=20)}
    about = {(r.path, r.layer): r.score for r in search(shop, "test: login_view opens the cart", mode="code", limit=20)}
    key = ("tests/test_views.py", "C1_SYMBOL_CATALOG")
    assert about[key] > plain[key] * 1.3


def test_the_penalty_is_a_parameter(shop):
    no_penalty = RankingParams(test_penalty=1.0, layer_weights={})
    scores = {(r.path, r.layer): r.score for r in search(shop, "login_view", mode="code", limit=20, params=no_penalty)}
    penalised = {(r.path, r.layer): r.score for r in search(shop, "login_view", mode="code", limit=20, params=RankingParams(test_penalty=0.5, layer_weights={}))}
    key = ("tests/test_views.py", "C1_SYMBOL_CATALOG")
    assert penalised[key] == pytest.approx(scores[key] * 0.5)


def test_a_traceback_line_finds_the_enclosing_code(shop):
    query = 'Traceback (most recent call last):\n  File "/srv/app/shop/models.py", line 12, in total\nTypeError: boom'
    top = search(shop, query, mode="code", limit=3)[0]
    assert top.path == "shop/models.py" and top.start_line <= 12 <= top.end_line
    assert "symbol" in top.channels


def test_auto_mode_searches_docs_for_prose_and_code_for_identifiers(shop):
    prose = search(shop, "how do I deploy behind nginx")
    assert prose.mode == "docs" and prose[0].path == "docs/deploy.md"
    code = search(shop, "where is Cart.for_user defined")
    assert code.mode == "code" and code[0].path == "shop/models.py"


def test_auto_mode_falls_back_to_code_when_docs_have_no_match(shop):
    response = search(shop, "sum of item prices")
    assert response.mode == "code"
    assert response[0].path == "shop/models.py"
    assert any("searched the other layers" in note for note in response.notes)


def test_auto_mode_merges_docs_and_code_when_a_question_in_words_matches_both(shop):
    response = search(shop, "how is the checkout total of the cart computed", limit=10)

    paths = [item.path for item in response]
    assert response.mode == "auto"
    assert "README.md" in paths and "shop/models.py" in paths
    # Each group's best leads its group; scores are shares of that best, so one list orders both.
    assert [item.score for item in response] == sorted((item.score for item in response), reverse=True)
    assert response[0].score == 1.0 and sum(item.score == 1.0 for item in response) == 2
    # The code's best first on the tie.
    assert response[0].layer != "D0_DOCS" and response[1].layer == "D0_DOCS"


def test_layers_can_be_chosen_explicitly(shop):
    response = search(shop, "cart", layers=["C1_SYMBOL_CATALOG", "D0_DOCS"], limit=20)
    assert {r.layer for r in response} <= {"C1_SYMBOL_CATALOG", "D0_DOCS"}
    with pytest.raises(SearchError):
        search(shop, "cart", layers=["NOPE"])
    with pytest.raises(SearchError):
        search(shop, "   ")


def test_files_are_ranked_from_items(shop):
    files = search_files(shop, "sum of the item prices", limit=3)
    assert files[0].path == "shop/models.py"
    assert len({f.path for f in files}) == len(files)


def test_a_files_score_sums_its_items_with_decaying_weights():
    def item(path: str, score: float) -> SearchResult:
        return SearchResult(id=0, path=path, layer="C0_SOURCE_CHUNKS", title="", content="", metadata={}, score=score,
                            start_line=1, end_line=1)

    items = [item("a.py", 1.0), item("b.py", 0.9), item("b.py", 0.8), item("b.py", 0.7), item("c.py", 0.1)]
    ranked = rank_files(items, limit=2, params=RankingParams(file_decay=0.3))
    assert [f.path for f in ranked] == ["b.py", "a.py"]
    assert ranked[0].score == pytest.approx(0.9 + 0.3 * 0.8 + 0.09 * 0.7)
    assert ranked[0].best.score == 0.9


def test_a_repository_without_an_index_returns_nothing_and_says_why(owner):
    from rag.models import Repository

    empty = Repository.objects.create(owner=owner, name="empty")
    response = search(empty, "anything")
    assert response.items == [] and "no ready index" in response.notes[0]


def test_query_hints_find_identifiers_paths_and_traceback_frames():
    hints = query_hints(
        'HttpResponseRedirect breaks in get_redirect_url; see django/http/response.py and django.db.models.Q\n'
        'File "/usr/lib/python3/site-packages/django/core/handlers/base.py", line 197, in _get_response'
    )
    assert {"HttpResponseRedirect", "get_redirect_url", "_get_response"} <= hints.names
    assert "django.db.models.Q" in hints.dotted
    assert "django/http/response.py" in hints.paths
    assert hints.frames[0].line == 197 and hints.frames[0].path.endswith("django/core/handlers/base.py")
    assert not query_hints("how does the checkout work").has_code
    assert query_hints("the pytest fixture fails").about_tests


def test_identifiers_are_split_for_search_and_embedding():
    assert split_identifier("HTTPResponseRedirect.get_url2") == ("http", "response", "redirect", "get", "url", "2")
    assert split_terms("class LoginView(View): login_view()") == "login view"
    assert lexical_words("Why does LoginView call the login_view?") == ["loginview", "login", "view", "call"]


@pytest.mark.parametrize(
    ("glob", "path", "matches"),
    [
        ("*.md", "docs/a.md", True),
        ("*.md", "docs/a.py", False),
        ("rag/*.py", "rag/models.py", True),
        ("rag/*.py", "rag/services/search.py", False),
        ("rag/**/*.py", "rag/services/search.py", True),
        ("rag/**/*.py", "rag/models.py", True),
        ("rag/", "rag/x/y.txt", True),
        ("tests", "tests/a.py", True),
        ("/README.md", "README.md", True),
        ("/README.md", "docs/README.md", False),
        ("docs/", "site/docs/a.md", True),
        # Three or more asterisks are one ``*``: within a folder.
        ("rag/***.py", "rag/models.py", True),
        ("rag/***.py", "rag/services/search.py", False),
    ],
)
def test_path_globs(glob, path, matches):
    assert bool(re.match(glob_to_regex(glob), path)) is matches


def test_a_path_glob_of_asterisks_in_a_row_is_one_asterisk_and_a_long_one_is_refused():
    # Hundreds of ``[^/]*`` side by side took PostgreSQL seconds per search (800: 49 s).
    assert glob_to_regex("*" * 400 + ".py") == glob_to_regex("*.py")
    with pytest.raises(SearchError, match="longer than 500 characters"):
        glob_to_regex("a/" * 251)


def test_read_source_returns_clamped_line_ranges(shop):
    from rag.services import SourceNotFound, read_source

    part = read_source(shop, "shop/views.py", 4, 5)
    assert (part.start_line, part.end_line, part.total_lines) == (4, 5, 11)
    assert part.text == 'def login_view(request):\n    """Log the user in and open their cart."""'
    tail = read_source(shop, "shop/views.py", 10, 999)
    assert (tail.start_line, tail.end_line) == (10, 11)
    capped = read_source(shop, "shop/models.py", 1, None, max_lines=3)
    assert (capped.start_line, capped.end_line) == (1, 3)
    past_end = read_source(shop, "shop/views.py", 50, 60)
    assert (past_end.start_line, past_end.end_line) == (11, 11)
    with pytest.raises(SourceNotFound):
        read_source(shop, "../etc/passwd")


def test_with_kept_connections_the_vector_and_symbol_channels_run_beside_the_lexical_one_and_find_the_same(
    shop, transactional_db, monkeypatch
):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from database_pool import close_beside

    def channel_statements(captured) -> tuple[int, int]:
        sql = [query["sql"] for query in captured.captured_queries]
        return sum("<=>" in s for s in sql), sum("name = ANY" in s for s in sql)

    query = "where is login_view defined"
    # Connections opened per statement (the commands' default): one connection runs every channel.
    with CaptureQueriesContext(connection) as alone:
        expected = search(shop, query, mode="code")
    # Kept, as the web processes keep them: the vector statement runs on a connection of its own.
    monkeypatch.setitem(connection.settings_dict, "CONN_MAX_AGE", 60)
    try:
        with CaptureQueriesContext(connection) as beside:
            found = search(shop, query, mode="code")
    finally:
        close_beside()

    assert any("vector" in r.channels for r in found) and any("symbol" in r.channels for r in found)
    assert [(r.id, r.score, r.channels) for r in found] == [(r.id, r.score, r.channels) for r in expected]
    # (vector statements, symbol-name statements) on the search's own connection.
    assert (channel_statements(alone), channel_statements(beside)) == ((1, 1), (0, 0))
