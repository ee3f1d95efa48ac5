"""Prompt lookups are cached per process and forgotten when a prompt is saved."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest
from django.db import transaction

from llm import prompts
from llm.models import Prompt


@pytest.fixture
def cached_prompts(settings):
    settings.LLM = {**settings.LLM, "PROMPT_CACHE_SECONDS": 60.0}
    prompts.clear_cache()
    yield
    prompts.clear_cache()


@pytest.mark.django_db(transaction=True)
def test_a_second_lookup_reads_nothing_from_the_database(cached_prompts, django_assert_num_queries):
    first = prompts.get_prompt("general_answer")
    with django_assert_num_queries(0):
        again = prompts.get_prompt("general_answer")
    assert again == first and again.source == "file"


@pytest.mark.django_db(transaction=True)
def test_a_cached_prompt_is_answered_without_the_database_thread(cached_prompts, monkeypatch):
    prompts.get_prompt("router_intent")
    threads: list[str] = []
    monkeypatch.setattr(prompts, "_read_prompt", lambda name: threads.append(threading.current_thread().name))
    prompt = asyncio.run(prompts.aget_prompt("router_intent"))
    assert prompt.source == "file" and '"intent"' in prompt.text
    assert threads == []


@pytest.mark.django_db(transaction=True)
def test_saving_an_override_replaces_the_cached_text_at_once(cached_prompts):
    prompts.ensure_prompt_rows()
    assert prompts.get_prompt("general_answer").source == "file"
    row = Prompt.objects.get(name="general_answer")
    row.save_text("Answer in one sentence.")
    current = prompts.get_prompt("general_answer")
    assert (current.text, current.version, current.source) == ("Answer in one sentence.", 1, "admin")
    row.reset_to_file(prompts.file_text("general_answer"))
    assert prompts.get_prompt("general_answer").source == "file"


@pytest.mark.django_db(transaction=True)
def test_deleting_an_override_brings_back_the_file_text(cached_prompts):
    Prompt.objects.create(name="summarization", text="Summarize in French.", overridden=True, version=3)
    assert prompts.get_prompt("summarization").text == "Summarize in French."
    Prompt.objects.filter(name="summarization").delete()
    assert prompts.get_prompt("summarization").source == "file"


@pytest.mark.django_db(transaction=True)
def test_a_lookup_inside_a_rolled_back_transaction_is_not_kept(cached_prompts):
    with pytest.raises(RuntimeError), transaction.atomic():
        Prompt.objects.create(name="system", text="Never kept.", overridden=True, version=1)
        assert prompts.get_prompt("system").text == "Never kept."
        raise RuntimeError("roll back")
    assert prompts.get_prompt("system").source == "file"


@pytest.mark.django_db(transaction=True)
def test_a_read_racing_a_save_is_not_cached(cached_prompts, monkeypatch):
    prompts.ensure_prompt_rows()
    row = Prompt.objects.get(name="general_answer")
    real_read = prompts._read_prompt

    def read_then_save(name):
        stale = real_read(name)
        row.save_text("Saved while the old text was being read.")
        return stale

    monkeypatch.setattr(prompts, "_read_prompt", read_then_save)
    assert prompts.get_prompt("general_answer").source == "file"
    monkeypatch.setattr(prompts, "_read_prompt", real_read)
    assert prompts.get_prompt("general_answer").text == "Saved while the old text was being read."


@pytest.mark.django_db(transaction=True)
def test_the_cache_expires(settings):
    settings.LLM = {**settings.LLM, "PROMPT_CACHE_SECONDS": 0.05}
    prompts.clear_cache()
    assert prompts.get_prompt("docs_detect").source == "file"
    # A change that sends no signal (another process's save) is seen once the entry expires.
    Prompt.objects.bulk_create([Prompt(name="docs_detect", text="Elsewhere.", overridden=True, version=1)])
    time.sleep(0.06)
    assert prompts.get_prompt("docs_detect").text == "Elsewhere."
    prompts.clear_cache()
