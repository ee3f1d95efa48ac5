"""The adapters' event-stream decoder against httpx-sse, the library reading of the same format.

Any stream, cut into chunks anywhere (inside a CRLF, inside a multi-byte
character), must give the data httpx-sse gives for the whole stream.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from httpx_sse._decoders import SSEDecoder, SSELineDecoder

from llm.providers.event_stream import EventStreamDecoder

# Lines of the format, good and odd: fields with and without the space, comments, unknown
# fields, a field without a colon, text with multi-byte characters.
_value = st.text(alphabet=st.sampled_from(list('ab {}":,é€😀\\') + ["\t"]), max_size=12)
_line = st.one_of(
    _value.map(lambda v: f"data: {v}"),
    _value.map(lambda v: f"data:{v}"),
    st.just("data"),
    _value.map(lambda v: f": {v}"),
    _value.map(lambda v: f"event: {v}"),
    st.just("id: 7"),
    st.just("retry: 100"),
    _value.map(lambda v: f"database: {v}"),
    st.just(""),
)
_newline = st.sampled_from(["\n", "\r\n", "\r"])


def library_payloads(body: str) -> list[str]:
    """What httpx-sse reports for ``body`` read whole: the data of each event that has some."""
    lines = SSELineDecoder()
    events = SSEDecoder()
    payloads = []
    for line in [*lines.decode(body), *lines.flush()]:
        event = events.decode(line.rstrip("\n"))
        if event is not None and event.data:
            payloads.append(event.data)
    return payloads


def decoded(body: bytes, cuts: list[int], **options) -> list[str]:
    decoder = EventStreamDecoder(**options)
    payloads: list[str] = []
    start = 0
    for cut in sorted(cuts):
        payloads += decoder.feed(body[start:cut])
        start = cut
    payloads += decoder.feed(body[start:])
    return payloads + decoder.finish()


@settings(max_examples=400, deadline=None)
@given(
    lines=st.lists(st.tuples(_line, _newline), max_size=25),
    cuts=st.lists(st.integers(min_value=0, max_value=400), max_size=12),
)
def test_any_stream_in_any_chunks_reads_as_the_library_reads_it(lines, cuts):
    body = "".join(line + newline for line, newline in lines)
    encoded = body.encode()
    assert decoded(encoded, [c for c in cuts if c <= len(encoded)]) == library_payloads(body)


def test_a_chunk_per_byte_gives_the_events_of_the_whole():
    body = 'data: {"a": "é€"}\r\n\r\n: keep-alive\n\ndata: line one\ndata: line two\r\rdata: [DONE]\n\n'.encode()
    assert decoded(body, list(range(len(body)))) == ['{"a": "é€"}', "line one\nline two", "[DONE]"]


def test_a_byte_order_mark_at_the_start_is_dropped_even_when_split():
    body = "\ufeffdata: x\n\n".encode()
    assert decoded(body, [1, 2]) == ["x"]
    assert decoded(body, []) == ["x"]


def test_an_event_the_stream_ends_in_is_dropped():
    assert decoded(b"data: one\n\ndata: cut", []) == ["one"]
    assert decoded(b"data: one\n\ndata: cut\n", []) == ["one"]


def test_plain_lines_are_kept_after_the_events_when_asked():
    body = b'data: {"x": 1}\n\n[{\n  "error": {"code": 429}\n}]\n'
    assert decoded(body, [9, 20]) == ['{"x": 1}']
    assert decoded(body, [9, 20], keep_plain_lines=True) == ['{"x": 1}', '[{\n  "error": {"code": 429}\n}]']
    # An unterminated last event is kept too.
    assert decoded(b"data: tail", [], keep_plain_lines=True) == ["tail"]


def test_a_chunk_per_event_reads_as_the_library_reads_the_whole():
    events = ['data: {"n": 1}\n\n', "data: \n\n", "data: é€\n\n", ": ping\n\n", "data: a\ndata: b\n\n", "data: [DONE]\n\n"]
    body = "".join(events)
    cuts, at = [], 0
    for event in events:
        at += len(event.encode())
        cuts.append(at)
    assert decoded(body.encode(), cuts) == library_payloads(body) == ['{"n": 1}', "é€", "a\nb", "[DONE]"]
