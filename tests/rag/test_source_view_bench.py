"""The source view benchmark runs end to end through the product's web server and prints its figures."""

from __future__ import annotations

import pytest

from rag.benchmarks.source_view import format_rows, long_python_file, run_source_view_bench


def test_the_generated_file_has_the_lines_asked_for():
    assert long_python_file(5000).count("\n") == 5000


@pytest.mark.django_db(transaction=True)
def test_the_benchmark_fetches_the_page_plain_and_compressed(upload_dir):
    rows = run_source_view_bench(lines=300, runs=1)
    assert [(row.page, row.encoding) for row in rows] == [
        ("whole file", "identity"), ("whole file", "gzip"), ("lines 150-160", "identity"), ("lines 150-160", "gzip"),
    ]
    assert rows[1].wire_bytes < rows[0].wire_bytes
    assert "first TTFB ms" in format_rows(rows, 300)
