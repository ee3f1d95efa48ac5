"""Prompt files, admin overrides with versions and diffs, reset, and the fallback."""

from __future__ import annotations

import logging

import pytest
from django.urls import reverse
from django.utils.html import escape

from llm import prompts
from llm.models import Prompt

PRODUCT_PROMPTS = [
    "system",
    "router_intent",
    "general_answer",
    "project_answer",
    "docs_detect",
    "docs_strategy",
    "docs_plan_sections",
    "docs_generation",
    "docs_self_check",
    "docs_execution_summary",
    "project_edits_plan",
    "project_edits_hunks",
    "project_edits_self_check",
    "summarization",
]


@pytest.mark.parametrize("name", PRODUCT_PROMPTS)
def test_every_product_prompt_has_a_file(name, settings):
    settings.LLM = {**settings.LLM, "PROMPTS_DIR": ""}
    text = prompts.file_text(name)
    assert text is not None and len(text.split()) >= 30
    assert "You are a helpful assistant." not in text


def test_prompts_that_ask_for_json_show_the_object_to_return():
    for name in ("router_intent", "docs_detect", "docs_strategy", "docs_plan_sections", "docs_self_check", "project_edits_plan", "project_edits_self_check"):
        assert "Answer with one JSON object and nothing else" in prompts.file_text(name), name


@pytest.mark.django_db
def test_the_file_text_is_version_zero():
    prompt = prompts.get_prompt("router_intent")
    assert prompt.source == "file" and prompt.version == 0
    assert '"intent"' in prompt.text


@pytest.mark.django_db
def test_agent_prompts_dir_replaces_the_folder(settings, tmp_path):
    (tmp_path / "general_answer.txt").write_text("Answer like a pirate.\n")
    settings.LLM = {**settings.LLM, "PROMPTS_DIR": str(tmp_path)}
    assert prompts.get_prompt("general_answer").text == "Answer like a pirate."


@pytest.mark.django_db
def test_a_missing_prompt_falls_back_with_a_warning(settings, tmp_path, caplog):
    settings.LLM = {**settings.LLM, "PROMPTS_DIR": str(tmp_path)}
    with caplog.at_level(logging.WARNING, logger="llm"):
        prompt = prompts.get_prompt("project_answer")
    assert prompt.text == "You are a helpful assistant."
    assert prompt.source == "fallback" and prompt.version is None
    assert "project_answer" in caplog.text


def test_prompt_names_cannot_reach_outside_the_folder():
    with pytest.raises(ValueError):
        prompts.file_text("../settings")


@pytest.mark.django_db
def test_an_admin_override_wins_and_every_version_is_kept(admin_client):
    prompts.ensure_prompt_rows()
    prompt = Prompt.objects.get(name="general_answer")
    url = reverse("admin:llm_prompt_change", args=[prompt.pk])

    page = admin_client.get(url)
    assert escape(prompts.file_text("general_answer").splitlines()[0]) in page.content.decode()

    admin_client.post(url, {"text": "Answer in one sentence."})
    admin_client.post(url, {"text": "Answer in two sentences."})

    current = prompts.get_prompt("general_answer")
    assert (current.text, current.version, current.source) == ("Answer in two sentences.", 2, "admin")
    assert list(prompt.versions.values_list("version", "text")) == [(2, "Answer in two sentences."), (1, "Answer in one sentence.")]
    html = admin_client.get(url).content.decode()
    assert "-Answer in one sentence." in html and "+Answer in two sentences." in html


@pytest.mark.django_db
def test_saving_unchanged_text_adds_no_version(admin_client):
    prompts.ensure_prompt_rows()
    prompt = Prompt.objects.get(name="summarization")
    admin_client.post(reverse("admin:llm_prompt_change", args=[prompt.pk]), {"text": prompts.file_text("summarization")})
    prompt.refresh_from_db()
    assert prompt.version == 0 and not prompt.versions.exists()


@pytest.mark.django_db
def test_reset_returns_to_the_file_and_keeps_the_history(admin_client):
    prompts.ensure_prompt_rows()
    prompt = Prompt.objects.get(name="router_intent")
    prompt.save_text("Always say general.")
    response = admin_client.post(
        reverse("admin:llm_prompt_changelist"), {"action": "reset_to_file_default", "_selected_action": [prompt.pk]}, follow=True
    )
    assert "Reset to the file text: router_intent." in response.content.decode()

    current = prompts.get_prompt("router_intent")
    assert current.source == "file" and current.text == prompts.file_text("router_intent")
    history = list(prompt.versions.order_by("version").values_list("version", "is_reset"))
    assert history == [(1, False), (2, True)]


@pytest.mark.django_db
def test_the_changelist_lists_every_prompt_file(admin_client):
    html = admin_client.get(reverse("admin:llm_prompt_changelist")).content.decode()
    for name in PRODUCT_PROMPTS:
        assert f">{name}<" in html


@pytest.mark.django_db
def test_an_override_can_be_added_for_a_prompt_without_a_file(admin_client):
    admin_client.post(reverse("admin:llm_prompt_add"), {"name": "release_notes", "text": "Write release notes."})
    prompt = prompts.get_prompt("release_notes")
    assert (prompt.text, prompt.version) == ("Write release notes.", 1)
    bad = admin_client.post(reverse("admin:llm_prompt_add"), {"name": "../x", "text": "x"})
    assert bad.status_code == 200 and not Prompt.objects.filter(name="../x").exists()
