"""The MCP server driven by the official SDK's client over HTTP against the real web process.

The web process runs as ``serve`` runs it, on the test database, with no
model configured (the offline provider answers ``ask``). The shopapp fixture
project is indexed through the real pipeline for its owner.
"""

from __future__ import annotations

import asyncio
import io
import time
from collections.abc import Iterator
from datetime import timedelta

import httpx
import pytest
from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import override_settings
from django.utils import timezone
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from chat.mcp.models import AccessToken, ToolUse
from chat.mcp.tokens import create_token
from rag.models import IndexRun, Repository
from rag.services import delete_repository, run_index, start_index_run
from tests.conftest import product_process_env, web_process
from tests.factories import make_user
from tests.fixtures.projects import zip_project


pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def shopapp(django_db_setup, django_db_blocker, tmp_path_factory) -> Iterator[Repository]:
    """Indexed once for the module. The tests write their rows (tokens, users) through ``sync_to_async`` or the
    async ORM, on connections of their own that commit at once, so the server process sees them."""
    uploads = tmp_path_factory.mktemp("uploads")
    with django_db_blocker.unblock(), override_settings(RAG={**settings.RAG, "UPLOAD_DIR": str(uploads)}):
        owner = make_user("owner")
        run = start_index_run(owner=owner, name="shopapp", archive=io.BytesIO(zip_project()), archive_name="shopapp.zip", defer=False)
        run = run_index(run.pk)
        assert run.status == IndexRun.Status.READY, run.error
        repository = Repository.objects.select_related("owner").get(pk=run.repository_id)
        try:
            yield repository
        finally:
            ToolUse.objects.all().delete()
            delete_repository(repository)
            get_user_model().objects.all().delete()


@pytest.fixture(scope="module")
def server(shopapp, django_db_blocker) -> Iterator[str]:
    env = product_process_env()
    env["MCP_CALLS_PER_MINUTE"] = "40"
    with django_db_blocker.unblock(), web_process(env) as url:
        yield url


def session(url: str, secret: str | None):
    headers = {"Authorization": f"Bearer {secret}"} if secret else {}
    return streamable_http_client(f"{url}/mcp", http_client=create_mcp_http_client(headers=headers))


async def call(url: str, secret: str, tool: str, arguments: dict, **options):
    async with session(url, secret) as (read, write), ClientSession(read, write) as client:
        await client.initialize()
        return await client.call_tool(tool, arguments, **options)


async def recorded(token: AccessToken, count: int) -> list[tuple[str, int | None, bool]]:
    """The token's call records, once ``count`` are written (a record is written beside its call's answer)."""
    deadline = time.monotonic() + 10
    while await ToolUse.objects.filter(token=token).acount() < count and time.monotonic() < deadline:
        await asyncio.sleep(0.02)
    return [row async for row in ToolUse.objects.filter(token=token).order_by("started_at").values_list("tool", "repository_id", "ok")]


def text_of(result) -> str:
    return "\n".join(block.text for block in result.content)


async def test_a_client_initializes_and_lists_every_tool(server, shopapp):
    _, secret = await sync_to_async(create_token)(shopapp.owner, "editor")

    async with session(server, secret) as (read, write), ClientSession(read, write) as client:
        initialized = await client.initialize()
        listed = await client.list_tools()

    assert initialized.server_info.name == "codebase-assistant"
    assert [tool.name for tool in listed.tools] == [
        "list_repositories", "search_code", "search_text", "read_file", "get_symbol", "find_references", "callers",
        "callees", "changes_since", "list_entrypoints", "list_dependencies", "ask",
    ]
    search = next(tool for tool in listed.tools if tool.name == "search_code")
    assert search.input_schema["required"] == ["repository", "query"]
    assert set(search.input_schema["properties"]) == {"repository", "query", "layers", "path", "k", "language"}


async def test_each_repository_tool_answers_with_lines_and_the_index_version(server, shopapp):
    token, secret = await sync_to_async(create_token)(shopapp.owner, "editor")
    version = f"index version {shopapp.active_run_id}, shopapp.zip"

    listed = await call(server, secret, "list_repositories", {})
    search = await call(server, secret, "search_code", {"repository": "shopapp", "query": "discount", "k": 3})
    symbol = await call(server, secret, "get_symbol", {"repository": "shopapp", "name": "CheckoutService.place_order"})
    read = await call(server, secret, "read_file", {"repository": "shopapp", "path": "src/shopapp/pricing.py", "start": 10, "end": 11})
    references = await call(server, secret, "find_references", {"repository": "shopapp", "symbol": "compute_tax"})
    callers = await call(server, secret, "callers", {"repository": "shopapp", "symbol": "compute_tax", "depth": 2})
    callees = await call(server, secret, "callees", {"repository": "shopapp", "symbol": "shopapp.pricing.apply_discount"})
    routes = await call(server, secret, "list_entrypoints", {"repository": "shopapp", "kind": "http_route"})
    changes = await call(server, secret, "changes_since", {"repository": "shopapp", "since": str(shopapp.active_run_id)})
    text = await call(server, secret, "search_text", {"repository": "shopapp", "pattern": "def compute_tax(", "case_sensitive": True})
    dependencies = await call(server, secret, "list_dependencies", {"repository": "shopapp", "name": "FLASK"})

    assert f"- shopapp (id {shopapp.pk}, owner owner): {version}" in text_of(listed)
    assert listed.structured_content["repositories"][0]["name"] == "shopapp"
    assert text_of(search).startswith(f"shopapp ({version}")
    assert "3 results for 'discount'" in text_of(search)
    assert len(search.structured_content["spans"]) == 3
    assert "src/shopapp/services/checkout.py:31-38" in text_of(symbol)
    assert "10 | def compute_tax(amount_cents: int) -> int:" in text_of(read)
    assert {"path": "src/shopapp/pricing.py", "start_line": 10, "end_line": 11, "layer": "file"} in read.structured_content["spans"]
    assert "- calls: shopapp.pricing.apply_discount at src/shopapp/pricing.py:19" in text_of(references)
    assert "6 callers of 'compute_tax' (depth up to 2):" in text_of(callers)
    assert "DISCOUNT_CODES.get (unresolved)" in text_of(callees)
    assert "/accounts/login/ -> djshop.orders.views.login_view" in text_of(routes)
    assert text_of(changes).endswith("none (the two versions hold the same files).")
    assert "src/shopapp/pricing.py:10: def compute_tax(amount_cents: int) -> int:" in text_of(text)
    assert {"path": "src/shopapp/pricing.py", "start_line": 10, "end_line": 10, "layer": "text"} in text.structured_content["spans"]
    assert "1 dependency declared in 1 manifest:\n- pypi flask >=3.0 [runtime] at pyproject.toml:11" in text_of(dependencies)
    assert not any(result.is_error for result in (listed, search, symbol, read, references, callers, callees, routes, changes, text, dependencies))
    uses = await recorded(token, 11)
    assert uses == [("list_repositories", None, True)] + [
        (tool, shopapp.pk, True)
        for tool in (
            "search_code", "get_symbol", "read_file", "find_references", "callers", "callees", "list_entrypoints", "changes_since",
            "search_text", "list_dependencies",
        )
    ]


async def test_a_bad_call_is_a_tool_error_a_person_can_act_on(server, shopapp):
    _, secret = await sync_to_async(create_token)(shopapp.owner, "editor")

    unknown_repository = await call(server, secret, "search_code", {"repository": "nope", "query": "x"})
    past_the_end = await call(server, secret, "read_file", {"repository": "shopapp", "path": "src/shopapp/pricing.py", "start": 90, "end": 95})
    bad_kind = await call(server, secret, "list_entrypoints", {"repository": "shopapp", "kind": "cron"})
    too_long = await call(server, secret, "ask", {"repository": "shopapp", "question": "x" * (settings.CHAT["MAX_MESSAGE_CHARS"] + 1)})

    assert unknown_repository.is_error
    assert text_of(unknown_repository) == "Error: no repository named 'nope' is visible to this token; yours: shopapp"
    assert past_the_end.is_error and "src/shopapp/pricing.py has only 19 lines" in text_of(past_the_end)
    assert bad_kind.is_error and "kind: 'cron' is not one of" in text_of(bad_kind)
    assert too_long.is_error and text_of(too_long).startswith("Error: ask: invalid arguments: question: ")


async def test_files_are_resources_listed_and_read_under_the_same_rules(server, shopapp):
    _, secret = await sync_to_async(create_token)(shopapp.owner, "editor")

    async with session(server, secret) as (read, write), ClientSession(read, write) as client:
        await client.initialize()
        listed = await client.list_resources()
        templates = await client.list_resource_templates()
        pricing = await client.read_resource("repo://shopapp/src/shopapp/pricing.py")

    uris = [resource.uri for resource in listed.resources]
    assert "repo://shopapp/src/shopapp/pricing.py" in uris
    assert templates.resource_templates[0].uri_template == "repo://{repository}/{+path}"
    assert "def compute_tax(amount_cents: int) -> int:" in pricing.contents[0].text


async def test_ask_answers_with_citations_and_reports_progress(server, shopapp):
    _, secret = await sync_to_async(create_token)(shopapp.owner, "editor")
    progress: list[tuple[float, str | None]] = []

    async def on_progress(value, total, message):
        progress.append((value, message))

    result = await call(
        server, secret, "ask", {"repository": "shopapp", "question": "Where is the tax computed?"}, progress_callback=on_progress
    )

    assert not result.is_error, text_of(result)
    assert "src/shopapp/pricing.py:" in text_of(result)
    assert any(c["path"] == "src/shopapp/pricing.py" for c in result.structured_content["citations"])
    assert progress and progress[0] == (0, "reading shopapp")


@pytest.mark.parametrize("case", ["missing", "unknown", "expired", "revoked"])
async def test_a_request_without_a_valid_token_is_refused_with_no_data(server, shopapp, case):
    token, secret = await sync_to_async(create_token)(shopapp.owner, "editor")
    if case == "expired":
        await AccessToken.objects.filter(pk=token.pk).aupdate(expires_at=timezone.now() - timedelta(seconds=1))
    if case == "revoked":
        await AccessToken.objects.filter(pk=token.pk).aupdate(revoked_at=timezone.now())
    sent = {"missing": None, "unknown": "cba_" + "x" * 43}.get(case, secret)
    headers = {"Authorization": f"Bearer {sent}"} if sent else {}

    async with httpx.AsyncClient() as client:
        response = await client.post(
            f"{server}/mcp",
            headers={**headers, "Accept": "application/json, text/event-stream", "Content-Type": "application/json"},
            json={"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "list_repositories", "arguments": {}}},
        )

    assert response.status_code == 401
    assert response.headers["www-authenticate"].startswith("Bearer")
    assert "shopapp" not in response.text
    assert not await ToolUse.objects.filter(token=token).aexists()


async def test_another_users_token_sees_none_of_the_repository(server, shopapp):
    stranger = await sync_to_async(make_user)(f"stranger{shopapp.pk}")
    _, secret = await sync_to_async(create_token)(stranger, "theirs")

    listed = await call(server, secret, "list_repositories", {})
    search = await call(server, secret, "search_code", {"repository": "shopapp", "query": "discount"})
    by_id = await call(server, secret, "read_file", {"repository": str(shopapp.pk), "path": "src/shopapp/pricing.py", "start": 1, "end": 5})
    async with session(server, secret) as (read, write), ClientSession(read, write) as client:
        await client.initialize()
        resources = await client.list_resources()
        with pytest.raises(Exception, match="no repository named 'shopapp'"):
            await client.read_resource("repo://shopapp/src/shopapp/pricing.py")

    assert text_of(listed) == "No repositories are visible to this token."
    assert search.is_error and "compute_tax" not in text_of(search)
    assert by_id.is_error and "def " not in text_of(by_id)
    assert resources.resources == []


async def test_a_token_limited_to_other_repositories_does_not_see_this_one(server, shopapp):
    other, _ = await Repository.objects.aget_or_create(owner_id=shopapp.owner_id, name="other")
    limited, secret = await sync_to_async(create_token)(shopapp.owner, "only other", repositories=[other])

    listed = await call(server, secret, "list_repositories", {})
    search = await call(server, secret, "search_code", {"repository": "shopapp", "query": "discount"})

    assert [row["name"] for row in listed.structured_content["repositories"]] == ["other"]
    assert search.is_error and text_of(search).endswith("yours: other")


async def test_calls_past_the_rate_limit_are_refused_until_the_minute_passes(server, shopapp):
    token, secret = await sync_to_async(create_token)(shopapp.owner, "busy")
    # 40 calls a minute (the server fixture's MCP_CALLS_PER_MINUTE), as if made just now.
    now = timezone.now()
    await ToolUse.objects.abulk_create(
        [ToolUse(token=token, user_id=token.user_id, tool="search_code", started_at=now) for _ in range(40)]
    )

    refused = await call(server, secret, "list_repositories", {})
    await ToolUse.objects.filter(token=token).aupdate(started_at=now - timedelta(minutes=2))
    allowed = await call(server, secret, "list_repositories", {})

    assert refused.is_error and text_of(refused).startswith("Error: rate limit: this token made 40 calls in the last minute")
    assert not allowed.is_error


async def test_a_token_revoked_while_in_use_reads_nothing_more(server, shopapp):
    token, secret = await sync_to_async(create_token)(shopapp.owner, "laptop")
    async with session(server, secret) as (read, write), ClientSession(read, write) as client:
        await client.initialize()
        before = await client.call_tool("search_code", {"repository": "shopapp", "query": "discount"})
        await AccessToken.objects.filter(pk=token.pk).aupdate(revoked_at=timezone.now())
        after = await client.call_tool("search_code", {"repository": "shopapp", "query": "discount"})
        with pytest.raises(Exception, match="revoked"):
            await client.read_resource("repo://shopapp/src/shopapp/pricing.py")

    assert not before.is_error
    assert after.is_error and text_of(after).startswith("Error: this token was revoked")
    assert "discount" not in text_of(after)


async def test_plain_calls_are_answered_in_one_json_body_and_ask_as_an_event_stream(server, shopapp):
    _, secret = await sync_to_async(create_token)(shopapp.owner, "raw")
    headers = {"Authorization": f"Bearer {secret}", "Accept": "application/json, text/event-stream"}

    def call_of(name: str, arguments: dict) -> dict:
        return {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": name, "arguments": arguments}}

    async with httpx.AsyncClient(timeout=60) as client:
        plain = await client.post(f"{server}/mcp", headers=headers, json=call_of("get_symbol", {"repository": "shopapp", "name": "compute_tax"}))
        asked = await client.post(f"{server}/mcp", headers=headers, json=call_of("ask", {"repository": "shopapp", "question": "Where is tax computed?"}))
        too_big = await client.post(f"{server}/mcp", headers=headers, content=b" " * (settings.MAX_REQUEST_BODY_BYTES + 1))

    assert plain.headers["content-type"].startswith("application/json")
    assert "src/shopapp/pricing.py:10-11" in plain.json()["result"]["content"][0]["text"]
    assert asked.headers["content-type"].startswith("text/event-stream")
    assert "src/shopapp/pricing.py:10-11" in asked.text
    assert too_big.status_code == 413
