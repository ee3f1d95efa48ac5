"""The Repositories pages, the retrieval endpoint and the source view, through the real URL stack."""

from __future__ import annotations

import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from rag.models import IndexRun, Repository
from tests.factories import PASSWORD
from tests.rag.conftest import SMALL_PROJECT, make_zip


def _login(client, user):
    client.login(username=user.username, password=PASSWORD)
    return client


def _zip_upload(data: bytes, name: str = "shop.zip") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, data, content_type="application/zip")


def test_the_upload_page_flow_stores_the_zip_and_queues_a_run(owner_client, owner, upload_dir, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = owner_client.post(reverse("rag-upload"), {"archive": _zip_upload(make_zip(SMALL_PROJECT)), "name": ""})
    repository = Repository.objects.get(owner=owner)
    assert repository.name == "shop"
    assert response.status_code == 302 and response["Location"] == reverse("rag-repository", args=[repository.pk])
    run = repository.runs.get()
    assert run.status == IndexRun.Status.QUEUED
    assert run.job_id is not None  # queued for the worker once the upload committed

    page = owner_client.get(response["Location"])
    assert b"Run #%d" % run.pk in page.content
    assert b'hx-trigger="every 1s"' in page.content  # polls while the run is unfinished


def test_an_htmx_upload_redirects_the_browser(owner_client, owner, upload_dir):
    response = owner_client.post(
        reverse("rag-upload"), {"archive": _zip_upload(make_zip(SMALL_PROJECT)), "name": "mine"}, HTTP_HX_REQUEST="true"
    )
    repository = Repository.objects.get(owner=owner, name="mine")
    assert response["HX-Redirect"] == reverse("rag-repository", args=[repository.pk])


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"plain text", "not a readable zip"),
        (make_zip({"../evil.py": "x"}, top=None), "leaves its folder"),
        (make_zip({"zeros.txt": "0" * 2_000_000}), "zip bomb"),
        (make_zip({"a.py": "x = 1\n", "./a.py": "x = 2\n"}, top=None), "holds &#x27;a.py&#x27; twice"),
    ],
)
def test_a_refused_upload_shows_the_reason_on_the_page_and_stores_nothing(owner_client, upload_dir, data, message):
    response = owner_client.post(reverse("rag-upload"), {"archive": _zip_upload(data), "name": "bad"})
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Repository.objects.exists()

    htmx = owner_client.post(reverse("rag-upload"), {"archive": _zip_upload(data), "name": "bad"}, HTTP_HX_REQUEST="true")
    assert htmx.status_code == 200 and message in htmx.content.decode()
    assert b'id="upload-form"' in htmx.content


def test_the_list_shows_only_the_users_repositories_and_staff_see_all(client, shop, other_user, staff_user):
    Repository.objects.create(owner=other_user, name="not-yours")
    page = _login(client, shop.owner).get(reverse("rag-repositories"))
    assert b"shop" in page.content and b"not-yours" not in page.content
    staff_page = _login(client, staff_user).get(reverse("rag-repositories"))
    assert b"shop" in staff_page.content and b"not-yours" in staff_page.content


def test_a_repository_page_shows_counts_per_layer(owner_client, shop):
    page = owner_client.get(reverse("rag-repository", args=[shop.pk])).content.decode()
    assert "C1_SYMBOL_CATALOG</th><td>7</td>" in page
    assert 'badge active">serving' in page
    assert 'hx-trigger="every 1s"' not in page


def test_a_repository_indexed_this_minute_says_just_now(owner_client, shop):
    listing = owner_client.get(reverse("rag-repositories")).content.decode()
    page = owner_client.get(reverse("rag-repository", args=[shop.pk])).content.decode()
    assert "just now" in listing and "built just now" in page
    assert "0\xa0minutes" not in listing + page


def test_a_finished_index_says_what_it_holds_and_starts_a_chat_on_the_repository(owner_client, shop):
    from chat.models import ChatSession

    counts = shop.active_run.counts
    page = owner_client.get(reverse("rag-repository", args=[shop.pk])).content.decode()
    assert f"Indexed {counts['files']} files, {counts['symbols']} symbols</strong>, " in page
    assert "has started" not in page
    within_form = r"(?:(?!</form>).)*"
    form = re.search(
        rf'<form method="post" action="([^"]+)">{within_form}name="repository" value="(\d+)"{within_form}Start a chat about shop',
        page,
        re.S,
    )
    assert form and form.group(1) == reverse("chat-create") and form.group(2) == str(shop.pk)

    response = owner_client.post(form.group(1), {"repository": form.group(2)})
    session = ChatSession.objects.get(owner=shop.owner)
    assert response["Location"] == reverse("chat-session", args=[session.pk]) and session.repository == shop


def test_the_started_banner_is_gone_once_the_run_has_finished(owner_client, owner, upload_dir):
    from rag.services import run_index

    response = owner_client.post(reverse("rag-upload"), {"archive": _zip_upload(make_zip(SMALL_PROJECT)), "name": ""})
    page = owner_client.get(response["Location"]).content.decode()
    assert "Indexing has started." in page and "Indexed " not in page

    run = run_index(Repository.objects.get(owner=owner).runs.get().pk)
    assert run.status == IndexRun.Status.READY, run.error
    poll = owner_client.get(response["Location"], HTTP_HX_REQUEST="true", HTTP_HX_TARGET="runs").content.decode()
    assert f"Indexed {run.counts['files']} files" in poll and "Start a chat about shop" in poll
    assert "has started" not in poll and 'hx-trigger="every 1s"' not in poll


def test_only_the_owner_is_offered_a_chat_on_the_repository(client, shop, staff_user):
    page = _login(client, staff_user).get(reverse("rag-repository", args=[shop.pk])).content.decode()
    assert "Indexed " in page and "Start a chat about" not in page


@pytest.mark.parametrize("name", ["rag-repository", "rag-search", "rag-delete"])
def test_another_user_gets_404_for_every_repository_url(client, shop, other_user, name):
    _login(client, other_user)
    url = reverse(name, args=[shop.pk])
    assert client.get(url, {"q": "cart"}).status_code == 404
    assert client.get(reverse("rag-source", args=[shop.pk, "shop/views.py"])).status_code == 404
    assert client.post(reverse("rag-reindex", args=[shop.pk])).status_code == 404
    assert Repository.objects.filter(pk=shop.pk).exists()


def test_staff_can_open_any_repository(client, shop, staff_user):
    _login(client, staff_user)
    assert client.get(reverse("rag-repository", args=[shop.pk])).status_code == 200
    assert client.get(reverse("rag-search", args=[shop.pk]), {"q": "cart"}).status_code == 200
    assert client.get(reverse("rag-source", args=[shop.pk, "shop/views.py"])).status_code == 200


def test_anonymous_visitors_are_sent_to_login(client, shop):
    response = client.get(reverse("rag-search", args=[shop.pk]), {"q": "cart"})
    assert response.status_code == 302 and reverse("login") in response["Location"]


def test_the_search_endpoint_returns_items_with_spans(owner_client, shop):
    data = owner_client.get(reverse("rag-search", args=[shop.pk]), {"q": "login_view", "limit": 3}).json()
    assert data["mode"] == "code"
    top = data["results"][0]
    assert (top["path"], top["start_line"], top["end_line"]) == ("shop/views.py", 4, 7)
    assert set(top) == {"path", "content", "layer", "title", "metadata", "score", "start_line", "end_line"}
    assert len(data["results"]) <= 3


def test_the_search_endpoint_filters_by_path_glob_and_layer(owner_client, shop):
    url = reverse("rag-search", args=[shop.pk])
    data = owner_client.get(url, {"q": "cart", "path": "shop/models.py", "layers": "C1_SYMBOL_CATALOG"}).json()
    assert data["results"]
    assert {r["path"] for r in data["results"]} == {"shop/models.py"}
    assert {r["layer"] for r in data["results"]} == {"C1_SYMBOL_CATALOG"}


def test_the_search_endpoint_explains_bad_input(owner_client, shop):
    url = reverse("rag-search", args=[shop.pk])
    assert owner_client.get(url).status_code == 400
    bad_layer = owner_client.get(url, {"q": "x", "layers": "C9_NOPE"})
    assert bad_layer.status_code == 400 and "unknown layer" in bad_layer.json()["error"]


def test_the_source_view_highlights_and_anchors_the_cited_lines(owner_client, shop):
    page = owner_client.get(reverse("rag-source", args=[shop.pk, "shop/views.py"]), {"lines": "4-7"}).content.decode()
    cited = re.findall(r'<tr id="L(\d+)" class="cited">', page)
    assert cited == ["4", "5", "6", "7"]
    # Plain whitespace, names and punctuation carry no span (the page gives them no colour).
    assert '<span class="k">def</span> <span class="nf">login_view</span>(request):' in page
    assert "lines 4–7 highlighted" in page


def test_the_source_view_accepts_start_and_end_parameters(owner_client, shop):
    page = owner_client.get(reverse("rag-source", args=[shop.pk, "shop/models.py"]), {"start": "8", "end": "9"}).content.decode()
    assert re.findall(r'<tr id="L(\d+)" class="cited">', page) == ["8", "9"]


def test_the_source_view_renders_a_bounded_window_whatever_range_is_asked(owner, upload_dir, client):
    from rag.source_view import MAX_RENDERED_LINES
    from tests.rag.conftest import index_zip

    long_file = "".join(f"value_{number} = {number}\n" for number in range(1, 8_001))
    run = index_zip(owner, make_zip({"long.py": long_file}), name="long")
    url = reverse("rag-source", args=[run.repository_id, "long.py"])
    _login(client, owner)

    page = client.get(url, {"lines": "1-999999999"}).content.decode()
    assert len(re.findall(r'<tr id="L\d+"', page)) == MAX_RENDERED_LINES
    # A number too long to be a line is no range (not a server error): the file's start is shown, nothing cited.
    for query in ({"lines": "1-" + "9" * 5000}, {"start": "9" * 5000}):
        response = client.get(url, query)
        assert response.status_code == 200
        shown = response.content.decode()
        assert '<tr id="L1"' in shown and 'class="cited"' not in shown


def test_a_range_past_the_end_of_the_file_is_said_to_be_so_and_the_end_is_shown(owner, upload_dir, client):
    from tests.rag.conftest import index_zip

    text = "".join(f"value_{number} = {number}\n" for number in range(1, 541))
    run = index_zip(owner, make_zip({"short.py": text}), name="short")
    url = reverse("rag-source", args=[run.repository_id, "short.py"])
    page = _login(client, owner).get(url, {"lines": "5000-6000"}).content.decode()

    assert "highlighted" not in page and 'class="cited"' not in page
    assert "Lines 5000–6000 are past the end of the file (540 lines); its end is shown." in page
    assert 'data-show="end"' in page and '<tr id="L540"' in page
    overlapping = client.get(url, {"lines": "530-600"}).content.decode()
    assert "lines 530–540 highlighted" in overlapping and "past the end" not in overlapping
    assert re.findall(r'<tr id="L(\d+)" class="cited">', overlapping) == [str(n) for n in range(530, 541)]


def test_the_source_view_escapes_file_content(owner, upload_dir, client):
    from tests.rag.conftest import index_zip

    run = index_zip(owner, make_zip({"page.html": "<script>alert(1)</script>\n", "a.py": "x = 1\n"}), name="xss")
    page = _login(client, owner).get(reverse("rag-source", args=[run.repository_id, "page.html"])).content.decode()
    assert "<script>alert(1)</script>" not in page
    assert "&lt;" in page


def test_an_unknown_file_is_404(owner_client, shop):
    assert owner_client.get(reverse("rag-source", args=[shop.pk, "nope.py"])).status_code == 404


def test_delete_asks_first_then_removes_the_repository(owner_client, shop):
    url = reverse("rag-delete", args=[shop.pk])
    assert b"Delete shop?" in owner_client.get(url).content
    assert owner_client.post(url).status_code == 302
    assert not Repository.objects.filter(pk=shop.pk).exists()


def test_the_owner_can_cancel_an_unfinished_run_from_the_page(owner_client, shop, other_user):
    from django.test import Client

    from rag.services.repositories import reindex

    run = reindex(shop, defer=False)
    page = owner_client.get(reverse("rag-repository", args=[shop.pk])).content.decode()
    assert f"Cancel run #{run.pk}" in page
    url = reverse("rag-cancel-run", args=[shop.pk, run.pk])
    assert _login(Client(), other_user).post(url).status_code == 404
    response = owner_client.post(url, follow=True)
    assert "was cancelled" in response.content.decode()
    run.refresh_from_db()
    assert run.status == IndexRun.Status.FAILED


def test_the_reindex_button_queues_a_new_version(owner_client, shop, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = owner_client.post(reverse("rag-reindex", args=[shop.pk]), follow=True)
    assert "Reindexing has started." in response.content.decode()
    run = shop.runs.get(status=IndexRun.Status.QUEUED)
    assert run.trigger == IndexRun.Trigger.REINDEX and run.job_id is not None
