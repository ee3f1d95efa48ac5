"""Repositories that follow git, against real git: a bare repository served on loopback by ``git daemon``.

Commits are pushed into the bare repository; each sync fetches the head through
the daemon (git://) and builds a version with the product's own indexing.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import shutil
import socket
import subprocess
import threading
import time
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.test import Client
from django.urls import reverse

from rag.models import GitRemote, IndexRun, Repository, SourceFile
from rag.services import search
from rag.services.changes import VersionNotFound, changes_between
from rag.services.git_sync import connect_git_repository, queue_due_syncs, sync_repository, webhook_secret
from rag.sources.git import RemoteRefused, check_remote_url, mirror_path, read_commit_files
from tests.factories import PASSWORD

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs the git command")

MODELS = (
    "class Cart:\n"
    '    """A shopping cart with line items."""\n'
    "\n"
    "    def __init__(self, items):\n"
    "        self.items = items\n"
    "\n"
    "    def total(self):\n"
    "        return sum(item.price for item in self.items)\n"
)
LEGACY = "def frobnicate_legacy_widget(widget):\n    return widget.frobnicate()\n"
DEPLOY = "# Deploying\n\nRun the server behind nginx with TLS certificates.\nKeep the certificates renewed.\n"
PAYMENTS = (
    "def charge_card_with_stripe(card, amount):\n"
    '    """Charge the card through the payment gateway."""\n'
    "    return card.charge(amount)\n"
)
GIT_IDENTITY = ["-c", "user.name=Test", "-c", "user.email=test@example.com", "-c", "commit.gpgsign=false"]


def git(*args: str, cwd: Path) -> str:
    return subprocess.run(
        ["git", *GIT_IDENTITY, *args], cwd=cwd, check=True, capture_output=True, text=True, timeout=60,
        env={"PATH": "/usr/bin:/bin", "HOME": str(cwd), "GIT_CONFIG_NOSYSTEM": "1"},
    ).stdout.strip()


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _wait_for_port(port: int, process: subprocess.Popen) -> None:
    for _ in range(200):
        if process.poll() is not None:
            raise RuntimeError(f"git daemon exited: {process.stderr.read()}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError("git daemon did not listen")


class Upstream:
    """A bare repository served by git daemon, and a working copy that pushes to it."""

    def __init__(self, root: Path, port: int) -> None:
        self.bare = root / "served" / "shop.git"
        self.work = root / "work"
        self.url = f"git://127.0.0.1:{port}/shop.git"
        git("init", "--bare", "--quiet", "-b", "main", str(self.bare), cwd=root)
        git("init", "--quiet", "-b", "main", str(self.work), cwd=root)

    def commit(self, message: str, *, write: dict[str, str] | None = None, delete: tuple[str, ...] = (),
               rename: dict[str, str] | None = None) -> str:
        for old, new in (rename or {}).items():
            (self.work / new).parent.mkdir(parents=True, exist_ok=True)
            git("mv", old, new, cwd=self.work)
        for path in delete:
            git("rm", "--quiet", path, cwd=self.work)
        for path, text in (write or {}).items():
            target = self.work / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text)
            git("add", "--force", path, cwd=self.work)
        git("commit", "--quiet", "-m", message, cwd=self.work)
        git("push", "--quiet", str(self.bare), "main", cwd=self.work)
        return git("rev-parse", "HEAD", cwd=self.work)


@pytest.fixture
def git_settings(settings, tmp_path):
    settings.RAG = {
        **settings.RAG, "GIT_DIR": str(tmp_path / "mirrors"), "GIT_ALLOW_PRIVATE_ADDRESSES": True,
        "GIT_TIMEOUT_SECONDS": 20.0,
    }
    return settings


@pytest.fixture
def upstream(tmp_path, git_settings):
    port = _free_port()
    (tmp_path / "served").mkdir()
    repo = Upstream(tmp_path, port)
    daemon = subprocess.Popen(
        ["git", "daemon", "--reuseaddr", "--export-all", f"--base-path={tmp_path / 'served'}", "--listen=127.0.0.1",
         f"--port={port}", str(tmp_path / "served")],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )
    try:
        _wait_for_port(port, daemon)
        yield repo
    finally:
        daemon.terminate()
        daemon.wait(timeout=10)


@pytest.fixture
def hanging_remote():
    """A TCP server that accepts connections and never answers; its git:// address."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    accepted: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                accepted.append(listener.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield f"git://127.0.0.1:{listener.getsockname()[1]}/shop.git"
    stop.set()
    thread.join(timeout=5)
    for conn in accepted:
        conn.close()
    listener.close()


def _paths(repository: Repository, query: str) -> list[str]:
    return [item.path for item in search(repository, query, mode="code", limit=20).items]


def _first_commit(upstream: Upstream) -> str:
    return upstream.commit(
        "Shop: cart and legacy widgets",
        write={"shop/models.py": MODELS, "shop/legacy.py": LEGACY, "docs/deploy.md": DEPLOY, "README.md": "# Shop\n"},
    )


def test_each_push_is_fetched_and_indexed_and_search_follows_it(upstream, owner):
    first = _first_commit(upstream)
    repository = connect_git_repository(owner=owner, name="shop", url=upstream.url, defer=False)

    result = sync_repository(repository)

    assert result.error == "" and result.run.status == IndexRun.Status.READY, result.run.error
    assert (result.run.commit_sha, result.run.commit_message) == (first, "Shop: cart and legacy widgets")
    repository.refresh_from_db()
    assert repository.git_remote.branch == "main"
    assert "shop/legacy.py" in _paths(repository, "frobnicate_legacy_widget")

    second = upstream.commit(
        "Payments through the gateway; legacy widgets gone; deploy notes renamed",
        write={"shop/payments.py": PAYMENTS, "shop/models.py": MODELS.replace("item.price", "item.price * item.quantity")},
        delete=("shop/legacy.py",), rename={"docs/deploy.md": "docs/deployment.md"},
    )
    result = sync_repository(repository)

    assert result.run.status == IndexRun.Status.READY, result.run.error
    assert result.run.commit_sha == second
    repository.refresh_from_db()
    assert repository.active_run_id == result.run.pk
    assert "shop/payments.py" in _paths(repository, "charge_card_with_stripe")
    assert "shop/legacy.py" not in _paths(repository, "frobnicate_legacy_widget")
    assert set(SourceFile.objects.in_version(result.run).values_list("path", flat=True)) == {
        "README.md", "docs/deployment.md", "shop/models.py", "shop/payments.py",
    }

    # Nothing new upstream: no new version.
    again = sync_repository(repository)
    assert again.up_to_date and again.head == second
    assert repository.runs.count() == 2

    # A force-push back to the first commit: that commit serves again.
    git("push", "--quiet", "--force", str(upstream.bare), f"{first}:refs/heads/main", cwd=upstream.work)
    back = sync_repository(repository)
    assert back.run.status == IndexRun.Status.READY and back.run.commit_sha == first
    repository.refresh_from_db()
    assert repository.active_run_id == back.run.pk
    assert "shop/legacy.py" in _paths(repository, "frobnicate_legacy_widget")


def test_changes_between_names_files_and_symbols_since_a_sha_or_a_version(upstream, owner):
    first = _first_commit(upstream)
    repository = connect_git_repository(owner=owner, name="shop", url=upstream.url, defer=False)
    first_run = sync_repository(repository).run
    upstream.commit(
        "Payments; legacy gone; deploy notes renamed",
        write={"shop/payments.py": PAYMENTS, "shop/models.py": MODELS.replace("item.price", "item.price * item.quantity")},
        delete=("shop/legacy.py",), rename={"docs/deploy.md": "docs/deployment.md"},
    )
    second_run = sync_repository(repository).run
    repository.refresh_from_db()

    changes = changes_between(repository, first[:8])

    assert (changes.since.run_id, changes.until.run_id) == (first_run.pk, second_run.pk)
    assert changes.since.commit_sha == first
    by_status = {(c.status, c.path, c.old_path) for c in changes.files}
    assert by_status == {
        ("added", "shop/payments.py", ""),
        ("changed", "shop/models.py", ""),
        ("deleted", "shop/legacy.py", ""),
        ("renamed", "docs/deployment.md", "docs/deploy.md"),
    }
    symbols = {(c.status, c.qname) for c in changes.symbols}
    assert ("added", "shop.payments.charge_card_with_stripe") in symbols
    assert ("removed", "shop.legacy.frobnicate_legacy_widget") in symbols
    assert ("changed", "shop.models.Cart.total") in symbols
    assert not any(c.qname == "shop.models.Cart.__init__" for c in changes.symbols)

    text = changes.as_text()
    assert text.startswith(f"Changes from #{first_run.pk} ({first[:12]}) to #{second_run.pk}")
    assert "- renamed docs/deployment.md (from docs/deploy.md)" in text
    assert "- symbol added function shop.payments.charge_card_with_stripe at shop/payments.py:1-3" in text
    assert changes.as_text(max_items=1).endswith(f"- ... and {len(changes.files) + len(changes.symbols) - 1} more")
    assert changes_between(repository, first[:8], until=first[:8]).as_text().endswith("none (the two versions hold the same files).")

    # The same by version number, and the way back.
    assert changes_between(repository, f"#{first_run.pk}").files == changes.files
    back = changes_between(repository, str(second_run.pk), until=first[:10])
    assert {(c.status, c.path) for c in back.files} >= {("deleted", "shop/payments.py"), ("added", "shop/legacy.py")}
    with pytest.raises(VersionNotFound, match="kept"):
        changes_between(repository, "deadbeef")

    # A module renamed: its definitions moved (or changed, where edited), not removed and added.
    upstream.commit(
        "Payments become billing", rename={"shop/payments.py": "shop/billing.py"},
        write={"shop/models.py": MODELS.replace("item.price", "item.price * item.quantity").replace(
            "self.items = items", "self.items = list(items)"
        )},
    )
    sync_repository(repository)
    repository.refresh_from_db()
    moved = changes_between(repository, f"v{second_run.pk}")
    assert {(c.status, c.path, c.old_path) for c in moved.files} == {
        ("renamed", "shop/billing.py", "shop/payments.py"), ("changed", "shop/models.py", ""),
    }
    symbols = {(c.status, c.qname, c.old_qname) for c in moved.symbols}
    assert symbols == {
        ("moved", "shop.billing.charge_card_with_stripe", "shop.payments.charge_card_with_stripe"),
        ("changed", "shop.models.Cart.__init__", ""),
        ("changed", "shop.models.Cart", ""),
    }


def test_a_remote_that_hangs_times_out_and_the_previous_version_keeps_serving(upstream, owner, hanging_remote, git_settings):
    _first_commit(upstream)
    repository = connect_git_repository(owner=owner, name="shop", url=upstream.url, defer=False)
    serving = sync_repository(repository).run
    GitRemote.objects.filter(repository=repository).update(url=hanging_remote)
    git_settings.RAG = {**git_settings.RAG, "GIT_TIMEOUT_SECONDS": 2.0}

    result = sync_repository(repository)

    assert result.run is None
    assert "did not finish within 2 s" in result.error and "keeps serving" in result.error
    remote = GitRemote.objects.get(repository=repository)
    assert remote.last_error == result.error
    repository.refresh_from_db()
    assert repository.active_run_id == serving.pk
    assert "shop/models.py" in _paths(repository, "Cart total")
    with pytest.raises(CommandError, match="did not finish within"):
        call_command("sync_repo", "shop")


def _sync_jobs() -> list[tuple[int, str]]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT id, status::text FROM procrastinate_jobs WHERE task_name = 'rag.sync_repository'")
        return cursor.fetchall()


def _github_signature(secret: str, body: bytes) -> str:
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def test_a_webhook_with_a_bad_signature_is_refused_and_a_good_one_queues_exactly_one_sync(client, owner, git_settings, tmp_path):
    (tmp_path / "local").mkdir()
    git("init", "--quiet", str(tmp_path / "local"), cwd=tmp_path)
    repository = connect_git_repository(
        owner=owner, name="shop", url=str(tmp_path / "local"), branch="main", allow_local=True, defer=False
    )
    secret = webhook_secret(repository.git_remote)
    url = reverse("rag-webhook", args=[repository.pk])
    body = json.dumps({"ref": "refs/heads/main", "after": "0" * 40}).encode()

    refused = [
        client.post(url, body, content_type="application/json", headers={"X-Hub-Signature-256": _github_signature("wrong", body)}),
        client.post(url, body, content_type="application/json", headers={"X-Gitea-Signature": "0" * 64}),
        client.post(url, body, content_type="application/json", headers={"X-Gitlab-Token": "wrong"}),
        client.post(url, body, content_type="application/json"),
    ]
    assert [response.status_code for response in refused] == [403, 403, 403, 403]
    assert _sync_jobs() == []

    signed = {"X-Hub-Signature-256": _github_signature(secret, body), "X-GitHub-Event": "push"}
    # Forges send no CSRF token and no session.
    first = Client(enforce_csrf_checks=True).post(url, body, content_type="application/json", headers=signed)
    assert first.status_code == 202 and first.json() == {"status": "sync queued"}
    assert len(_sync_jobs()) == 1

    # More pushes while that sync waits collapse into it, whichever forge signs them.
    gitea = hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
    for headers in (signed, {"X-Gitea-Signature": gitea}, {"X-Forgejo-Signature": gitea}, {"X-Gitlab-Token": secret}):
        response = client.post(url, body, content_type="application/json", headers=headers)
        assert response.status_code == 202 and response.json() == {"status": "sync already queued"}
    assert len(_sync_jobs()) == 1

    other_branch = json.dumps({"ref": "refs/heads/feature"}).encode()
    ignored = client.post(url, other_branch, content_type="application/json",
                          headers={"X-Hub-Signature-256": _github_signature(secret, other_branch)})
    assert ignored.status_code == 200 and ignored.json()["status"].startswith("ignored")
    assert len(_sync_jobs()) == 1


@pytest.fixture
def git_worker(request, transactional_db, monkeypatch, git_settings):
    """The real worker, with the same git settings as this process."""
    monkeypatch.setenv("RAG_GIT_DIR", git_settings.RAG["GIT_DIR"])
    monkeypatch.setenv("RAG_GIT_ALLOW_PRIVATE_ADDRESSES", "true")
    return request.getfixturevalue("worker_process")


def _wait_for_run(repository: Repository, sha: str, timeout: float = 90.0) -> IndexRun:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        run = repository.runs.filter(commit_sha=sha).first()
        if run is not None and run.is_finished:
            return run
        time.sleep(0.1)
    raise AssertionError(f"no finished version of {sha[:12]} within {timeout} s")


def test_connecting_on_the_page_and_a_signed_push_are_indexed_by_the_worker(upstream, git_worker, client, owner):
    first = _first_commit(upstream)
    client.login(username=owner.username, password=PASSWORD)
    response = client.post(reverse("rag-git-connect"), {"url": upstream.url, "name": "shop", "token": "", "sync_minutes": "0"})
    assert response.status_code == 302
    repository = Repository.objects.get(owner=owner, name="shop")
    run = _wait_for_run(repository, first)
    assert run.status == IndexRun.Status.READY, run.error

    second = upstream.commit("Payments", write={"shop/payments.py": PAYMENTS}, delete=("shop/legacy.py",))
    body = json.dumps({"ref": "refs/heads/main", "after": second}).encode()
    secret = webhook_secret(GitRemote.objects.get(repository=repository))
    hook = client.post(reverse("rag-webhook", args=[repository.pk]), body, content_type="application/json",
                       headers={"X-Hub-Signature-256": _github_signature(secret, body)})
    assert hook.status_code == 202
    run = _wait_for_run(repository, second)

    assert run.status == IndexRun.Status.READY, run.error
    assert run.trigger == IndexRun.Trigger.WEBHOOK
    repository.refresh_from_db()
    assert "shop/payments.py" in _paths(repository, "charge_card_with_stripe")
    assert "shop/legacy.py" not in _paths(repository, "frobnicate_legacy_widget")
    page = client.get(reverse("rag-repository", args=[repository.pk])).content.decode()
    assert second[:12] in page and "Payments" in page and first[:12] in page
    listing = client.get(reverse("rag-repositories")).content.decode()
    assert f'<code class="commit" title="{second}">{second[:12]}</code>' in listing


def test_a_commit_is_held_to_the_upload_limits_and_links_and_submodules_are_not_followed(upstream, git_settings, owner):
    upstream.commit("Files", write={"a.py": "x = 1\n", "big.py": "y = 2\n" * 100, "docs/b.md": "# B\n"})
    (upstream.work / "link.py").symlink_to("/etc/passwd")
    git("add", "link.py", cwd=upstream.work)
    git("update-index", "--add", "--cacheinfo", f"160000,{'1' * 40},vendor/lib", cwd=upstream.work)
    sha = upstream.commit("Link and submodule")
    repository = connect_git_repository(owner=owner, name="shop", url=upstream.url, defer=False)
    sync_repository(repository)
    mirror = mirror_path(repository.pk)

    git_settings.RAG = {**git_settings.RAG, "MAX_FILE_BYTES": 100}
    extraction = read_commit_files(mirror, sha)
    assert sorted(f.path for f in extraction.files) == ["a.py", "docs/b.md"]
    assert dict(extraction.skipped) == {
        "big.py": "over the size cap", "link.py": "symbolic link (not followed)", "vendor/lib": "submodule (not fetched)",
    }

    git_settings.RAG = {**git_settings.RAG, "MAX_ENTRIES": 3}
    with pytest.raises(Exception, match="the limit is 3"):
        read_commit_files(mirror, sha)
    git_settings.RAG = {**git_settings.RAG, "MAX_ENTRIES": 100, "MAX_UNCOMPRESSED_BYTES": 500}
    with pytest.raises(Exception, match="add up to"):
        read_commit_files(mirror, sha)


def test_remote_addresses_are_checked_before_anything_is_fetched(git_settings, tmp_path):
    git_settings.RAG = {**git_settings.RAG, "GIT_ALLOW_PRIVATE_ADDRESSES": False}
    for url in ("git://127.0.0.1/x.git", "https://10.0.0.7/x.git", "ssh://git@169.254.169.254/x.git",
                "git@[::1]:x.git", "https://localhost/x.git"):
        with pytest.raises(RemoteRefused):
            check_remote_url(url)
    for url in ("http://example.com/x.git", "ext::sh -c touch% /tmp/pwned", "file:///etc", "--upload-pack=touch /tmp/x",
                "https://user:secret@example.com/x.git"):
        with pytest.raises(RemoteRefused):
            check_remote_url(url)
    with pytest.raises(RemoteRefused, match="Only staff"):
        check_remote_url(str(tmp_path))
    assert check_remote_url(str(tmp_path), allow_local=True).is_local
    git_settings.RAG = {**git_settings.RAG, "GIT_ALLOW_PRIVATE_ADDRESSES": True}
    assert check_remote_url("git://127.0.0.1:9/x.git").transport == "git"


def test_a_token_is_stored_encrypted_and_never_shown(owner_client, owner, git_settings, monkeypatch):
    # Resolved without a network: the address is only stored here, never fetched.
    monkeypatch.setattr(socket, "getaddrinfo", lambda *a, **k: [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("140.82.112.3", 443))])
    git_settings.RAG = {**git_settings.RAG, "GIT_ALLOW_PRIVATE_ADDRESSES": False}
    token = "ghp_TopSecretToken1234567890"
    response = owner_client.post(
        reverse("rag-git-connect"),
        {"url": "https://github.com/acme/shop.git", "branch": "main", "token": token, "sync_minutes": "0"},
    )
    assert response.status_code == 302
    remote = GitRemote.objects.get(repository__owner=owner)
    assert remote.credential_kind == GitRemote.Credential.TOKEN
    assert token not in remote.credential_encrypted and remote.credential_encrypted
    from rag.services.git_sync import remote_for

    assert remote_for(remote).token == token
    page = owner_client.get(reverse("rag-repository", args=[remote.repository_id])).content.decode()
    assert token not in page and "https token stored" in page
    # Versions come from the branch: the page offers a sync and the webhook, not an upload.
    assert "Sync now" in page and webhook_secret(remote) in page and 'id="upload-form"' not in page


def test_a_path_on_the_server_is_for_staff_only(client, owner, staff_user, git_settings, tmp_path):
    client.login(username=owner.username, password=PASSWORD)
    refused = client.post(reverse("rag-git-connect"), {"url": str(tmp_path), "sync_minutes": "0"})
    assert refused.status_code == 400 and "Only staff" in refused.content.decode()
    partial = client.post(reverse("rag-git-connect"), {"url": str(tmp_path), "sync_minutes": "0"}, headers={"HX-Request": "true"})
    assert partial.status_code == 200 and "Only staff" in partial.content.decode()
    assert partial.content.decode().lstrip().startswith('<form id="git-connect-form"')
    assert not GitRemote.objects.exists()
    client.login(username=staff_user.username, password=PASSWORD)
    accepted = client.post(reverse("rag-git-connect"), {"url": str(tmp_path), "name": "local", "sync_minutes": "0"})
    assert accepted.status_code == 302
    assert GitRemote.objects.get().is_local


def test_the_schedule_queues_a_sync_for_remotes_whose_interval_has_passed(owner, git_settings, tmp_path):
    from datetime import timedelta

    from django.utils import timezone

    repository = connect_git_repository(owner=owner, name="due", url=str(tmp_path), allow_local=True, sync_minutes=5, defer=False)
    fresh = connect_git_repository(owner=owner, name="fresh", url=str(tmp_path), allow_local=True, sync_minutes=5, defer=False)
    never = connect_git_repository(owner=owner, name="never", url=str(tmp_path), allow_local=True, sync_minutes=0, defer=False)
    now = timezone.now()
    GitRemote.objects.filter(repository=repository).update(last_checked_at=now - timedelta(minutes=6))
    GitRemote.objects.filter(repository=fresh).update(last_checked_at=now - timedelta(minutes=1))

    assert queue_due_syncs(now) == [repository.pk]
    assert never.pk not in queue_due_syncs(now)
    assert len(_sync_jobs()) == 1


def test_index_repo_follows_a_git_remote_and_sync_repo_indexes_the_new_head(upstream, owner, capsys):
    _first_commit(upstream)
    call_command("index_repo", "--git", upstream.url, "--name", "shop", "--user", owner.username)
    assert "Shop: cart and legacy widgets" in capsys.readouterr().out
    second = upstream.commit("Payments", write={"shop/payments.py": PAYMENTS})
    call_command("sync_repo", "shop")
    assert second[:12] in capsys.readouterr().out
    call_command("sync_repo", "shop")
    assert f"up to date at {second[:12]}" in capsys.readouterr().out
    # Run again, the command syncs the repository it connected.
    third = upstream.commit("Legacy gone", delete=("shop/legacy.py",))
    call_command("index_repo", "--git", upstream.url, "--name", "shop", "--user", owner.username)
    assert third[:12] in capsys.readouterr().out
    with pytest.raises(CommandError, match="already follows"):
        call_command("index_repo", "--git", "git://127.0.0.1:9/other.git", "--name", "shop", "--user", owner.username)


def test_the_source_view_shows_a_kept_version_named_by_its_commit(upstream, owner, owner_client):
    first = _first_commit(upstream)
    repository = connect_git_repository(owner=owner, name="shop", url=upstream.url, defer=False)
    sync_repository(repository)
    second = upstream.commit("Totals with quantities", write={"shop/models.py": MODELS.replace("item.price", "item.price * item.quantity")})
    sync_repository(repository)
    url = reverse("rag-source", args=[repository.pk, "shop/models.py"])

    serving = owner_client.get(url).content.decode()
    # The code is highlighted (a span per token): words are looked for, not expressions.
    assert "quantity" in serving and second[:12] in serving and "not the one serving" not in serving

    old = owner_client.get(url, {"at": first[:7], "lines": "8"}).content.decode()
    assert "quantity" not in old and "price" in old
    assert first[:12] in old and "not the one serving" in old

    gone = owner_client.get(url, {"at": "feedface"})
    assert gone.status_code == 302 and gone.url == url


def test_zip_and_git_yield_the_same_files_for_the_same_tree(upstream, owner, tmp_path):
    from rag.intake import extract_files

    files = {
        "shop/models.py": MODELS, "README.md": "# Shop\n", "node_modules/left-pad/index.js": "module.exports = 1;\n",
        ".gitignore": "generated/\n", "generated/out.py": "x = 1\n", "logo.png": "not really a png\n",
    }
    sha = upstream.commit("Tree", write=files)
    repository = connect_git_repository(owner=owner, name="shop", url=upstream.url, defer=False)
    sync_repository(repository)
    from_git = read_commit_files(mirror_path(repository.pk), sha)
    # The zip a code host offers for the commit: git archive's.
    git("archive", "--format=zip", "-o", str(tmp_path / "tree.zip"), sha, cwd=upstream.work)
    from_zip = extract_files(tmp_path / "tree.zip")

    def shape(extraction):
        return sorted((f.path, f.content_hash) for f in extraction.files), sorted(extraction.skipped)

    assert shape(from_git) == shape(from_zip)
    # A file committed though the .gitignore names it is tracked: git ignores it no more than the index does.
    assert [path for path, _ in shape(from_git)[0]] == [".gitignore", "README.md", "generated/out.py", "shop/models.py"]


def test_a_remote_that_breaks_off_its_pack_fails_the_sync_with_a_plain_message_and_the_version_keeps_serving(
    upstream, owner
):
    _first_commit(upstream)
    repository = connect_git_repository(owner=owner, name="shop", url=upstream.url, defer=False)
    serving = sync_repository(repository).run
    second = upstream.commit("Payments", write={"shop/payments.py": PAYMENTS})
    # The new file's content is missing on the remote: git aborts the pack, and its message has a NUL byte in it.
    blob = git("rev-parse", f"{second}:shop/payments.py", cwd=upstream.bare)
    (upstream.bare / "objects" / blob[:2] / blob[2:]).unlink()

    result = sync_repository(repository)

    assert "repository corruption on the remote side" in result.error
    assert result.error.isprintable()
    assert GitRemote.objects.get(repository=repository).last_error == result.error
    repository.refresh_from_db()
    assert repository.active_run_id == serving.pk


def test_a_sync_after_an_upgrade_of_the_analysis_builds_the_serving_commit_again(upstream, owner):
    from rag.services.index_items import ITEM_FORMAT

    sha = _first_commit(upstream)
    repository = connect_git_repository(owner=owner, name="shop", url=upstream.url, defer=False)
    first = sync_repository(repository).run
    assert sync_repository(repository).up_to_date
    # The serving version as an earlier release of the analysis wrote it.
    IndexRun.objects.filter(pk=first.pk).update(item_format="0" * 32)

    rebuilt = sync_repository(repository).run

    assert rebuilt is not None and rebuilt.status == IndexRun.Status.READY, rebuilt and rebuilt.error
    assert rebuilt.commit_sha == sha and rebuilt.pk != first.pk and rebuilt.item_format == ITEM_FORMAT
    repository.refresh_from_db()
    assert repository.active_run_id == rebuilt.pk
    assert sync_repository(repository).up_to_date


def test_reindexing_a_git_repository_builds_its_commit_again(upstream, owner):
    from rag.services import reindex, run_index

    sha = _first_commit(upstream)
    repository = connect_git_repository(owner=owner, name="shop", url=upstream.url, defer=False)
    first = sync_repository(repository).run
    repository.refresh_from_db()

    again = run_index(reindex(repository, defer=False).pk)

    assert again.status == IndexRun.Status.READY, again.error
    assert again.commit_sha == sha and again.pk != first.pk
    assert again.counts["files"] == first.counts["files"]


def test_the_admin_queues_a_sync_of_repositories_that_follow_git(admin_client, owner, git_settings, tmp_path):
    following = connect_git_repository(owner=owner, name="shop", url=str(tmp_path), allow_local=True, defer=False)
    Repository.objects.create(owner=owner, name="uploaded")
    response = admin_client.post(
        reverse("admin:rag_repository_changelist"),
        {"action": "sync_repositories", "_selected_action": [r.pk for r in Repository.objects.all()]},
        follow=True,
    )
    assert "Queued a sync of 1 repositories" in response.content.decode()
    assert len(_sync_jobs()) == 1
    page = admin_client.get(reverse("admin:rag_repository_change", args=[following.pk])).content.decode()
    remote = GitRemote.objects.get(repository=following)
    assert str(tmp_path) in page
    assert webhook_secret(remote) not in page and remote.webhook_secret_encrypted not in page


def test_a_head_whose_version_failed_is_built_again_only_when_asked_by_hand(upstream, owner, git_settings):
    sha = _first_commit(upstream)
    repository = connect_git_repository(owner=owner, name="shop", url=upstream.url, defer=False)
    git_settings.RAG = {**git_settings.RAG, "MAX_ENTRIES": 2}

    failed = sync_repository(repository)
    assert failed.run.status == IndexRun.Status.FAILED and "the limit is 2" in failed.error

    assert sync_repository(repository, trigger=IndexRun.Trigger.WEBHOOK).run is None
    assert sync_repository(repository, trigger=IndexRun.Trigger.SCHEDULE).run is None
    git_settings.RAG = {**git_settings.RAG, "MAX_ENTRIES": 100}
    again = sync_repository(repository, trigger=IndexRun.Trigger.SYNC)
    assert again.run.status == IndexRun.Status.READY and again.run.commit_sha == sha


class _SmartHttp(threading.Thread):
    """git's smart HTTP (``git http-backend`` as CGI) over TLS, asking for one basic-auth credential."""

    def __init__(self, project_root: Path, ca, expected_authorization: str) -> None:
        import http.server
        import ssl

        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:
                pass

            def _serve(self) -> None:
                outer.authorizations.append(self.headers.get("Authorization", ""))
                if self.headers.get("Authorization") != expected_authorization:
                    self.send_response(401)
                    self.send_header("WWW-Authenticate", 'Basic realm="git"')
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                path, _, query = self.path.partition("?")
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                env = {
                    "PATH": "/usr/bin:/bin", "GIT_PROJECT_ROOT": str(project_root), "GIT_HTTP_EXPORT_ALL": "1",
                    "REQUEST_METHOD": self.command, "PATH_INFO": path, "QUERY_STRING": query,
                    "CONTENT_TYPE": self.headers.get("Content-Type", ""), "CONTENT_LENGTH": str(len(body)),
                    "HTTP_CONTENT_ENCODING": self.headers.get("Content-Encoding", ""),
                    "HTTP_GIT_PROTOCOL": self.headers.get("Git-Protocol", ""), "REMOTE_ADDR": "127.0.0.1",
                }
                out = subprocess.run(["git", "http-backend"], input=body, env=env, capture_output=True, timeout=60).stdout
                head, _, payload = out.partition(b"\r\n\r\n")
                status, headers = 200, []
                for line in head.decode().split("\r\n"):
                    key, _, value = line.partition(": ")
                    if key.lower() == "status":
                        status = int(value.split()[0])
                    elif key:
                        headers.append((key, value))
                self.send_response(status)
                for key, value in headers:
                    self.send_header(key, value)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            do_GET = do_POST = _serve

        super().__init__(daemon=True)
        self.authorizations: list[str] = []
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ca.issue_cert("127.0.0.1").configure_cert(context)
        self.server.socket = context.wrap_socket(self.server.socket, server_side=True)
        self.url = f"https://127.0.0.1:{self.server.server_address[1]}/shop.git"

    def run(self) -> None:
        self.server.serve_forever(poll_interval=0.1)

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def test_a_private_https_remote_is_fetched_with_its_token_which_no_error_repeats(upstream, owner, tmp_path, monkeypatch):
    import base64

    trustme = pytest.importorskip("trustme")
    ca = trustme.CA()
    ca_file = tmp_path / "ca.pem"
    ca.cert_pem.write_to_path(str(ca_file))
    monkeypatch.setenv("GIT_SSL_CAINFO", str(ca_file))
    token = "glpat-TopSecret-1234567890"
    server = _SmartHttp(upstream.bare.parent, ca, "Basic " + base64.b64encode(f"deploy:{token}".encode()).decode())
    server.start()
    try:
        sha = _first_commit(upstream)
        repository = connect_git_repository(owner=owner, name="shop", url=server.url, token=f"deploy:{token}", defer=False)
        result = sync_repository(repository)
        assert result.error == "" and result.run.commit_sha == sha, result.error
        repository.refresh_from_db()
        assert "shop/legacy.py" in _paths(repository, "frobnicate_legacy_widget")

        wrong = connect_git_repository(owner=owner, name="wrong", url=server.url, token="deploy:not-the-token", defer=False)
        refused = sync_repository(wrong)
        assert refused.run is None and "the remote refused access; check the token" in refused.error
        assert "not-the-token" not in refused.error and token not in refused.error
    finally:
        server.stop()
    assert token not in GitRemote.objects.get(repository=repository).credential_encrypted


def test_a_commit_with_a_path_that_leaves_its_folder_is_refused_and_the_previous_version_keeps_serving(upstream, owner):
    _first_commit(upstream)
    repository = connect_git_repository(owner=owner, name="shop", url=upstream.url, defer=False)
    serving = sync_repository(repository).run
    # git itself never makes such a tree; a hostile server can send one.
    bare = upstream.bare
    blob = subprocess.run(["git", "hash-object", "-w", "--stdin"], cwd=bare, input="x = 1\n", text=True,
                          capture_output=True, check=True).stdout.strip()
    inner = subprocess.run(["git", "mktree"], cwd=bare, input=f"100644 blob {blob}\tevil.py\n", text=True,
                           capture_output=True, check=True).stdout.strip()
    tree = subprocess.run(["git", "mktree"], cwd=bare, input=f"040000 tree {inner}\t..\n100644 blob {blob}\tok.py\n",
                          text=True, capture_output=True, check=True).stdout.strip()
    commit = git("commit-tree", tree, "-m", "Escape", cwd=bare)
    git("update-ref", "refs/heads/main", commit, cwd=bare)

    result = sync_repository(repository)

    assert result.run.status == IndexRun.Status.FAILED and "leaves its folder" in result.error
    repository.refresh_from_db()
    assert repository.active_run_id == serving.pk


@pytest.mark.django_db(transaction=True)
def test_a_worker_killed_mid_sync_fails_its_version_and_frees_the_repository(upstream, owner, upload_dir, monkeypatch):
    import io
    import signal

    from rag.services.git_sync import queue_sync
    from rag.services.repositories import ABANDONED, start_index_run
    from tests.rag.conftest import SMALL_PROJECT, make_zip
    from tests.rag.test_worker_faults import LARGE_TREE, _job_status, _partition_exists, _start_worker, _stop, _wait

    monkeypatch.setenv("RAG_GIT_DIR", str(mirror_path(0).parent))
    monkeypatch.setenv("RAG_GIT_ALLOW_PRIVATE_ADDRESSES", "true")
    first = _first_commit(upstream)
    repository = connect_git_repository(owner=owner, name="shop", url=upstream.url)
    worker = _start_worker()
    try:
        _wait(lambda: repository.runs.filter(commit_sha=first, status=IndexRun.Status.READY).exists(), "the first commit serves")
        shutil.copytree(LARGE_TREE, upstream.work / "db", ignore=shutil.ignore_patterns("*.pyc"))
        git("add", "--force", "db", cwd=upstream.work)
        big = upstream.commit("Vendor Django's ORM")
        assert queue_sync(repository) is not None
        run = _wait(lambda: repository.runs.filter(commit_sha=big).first(), "the large commit's version starts")
        _wait(lambda: _partition_exists(run.pk), "the large version starts loading its rows")
        worker.send_signal(signal.SIGKILL)
        worker.wait()

        queued = start_index_run(owner=owner, name="shop", archive=io.BytesIO(make_zip(SMALL_PROJECT)), archive_name="shop.zip")
        worker = _start_worker()
        job_id = IndexRun.objects.get(pk=run.pk).job_id
        _wait(lambda: _job_status(job_id) == "failed", "the killed sync's job is failed by the recovery")
        failed = IndexRun.objects.get(pk=run.pk)
        assert (failed.status, failed.error) == (IndexRun.Status.FAILED, ABANDONED)
        assert not _partition_exists(run.pk)
        # The repository's lock is free: the upload queued behind the killed sync is indexed.
        _wait(lambda: IndexRun.objects.get(pk=queued.pk).status == IndexRun.Status.READY, "the next upload is indexed")
    finally:
        _stop(worker)
        # The killed worker's row outlives this test's database flush: removed, as a worker starting would.
        from asgiref.sync import async_to_sync
        from procrastinate.contrib.django import app

        async_to_sync(app.job_manager.prune_stalled_workers)(0)


def test_secrets_the_configured_key_cannot_read_stop_syncs_and_webhooks_with_a_plain_error(client, owner, git_settings, tmp_path):
    from cryptography.fernet import Fernet

    git_settings.RAG = {**git_settings.RAG, "CREDENTIALS_KEY": Fernet.generate_key().decode()}
    repository = connect_git_repository(owner=owner, name="shop", url=str(tmp_path), allow_local=True, defer=False)
    GitRemote.objects.filter(repository=repository).update(
        credential_kind=GitRemote.Credential.TOKEN, credential_encrypted=Fernet(Fernet.generate_key()).encrypt(b"t").decode()
    )
    secret = webhook_secret(repository.git_remote)
    body = b'{"ref": "refs/heads/main"}'

    git_settings.RAG = {**git_settings.RAG, "CREDENTIALS_KEY": Fernet.generate_key().decode()}

    result = sync_repository(repository)
    assert result.run is None and "cannot be decrypted with the configured key" in result.error
    hook = client.post(reverse("rag-webhook", args=[repository.pk]), body, content_type="application/json",
                       headers={"X-Hub-Signature-256": _github_signature(secret, body)})
    assert hook.status_code == 403 and _sync_jobs() == []
    # The repository's page still opens for its owner, and says the secret must be made again.
    client.login(username=owner.username, password=PASSWORD)
    page = client.get(reverse("rag-repository", args=[repository.pk]))
    assert page.status_code == 200 and "unreadable with the current key: make a new secret" in page.content.decode()


def test_a_deploy_key_lives_in_a_private_file_only_for_the_length_of_a_git_call(git_settings):
    import os
    import re
    import shlex
    import stat

    from rag.sources.git import Remote, _credentials

    remote = Remote(url="git@git.example.com:acme/shop.git", ssh_key="-----BEGIN OPENSSH PRIVATE KEY-----\nabc\n-----END OPENSSH PRIVATE KEY-----")
    with _credentials(remote) as env:
        command = shlex.split(env["GIT_SSH_COMMAND"])
        key = Path(command[command.index("-i") + 1])
        assert key.read_text().startswith("-----BEGIN OPENSSH PRIVATE KEY-----")
        assert stat.S_IMODE(os.stat(key).st_mode) == 0o600
        assert {"-F", "/dev/null"} <= set(command) and "BatchMode=yes" in command and "IdentitiesOnly=yes" in command
        assert remote.ssh_key not in env["GIT_SSH_COMMAND"]
    assert not key.exists() and not key.parent.exists()
    with _credentials(Remote(url="https://git.example.com/acme/shop.git", token="s3cret")) as env:
        assert re.fullmatch(r"Authorization: Basic [A-Za-z0-9+/=]+", env["GIT_CONFIG_VALUE_0"])
        assert "s3cret" not in "".join(env.values())


def test_the_owner_changes_the_branch_and_the_schedule_on_the_repository_page(client, owner, other_user, git_settings, tmp_path):
    repository = connect_git_repository(owner=owner, name="shop", url=str(tmp_path), allow_local=True, branch="main", defer=False)
    url = reverse("rag-git-settings", args=[repository.pk])
    client.login(username=other_user.username, password=PASSWORD)
    assert client.post(url, {"branch": "dev", "sync_minutes": "5"}).status_code == 404

    client.login(username=owner.username, password=PASSWORD)
    response = client.post(url, {"branch": "release/2.x", "sync_minutes": "15"}, follow=True)
    assert "Following release/2.x, checked every 15 minutes." in response.content.decode()
    remote = GitRemote.objects.get(repository=repository)
    assert (remote.branch, remote.sync_minutes) == ("release/2.x", 15)
    refused = client.post(url, {"branch": "--upload-pack=x", "sync_minutes": "15"}, follow=True)
    assert "is not a branch name" in refused.content.decode()
    assert GitRemote.objects.get(repository=repository).branch == "release/2.x"


def test_the_owner_makes_a_new_webhook_secret_and_deliveries_signed_with_the_old_one_are_refused(
    client, owner, other_user, git_settings, tmp_path
):
    repository = connect_git_repository(owner=owner, name="shop", url=str(tmp_path), allow_local=True, branch="main", defer=False)
    old = webhook_secret(repository.git_remote)
    renew = reverse("rag-webhook-secret", args=[repository.pk])
    client.login(username=other_user.username, password=PASSWORD)
    assert client.post(renew).status_code == 404
    assert webhook_secret(GitRemote.objects.get(repository=repository)) == old

    client.login(username=owner.username, password=PASSWORD)
    assert client.get(renew).status_code == 405
    response = client.post(renew)
    assert response["Location"] == reverse("rag-repository", args=[repository.pk]) + "#webhook-secret"
    new = webhook_secret(GitRemote.objects.get(repository=repository))
    assert new and new != old
    page = client.get(response["Location"]).content.decode()
    assert new in page and old not in page and "A new webhook secret was made" in page

    # A push to another branch is answered 200 once its signature holds, and changes nothing.
    body = json.dumps({"ref": "refs/heads/other", "after": "0" * 40}).encode()
    url = reverse("rag-webhook", args=[repository.pk])
    signed_with = {
        secret: Client().post(url, body, content_type="application/json", headers={"X-Hub-Signature-256": _github_signature(secret, body)})
        for secret in (old, new)
    }
    assert (signed_with[old].status_code, signed_with[new].status_code) == (403, 200)
    assert _sync_jobs() == []
