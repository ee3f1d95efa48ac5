"""The project tools over the indexed shopapp fixture, called as the model would call them."""

from __future__ import annotations

import re

import pytest

from chat.agent.citing import Span
from chat.agent.config import AgentConfig
from chat.agent.tools import ProjectToolbox
from llm.types import ToolCall

pytestmark = pytest.mark.django_db


@pytest.fixture
def toolbox(shopapp) -> ProjectToolbox:
    return ProjectToolbox(shopapp, AgentConfig(), window_tokens=8192)


def call(toolbox: ProjectToolbox, tool: str, **arguments):
    return toolbox.call_sync(ToolCall(id="call_1", name=tool, arguments=arguments))


def test_callers_follow_calls_to_the_requested_depth(toolbox):
    outcome = call(toolbox, "callers", symbol="compute_tax", depth=2)

    assert not outcome.error
    lines = outcome.content.splitlines()
    assert lines[0] == "6 callers of 'compute_tax' (depth up to 2):"
    assert "- depth 1: shopapp.pricing.apply_discount  [shopapp.pricing.apply_discount -> shopapp.pricing.compute_tax at src/shopapp/pricing.py:19]" in lines
    assert sum(line.startswith("- depth 2: ") for line in lines) == 3
    assert Span("src/shopapp/pricing.py", 19, 19, "C2_DEPENDENCY_GRAPH", 0.0) in outcome.spans


def test_callees_report_unresolved_calls_by_their_text(toolbox):
    outcome = call(toolbox, "callees", symbol="shopapp.pricing.apply_discount")

    assert "- depth 1: DISCOUNT_CODES.get (unresolved)" in outcome.content
    assert "- depth 1: shopapp.pricing.compute_tax" in outcome.content


def test_get_symbol_gives_the_definition_and_its_lines(toolbox):
    outcome = call(toolbox, "get_symbol", name="CheckoutService.place_order")

    assert "- method shopapp.services.checkout.CheckoutService.place_order at src/shopapp/services/checkout.py:31-38" in outcome.content
    assert outcome.spans == (Span("src/shopapp/services/checkout.py", 31, 38, "C1_SYMBOL_CATALOG", 0.0),)


def test_list_entrypoints_of_one_kind(toolbox):
    outcome = call(toolbox, "list_entrypoints", kind="http_route")

    assert "/accounts/login/ -> djshop.orders.views.login_view at djshop/djshop/urls.py:8-8" in outcome.content
    assert "cli_command" not in outcome.content


def test_search_text_lists_the_lines_that_contain_a_text(toolbox):
    outcome = call(toolbox, "search_text", pattern="DISCOUNT_CODES", path="src/**")

    lines = outcome.content.splitlines()
    assert not outcome.error and lines[0] == f"{len(lines) - 1} lines matching the text 'DISCOUNT_CODES' in src/**:"
    assert any(re.fullmatch(r"src/shopapp/pricing\.py:\d+: DISCOUNT_CODES = \{.*", line) for line in lines[1:])
    assert {span.path for span in outcome.spans} == {"src/shopapp/pricing.py"} and outcome.spans[0].layer == "text"

    limited = call(toolbox, "search_text", pattern=r"^def \w+", regex=True, k=2)
    assert limited.content.startswith("the first 2 lines matching the regular expression '^def \\\\w+' (narrow it with path):")
    assert len(limited.spans) == 2
    assert call(toolbox, "search_text", pattern="no such text anywhere").content == "No line matches the text 'no such text anywhere'."
    broken = call(toolbox, "search_text", pattern="(", regex=True)
    assert broken.error and broken.content.startswith("Error: search_text: invalid regular expression")


def test_search_code_honours_layers_and_the_path_glob(toolbox):
    outcome = call(toolbox, "search_code", query="discount", layers=["C1_SYMBOL_CATALOG"], path="src/**/*.py")

    assert re.match(r"\d+ results for 'discount' \(layers: C1_SYMBOL_CATALOG\):\n", outcome.content)
    assert "[1] src/shopapp/pricing.py:14-19 | C1_SYMBOL_CATALOG" in outcome.content
    assert {span.layer for span in outcome.spans} == {"C1_SYMBOL_CATALOG"}
    assert all(span.path.startswith("src/") for span in outcome.spans)
    assert "Files ranked for this query: src/shopapp/pricing.py" in outcome.content


def test_read_file_numbers_the_lines_and_refuses_ranges_past_the_end(toolbox):
    outcome = call(toolbox, "read_file", path="src/shopapp/pricing.py", start=10, end=11)
    past = call(toolbox, "read_file", path="src/shopapp/pricing.py", start=90, end=95)

    assert outcome.content == (
        "src/shopapp/pricing.py:10-11 (of 19 lines, python)\n"
        "10 | def compute_tax(amount_cents: int) -> int:\n"
        "11 |     return round(amount_cents * TAX_RATE)"
    )
    assert past.error and past.content == "Error: read_file: src/shopapp/pricing.py has only 19 lines"


def test_a_missing_file_suggests_files_with_the_same_name(toolbox):
    outcome = call(toolbox, "read_file", path="shopapp/pricing.py", start=1, end=5)

    assert outcome.error
    assert outcome.content.endswith("files with that name: src/shopapp/pricing.py")


@pytest.mark.parametrize(
    ("name", "raw", "arguments", "message"),
    [
        ("read_file", '{"path": "a.py", "start": ', {}, "Error: read_file: the arguments are not valid JSON"),
        ("callers", "", {"symbol": "x", "depth": 9}, "Error: callers: invalid arguments: depth: 9 is greater than the maximum of 3"),
        ("list_entrypoints", "", {"kind": "cron"}, "Error: list_entrypoints: invalid arguments: kind: 'cron' is not one of"),
        ("get_symbol", "", {"name": "x", "extra": 1}, "Error: get_symbol: invalid arguments: Additional properties are not allowed"),
        ("search_code", "", {"query": "   "}, "Error: search_code: the query is empty"),
    ],
)
def test_bad_arguments_come_back_as_errors_for_the_model(toolbox, name, raw, arguments, message):
    outcome = toolbox.call_sync(ToolCall(id="c", name=name, arguments=arguments, raw_arguments=raw))

    assert outcome.error
    assert outcome.content.startswith(message)


def test_get_symbol_names_the_parent_of_a_method(toolbox):
    outcome = call(toolbox, "get_symbol", name="place_order")

    assert "    in shopapp.services.checkout.CheckoutService" in outcome.content.splitlines()


def test_find_references_lists_calls_of_every_caller(toolbox):
    outcome = call(toolbox, "find_references", symbol="compute_tax")

    lines = outcome.content.splitlines()
    assert lines[0].endswith("references to 'compute_tax':")
    assert "- calls: shopapp.pricing.apply_discount at src/shopapp/pricing.py:19  [compute_tax]" in lines
    assert Span("src/shopapp/pricing.py", 19, 19, "C2_DEPENDENCY_GRAPH", 0.0) in outcome.spans


def test_search_code_keeps_k_results_of_one_language(toolbox):
    python = call(toolbox, "search_code", query="discount", k=2, language="python")
    markdown_only = call(toolbox, "search_code", query="discount", language="cobol")

    assert python.content.startswith("2 results for 'discount'")
    assert len(python.spans) == 2 and all(span.path.endswith(".py") for span in python.spans)
    assert markdown_only.content == "No results for 'discount' (language cobol)."


def test_list_entrypoints_of_one_framework(toolbox):
    django = call(toolbox, "list_entrypoints", framework="Django")
    other = call(toolbox, "list_entrypoints", framework="express")

    assert "/accounts/login/ -> djshop.orders.views.login_view" in django.content
    assert other.content == "No entrypoints (express) in the index."


def test_changes_since_a_version_or_an_unknown_one(toolbox, shopapp):
    same = call(toolbox, "changes_since", since=str(shopapp.active_run_id))
    unknown = call(toolbox, "changes_since", since="deadbeef")

    assert same.content == f"Changes from #{shopapp.active_run_id} to #{shopapp.active_run_id}: none (the two versions hold the same files)."
    assert unknown.error and unknown.content.startswith("Error: changes_since: ")


@pytest.mark.parametrize("query", ["import products from csv", "cart total", "how is the tax computed"])
def test_search_code_shows_results_grouped_by_file_in_the_file_rankings_order(toolbox, query):
    content = call(toolbox, "search_code", query=query).content
    paths = re.findall(r"^\[\d+\] ([^:]+):", content, re.M)
    ranked = [entry.split(" (")[0] for entry in re.search(r"Files ranked for this query: (.*)", content).group(1).split(", ")]
    first_seen = list(dict.fromkeys(paths))
    assert first_seen[: len(ranked)] == [path for path in ranked if path in first_seen]
    # No file shows more than three results before every ranked file has shown its first ones.
    assert all(paths[: len(ranked) * 3].count(path) <= 3 for path in ranked)
    if query == "import products from csv":
        assert paths[0] == "djshop/orders/management/commands/import_products.py"
