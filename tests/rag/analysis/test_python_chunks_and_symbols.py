"""C0 chunks and C1 symbols of single Python files."""

from __future__ import annotations

import textwrap

from rag.analysis import chunking
from rag.analysis.repository import analyze_file

VIEWS = textwrap.dedent(
    '''\
    """Views of the shop."""
    import os
    from django.http import HttpResponse

    MAX_ITEMS = 50
    timeout: int = 30
    DEFAULT_PAGE_SIZE: int = 20


    # Shown on the login page.
    # Two lines of comment.
    @require_http_methods(["GET", "POST"])
    @login_required
    def login_view(request, next=None) -> HttpResponse:
        """Log the user in."""
        return HttpResponse(next)


    async def ping(
        request,
        *,
        verbose: bool = False,
    ):
        return "pong"


    class LoginView(View):
        """A class-based login."""

        template_name = "login.html"

        def get(self, request):
            return self.render(request)

        class Meta:
            ordering = ["-id"]


    if os.environ.get("DEBUG"):
        def debug_toolbar():
            pass
    '''
)


def symbols_by_qname(analysis):
    return {symbol.qname: symbol for symbol in analysis.symbols}


def test_it_catalogs_classes_functions_methods_and_constants():
    analysis = analyze_file("shop/views.py", VIEWS)
    symbols = symbols_by_qname(analysis)
    assert {(qname, symbol.kind, symbol.parent) for qname, symbol in symbols.items()} == {
        ("shop.views.MAX_ITEMS", "const", None),
        ("shop.views.DEFAULT_PAGE_SIZE", "const", None),
        ("shop.views.login_view", "function", None),
        ("shop.views.ping", "function", None),
        ("shop.views.LoginView", "class", None),
        ("shop.views.LoginView.get", "method", "shop.views.LoginView"),
        ("shop.views.LoginView.Meta", "class", "shop.views.LoginView"),
        ("shop.views.debug_toolbar", "function", None),
    }
    login = symbols["shop.views.login_view"]
    assert login.signature == "def login_view(request, next=None) -> HttpResponse"
    assert login.decorators == ('require_http_methods(["GET", "POST"])', "login_required")
    assert login.docstring == "Log the user in."
    assert (login.start_line, login.end_line) == (12, 16)
    assert login.module == "shop.views"
    assert symbols["shop.views.ping"].is_async
    assert symbols["shop.views.ping"].signature == "async def ping(request, *, verbose: bool = False)"
    assert symbols["shop.views.LoginView"].signature == "class LoginView(View)"
    assert symbols["shop.views.LoginView"].docstring == "A class-based login."
    assert symbols["shop.views.MAX_ITEMS"].signature == "MAX_ITEMS = 50"


def test_it_chunks_python_by_symbol_and_covers_module_code():
    analysis = analyze_file("shop/views.py", VIEWS)
    spans = [(c.start_line, c.end_line, c.metadata["chunk_type"], c.title) for c in analysis.chunks]
    assert spans == [
        (1, 7, "module_block", "shop/views.py:1-7"),
        (10, 16, "symbol_block", "shop/views.py::login_view"),
        (19, 24, "symbol_block", "shop/views.py::ping"),
        (27, 36, "symbol_block", "shop/views.py::LoginView"),
        (39, 41, "module_block", "shop/views.py:39-41"),
    ]
    assert [c.metadata["chunk_index"] for c in analysis.chunks] == [0, 1, 2, 3, 4]
    assert analysis.chunks[1].metadata == {
        "chunk_index": 1,
        "chunk_type": "symbol_block",
        "module_or_unit": "shop.views",
        "artifact_type": "code",
        "symbol": "shop.views.login_view",
    }
    assert analysis.chunks[1].content.startswith("# Shown on the login page.\n# Two lines of comment.\n@require")
    assert analysis.chunks[1].layer == "C0_SOURCE_CHUNKS"


def test_it_splits_large_classes_into_a_chunk_per_method():
    methods = "".join(f"    def method_{n}(self):\n" + "        x = 1\n" * 8 + "\n" for n in range(14))
    source = "class Big:\n    '''Big.'''\n    LIMIT = 3\n\n" + methods + "    tail = 1\n"
    analysis = analyze_file("pkg/big.py", source)
    titles = [(c.title, c.start_line, c.end_line) for c in analysis.chunks]
    assert titles[0] == ("pkg/big.py::Big", 1, 3)
    assert [t[0] for t in titles[1:15]] == [f"pkg/big.py::Big.method_{n}" for n in range(14)]
    assert titles[1][1:] == (5, 13)
    assert titles[-1][0] == "pkg/big.py::Big"
    assert titles[-1][1] == titles[-1][2] == len(source.splitlines())
    assert analysis.chunks[2].metadata["symbol"] == "pkg.big.Big.method_1"


def test_it_windows_files_with_syntax_errors_and_records_the_error():
    source = "def broken(:\n" + "x = 1\n" * 199
    analysis = analyze_file("pkg/broken.py", source)
    assert analysis.error == "SyntaxError: invalid syntax (line 1)"
    assert analysis.symbols == []
    assert [(c.start_line, c.end_line) for c in analysis.chunks] == [(1, 80), (66, 145), (131, 200)]
    assert {c.metadata["chunk_type"] for c in analysis.chunks} == {"window"}


def test_window_spans_overlap_by_fifteen_lines_and_end_at_the_last_line():
    assert chunking.window_spans(1, 80) == [(1, 80)]
    assert chunking.window_spans(1, 81) == [(1, 80), (66, 81)]
    assert chunking.window_spans(1, 145) == [(1, 80), (66, 145)]
    assert chunking.window_spans(1, 146) == [(1, 80), (66, 145), (131, 146)]
    assert chunking.window_spans(5, 4) == []


def test_it_survives_nul_bytes_crlf_and_tabs():
    crlf = "import os\r\n\r\ndef f(a,\r\n\tb):\r\n\treturn a\r\n"
    analysis = analyze_file("m.py", crlf)
    assert [(s.qname, s.signature, s.start_line, s.end_line) for s in analysis.symbols] == [
        ("m.f", "def f(a, b)", 3, 5)
    ]
    assert analysis.chunks[-1].content == "def f(a,\n\tb):\n\treturn a"

    with_nul = "x = 1\n\x00\ny = 2\n"
    analysis = analyze_file("n.py", with_nul)
    assert analysis.error is not None
    assert [(c.start_line, c.end_line) for c in analysis.chunks] == [(1, 3)]

    lone_cr = "def g():\r    return 1\r"
    assert [s.end_line for s in analyze_file("o.py", lone_cr).symbols] == [2]


def test_a_leading_byte_order_mark_does_not_stop_parsing():
    analysis = analyze_file("bom.py", "\ufeffdef f():\n    return 1\n")
    assert analysis.error is None
    assert [(s.qname, s.signature) for s in analysis.symbols] == [("bom.f", "def f()")]
    assert analysis.chunks[0].content == "def f():\n    return 1"


def test_very_long_symbols_are_windowed_under_their_own_title():
    source = "def huge():\n" + "    x = 1\n" * 199 + "\n\nCONST = 1\n"
    analysis = analyze_file("pkg/huge.py", source)
    chunks = [(c.start_line, c.end_line, c.title, c.metadata.get("symbol"), c.metadata.get("part")) for c in analysis.chunks]
    assert chunks == [
        (1, 80, "pkg/huge.py::huge", "pkg.huge.huge", 1),
        (66, 145, "pkg/huge.py::huge", "pkg.huge.huge", 2),
        (131, 200, "pkg/huge.py::huge", "pkg.huge.huge", 3),
        (203, 203, "pkg/huge.py:203-203", None, None),
    ]
