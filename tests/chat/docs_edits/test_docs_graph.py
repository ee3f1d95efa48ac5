"""The docs graph with a model scripted at the HTTP level, on the indexed shopapp fixture."""

from __future__ import annotations

import json
import re

import pytest

from chat.agent.docs import DOCS_GRAPH
from chat.presentation import tool_activity
from tests.chat.docs_edits.conftest import Reply, artifacts, run_graph, texts
from tests.fixtures.projects import SHOPAPP

pytestmark = pytest.mark.django_db

PRICING = "src/shopapp/pricing.py"

DETECT = {"kind": "module", "target": PRICING, "title": "Pricing", "reason": "names the pricing module"}
STRATEGY = {"audience": "developers", "include": ["taxes", "discounts"], "exclude": [], "paths": [PRICING], "style": "plain"}
PLAN = {
    "title": "Pricing: taxes and discounts",
    "sections": [
        {"heading": "Taxes", "purpose": "how tax is computed", "query": "compute_tax TAX_RATE", "paths": [PRICING]},
        {"heading": "Discounts", "purpose": "discount codes", "query": "apply_discount DISCOUNT_CODES", "paths": [PRICING]},
    ],
}
TAXES = f"`compute_tax(amount_cents)` rounds the amount times `TAX_RATE` ({PRICING}:10-11)."
DISCOUNTS_WRONG = f"`apply_discount` takes 20% off with the code `WELCOME10` ({PRICING}:14-19)."
DISCOUNTS_FIXED = (
    f"`apply_discount` takes the percentage of the code from `DISCOUNT_CODES` ({PRICING}:7), "
    f"for example 10% for `WELCOME10`, then adds the tax ({PRICING}:14-19)."
)
DISCOUNTS_PAST_THE_END = f"`apply_discount` is defined at {PRICING}:140-150."
OK = {"ok": True, "issues": []}
WRONG_PERCENT = {
    "ok": False,
    "issues": [{"kind": "accuracy", "where": "20%", "problem": "WELCOME10 gives 10%, not 20%", "fix": f"say 10% ({PRICING}:7)"}],
}
SUMMARY = "I wrote **Pricing: taxes and discounts**, two sections; the discounts section was rewritten once."


class ScriptedWriter:
    """Answers each docs prompt by what it asks, since sections are written and checked concurrently.

    ``sections`` maps a heading to its answers, one per writing; ``checks`` maps a
    heading to the self-check's verdicts, one per check.
    """

    def __init__(
        self,
        *,
        sections: dict[str, list[str]],
        checks: dict[str, list[dict]],
        detect: object = DETECT,
        summary: Reply | None = None,
    ) -> None:
        self.detect = detect
        self.sections = {title: list(answers) for title, answers in sections.items()}
        self.checks = {title: list(verdicts) for title, verdicts in checks.items()}
        self.summary = summary or Reply.text(SUMMARY)

    def __call__(self, request) -> Reply:
        text = user_text(request)
        if text.startswith("Repository:"):
            return as_reply(self.detect)
        if text.startswith("The user's request:"):
            return as_reply(PLAN if "Plan at most" in text else STRATEGY)
        if text.startswith("Document:"):
            title = re.search(r"Write section \d+ only: (\w+)", text).group(1)
            return as_reply(self.sections[title].pop(0))
        if text.startswith("Section:"):
            title = re.match(r"Section: (\w+)", text).group(1)
            return as_reply(self.checks[title].pop(0))
        if text.startswith("Run record:"):
            return self.summary
        raise AssertionError(f"unexpected request: {text[:200]}")


def as_reply(answer: object) -> Reply:
    return Reply.text(answer if isinstance(answer, str) else json.dumps(answer))


def requests_starting(model, prefix: str) -> list[str]:
    return [user_text(r) for r in model.chat_requests if user_text(r).startswith(prefix)]


def user_text(request) -> str:
    return request.json["messages"][-1]["content"]


def fixture_lines(path: str) -> list[str]:
    return (SHOPAPP / path).read_text().splitlines()


def test_a_docs_request_gives_a_document_whose_citations_point_at_real_lines(shopapp, model):
    model.fallback = ScriptedWriter(sections={"Taxes": [TAXES], "Discounts": [DISCOUNTS_FIXED]}, checks={"Taxes": [OK], "Discounts": [OK]})

    final, events = run_graph(DOCS_GRAPH, "Document the pricing module", shopapp)

    [artifact] = artifacts(events)
    document = artifact["content"]
    assert artifact["kind"] == "markdown" and artifact["name"] == "pricing-taxes-and-discounts.md"
    assert document.startswith("# Pricing: taxes and discounts\n")
    assert "## Taxes\n\n" + TAXES in document and "## Discounts\n\n" + DISCOUNTS_FIXED in document
    assert f"## Sources\n\n- `{PRICING}:10-11`\n- `{PRICING}:7-7`\n- `{PRICING}:14-19`\n" in document
    answer = texts(events)
    assert answer.startswith(SUMMARY) and answer.endswith(document)
    [cited] = [event.citations for event in events if event.type == "citations"]
    assert {(c.path, c.start_line, c.end_line) for c in cited} == {(PRICING, 10, 11), (PRICING, 7, 7), (PRICING, 14, 19)}
    lines = fixture_lines(PRICING)
    for citation in cited:
        assert 1 <= citation.start_line <= citation.end_line <= len(lines)
    assert lines[9].startswith("def compute_tax(") and lines[13].startswith("def apply_discount(")
    assert lines[6].startswith("DISCOUNT_CODES = ")
    # Each section was written from numbered lines of the indexed file.
    [generation] = [text for text in requests_starting(model, "Document:") if "Write section 1 only" in text]
    assert "Write section 1 only: Taxes (how tax is computed)" in generation
    assert re.search(r"\b10 \| def compute_tax\(amount_cents: int\) -> int:", generation)
    assert final.state["artifacts"] == (artifact,)


def test_a_section_failing_the_self_check_is_regenerated_once(shopapp, model):
    model.fallback = ScriptedWriter(
        sections={"Taxes": [TAXES], "Discounts": [DISCOUNTS_WRONG, DISCOUNTS_FIXED]},
        checks={"Taxes": [OK], "Discounts": [WRONG_PERCENT, OK]},
    )

    final, events = run_graph(DOCS_GRAPH, "Document the pricing module", shopapp)

    generations = requests_starting(model, "Document: ")
    assert len(generations) == 3
    [rewrite] = [text for text in generations if "Your previous version" in text]
    assert "Write section 2 only: Discounts" in rewrite
    assert f"Your previous version of this section:\n<<<\n{DISCOUNTS_WRONG}\n>>>" in rewrite
    assert f"- 20%: WELCOME10 gives 10%, not 20% (fix: say 10% ({PRICING}:7))" in rewrite
    # The self-check was shown the lines the section cites.
    check = requests_starting(model, "Section: Discounts")[0]
    assert f"[{PRICING}:14-19]\n14 | def apply_discount(" in check
    checks = [(e.detail["arguments"]["section"], e.detail["result"]) for e in events if e.node == "docs_self_check:check_section"]
    assert sorted(checks) == [
        ("Discounts", f"20%: WELCOME10 gives 10%, not 20% (fix: say 10% ({PRICING}:7))"),
        ("Discounts", "passed"),
        ("Taxes", "passed"),
    ]
    document = artifacts(events)[0]["content"]
    assert DISCOUNTS_FIXED in document and DISCOUNTS_WRONG not in document
    assert "Self-check" not in document
    [record] = requests_starting(model, "Run record:")
    assert "2. Discounts:" in record and "rewritten once after the self-check found: 20%: WELCOME10 gives 10%" in record


def test_a_section_still_failing_after_its_rewrite_is_flagged_not_retried(shopapp, model):
    model.fallback = ScriptedWriter(
        sections={"Taxes": [TAXES], "Discounts": [DISCOUNTS_PAST_THE_END, DISCOUNTS_WRONG]},
        checks={"Taxes": [OK], "Discounts": [WRONG_PERCENT]},
    )

    final, events = run_graph(DOCS_GRAPH, "Document the pricing module", shopapp)

    # The citation past the end of the file failed without asking the model; the rewrite
    # was checked by the model and still failed, and was not written a third time.
    generations = requests_starting(model, "Document: ")
    assert len(generations) == 3
    [rewrite] = [text for text in generations if "Your previous version" in text]
    assert f"- {PRICING}:140-150 cites lines past the end of the file, which has 19 lines" in rewrite
    document = artifacts(events)[0]["content"]
    assert (
        "> **Self-check:** after one rewrite this section may still be inaccurate: "
        f"20%: WELCOME10 gives 10%, not 20% (fix: say 10% ({PRICING}:7))"
    ) in document
    assert len(requests_starting(model, "Section: Discounts")) == 1
    assert len(model.chat_requests) == 9


def test_an_unreadable_detection_falls_back_to_the_request_words(shopapp, model):
    model.fallback = ScriptedWriter(
        detect="I think it is about pricing.",
        sections={"Taxes": [TAXES], "Discounts": [DISCOUNTS_FIXED]},
        checks={"Taxes": [OK], "Discounts": [OK]},
    )

    final, events = run_graph(DOCS_GRAPH, f"Document {PRICING}", shopapp)

    request = final.state["docs"].request
    assert (request.kind, request.target, request.method) == ("module", PRICING, "keywords")
    assert "the model's answer: the answer is not valid JSON" in request.reason
    assert len(artifacts(events)) == 1


def test_a_failed_summary_call_still_delivers_the_document(shopapp, model):
    model.fallback = ScriptedWriter(
        sections={"Taxes": [TAXES], "Discounts": [DISCOUNTS_FIXED]},
        checks={"Taxes": [OK], "Discounts": [OK]},
        summary=Reply.error(400, "bad request"),
    )

    final, events = run_graph(DOCS_GRAPH, "Document the pricing module", shopapp)

    [artifact] = artifacts(events)
    answer = texts(events)
    assert answer.startswith(
        "I wrote **Pricing: taxes and discounts** (2 sections) from the index of shopapp."
    )
    assert answer.endswith(artifact["content"])


def test_an_api_reference_ends_with_the_exact_entrypoints_of_the_index(shopapp, model):
    detect = {"kind": "api_reference", "target": "src/shopapp/web", "title": "Storefront API"}
    model.fallback = ScriptedWriter(
        detect=detect,
        sections={"Taxes": [TAXES], "Discounts": [DISCOUNTS_FIXED]},
        checks={"Taxes": [OK], "Discounts": [OK]},
    )

    final, events = run_graph(DOCS_GRAPH, "Write the API reference of the storefront", shopapp)

    document = artifacts(events)[0]["content"]
    appendix = document.split("## Entry points\n", 1)[1].split("\n## Sources", 1)[0]
    assert appendix.startswith("\n_Listed from the index (every route, command and task it found), not written by the model._")
    routes = [line for line in appendix.splitlines() if line.startswith("| GET") or line.startswith("| POST")]
    assert routes == [
        "| GET, POST | `/shop/cart` | `shopapp.web.routes.cart` | flask | `src/shopapp/web/routes.py:10-12` |",
        "| POST | `/shop/checkout` | `shopapp.web.routes.checkout` | flask | `src/shopapp/web/routes.py:20-27` |",
        "| GET | `/shop/orders/<int:order_id>` | `shopapp.web.routes.order_detail` | flask | `src/shopapp/web/routes.py:15-17` |",
    ]
    assert "### CLI commands" not in appendix


def test_a_document_of_the_repository_ends_with_the_packages_its_manifests_declare(shopapp, model):
    model.fallback = ScriptedWriter(
        detect={"kind": "repository", "target": "", "title": "The shop"},
        sections={"Taxes": [TAXES], "Discounts": [DISCOUNTS_FIXED]},
        checks={"Taxes": [OK], "Discounts": [OK]},
    )

    final, events = run_graph(DOCS_GRAPH, "Write an overview of the repository", shopapp)

    document = artifacts(events)[0]["content"]
    appendix = document.split("## Dependencies\n", 1)[1].split("\n## Sources", 1)[0]
    assert appendix.startswith("\n_Listed from the repository's manifests (every package they declare), not written by the model._")
    assert [line for line in appendix.splitlines() if line.startswith("| `")] == [
        "| `flask` | `>=3.0` | runtime | `pyproject.toml:11` |",
        "| `fastapi` | `>=0.110` | runtime | `pyproject.toml:12` |",
        "| `click` | `>=8.1` | runtime | `pyproject.toml:13` |",
        "| `typer` | `>=0.12` | runtime | `pyproject.toml:14` |",
        "| `celery` | `>=5.3` | runtime | `pyproject.toml:15` |",
        "| `django` | `>=5.0` | runtime | `pyproject.toml:16` |",
    ]
    assert "## Entry points" not in document


def test_each_step_of_a_document_says_it_starts_before_it_is_reported_done(shopapp, model):
    model.fallback = ScriptedWriter(sections={"Taxes": [TAXES], "Discounts": [DISCOUNTS_FIXED]}, checks={"Taxes": [OK], "Discounts": [OK]})

    _, events = run_graph(DOCS_GRAPH, "Document the pricing module", shopapp)

    def position(kind: str, tool: str, section: str | None = None) -> int:
        return next(
            i for i, e in enumerate(events)
            if e.type == kind and e.detail.get("tool") == tool and e.detail["arguments"].get("section") == section
        )

    started = [(e.detail["tool"], e.detail["arguments"].get("section")) for e in events if e.type == "tool"]
    assert started[:2] == [("plan_document", None), ("plan_sections", None)]
    for tool in ("write_section", "check_section"):
        for section in ("Taxes", "Discounts"):
            assert position("tool", tool, section) < position("step", tool, section)
    # The page's status line names what runs.
    assert tool_activity("write_section", {"section": "Taxes"}, running=True) == "Writing the section “Taxes”…"
    assert tool_activity("check_section", {"section": "Taxes"}) == "Checked the section “Taxes”…"
