"""Everything that reads a user's or a model's text, on hostile and random input.

Linear growth is checked as in ``tests/rag/test_query_analysis_fuzz.py``: a
ratio of two sizes of the same text, each the fastest of a few runs (linear
16x from 4 KiB to 64 KiB, quadratic 256x); no absolute time is asserted.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from html.parser import HTMLParser

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chat.agent.citing import parse_cited_ranges
from chat.agent.docs.document import clean_section_body
from chat.agent.edits.diffs import extract_diff_text
from chat.agent.prompting import unfenced
from chat.agent.router import keyword_intent, parse_intent
from chat.markdown import render_markdown
from llm.conversation.structured import StructuredAnswerParser
from llm.providers.gemini import GeminiStreamParser
from llm.providers.gigachat import GigaChatStreamParser
from llm.providers.base import wire_format_errors
from llm.providers.openai import OpenAIStreamParser
from llm.retry import LLMError
from rag.benchmarks.hostile_queries import fastest_seconds

FUZZ = settings(derandomize=True, max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SMALL, LARGE = 4 * 1024, 64 * 1024
MAX_GROWTH = 48
TIMING_FLOOR = 2e-4


def growth(work: Callable[[str], object], unit: str, prefix: str = "", suffix: str = "") -> float:
    def text(size: int) -> str:
        return prefix + unit * max(1, size // len(unit)) + suffix

    # Other work on the machine only ever slows a run, and can slow every run of one size: a ratio
    # over the bound is measured again, up to three times. Quadratic growth (256x) fails every time.
    least = float("inf")
    for _ in range(3):
        small = max(fastest_seconds(work, text(SMALL), 5), TIMING_FLOOR)
        least = min(least, fastest_seconds(work, text(LARGE), 3) / small)
        if least < MAX_GROWTH:
            break
    return least


def route(text: str) -> object:
    return keyword_intent(text, has_repository=True)


def link(path: str, start: int, end: int) -> str:
    return f"/source/{path}?lines={start}-{end}"


def stream_structured(text: str) -> str:
    parser = StructuredAnswerParser()
    document = json.dumps({"internal_thought": "private", "is_safe": True, "answer": text})
    for start in range(0, len(document), 4):
        parser.feed(document[start : start + 4])
    parser.finish()
    return parser.answer


def _pieces(text: str, size: int = 8) -> list[str]:
    return [text[start : start + size] for start in range(0, len(text), size)]


def stream_openai(text: str) -> None:
    """A streamed answer and a tool call's arguments, eight characters a chunk, as a stream of events."""
    parser = OpenAIStreamParser()
    for piece in _pieces(text):
        parser.feed(json.dumps({"choices": [{"index": 0, "delta": {"content": piece}}]}))
    for piece in _pieces(json.dumps({"query": text})):
        call = {"index": 0, "id": "call_1", "function": {"name": "search_code", "arguments": piece}}
        parser.feed(json.dumps({"choices": [{"index": 0, "delta": {"tool_calls": [call]}}]}))
    parser.feed(json.dumps({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}))
    parser.feed("[DONE]")
    parser.finish()


def stream_gemini(text: str) -> None:
    parser = GeminiStreamParser()
    for piece in _pieces(text):
        parser.feed(json.dumps({"candidates": [{"content": {"role": "model", "parts": [{"text": piece}]}}]}))
    parser.feed(json.dumps({"candidates": [{"content": {"role": "model", "parts": []}, "finishReason": "STOP"}]}))
    parser.finish()


def stream_gigachat(text: str) -> None:
    parser = GigaChatStreamParser(None)
    for piece in _pieces(text):
        parser.feed(json.dumps({"choices": [{"index": 0, "delta": {"content": piece}}]}))
    parser.feed(json.dumps({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}))
    parser.feed("[DONE]")
    parser.finish()


HOSTILE = [
    pytest.param(stream_openai, "a\\n", "", "", id="stream: OpenAI-compatible events"),
    pytest.param(stream_gemini, "a\\n", "", "", id="stream: Gemini events"),
    pytest.param(stream_gigachat, "a\\n", "", "", id="stream: GigaChat events"),
    pytest.param(route, "a-", "", "!", id="router: dashes, no slash"),
    pytest.param(route, "Ab", "", "_", id="router: CamelCase runs"),
    pytest.param(route, "a_", "", "A", id="router: snake_case runs"),
    pytest.param(route, "a.", "", "1", id="router: dotted runs"),
    pytest.param(parse_cited_ranges, "a.", "", ":", id="citations: dotted runs"),
    pytest.param(parse_cited_ranges, "a/", "", ".p:", id="citations: path runs"),
    pytest.param(parse_cited_ranges, "a.py:1-", "", "", id="citations: open ranges"),
    pytest.param(unfenced, " ", "```json", "x", id="unfence: whitespace"),
    pytest.param(extract_diff_text, "```diff\n", "", "", id="diffs: unclosed fences"),
    pytest.param(extract_diff_text, "```\n+a\n", "", "", id="diffs: bare fences"),
    pytest.param(lambda text: clean_section_body(text, "T"), " ", "# a", "x", id="docs: heading spaces"),
    pytest.param(lambda text: clean_section_body(text, "T"), "#", "# a ", "x", id="docs: heading hashes"),
    pytest.param(lambda text: render_markdown(text, link), "[", "", "", id="markdown: brackets"),
    pytest.param(lambda text: render_markdown(text, link), "*a", "", "", id="markdown: emphasis"),
    pytest.param(lambda text: render_markdown(text, link), "`", "", "", id="markdown: backticks"),
    pytest.param(lambda text: render_markdown(text, link), "> ", "", "a", id="markdown: nested quotes"),
    pytest.param(lambda text: render_markdown(text, link), "<a ", "", "", id="markdown: raw tags"),
    pytest.param(lambda text: render_markdown(text, link), "a.py:1 ", "", "", id="markdown: citations"),
    pytest.param(stream_structured, "a\\n", "", "", id="structured answer in small pieces"),
]


@pytest.mark.parametrize(("work", "unit", "prefix", "suffix"), HOSTILE)
def test_each_text_reader_grows_linearly_on_hostile_text(work, unit, prefix, suffix):
    assert growth(work, unit, prefix, suffix) < MAX_GROWTH


WORDS = st.sampled_from([
    *"aAzZ09_.,-/:()<>{}[]\"'=#*`!|\\ \t\n",
    "fix ", "document ", "where ", "OrderService", "order_total", "shop/models.py", "a.py:3-9", "```", "```diff\n",
    "<script>alert(1)</script>", "javascript:alert(1)", "[x](javascript:alert(1))", "<img src=x onerror=alert(1)>",
    '"', "\u2013", "# ", "- ", "1. ", "| a | b |\n|---|---|\n",
])
TEXT = st.lists(WORDS, max_size=200).map("".join)
class Elements(HTMLParser):
    """Every element of a page fragment, with its attributes, as a browser would read them."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.found: list[tuple[str, dict[str, str]]] = []
        self.feed(html)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.found.append((tag, {name: value or "" for name, value in attrs}))


@FUZZ
@given(TEXT)
def test_rendered_model_text_never_carries_script(text):
    for tag, attributes in Elements(render_markdown(text, link)).found:
        assert tag not in {"script", "img", "iframe", "style", "object", "embed"}
        assert not any(name.startswith("on") for name in attributes)
        assert not attributes.get("href", "").strip().lower().startswith(("javascript:", "data:", "vbscript:"))


@FUZZ
@given(TEXT)
def test_cited_ranges_are_well_formed_and_from_the_text(text):
    for cited in parse_cited_ranges(text):
        assert 1 <= cited.start_line <= cited.end_line
        assert cited.path in text


@FUZZ
@given(TEXT)
def test_the_router_reads_any_text(text):
    decision = route(text)

    assert decision.intent in {"general", "project_qa", "docs", "edits"}
    try:
        intent, _reason = parse_intent(text)
    except ValueError:
        return
    assert intent in {"general", "project_qa", "docs", "edits"}


@FUZZ
@given(
    thought=st.text(max_size=60),
    answer=st.text(max_size=200),
    cuts=st.lists(st.integers(min_value=1, max_value=12), min_size=1, max_size=40),
)
def test_a_structured_answer_streams_whole_and_keeps_its_thought(thought, answer, cuts):
    document = json.dumps({"internal_thought": f"SECRET {thought}", "is_safe": True, "answer": answer})
    parser = StructuredAnswerParser()
    released = []
    position, index = 0, 0
    while position < len(document):
        size = cuts[index % len(cuts)]
        released.append(parser.feed(document[position : position + size]).answer_delta)
        position, index = position + size, index + 1
    released.append(parser.finish().answer_delta)

    assert "".join(released) == answer
    assert parser.internal_thought == f"SECRET {thought}"


# Valid JSON in the wrong shape for a wire format, and pieces of the right one.
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from([
            "choices", "delta", "message", "content", "tool_calls", "function", "arguments", "index", "id", "name",
            "finish_reason", "usage", "candidates", "parts", "text", "functionCall", "args", "finishReason",
            "usageMetadata", "function_call", "role", "error", "model",
        ]),
        inner,
        max_size=4,
    ),
    max_leaves=12,
)
PAYLOADS = st.lists(st.one_of(TEXT, JSON_VALUES.map(json.dumps), st.just("[DONE]")), max_size=8)


@FUZZ
@given(PAYLOADS)
def test_provider_stream_parsers_read_garbage_as_their_own_error(payloads):
    for provider, parser in (
        ("openai", OpenAIStreamParser()), ("gemini", GeminiStreamParser()), ("gigachat", GigaChatStreamParser(None)),
    ):
        try:
            with wire_format_errors(provider):
                for payload in payloads:
                    assert isinstance(parser.feed(payload), list)
                assert isinstance(parser.finish(), list)
        except LLMError:
            pass
