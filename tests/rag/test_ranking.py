"""The ranking of issue-like queries: word rarity, the whole-file ranking, reports, frames and file kinds."""

from __future__ import annotations

import pytest

from rag.models import IndexRun
from rag.services import RankingParams, SearchResult, rank_files, search, search_files
from rag.query_analysis import code_host_files, query_hints, template_lines, without_boilerplate
from rag.terms import is_vendored
from tests.rag.conftest import index_zip, make_zip

# The same three words everywhere but one rare word, plus code under examples/ and a plain-text
# script; each test below is about one of them.
PROJECT: dict[str, str] = {
    "lib/__init__.py": "",
    "lib/stream.py": (
        '"""Token streams: a stream of tokens, read token by token."""\n'
        "\n"
        "\n"
        "def read_stream(stream):\n"
        '    """Read the stream of tokens: every token of the stream, one stream token at a time."""\n'
        "    return [token for token in stream]\n"
    ),
    **{
        f"lib/{name}.py": f'def {name}_tokens(stream):\n    """Tokens of a {name} stream."""\n    return list(stream)\n'
        for name in ("lexer", "buffer", "reader", "socket", "pipe", "queue")
    },
    "lib/parser.py": (
        "def parse_tokens(tokens):\n"
        '    """Parse tokens; frobnicate each one first."""\n'
        "    return [frobnicate(token) for token in tokens]\n"
        "\n"
        "\n"
        "def frobnicate(token):\n"
        "    return token\n"
    ),
    "lib/utils.py": "def flatten(rows):\n    out = []\n    for row in rows:\n        out.extend(row)\n    return out\n",
    "lib/versions.py": (
        "def show_versions():\n"
        '    """Print setuptools, numpy and widgetlib versions."""\n'
        "    print('setuptools numpy widgetlib')\n"
    ),
    "lib/colors.py": "def blend_palette(first, second):\n    return (first + second) / 2\n",
    "examples/palettes.py": "def blend_palette(first, second):\n    return (first + second) / 2\n",
    "scripts/configure": "# blend palette configure script\nblend_palette=yes\necho blend palette\n",
    "tests/test_parser.py": "from lib.parser import parse_tokens\n\n\ndef test_parse():\n    assert parse_tokens([]) == []\n",
}


@pytest.fixture
def project(owner, upload_dir):
    run = index_zip(owner, make_zip(PROJECT), name="ranking")
    assert run.status == IndexRun.Status.READY, run.error
    return run.repository


def files(repository, query: str, params: RankingParams | None = None) -> list[str]:
    return [f.path for f in search_files(repository, query, params=params or RankingParams())]


def test_a_rare_query_word_outweighs_words_found_everywhere(project):
    query = "a stream of tokens, token by token, fails to frobnicate"

    assert files(project, query)[0] == "lib/parser.py"
    # PostgreSQL's own ranking has no notion of rarity: the file that repeats the common words wins.
    assert files(project, query, RankingParams(lexical_scoring="ts_rank"))[0] == "lib/stream.py"


def test_a_search_ranks_whole_files_too(project):
    response = search(project, "frobnicate the tokens", mode="code", limit=5)
    assert response.file_ranking[0] == "lib/parser.py"
    assert set(response.file_ranking) <= set(PROJECT)


def test_a_file_that_matches_the_issues_title_scores_for_the_title_and_one_matching_only_its_body_does_not(project):
    from rag.services.file_ranker import FEATURES, candidate_features

    issue = "Parsing fails to frobnicate\nA stream of tokens, read token by token: blend_palette gets a stream."
    response = search(project, issue, mode="code", limit=40)

    assert response.title_scores["lib/parser.py"] > 0
    # The body's words alone: in the whole-file ranking, not in the title's.
    assert "lib/colors.py" in response.file_ranking and "lib/colors.py" not in response.title_scores
    title = FEATURES.index("title_match")
    rows = {c.path: c.features[title] for c in candidate_features(response)}
    assert rows["lib/parser.py"] == 1.0 and rows["lib/colors.py"] == 0.0
    # A question of one line is its own title.
    assert search(project, "blend palette", mode="code").title_scores["lib/colors.py"] > 0


def test_a_file_of_the_whole_file_ranking_is_ranked_even_without_a_retrieved_item():
    item = SearchResult(id=1, path="a.py", layer="C0_SOURCE_CHUNKS", title="", content="", metadata={}, score=0.05,
                        start_line=1, end_line=2)
    params = RankingParams(weight_file_lexical=0.3, file_rrf_k=10, file_only_depth=2)

    ranked = rank_files([item], params=params, file_ranking=["b.py", "a.py", "c.py"])

    assert [f.path for f in ranked] == ["a.py", "b.py"]
    assert ranked[0].score == pytest.approx(0.05 + 0.3 / 12)
    assert ranked[1].best is None and ranked[1].score == pytest.approx(0.3 / 11)
    assert [f.path for f in rank_files([item], params=params)] == ["a.py"]


def test_an_environment_report_in_the_query_is_not_matched(project):
    report = "numpy: 1.16.0\nsetuptools: 39.0.1\nwidgetlib: 2.0.1\nplatform: Linux-5.4-x86_64\nLANG: en_US.UTF-8\n"
    question = "parse_tokens drops tokens"

    assert files(project, f"{question}\n\n{report}") == files(project, question)
    # The same report alone is all the query has, so it is searched: it names the versions module.
    assert files(project, report)[0] == "lib/versions.py"


def test_interpreter_banners_and_prompts_are_left_out_of_a_query():
    session = (
        "IPython 5.1.0 -- An enhanced Interactive Python.\n"
        "?         -> Introduction and overview of IPython's features.\n"
        "In [2]: bug.subs(a, 1).apart(t)\n"
        "Out[2]: -a*t\n"
        ">>> expand(x)\n"
    )

    cleaned = without_boilerplate(session)

    assert "IPython" not in cleaned and "Introduction" not in cleaned
    assert "In [" not in cleaned and "Out[" not in cleaned and ">>>" not in cleaned
    assert "bug.subs(a, 1).apart(t)" in cleaned and "-a*t" in cleaned and "expand(x)" in cleaned


def test_only_runs_of_report_lines_are_left_out_of_a_query():
    code = "qs1 = qs.filter(name='a')\nqs2 = qs.filter(name='b')\nqs3 = qs1.union(qs2)\nqs4 = qs3.order_by('x')\n"
    prose = "Note: the widget breaks.\nReason: unknown.\n"
    report = "INSTALLED VERSIONS\n------------------\ncommit: None\npython: 3.8.3 (default, Jul 2 2020)\npandas: 1.0.5\nnumpy==1.18.5\n"

    assert without_boilerplate(code) == code.rstrip("\n")
    assert without_boilerplate(prose) == prose.rstrip("\n")
    cleaned = without_boilerplate(f"Title\n{report}The end.")
    assert "pandas" not in cleaned and "numpy" not in cleaned and "Title" in cleaned and "The end." in cleaned


def test_an_issue_templates_comments_are_left_out_of_a_query():
    issue = (
        "Parsing fails\n<!--\n  Please check that the issue persists after a restart of the browser.\n-->\n"
        "parse_tokens drops tokens <!-- describe the steps --> on empty input\n<!-- unclosed"
    )

    cleaned = without_boilerplate(issue)

    assert "browser" not in cleaned and "steps" not in cleaned
    assert "Parsing fails" in cleaned and "parse_tokens drops tokens" in cleaned and "on empty input" in cleaned
    # A comment that is never closed is no comment the page hides: it stays.
    assert "<!-- unclosed" in cleaned


BUG_TEMPLATE = (
    "---\nname: Bug report\nabout: Create a report to help us improve\n---\n\n**Describe the bug**\n"
    "A clear and concise description of what the bug is.\n\n**To Reproduce**\nSteps to reproduce the behavior\n\n"
    "**Expected behavior**\nA clear and concise description of what you expected to happen.\n"
)
BUG_FORM = "body:\n  - type: textarea\n    attributes:\n      label: Environment details\n      description: 'Which version, which system?'\n"


def test_the_lines_an_issue_repeats_from_its_repositorys_templates_are_left_out_of_it():
    template = template_lines(BUG_TEMPLATE) | template_lines(BUG_FORM)
    issue = (
        "split_tokens drops unicode spaces\n### Describe the bug\nA clear and concise description of what the bug is.\n"
        "Non-breaking spaces stay inside tokens.\n**Expected behavior**\nThey split.\n## Environment details:\nLinux"
    )

    cleaned = without_boilerplate(issue, template)

    assert cleaned.splitlines() == ["split_tokens drops unicode spaces", "Non-breaking spaces stay inside tokens.", "They split.", "Linux"]
    # Short lines say too little to tell a template's from the issue's own.
    assert without_boilerplate("Steps\nx", template_lines("Steps\n")) == "Steps\nx"


def test_an_issue_that_follows_the_repositorys_template_is_not_matched_to_code_that_writes_the_template(owner, upload_dir):
    files = {
        **PROJECT,
        ".github/ISSUE_TEMPLATE/bug_report.md": BUG_TEMPLATE,
        # A command that files bug reports writes the template's words into the code (go-zero's ``goctl bug``).
        "lib/bugreport.py": f"TEMPLATE = {BUG_TEMPLATE!r}\n\n\ndef open_bug_report():\n    return TEMPLATE\n",
    }
    run = index_zip(owner, make_zip(files), name="templates")
    issue = (
        "read_stream loses the last token\n**Describe the bug**\nA clear and concise description of what the bug is.\n"
        "The stream's last token is dropped.\n**To Reproduce**\nSteps to reproduce the behavior\n"
        "**Expected behavior**\nA clear and concise description of what you expected to happen.\n"
    )

    response = search(run.repository, issue, mode="code", limit=20)

    assert "lib/bugreport.py" not in response.file_ranking
    assert response.file_ranking[0] == "lib/stream.py"


def test_links_to_a_file_on_a_code_host_name_the_file_and_its_line():
    query = (
        "seems wrong: https://github.com/acme/shop/blob/d6952275/src/generators/theme.ts#L61, and "
        "https://gitlab.com/acme/tools/shop/-/blob/main/lib/cart.rb#L3-7 or https://bitbucket.org/acme/shop/src/v2/a/b.py#lines-9 "
        "(https://codeberg.org/acme/shop/src/branch/main/cmd/main.go) https://raw.githubusercontent.com/acme/shop/main/setup.py "
        "but not https://github.com/acme/shop/tree/main/src nor https://github.com/acme/shop/issues/12"
    )

    assert code_host_files(query) == [
        ("src/generators/theme.ts", 61), ("lib/cart.rb", 3), ("a/b.py", 9), ("cmd/main.go", None), ("setup.py", None)
    ]


def test_the_files_and_lines_of_other_languages_stack_traces_are_frames():
    trace = (
        "at com.google.gson.Gson.fromJson(Gson.java:932)\n"  # Java, Kotlin
        "thread 'main' panicked at src/lib.rs:10:5:\n"  # Rust
        "/go/src/shop/server/handler.go:123 +0x1d\n"  # Go
        "    at parse (/app/lib/router/index.js:10:5)\n"  # Node
        "   at Shop.Cart.Total() in /src/Shop/Cart.cs:line 12\n"  # C#
        "#0 /var/www/app/Route.php(12): run()\n"  # PHP
        "\tat com.shop.Cart.add(Cart.scala:41)\n"  # Scala
        "Sources/App/Cart.swift:7: Fatal error: Index out of range\n"  # Swift
        "#0      Cart.add (package:shop/src/cart.dart:15:5)\n"  # Dart
        "    (shop 0.1.0) lib/shop/cart.ex:12: Shop.Cart.add/2\n"  # Elixir
        "lua: app/cart.lua:30: attempt to index a nil value\n"  # Lua
        "scripts/deploy.sh: line 7: build: command not found\n"  # bash
        "version 1.2:3, at 10:30\n"
    )

    frames = [(frame.path, frame.line) for frame in query_hints(trace).frames]

    assert frames == [
        ("Gson.java", 932), ("src/lib.rs", 10), ("/go/src/shop/server/handler.go", 123), ("/app/lib/router/index.js", 10),
        ("/src/Shop/Cart.cs", 12), ("/var/www/app/Route.php", 12), ("Cart.scala", 41), ("Sources/App/Cart.swift", 7),
        ("shop/src/cart.dart", 15), ("lib/shop/cart.ex", 12), ("app/cart.lua", 30),
        ("scripts/deploy.sh", 7),
    ]


def test_a_link_to_a_line_of_a_file_finds_the_code_at_that_line(project):
    query = "frobnicate is called for every token: https://github.com/acme/ranking/blob/0123abcd/lib/parser.py#L6"

    found = search(project, query, mode="code", limit=20)

    linked = [r for r in found if r.path == "lib/parser.py" and "symbol" in r.channels]
    assert linked and any(r.start_line <= 6 <= r.end_line for r in linked)
    assert files(project, query)[0] == "lib/parser.py"


def test_a_traceback_frame_of_another_installed_package_does_not_name_a_file_of_the_same_name(project):
    frame = 'Traceback (most recent call last):\n  File "/usr/lib/python3/site-packages/{}", line 3, in <module>\nValueError\n'

    def framed(path: str) -> list[SearchResult]:
        found = search(project, frame.format(path), mode="code", limit=20)
        return [r for r in found if r.path == "lib/utils.py" and "symbol" in r.channels]

    ours = framed("lib/utils.py")
    assert ours and all(r.start_line <= 3 <= r.end_line for r in ours)
    assert framed("numpy/utils.py") == []


def test_examples_and_plain_text_windows_rank_below_the_projects_code(project):
    found = files(project, "blend_palette returns the wrong colour")
    assert found.index("lib/colors.py") < found.index("examples/palettes.py")

    neutral = RankingParams(window_weight=1.0, example_penalty=1.0)
    plain = {r.path: r.score for r in search(project, "blend_palette", mode="code", limit=20, params=neutral)}
    weighted = {r.path: r.score for r in search(project, "blend_palette", mode="code", limit=20)}
    assert weighted["scripts/configure"] < plain["scripts/configure"]
    assert weighted["examples/palettes.py"] < plain["examples/palettes.py"]
    asked = {r.path: r.score for r in search(project, "blend_palette in examples/palettes.py", mode="code", limit=20)}
    assert asked["examples/palettes.py"] >= asked["lib/colors.py"] * 0.99


def test_a_question_whose_other_words_are_in_few_items_or_none_is_also_read_by_its_common_words(project):
    run = IndexRun.objects.get(repository=project, status=IndexRun.Status.READY)
    assert "token" in run.common_words

    # "handed" and "lazily" are in no file; "tokens" is in most.
    found = search(project, "which tokens are handed over lazily", mode="code", limit=10)
    lexical = {r.path for r in found.items if "lexical" in r.channels}
    # "flatten" is in one file: the items with "token" follow its items.
    rare = search(project, "which tokens does flatten hand over", mode="code", limit=10)
    rare_lexical = [r.path for r in sorted(rare.items, key=lambda r: r.channels.get("lexical", 99)) if "lexical" in r.channels]

    assert lexical and all("token" in PROJECT[path] for path in lexical)
    assert rare_lexical[0] == "lib/utils.py" and {"lib/stream.py", "lib/parser.py"} <= set(rare_lexical)


def test_counts_of_common_words_come_with_the_version_and_are_kept_between_searches_of_a_version(project):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from rag.services.retrieval import lexical

    run = IndexRun.objects.get(repository=project, status=IndexRun.Status.READY)
    assert "token" in run.common_words
    lexical._COMMON_COUNTS.clear()
    query = "a stream of tokens, token by token, fails to frobnicate"

    def grouped_counts(statements) -> int:
        return sum("GROUP BY q.ord, i.path" in s["sql"] for s in statements)

    def glob_files(query: str) -> list[str]:
        return [f.path for f in search_files(project, query, path_glob="lib/**", params=RankingParams())]

    # The version's counts were written with it: a search over every file counts nothing.
    with CaptureQueriesContext(connection) as whole:
        ranked = files(project, query)
    # A search of some paths counts in SQL once, then keeps the counts for the version.
    with CaptureQueriesContext(connection) as first:
        assert glob_files(query)[0] == "lib/parser.py"
    with CaptureQueriesContext(connection) as again:
        glob_files(query)
    with CaptureQueriesContext(connection) as other:
        glob_files("token reader")
    assert grouped_counts(whole.captured_queries) == 0
    assert grouped_counts(first.captured_queries) == 1
    assert grouped_counts(again.captured_queries) == 0
    # Another query with only words already counted needs no count either.
    assert grouped_counts(other.captured_queries) == 0
    assert ranked[0] == "lib/parser.py"


# A short question naming an acronym-led class among files full of the question's other words.
FORMS_PROJECT: dict[str, str] = {
    "forms/__init__.py": "",
    "forms/fields.py": (
        "class Field:\n    def clean(self, value):\n        return value\n\n\n"
        "class CharField(Field):\n    pass\n\n\n"
        "class URLField(CharField):\n"
        "    def to_python(self, value):\n        return split_url(value)\n"
    ),
    "core/__init__.py": "",
    "core/exceptions.py": (
        "class ValidationError(Exception):\n"
        '    """Raised by clean() when a value is not valid."""\n'
    ),
    # Files that use the class and are full of the question's other words; only one defines it.
    **{
        f"{folder}/{name}.py": (
            "from forms.fields import URLField\n\n\n"
            f"def clean_{name}(value):\n"
            f'    """Clean a {name} with a URLField: raise ValueError instead of returning an invalid {name}."""\n'
            f"    if not URLField().clean(value):\n        raise ValueError('invalid {name}')\n"
            f"    try:\n        return value.strip()\n    except ValueError:\n        raise ValueError('cannot clean {name}')\n"
        )
        for folder, name in (("utils", "ipv6"), ("utils", "dates"), ("forms", "widgets"), ("db", "base"), ("db", "lookups"))
    },
}


def test_a_class_named_in_a_short_question_puts_its_file_near_the_top(owner, upload_dir):
    run = index_zip(owner, make_zip(FORMS_PROJECT), name="forms")
    assert run.status == IndexRun.Status.READY, run.error

    files = [f.path for f in search_files(run.repository, "URLField throws ValueError instead of ValidationError on clean", limit=3)]

    assert "forms/fields.py" in files


@pytest.mark.parametrize(
    "copy", ["site/static/searchlib-3.5.1.js", "dependencies/searchlib/searchlib.js", "src/extern/searchlib/searchlib.js"]
)
def test_a_vendored_copy_of_a_library_weighs_as_little_as_plain_windows(owner, upload_dir, copy):
    words = "search index highlight results query terms"
    project = {
        "site/search.py": 'def highlight_results(query, results):\n    """Highlight the query terms in the search results."""\n    return results\n',
        # A copy of a library the project ships (versioned, or in a folder of other projects'
        # code): long, and full of the question's words.
        copy: "".join(
            f"function {name}(query, results) {{\n  // {words}\n  return results;\n}}\n"
            for name in ("searchIndex", "highlightTerms", "queryResults", "indexTerms", "searchHighlight")
        ),
    }
    run = index_zip(owner, make_zip(project), name="vendored")
    assert run.status == IndexRun.Status.READY, run.error

    files = [f.path for f in search_files(run.repository, "search results do not highlight the query terms", limit=2)]

    assert files[0] == "site/search.py"


def test_folders_of_other_projects_code_are_told_by_linguists_names_but_not_a_projects_own_external_layer():
    vendored = ["deps/lua/lapi.c", "Dependencies/jsoncpp/json.h", "lib/3rd-party/x.js", "sklearn/externals/_arff.py"]
    own = ["sympy/external/gmpy.py", "src/dependencies/resolver.py", "app/deps.py", "core/extern.go"]

    assert [path for path in vendored + own if is_vendored(path)] == vendored


def test_a_vendored_files_code_has_no_full_text_entry_but_its_symbols_and_meaning_find_it(owner, upload_dir):
    project = {
        "app/render.py": 'def render_page(page):\n    """Render a page of the site."""\n    return page\n',
        # Minified and vendored: its words are another project's.
        "app/static/vendor/quuxlib.min.js": "function quuxSparkle(node){return node.zorbify(12)}\n",
    }
    run = index_zip(owner, make_zip(project), name="vendored-text")
    assert run.status == IndexRun.Status.READY, run.error

    by_words = search(run.repository, "zorbify the node", mode="code", layers=["C0_SOURCE_CHUNKS"])
    by_name = search(run.repository, "where is quuxSparkle defined", mode="code")

    assert not [r for r in by_words.items if "lexical" in r.channels]
    assert any(r.path == "app/static/vendor/quuxlib.min.js" and "symbol" in r.channels for r in by_name.items)
    # The project's own code keeps its full-text entry.
    own = search(run.repository, "render a page of the site", mode="code", layers=["C0_SOURCE_CHUNKS"])
    assert any(r.path == "app/render.py" and "lexical" in r.channels for r in own.items)


def test_a_file_a_tool_wrote_weighs_as_little_as_vendored_code(owner, upload_dir):
    source = (
        "namespace json {\n\n"
        "/** Parses a number; a number too large for a double is an error. */\n"
        "double parse_number(const char *text) {\n  return strtod(text, nullptr);\n}\n\n"
        "}  // namespace json\n"
    )
    project = {
        "include/json/number.h": source,
        "include/json/string.h": "namespace json {\n\nint parse_string(const char *text);\n\n}  // namespace json\n",
        # Every header of the project, copied into one by a script: each of its words is the sources' too.
        "singleheader/json.h": "/* auto-generated on 2024-01-01 by amalgamate.py. Do not edit! */\n"
        + "".join(f"// number parse large double error\n{source}\n" for _ in range(6)),
    }
    run = index_zip(owner, make_zip(project), name="generated")
    assert run.status == IndexRun.Status.READY, run.error

    files = [f.path for f in search_files(run.repository, "parse_number gives an error for a large number", limit=2)]
    lexical = search(run.repository, "number too large for a double", mode="code", layers=["C0_SOURCE_CHUNKS"])

    assert files[0] == "include/json/number.h"
    assert {r.path for r in lexical.items if "lexical" in r.channels} == {"include/json/number.h"}


def test_files_are_ranked_by_the_shipped_model_unless_told_to_fuse(owner, upload_dir):
    from rag.services import ranked_files
    from rag.services.file_ranker import FEATURES, load_model, rank_files_learned

    run = index_zip(owner, make_zip(FORMS_PROJECT), name="forms")
    response = search(run.repository, "URLField throws ValueError instead of ValidationError on clean", mode="code", limit=36)
    model = load_model()

    assert model.features == FEATURES and model.trained_on
    learned = [f.path for f in ranked_files(response, limit=5)]
    assert learned == [f.path for f in rank_files_learned(response, limit=5, model=model)]
    fused = ranked_files(response, limit=5, params=RankingParams(file_ranker="fusion"))
    assert [f.path for f in fused] == [f.path for f in rank_files(response.items, limit=5, file_ranking=response.file_ranking)]
    # The model re-orders the fused ranking's first files; it finds none of its own.
    depth = rank_files(response.items, limit=RankingParams().learned_depth, file_ranking=response.file_ranking)
    assert set(learned) <= {f.path for f in depth}


def rust_functions(doc: str, name: str, body: str, count: int = 25) -> str:
    """``count`` documented Rust functions; ``{n}`` in each part is the function's number."""
    return "".join(
        f"/// {doc.format(n=n)}\npub fn {name.format(n=n)}(text: &str) -> String {{\n    {body}\n}}\n\n" for n in range(count)
    )


def test_a_question_of_common_words_only_still_ranks_the_file_that_is_about_them(owner, upload_dir):
    # Every word of the question is in more than 20 items (common, left out of item scores), and no
    # item has all of them: the file whose items are about hyperlinks must still come near the top.
    project = {
        "printer/hyperlink/mod.rs": rust_functions("Builds part {n} of a hyperlink from its template.", "hyperlink_part_{n}", "text.to_string()"),
        "printer/standard.rs": rust_functions("Writes line {n} of the formatted output.", "write_output_{n}", 'format!("{}", text)')
        + "/// Sets the hyperlink format used in the output.\npub fn hyperlink(format: &str) -> String {\n    format.to_string()\n}\n",
        "printer/summary.rs": rust_functions("Formats summary {n} of the output.", "summary_{n}", 'format!("{}", text)'),
        "cli/args.rs": rust_functions("Parses flag {n} that controls the output.", "flag_{n}", "text.to_uppercase()"),
    }
    run = index_zip(owner, make_zip(project), name="common-words")
    assert run.status == IndexRun.Status.READY, run.error
    assert {"hyperlink", "output", "format"} <= set(run.common_words)

    files = [f.path for f in search_files(run.repository, "where are hyperlinks in the output formatted", limit=5)]

    assert "printer/hyperlink/mod.rs" in files[:3]


@pytest.mark.parametrize(
    ("path", "auxiliary"),
    [
        ("examples/palettes.py", True),
        ("samples/MediatR.Examples.PublishStrategies/Publisher.cs", True),
        ("packages/site/demo/App.vue", True),
        ("src/sampler/random.py", False),
        ("src/MediatR/NotificationPublishers/TaskWhenAllPublisher.cs", False),
        ("lib/demos.py", False),
    ],
)
def test_examples_are_told_by_the_folders_each_ecosystem_keeps_them_in(path, auxiliary):
    from rag.services.retrieval import AUXILIARY_FOLDERS

    assert bool(AUXILIARY_FOLDERS.search(path)) is auxiliary


def test_a_query_is_about_examples_when_it_names_their_folder_not_when_it_says_sample():
    assert query_hints("the publisher in samples/Publisher.cs runs handlers twice").about_examples
    assert query_hints("demo/App.vue does not render").about_examples
    assert not query_hints("a sample of the stream is dropped; see the demo below").about_examples


# A question that names a method as C# writes it, among files full of its other words.
SENDER_PROJECT: dict[str, str] = {
    "src/Mediator.cs": (
        "namespace Bus;\n\npublic class Mediator\n{\n"
        "    public object Send(object message)\n    {\n        return Dispatch(message);\n    }\n\n"
        "    private object Dispatch(object message)\n    {\n        return message;\n    }\n}\n"
    ),
    **{
        f"src/Registration/{name}.cs": (
            f"namespace Bus.Registration;\n\n/// <summary>Find the handler of a request type.</summary>\npublic static class {name}\n{{\n"
            f"    /// <summary>Find the handler for a request, or the handlers of a request's base types.</summary>\n"
            f"    public static object FindHandlerFor{name}(object request) {{ return FindRequestHandler(request); }}\n"
            f"    static object FindRequestHandler(object request) {{ return request; }}\n}}\n"
        )
        for name in ("HandlerFinder", "RequestScanner", "TypeRegistry")
    },
}


def test_a_method_a_question_capitalises_inside_its_sentence_is_looked_up_by_name(owner, upload_dir):
    run = index_zip(owner, make_zip(SENDER_PROJECT), name="bus")
    assert run.status == IndexRun.Status.READY, run.error

    files = [f.path for f in search_files(run.repository, "how does Send find the handler for a request", limit=3)]

    assert files[0] == "src/Mediator.cs"
    assert query_hints("how does Send find the handler for a request").names == {"Send"}
    # The first word of a sentence is capitalised anyway, and an issue's text is prose.
    assert query_hints("Send the request twice. Then Publish it").names == {"Publish"}
    # A run of capitalised words is a title, not names.
    assert query_hints("where is the 405 Method Not Allowed response built").names == set()
    assert "Send" not in query_hints("Handler lookup\nhow does Send find the handler").names
