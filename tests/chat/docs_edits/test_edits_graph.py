"""The edits graph with a model scripted at the HTTP level, on the indexed shopapp fixture."""

from __future__ import annotations

import json

import pytest

from chat.agent.edits import EDITS_GRAPH
from chat.agent.edits.graph import MAX_ATTEMPTS
from chat.presentation import tool_activity
from llm.types import Message
from tests.chat.docs_edits.conftest import (
    Reply,
    artifacts,
    git_apply_check,
    run_graph,
    texts,
)
from tests.fixtures.projects import project_files

pytestmark = pytest.mark.django_db

PRICING = "src/shopapp/pricing.py"
TASKS = "src/shopapp/tasks.py"

# Line numbers and counts are off on purpose: only the content has to match the file.
GOOD_PRICING_DIFF = f"""Here is the change.

```diff
--- a/{PRICING}
+++ b/{PRICING}
@@ -8,2 +8,3 @@
 def compute_tax(amount_cents: int) -> int:
+    if amount_cents < 0:
+        raise ValueError("amount_cents must not be negative")
     return round(amount_cents * TAX_RATE)
```
"""
# The context does not match the indexed file (the parameter is ``amount_cents``).
STALE_PRICING_DIFF = f"""```diff
--- a/{PRICING}
+++ b/{PRICING}
@@ -10,2 +10,4 @@
 def compute_tax(amount: int) -> int:
+    if amount < 0:
+        raise ValueError("amount must not be negative")
     return round(amount * TAX_RATE)
```
"""
STALE_TASKS_DIFF = f"""```diff
--- a/{TASKS}
+++ b/{TASKS}
@@ -13,3 +13,3 @@
 @shared_task
-def purge_abandoned_carts(days: int = 30) -> int:
+def purge_abandoned_carts(days: int = 14) -> int:
     return days
```
"""
BROKEN_SYNTAX_DIFF = f"""```diff
--- a/{PRICING}
+++ b/{PRICING}
@@ -10,2 +10,4 @@
 def compute_tax(amount_cents: int) -> int:
+    if amount_cents < 0
+        raise ValueError("amount_cents must not be negative")
     return round(amount_cents * TAX_RATE)
```
"""


REVIEW_OK = Reply.text(json.dumps({"ok": True, "issues": []}))


def plan(*changes: tuple[str, str]) -> Reply:
    return Reply.text(
        json.dumps(
            {
                "summary": "Reject negative amounts",
                "changes": [{"path": path, "anchor": f"{path}:10-11", "what": what, "why": "bad input"} for path, what in changes],
                "tests": ["test that compute_tax rejects negative amounts"],
                "questions": [],
            }
        )
    )


def user_text(request) -> str:
    return request.json["messages"][-1]["content"]


def test_an_edits_request_produces_a_patch_git_apply_accepts(shopapp, model, tmp_path):
    # The plan names the file as a diff would (a/...); it is the indexed file all the same.
    model.script(plan((f"a/{PRICING}", "raise ValueError for negative amounts")), Reply.text(GOOD_PRICING_DIFF), REVIEW_OK)

    final, events = run_graph(EDITS_GRAPH, "Make compute_tax reject negative amounts", shopapp)

    [artifact] = artifacts(events)
    assert artifact["kind"] == "patch"
    assert artifact["name"] == "reject-negative-amounts.patch"
    patch = artifact["content"]
    assert patch.startswith(f"diff --git a/{PRICING} b/{PRICING}\n--- a/{PRICING}\n+++ b/{PRICING}\n@@ -8,6 +8,8 @@\n \n \n def compute_tax")
    checked = git_apply_check(project_files(), patch, tmp_path)
    assert checked.returncode == 0, checked.stderr
    answer = texts(events)
    assert f"```diff\n{patch.rstrip()}\n```" in answer
    assert "Not in the patch" not in answer and "review of the patch flags" not in answer
    assert len(model.chat_requests) == 3
    # The model saw the file with its real line numbers.
    assert "10 | def compute_tax(amount_cents: int) -> int:" in user_text(model.chat_requests[1])
    assert final.state["artifacts"] == (artifact,)


def test_a_hunk_that_does_not_apply_is_regenerated_with_the_reason(shopapp, model, tmp_path):
    model.script(
        plan((PRICING, "raise ValueError for negative amounts")),
        Reply.text(STALE_PRICING_DIFF),
        Reply.text(GOOD_PRICING_DIFF),
        REVIEW_OK,
    )

    final, events = run_graph(EDITS_GRAPH, "Make compute_tax reject negative amounts", shopapp)

    requests = model.chat_requests
    assert len(requests) == 4
    fix_request = user_text(requests[2])
    assert "Hunk 1 failed: its context and removed lines do not appear in the indexed file" in fix_request
    assert "'def compute_tax(amount: int) -> int:'" in fix_request
    [artifact] = artifacts(events)
    assert git_apply_check(project_files(), artifact["content"], tmp_path).returncode == 0
    assert "Not in the patch" not in texts(events)
    # Each try shows in the trace, one level below its node.
    steps = [(e.node, e.depth, e.detail["arguments"], e.detail["result"], e.detail["ok"]) for e in events if e.type == "step"]
    assert [(node, args, ok) for node, depth, args, result, ok in steps] == [
        ("project_edits_hunks:write_diff", {"path": PRICING, "try": 1}, True),
        ("project_edits_self_check:apply_diff", {"path": PRICING}, False),
        ("project_edits_hunks:write_diff", {"path": PRICING, "try": 2}, True),
        ("project_edits_self_check:apply_diff", {"path": PRICING}, True),
    ]
    assert steps[1][3].startswith("0 of 1 hunks applied; hunk 1: its context and removed lines do not appear")
    assert {depth for _, depth, _, _, _ in steps} == {1}


def test_a_hunk_that_keeps_failing_is_reported_and_the_rest_still_ships(shopapp, model, tmp_path):
    model.script(
        plan((PRICING, "raise ValueError for negative amounts"), (TASKS, "purge after 14 days")),
        Reply.text(GOOD_PRICING_DIFF),
        *[Reply.text(STALE_TASKS_DIFF)] * MAX_ATTEMPTS,
        REVIEW_OK,
    )

    final, events = run_graph(EDITS_GRAPH, "Reject negative amounts and purge carts after 14 days", shopapp)

    assert len(model.chat_requests) == 1 + 1 + MAX_ATTEMPTS + 1
    answer = texts(events)
    assert "**Not in the patch** (these still failed the check)" in answer
    assert (
        f"- `{TASKS}`, hunk 1 (after {MAX_ATTEMPTS} tries): its context and removed lines do not appear in the "
        "indexed file: at line 14 the hunk expects 'def purge_abandoned_carts(days: int = 30) -> int:' but the file "
        "has 'def purge_abandoned_carts(days: int = 7) -> int:'"
    ) in answer
    [artifact] = artifacts(events)
    assert TASKS not in artifact["content"]
    assert git_apply_check(project_files(), artifact["content"], tmp_path).returncode == 0


def test_a_change_that_breaks_python_syntax_is_regenerated(shopapp, model, tmp_path):
    model.script(
        plan((PRICING, "raise ValueError for negative amounts")),
        Reply.text(BROKEN_SYNTAX_DIFF),
        Reply.text(GOOD_PRICING_DIFF),
        REVIEW_OK,
    )

    final, events = run_graph(EDITS_GRAPH, "Make compute_tax reject negative amounts", shopapp)

    fix_request = user_text(model.chat_requests[2])
    assert f"{PRICING} no longer parses as Python (line 11" in fix_request
    [artifact] = artifacts(events)
    assert "+    if amount_cents < 0:\n" in artifact["content"]
    assert git_apply_check(project_files(), artifact["content"], tmp_path).returncode == 0


def test_what_the_review_flags_is_reported_with_the_patch(shopapp, model):
    review = {"ok": False, "issues": [{"path": PRICING, "kind": "complete", "problem": "apply_discount still accepts negative totals", "fix": "check there too"}]}
    model.script(
        plan((PRICING, "raise ValueError for negative amounts")), Reply.text(GOOD_PRICING_DIFF), Reply.text(json.dumps(review))
    )

    final, events = run_graph(EDITS_GRAPH, "Make compute_tax reject negative amounts", shopapp)

    answer = texts(events)
    assert (
        "**The review of the patch flags** (check these before applying it):\n"
        f"- `{PRICING}`: apply_discount still accepts negative totals (fix: check there too)"
    ) in answer
    # The review sees the patch that applies.
    assert "+    if amount_cents < 0:" in user_text(model.chat_requests[2])
    assert len(artifacts(events)) == 1


def test_with_the_offline_provider_it_says_edits_need_a_model(shopapp, settings):
    settings.LLM = {**settings.LLM, "PROVIDER": "offline"}

    final, events = run_graph(EDITS_GRAPH, "Make compute_tax reject negative amounts", shopapp)

    answer = texts(events)
    assert answer.startswith("Proposing code changes needs a language model, and none is configured")
    # It says so once.
    assert answer.count("configured") == 1
    assert "The code the index finds for this request:\n\n- `src/shopapp/pricing.py:10-11`: `def compute_tax(" in answer
    assert artifacts(events) == []
    [cited] = [event.citations for event in events if event.type == "citations"]
    assert (PRICING, 10, 11) in {(c.path, c.start_line, c.end_line) for c in cited}


def test_a_file_that_is_not_utf8_is_not_patched_and_the_answer_says_why(shopapp, model):
    legacy = "src/shopapp/legacy.py"
    model.script(plan((legacy, "read the catalogue as UTF-8")))

    final, events = run_graph(EDITS_GRAPH, "Read the legacy catalogue as UTF-8", shopapp)

    # Only the plan was asked for: no diff was requested for a file whose indexed text differs from the upload.
    assert len(model.chat_requests) == 1
    answer = texts(events)
    assert (
        f"- the plan's change to '{legacy}' was skipped: the file is not valid UTF-8, "
        "so a patch written against its indexed text would not apply"
    ) in answer
    assert "**No patch was produced:**" in answer
    assert artifacts(events) == []


def test_the_plan_sees_the_recent_conversation_the_request_refers_to(shopapp, model):
    history = (
        Message("user", "How is tax computed?"),
        Message("assistant", "By compute_tax in src/shopapp/pricing.py:10-11."),
    )
    model.script(Reply.text(json.dumps({"summary": "Nothing to change", "changes": [], "questions": ["Which check?"]})))

    final, events = run_graph(EDITS_GRAPH, "Make it reject negative amounts", shopapp, history=history)

    planned = user_text(model.chat_requests[0])
    assert planned.startswith(
        "The conversation so far:\nuser: How is tax computed?\n\n"
        "assistant: By compute_tax in src/shopapp/pricing.py:10-11.\n\nThe user's request:\nMake it reject negative amounts"
    )
    answer = texts(events)
    assert "**No patch was produced:** the plan names no file to change." in answer
    assert "**Open questions:**\n- Which check?" in answer


def test_a_patch_written_against_a_git_version_names_its_commit_and_git_apply_still_accepts_it(shopapp, model, tmp_path):
    from django.db import connections

    sha = "3f786850e387550fdab836ed7e6dc881de23001b"
    # The graph reads the index on the database pool's own connections, which see only committed
    # rows: the shared fixture's version is marked as a commit on a connection of its own, and restored.
    outside = connections.create_connection("default")
    try:
        with outside.cursor() as cursor:
            cursor.execute("UPDATE rag_indexrun SET commit_sha = %s WHERE id = %s", [sha, shopapp.active_run_id])
        model.script(plan((PRICING, "raise ValueError for negative amounts")), Reply.text(GOOD_PRICING_DIFF), REVIEW_OK)
        final, events = run_graph(EDITS_GRAPH, "Make compute_tax reject negative amounts", shopapp)
    finally:
        with outside.cursor() as cursor:
            cursor.execute("UPDATE rag_indexrun SET commit_sha = '' WHERE id = %s", [shopapp.active_run_id])
        outside.close()

    [artifact] = artifacts(events)
    header = f"Written against {shopapp.name} at commit {sha} (index version {shopapp.active_run_id}).\n\n"
    assert artifact["content"].startswith(header + f"diff --git a/{PRICING} b/{PRICING}\n")
    checked = git_apply_check(project_files(), artifact["content"], tmp_path)
    assert checked.returncode == 0, checked.stderr


def test_each_step_of_a_patch_says_it_starts(shopapp, model):
    model.script(plan((PRICING, "raise ValueError for negative amounts")), Reply.text(GOOD_PRICING_DIFF), REVIEW_OK)

    _, events = run_graph(EDITS_GRAPH, "Make compute_tax reject negative amounts", shopapp)

    started = [(e.detail["tool"], e.detail["arguments"]) for e in events if e.type == "tool"]
    assert started == [("plan_edits", {}), ("write_diff", {"path": PRICING}), ("review_patch", {})]
    written = next(i for i, e in enumerate(events) if e.type == "step" and e.detail.get("tool") == "write_diff")
    assert next(i for i, e in enumerate(events) if e.type == "tool" and e.detail["tool"] == "write_diff") < written
    assert tool_activity("write_diff", {"path": PRICING}, running=True) == f"Writing the change to {PRICING}…"


def test_a_request_naming_a_declared_package_shows_the_plan_the_manifest_that_declares_it(shopapp, model):
    model.script(Reply.text(json.dumps({"summary": "Nothing to change", "changes": [], "questions": ["Which version?"]})))

    run_graph(EDITS_GRAPH, "Bump flask to 3.1", shopapp)

    planned = user_text(model.chat_requests[0])
    retrieved = planned.split("Retrieved code (cite it as path:start-end):\n", 1)[1]
    assert retrieved.startswith("[S1] pyproject.toml:")
    assert '"flask>=3.0",' in retrieved.split("[S2]", 1)[0]
