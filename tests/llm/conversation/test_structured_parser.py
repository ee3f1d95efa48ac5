"""The incremental parser of structured answers, on its own."""

from __future__ import annotations

import json

import pytest

from llm.conversation.structured import StructuredAnswerParser


def test_the_parser_never_releases_a_half_escape_sequence():
    parser = StructuredAnswerParser()
    document = json.dumps({"internal_thought": "x", "is_safe": True, "answer": 'a "quoted" \\path\\ and é'})
    released = []
    for index in range(len(document)):
        released.append(parser.feed(document[index]).answer_delta)
    released.append(parser.finish().answer_delta)
    assert "".join(released) == 'a "quoted" \\path\\ and é'


@pytest.mark.parametrize("text", ["Plain text answer", "Use {braces} in the template", "{not json at all"])
def test_a_model_that_ignores_the_format_has_its_text_shown(text):
    parser = StructuredAnswerParser()
    parser.feed(text)
    update = parser.finish()
    assert update.answer_delta == text and update.is_safe is None


def test_an_answer_in_a_fenced_block_is_still_read():
    parser = StructuredAnswerParser()
    document = '```json\n{"internal_thought": "t", "is_safe": true, "answer": "Hello there"}\n```'
    released = [parser.feed(character).answer_delta for character in document]
    released.append(parser.finish().answer_delta)
    assert "".join(released) == "Hello there" and parser.is_safe is True


@pytest.mark.parametrize("text", ['Here is the config: {"debug": true}', 'Call it as f({"a": 1}) and read the result'])
def test_a_plain_answer_quoting_a_json_object_is_shown_whole(text):
    parser = StructuredAnswerParser()
    released = [parser.feed(text[index : index + 4]).answer_delta for index in range(0, len(text), 4)]
    released.append(parser.finish().answer_delta)
    assert "".join(released) == text and parser.is_safe is None


def test_a_structured_answer_without_its_answer_key_never_shows_the_thought():
    parser = StructuredAnswerParser()
    parser.feed('{"internal_thought": "private reasoning", "is_safe": true}')
    update = parser.finish()
    assert update.answer_delta == "" and parser.internal_thought == "private reasoning"


def test_an_unreadable_structured_answer_never_shows_its_private_reasoning():
    from llm.conversation.structured import UNREADABLE_ANSWER, StructuredAnswerParser

    parser = StructuredAnswerParser()
    released = parser.feed("{'internal_thought': 'the user seems gullible', 'is_safe': True, 'answer': 'hi'}").answer_delta
    released += parser.finish().answer_delta

    assert "gullible" not in released
    assert released == UNREADABLE_ANSWER
