"""What a process keeps of an index version between searches gives the answers reading the database afresh gives.

The lexical channel keeps each word's postings (its items and its rank in
each), the version's item table (lengths, paths, layers) and the counts of
common words; the symbol channel keeps the entrypoints and the paths ending in
a file name. Each is checked against plain SQL, and whole searches against the
same searches with nothing kept. The per-file counts of common words written
with each version are checked against counting in SQL, for a full build and
for versions written into the store of the one before.
"""

from __future__ import annotations

import io
import math

import numpy as np
import pytest
from django.db import connection
from hypothesis import given
from hypothesis import strategies as st
from django.test.utils import CaptureQueriesContext

from rag.models import CODE_LAYERS, DOC_LAYERS, IndexRun
from rag.services import RankingParams, run_index, search, start_index_run
from rag.query_analysis import query_hints
from rag.services.retrieval import group_statistics, query_terms
from rag.services.retrieval import lexical, symbols
from rag.services.retrieval.fusion import path_prior
from rag.services.retrieval.lexical import _SINGLE_BODY_RANK, _best, _postings, _quote_lexeme, lexical_bm25
from rag.services.retrieval.params import item_filter
from rag.services.retrieval.results import WholeFiles
from rag.storage import version_filter
from rag.terms import looks_like_test_path
from tests.rag.conftest import index_zip, make_zip

PROJECT: dict[str, str] = {
    "orders/__init__.py": "",
    "orders/views.py": (
        "from orders.models import Order\n\n\n"
        "def order_detail(request, pk):\n"
        '    """Show one order: its lines, the invoice total and the refund state."""\n'
        "    order = Order.objects.get(pk=pk)\n"
        "    return render_invoice(order, refund=order.refund_state())\n\n\n"
        "def render_invoice(order, refund=None):\n"
        '    """Render the invoice of an order; a refund is printed below the total."""\n'
        "    return f'invoice {order.total()} refund {refund}'\n"
    ),
    "orders/urls.py": (
        "from django.urls import path\n\nfrom orders import views\n\n"
        'urlpatterns = [path("orders/<int:pk>/", views.order_detail), path("invoices/", views.render_invoice)]\n'
    ),
    "orders/models.py": (
        "class Order:\n"
        '    """An order with lines; the invoice total is the sum of the lines."""\n\n'
        "    def total(self):\n        return sum(line.amount for line in self.lines)\n\n"
        "    def refund_state(self):\n"
        '        """Whether the order was refunded, partly refunded or not at all."""\n'
        "        return 'none'\n"
    ),
    "orders/refunds.py": (
        "def refund(order, amount):\n"
        '    """Refund part of an order: the invoice keeps the refund as a negative line."""\n'
        "    order.lines.append(-amount)\n"
        "    return order\n"
    ),
    **{
        f"orders/helpers_{name}.py": f'def {name}_order(order):\n    """The {name} of an order, for the invoice."""\n    return order\n'
        for name in ("copy", "merge", "split", "print", "export", "archive")
    },
    "examples/invoice_demo.py": "def demo_invoice(order):\n    return render_invoice(order)\n",
    "tests/test_orders.py": "def test_refund_of_an_order():\n    assert refund\n",
}

QUERIES = (
    "The invoice total is wrong after a partial refund of an order",
    "render_invoice prints the refund above the total",
    "GET /orders/12/ raises a 500 when the order has no lines",
    "GET /invoices/ shows the refund above the total",
    "Traceback (most recent call last):\n  File \"/srv/app/orders/views.py\", line 6, in order_detail\nKeyError: 'pk'",
    "order invoice",
)


def forget_everything() -> None:
    for cache in (
        lexical._POSTINGS, lexical._STATISTICS, lexical._COMMON_COUNTS, lexical._RANKED, lexical._STORED_COUNTS,
        symbols._ENTRYPOINTS, symbols._NAMED_PATHS,
    ):
        cache.clear()


def answer(repository, query: str, **options) -> tuple:
    response = search(repository, query, limit=30, **options)
    items = [(r.id, r.path, r.layer, r.start_line, r.end_line, r.score, sorted(r.channels.items())) for r in response.items]
    return items, list(response.file_ranking), response.mode


@pytest.fixture
def orders(owner, upload_dir):
    run = index_zip(owner, make_zip(PROJECT), name="orders")
    assert run.status == IndexRun.Status.READY, run.error
    return run.repository


def test_the_item_table_holds_each_items_length_path_layer_and_test_flag_as_stored(orders):
    run = orders.active_run
    with connection.cursor() as cursor:
        statistics = group_statistics(cursor, run, CODE_LAYERS, False)
        where, args = item_filter(run, CODE_LAYERS, None, False)
        cursor.execute(f"SELECT id, length(search), path, layer, is_test FROM rag_item WHERE {where} ORDER BY id", args)
        stored = cursor.fetchall()
    assert len(stored) == statistics.items > 20
    ids = [row[0] for row in stored]
    assert [(i, *row) for i, row in zip(ids, statistics.table.rows(ids))] == stored
    assert statistics.file_lengths["orders/views.py"] == sum(row[1] for row in stored if row[2] == "orders/views.py")
    # Whether a file is a test file is its items' flag as stored; whether it is auxiliary, its path's.
    files = [statistics.table.path_numbers[path] for path in ("tests/test_orders.py", "orders/views.py", "examples/invoice_demo.py")]
    tests, auxiliary = statistics.file_kinds(np.array(files))
    assert tests.tolist() == [True, False, False] and auxiliary.tolist() == [False, False, True]


@pytest.mark.parametrize("bm25_tf", [True, False])
def test_each_words_postings_are_the_items_and_ranks_sql_gives_for_that_word_alone(orders, bm25_tf):
    run = orders.active_run
    params = RankingParams(bm25_tf=bm25_tf)
    words = list(query_terms(QUERIES[0]))
    forget_everything()
    with connection.cursor() as cursor:
        where, args = item_filter(run, CODE_LAYERS, None, False)
        key = (run.pk, tuple(sorted(CODE_LAYERS)), None, False)
        # Half the words first, so the second call finds some kept and looks the others up.
        _postings(cursor, key, words[::2], where, args, params)
        kept = _postings(cursor, key, words, where, args, params)
        weight = (
            "CAST(ts_rank(search, CAST(%s AS tsquery)) / %s AS float8)"
            if bm25_tf
            else "CAST(1 + %s * (search @@ CAST(%s || ':A' AS tsquery))::int AS float8)"
        )
        expected = []
        for word in words:
            quoted = _quote_lexeme(word)
            cursor.execute(
                f"SELECT id, {weight} FROM rag_item WHERE {where} AND search @@ CAST(%s AS tsquery) ORDER BY ctid",
                [quoted, _SINGLE_BODY_RANK, *args, quoted] if bm25_tf else [params.title_boost, quoted, *args, quoted],
            )
            rows = cursor.fetchall()
            expected.append(([i for i, _ in rows], [w for _, w in rows]))
    assert [len(ids) for ids, _ in expected].count(0) < len(words)
    assert [(ids.tolist(), weights.tolist()) for ids, weights in kept] == expected


def test_searches_answer_the_same_with_nothing_kept_some_kept_and_everything_kept(orders):
    fresh = []
    for query in QUERIES:
        forget_everything()
        fresh.append(answer(orders, query))
    assert any(items for items, _, _ in fresh)
    forget_everything()
    # Each query after the ones before it (their words, counts and paths kept), then all again.
    assert [answer(orders, query) for query in QUERIES] == fresh
    assert [answer(orders, query) for query in QUERIES] == fresh


def test_what_is_kept_for_one_item_filter_is_not_used_for_another(orders):
    query = "GET /invoices returns a 500 when the refund of an order is rendered"
    forget_everything()
    narrowed = answer(orders, query, path_glob="orders/refunds.py")
    everywhere = answer(orders, query)
    assert {path for _, path, *_ in narrowed[0]} == {"orders/refunds.py"}
    # The route's entrypoint, found by the symbol channel (the route hint) after a search that kept none.
    assert any(layer == "C3_ENTRYPOINTS" and "symbol" in dict(channels) for _, _, layer, *_, channels in everywhere[0])
    forget_everything()
    assert answer(orders, query) == everywhere
    assert answer(orders, query, path_glob="orders/refunds.py") == narrowed


def test_a_new_version_is_searched_in_its_own_postings(orders, upload_dir):
    query = "chargeback of a refunded order"
    before = answer(orders, query)
    assert "orders/chargebacks.py" not in {path for _, path, *_ in before[0]}
    changed = {**PROJECT, "orders/chargebacks.py": 'def chargeback(order):\n    """A chargeback of a refunded order."""\n'}
    run = start_index_run(owner=orders.owner, name="orders", archive=io.BytesIO(make_zip(changed)), defer=False)
    run = run_index(run.pk)
    assert run.status == IndexRun.Status.READY, run.error
    orders.refresh_from_db()
    after = answer(orders, query)
    assert "orders/chargebacks.py" in {path for _, path, *_ in after[0]}
    forget_everything()
    assert answer(orders, query) == after


def bm25_one_at_a_time(cursor, run, terms, params, hints) -> tuple[list[tuple[int, str, bool]], list[str]]:
    """The lexical channel as plain SQL and one item and file at a time: every posting read with its length."""
    common = set(run.common_words or ())
    distinctive = [lexeme for lexeme in terms if lexeme not in common]
    where, args = item_filter(run, CODE_LAYERS, None, False)
    cursor.execute(
        "SELECT q.ord, i.id, i.layer, i.is_test, i.path, length(i.search), "
        "CAST(ts_rank(i.search, CAST(q.lex AS tsquery)) / %s AS float8) "
        "FROM unnest(CAST(%s AS text[])) WITH ORDINALITY AS q(lex, ord) "
        f"CROSS JOIN LATERAL (SELECT ctid, id, layer, is_test, path, search FROM rag_item WHERE {where} "
        "AND search @@ CAST(q.lex AS tsquery) LIMIT %s) i ORDER BY q.ord, i.ctid",
        [_SINGLE_BODY_RANK, [_quote_lexeme(lexeme) for lexeme in distinctive], *args, params.max_postings],
    )
    postings = cursor.fetchall()
    cursor.execute(f"SELECT path, count(*), sum(length(search)) FROM rag_item WHERE {where} GROUP BY path", args)
    grouped = cursor.fetchall()
    total, file_lengths = sum(row[1] for row in grouped), {row[0]: row[2] for row in grouped}

    def weight(lexeme: str, df: int) -> float:
        term = terms[lexeme]
        boost = (1 + params.query_repeat_boost * math.log(term.count)) * (1 + params.query_title_boost * term.in_title)
        return math.log(1 + (total - df + 0.5) / (df + 0.5)) * boost

    idf = {o: weight(distinctive[o - 1], sum(p[0] == o for p in postings)) for o in sorted({p[0] for p in postings})}
    lengths, info, item_terms, file_terms = {}, {}, {}, {}
    for o, item_id, layer, is_test, path, length, value in postings:
        info[item_id], lengths[item_id] = (item_id, layer, is_test), length
        item_terms.setdefault(item_id, {})[o] = value
        in_file = file_terms.setdefault(path, {})
        in_file[o] = in_file.get(o, 0.0) + value
    k1, b, fb = params.bm25_k1, params.bm25_b, params.file_bm25_b
    average = sum(lengths.values()) / len(lengths)
    scored = [
        (sum(idf[o] * w for o, w in ws.items()) * ((k1 + 1) / (1 + k1 * (1 - b + b * lengths[i] / max(average, 1.0)))), i)
        for i, ws in item_terms.items()
    ]
    offset = max(idf)
    common_words = [lexeme for lexeme in terms if lexeme in common]
    for o, lexeme in enumerate(common_words, 1):
        cursor.execute(f"SELECT path, count(*) FROM rag_item WHERE {where} AND search @@ CAST(%s AS tsquery) GROUP BY path", [*args, _quote_lexeme(lexeme)])
        counts = cursor.fetchall()
        if counts:
            idf[offset + o] = weight(lexeme, sum(count for _, count in counts))
            for path, count in counts:
                file_terms.setdefault(path, {})[offset + o] = float(count)
    file_average = sum(file_lengths.values()) / len(file_lengths)
    test_prior = params.test_penalty_about_tests if hints.about_tests else params.test_penalty
    windows = group_statistics(cursor, run, CODE_LAYERS, False).window_files

    def file_score(path: str) -> float:
        shape = k1 * (1 - fb + fb * file_lengths[path] / file_average)
        score = sum(idf[o] * tf * (k1 + 1) / (tf + shape) for o, tf in file_terms[path].items())
        score *= test_prior if looks_like_test_path(path) else 1.0
        return score * path_prior(path, path in windows, hints, params)

    # The title's words alone, without the priors; a query of one line is its own title.
    titled = any(term.in_title for term in terms.values())

    def title_score(path: str) -> float:
        shape = k1 * (1 - fb + fb * file_lengths[path] / file_average)
        return sum(
            idf[o] * tf * (k1 + 1) / (tf + shape)
            for o, tf in file_terms[path].items()
            if not titled or terms[distinctive[o - 1] if o <= offset else common_words[o - offset - 1]].in_title
        )

    items = sorted(scored, key=lambda p: (-p[0], p[1]))[: params.candidates]
    files = sorted(((file_score(path), path) for path in file_terms), key=lambda p: (-p[0], p[1]))[: params.candidates]
    titles = sorted(((title_score(path), path) for path in file_terms), key=lambda p: (-p[0], p[1]))[: params.candidates]
    return [info[i] for _, i in items], WholeFiles([path for _, path in files], {path: s for s, path in titles if s > 0})


@given(st.lists(st.sampled_from([0.0, 0.5, 1.0, 2.0, 3.25]), max_size=40), st.integers(min_value=0, max_value=45))
def test_the_best_of_many_scores_are_a_full_sorts_first_ones_ties_by_key(values, limit):
    scores = np.array(values, dtype=float)
    keys = np.arange(len(values))[::-1]  # ties broken by a key that is not the position
    assert _best(scores, keys, limit).tolist() == np.lexsort((keys, -scores))[:limit].tolist()


# An issue's title (its first line) has a score of its own.
TITLED = "A partial refund of an order\nThe invoice total is wrong; render_invoice prints the refund above the total"


@pytest.mark.parametrize("query", [*QUERIES[:3], TITLED])
def test_the_lexical_channel_ranks_items_and_files_as_scoring_them_one_at_a_time_from_plain_sql_does(orders, query):
    run = orders.active_run
    params = RankingParams(candidates=6)
    terms, hints = query_terms(query), query_hints(query)
    assert any(lexeme in run.common_words for lexeme in terms) and not all(lexeme in run.common_words for lexeme in terms)
    forget_everything()
    with connection.cursor() as cursor:
        expected = bm25_one_at_a_time(cursor, run, terms, params, hints)
        assert lexical_bm25(cursor, run, CODE_LAYERS, None, False, terms, params, hints) == expected
        assert lexical_bm25(cursor, run, CODE_LAYERS, None, False, terms, params, hints) == expected
    # More items and files matched than the channel keeps: the cut is part of what is compared.
    assert len(expected[0]) == len(expected[1].paths) == 6


def stored_counts(run) -> dict[tuple[bool, str], dict[str, int]]:
    """Per (is_doc, path): the common words' counts written with version ``run``."""
    where, args = version_filter(run)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT is_doc, path, words, items FROM rag_file_common_words WHERE {where} AND path <> ''", args)
        rows = cursor.fetchall()
    assert len({(is_doc, path) for is_doc, path, _, _ in rows}) == len(rows)
    return {(is_doc, path): {run.common_words[w]: n for w, n in zip(words, items)} for is_doc, path, words, items in rows}


def counted_in_sql(run) -> dict[tuple[bool, str], dict[str, int]]:
    """The same counts as a search counts them: the items of each layer group that match the word, per file."""
    counts: dict[tuple[bool, str], dict[str, int]] = {}
    with connection.cursor() as cursor:
        for docs, layers in ((False, CODE_LAYERS), (True, DOC_LAYERS)):
            where, args = item_filter(run, layers, None, docs)
            for word in run.common_words:
                cursor.execute(
                    f"SELECT path, count(*) FROM rag_item WHERE {where} AND search @@ CAST(%s AS tsquery) GROUP BY path",
                    [*args, _quote_lexeme(word)],
                )
                for path, count in cursor.fetchall():
                    counts.setdefault((docs, path), {})[word] = count
    return counts


def forget_counts(run) -> None:
    """Make ``run`` a version built before counts of common words were kept."""
    where, args = version_filter(run)
    with connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM rag_file_common_words WHERE {where}", args)


def counted_per_search(statements) -> int:
    return sum("GROUP BY q.ord, i.path" in s["sql"] for s in statements)


def test_a_version_keeps_per_file_counts_of_its_common_words_as_a_search_counts_them(orders):
    run = orders.active_run
    assert len(run.common_words) >= 3
    stored = stored_counts(run)
    assert stored == counted_in_sql(run)
    assert sum(len(words) for words in stored.values()) > 20


@pytest.mark.parametrize("base_has_counts", [True, False], ids=["base-with-counts", "base-built-before-counts"])
def test_a_version_written_into_the_store_of_the_one_before_has_the_counts_of_its_own_files(
    orders, upload_dir, settings, base_has_counts
):
    settings.RAG = {**settings.RAG, "REWRITE_SHARE": 1.0}
    first = orders.active_run
    before = stored_counts(first)
    if not base_has_counts:
        forget_counts(first)
    # One file more of the common words, one less, one gone, one new.
    changed = {path: text for path, text in PROJECT.items() if path != "orders/helpers_copy.py"}
    changed["orders/refunds.py"] = PROJECT["orders/refunds.py"] + "\n\ndef refund_order_invoice(order):\n    return order\n"
    changed["orders/helpers_merge.py"] = "def merge(rows):\n    return rows\n"
    changed["orders/chargebacks.py"] = 'def chargeback(order):\n    """A chargeback of an order\'s invoice."""\n'
    second = index_zip(orders.owner, make_zip(changed), name="orders")
    assert second.status == IndexRun.Status.READY, second.error
    assert second.store_id == first.store_id and second.common_words == first.common_words
    counts = stored_counts(second)
    assert counts == counted_in_sql(second)
    assert counts[(False, "orders/refunds.py")] != before[(False, "orders/refunds.py")]
    assert (False, "orders/helpers_copy.py") not in counts and (False, "orders/chargebacks.py") in counts
    # The version before still reads its own counts.
    assert stored_counts(first) == (before if base_has_counts else {})


def test_a_version_written_without_counts_is_counted_per_search_and_the_next_one_counts_every_file(
    orders, upload_dir, settings
):
    from rag.models import OPEN_END

    settings.RAG = {**settings.RAG, "REWRITE_SHARE": 1.0}
    changed = {**PROJECT, "orders/refunds.py": PROJECT["orders/refunds.py"] + "\n\ndef order_total(order):\n    return 0\n"}
    second = index_zip(orders.owner, make_zip(changed), name="orders")
    assert second.store_id == orders.active_run.store_id != second.pk
    # As code that did not keep counts writes a version: no rows of its own, the base's rows left open.
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM rag_file_common_words WHERE since_run = %s", [second.pk])
        cursor.execute(
            "UPDATE rag_file_common_words SET until_run = %s WHERE until_run = %s", [OPEN_END, second.pk]
        )
    assert stored_counts(second) != counted_in_sql(second)
    orders.refresh_from_db()
    forget_everything()
    with CaptureQueriesContext(connection) as statements:
        answers = [answer(orders, query) for query in QUERIES]
    assert counted_per_search(statements.captured_queries) > 0
    third = index_zip(orders.owner, make_zip({**changed, "orders/refunds.py": PROJECT["orders/refunds.py"]}), name="orders")
    assert third.store_id == second.store_id
    assert stored_counts(third) == counted_in_sql(third)
    forget_everything()
    assert [answer(orders, query, run=second) for query in QUERIES] == answers


def test_searches_answer_the_same_with_counts_written_with_the_version_and_counted_per_search(orders):
    forget_everything()
    with CaptureQueriesContext(connection) as with_counts:
        stored = [answer(orders, query) for query in QUERIES]
    assert any(files for _, files, _ in stored)
    assert counted_per_search(with_counts.captured_queries) == 0
    forget_counts(orders.active_run)
    forget_everything()
    with CaptureQueriesContext(connection) as without_counts:
        assert [answer(orders, query) for query in QUERIES] == stored
    assert counted_per_search(without_counts.captured_queries) > 0


def test_the_counts_go_with_the_repository(orders):
    from rag.services import delete_repository

    store = orders.active_run.store_id
    assert stored_counts(orders.active_run)
    delete_repository(orders)
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM rag_file_common_words WHERE store_id = %s", [store])
        assert cursor.fetchone()[0] == 0
