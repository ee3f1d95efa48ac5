"""Git remotes as a source: check a remote's address, fetch a branch's head, read a commit's files.

Everything goes through the ``git`` command with a timeout, a minimal
environment (no system or global configuration, no prompts), hooks pointed at
``/dev/null``, submodules off and only the transports the remote needs. A
repository keeps a bare mirror under ``RAG["GIT_DIR"]``; each fetch is shallow
(the head only), and files are read from the commit's tree without a checkout,
so nothing of the repository (hooks, filters, attributes, links) ever runs or
is followed. The tree passes the same limits as a zip upload, then the same
file selection (``rag.intake.select_files``).
"""

from __future__ import annotations

import base64
import ipaddress
import os
import re
import shlex
import signal
import socket
import subprocess
import tempfile
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from urllib.parse import urlsplit

from django.conf import settings

from rag.intake import (
    EmptyArchiveError,
    Extraction,
    REASON_LINK,
    IntakeError,
    IntakeLimits,
    TooManyEntriesError,
    UncompressedTooLargeError,
    UnreadableEntry,
    check_entry_path,
    select_files,
    size_in_words,
)

REMOTE_SCHEMES = ("https", "ssh", "git")
# scp-like ssh addresses: user@host:path
_SCP_LIKE = re.compile(r"^(?P<user>[A-Za-z0-9._-]+)@(?P<host>[A-Za-z0-9.-]+):(?P<path>[^/].*|/.+)$")
_BRANCH = re.compile(r"^[A-Za-z0-9._/-]{1,200}$")
_SHA = re.compile(r"^[0-9a-f]{40}$")
MESSAGE_CHARS = 4000
REASON_SUBMODULE = "submodule (not fetched)"


class GitError(IntakeError):
    """A git operation that failed; ``message`` says why in plain words (never a credential)."""

    code = "git"


class RemoteRefused(GitError):
    code = "remote_refused"


class GitTimeout(GitError):
    code = "git_timeout"


@dataclass(frozen=True)
class Remote:
    """Where to fetch from and with what; ``url`` never holds a credential."""

    url: str
    is_local: bool = False
    token: str = ""
    ssh_key: str = ""

    @property
    def transport(self) -> str:
        if self.is_local:
            return "file"
        if _SCP_LIKE.match(self.url):
            return "ssh"
        return urlsplit(self.url).scheme


@dataclass(frozen=True)
class Head:
    sha: str
    message: str
    branch: str


# --- addresses --------------------------------------------------------------------


def _host_and_port(url: str) -> tuple[str, int]:
    scp = _SCP_LIKE.match(url)
    if scp:
        return scp.group("host"), 22
    parts = urlsplit(url)
    default = {"https": 443, "ssh": 22, "git": 9418}[parts.scheme]
    try:
        port = parts.port or default
    except ValueError:
        raise RemoteRefused(f"The address {url!r} has an invalid port.") from None
    return parts.hostname or "", port


def check_remote_url(url: str, *, allow_local: bool = False) -> Remote:
    """A ``Remote`` for an address the server may fetch from; ``RemoteRefused`` otherwise.

    https, ssh (``ssh://`` or ``user@host:path``) and git:// addresses whose host
    resolves only to public addresses (loopback, private, link-local and other
    special ranges are refused unless ``RAG["GIT_ALLOW_PRIVATE_ADDRESSES"]``),
    or, with ``allow_local`` (staff), an absolute path of a repository on the server.
    """
    url = (url or "").strip()
    if not url:
        raise RemoteRefused("Give the address of the git repository.")
    if any(ch in url for ch in "\x00\r\n\t ") or url.startswith("-"):
        raise RemoteRefused("The address contains characters an address cannot have.")
    if url.startswith("/") or url.startswith("file:"):
        if not allow_local:
            raise RemoteRefused("Only staff may index a path on the server; give an https, ssh or git:// address.")
        path = Path(url.removeprefix("file://")).resolve()
        if not path.is_dir():
            raise RemoteRefused(f"{path} is not a directory on the server.")
        return Remote(url=str(path), is_local=True)
    scp = _SCP_LIKE.match(url)
    if not scp:
        parts = urlsplit(url)
        if parts.scheme not in REMOTE_SCHEMES:
            raise RemoteRefused("Only https://, ssh:// (or user@host:path) and git:// addresses are accepted.")
        if parts.password is not None or (parts.username and parts.scheme == "https"):
            raise RemoteRefused("Put the token in the token field, not in the address.")
    host, port = _host_and_port(url)
    if not host or host.startswith("-"):
        raise RemoteRefused(f"The address {url!r} names no host.")
    check_host_addresses(host, port)
    return Remote(url=url)


def check_host_addresses(host: str, port: int) -> None:
    """Refuse a host that resolves to a loopback, private, link-local or otherwise non-public address.

    Checked when a remote is connected and again before every fetch (an address
    can change). Git resolves the name once more itself, so a DNS server that
    answers differently within seconds is not stopped by this alone; run the
    server behind an egress firewall where that matters (docs/GIT.md).
    """
    if settings.RAG["GIT_ALLOW_PRIVATE_ADDRESSES"]:
        return
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        raise RemoteRefused(f"The host {host!r} cannot be resolved ({exc}).") from None
    for info in infos:
        address = ipaddress.ip_address(info[4][0].split("%", 1)[0])
        if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
            address = address.ipv4_mapped
        if not address.is_global or address.is_multicast:
            raise RemoteRefused(
                f"The host {host!r} resolves to {address}, a loopback, private or reserved address; "
                "remotes on such addresses are refused (RAG_GIT_ALLOW_PRIVATE_ADDRESSES)."
            )


def check_branch(branch: str) -> str:
    branch = (branch or "").strip().removeprefix("refs/heads/")
    if branch and (not _BRANCH.match(branch) or branch.startswith(("-", "/")) or ".." in branch or branch.endswith((".lock", "/"))):
        raise GitError(f"{branch!r} is not a branch name.")
    return branch


# --- running git ------------------------------------------------------------------


def _base_config(transport: str) -> list[str]:
    config = {
        "core.hooksPath": "/dev/null",
        "core.fsmonitor": "false",
        "core.symlinks": "false",
        "credential.helper": "",
        "submodule.recurse": "false",
        "fetch.recurseSubmodules": "false",
        "http.followRedirects": "false",
        # Only the transport of this remote is allowed (no ext::, no file:// behind an https remote).
        "protocol.allow": "never",
        f"protocol.{transport}.allow": "always",
        # An automatic gc runs inside the call (and its timeout), not detached after it.
        "gc.autoDetach": "false",
    }
    args: list[str] = []
    for key, value in config.items():
        args += ["-c", f"{key}={value}"]
    return args


# The server's own network setup is kept: its proxy and the certificate authorities it trusts.
PASSED_THROUGH = ("HTTPS_PROXY", "https_proxy", "NO_PROXY", "no_proxy", "SSL_CERT_FILE", "SSL_CERT_DIR", "GIT_SSL_CAINFO")


def _environment(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    env = {name: os.environ[name] for name in PASSED_THROUGH if name in os.environ}
    env |= {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "LC_ALL": "C",
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": "/dev/null",
        "GIT_TERMINAL_PROMPT": "0",
        "GIT_PROTOCOL_FROM_USER": "0",
        # Not the server user's home: no ~/.gitconfig, ~/.ssh or ~/.netrc of theirs is read.
        "HOME": str(_git_home()),
    }
    env.update(extra or {})
    return env


def _git_home() -> Path:
    home = Path(settings.RAG["GIT_DIR"])
    home.mkdir(parents=True, exist_ok=True)
    return home


def _timeout() -> float:
    return float(settings.RAG["GIT_TIMEOUT_SECONDS"])


def _kill_group(process: subprocess.Popen) -> None:
    # git starts helpers (git-remote-https, ssh, index-pack): the whole group goes.
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


# What git and ssh say when the credential is missing or wrong.
_ACCESS_REFUSED = ("could not read Username", "Authentication failed", "Permission denied", "terminal prompts disabled")


# A terminal's control sequences (``ESC [ K`` ends git's progress lines) and any other character a
# message cannot show: a remote that breaks off its pack sends a NUL, which the database refuses to store.
_CONTROL_SEQUENCE = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def _printable(line: str) -> str:
    shown = "".join(ch if ch.isprintable() else " " for ch in _CONTROL_SEQUENCE.sub("", line))
    return " ".join(shown.split())


def run_git(
    args: list[str], *, cwd: str | os.PathLike[str] | None = None, transport: str = "file",
    env: Mapping[str, str] | None = None, what: str = "git", input: bytes | None = None,
) -> bytes:
    """Run one git command with the safe configuration and the timeout; its stdout, or ``GitError``.

    The error message holds git's own last lines of stderr, which never
    contain the credential (it travels in the environment or a key file).
    """
    timeout = _timeout()
    command = ["git", *_base_config(transport), *args]
    process = subprocess.Popen(
        command, cwd=cwd, env=_environment(env), stdin=subprocess.PIPE if input is not None else subprocess.DEVNULL,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
    )
    try:
        stdout, stderr = process.communicate(input=input, timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill_group(process)
        process.communicate()
        raise GitTimeout(
            f"{what} did not finish within {timeout:g} s (the remote does not answer); "
            "the previous index, if any, keeps serving."
        ) from None
    except BaseException:
        _kill_group(process)
        process.wait()
        raise
    if process.returncode != 0:
        text = stderr.decode("utf-8", "replace")
        lines = [_printable(line) for line in text.splitlines()]
        detail = " ".join([line for line in lines if line][-3:])[:500] or f"exit status {process.returncode}"
        if any(sign in text for sign in _ACCESS_REFUSED):
            raise GitError(f"{what} failed: the remote refused access; check the token or deploy key ({detail})")
        raise GitError(f"{what} failed: {detail}")
    return stdout


@contextmanager
def _credentials(remote: Remote) -> Iterator[dict[str, str]]:
    """Environment that hands the remote's credential to git, and removes any key file afterwards."""
    if remote.token:
        user, _, token = remote.token.rpartition(":")
        basic = base64.b64encode(f"{user or 'x-access-token'}:{token}".encode()).decode()
        # Passed as configuration through the environment: not on the command line (ps) and not in a file.
        yield {"GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "http.extraHeader",
               "GIT_CONFIG_VALUE_0": f"Authorization: Basic {basic}"}
        return
    # A host's key is trusted on first use and pinned in the mirrors' folder from then on.
    known_hosts = shlex.quote(str(_git_home() / "known_hosts"))
    ssh_options = (
        f"-F /dev/null -o BatchMode=yes -o StrictHostKeyChecking=accept-new -o UserKnownHostsFile={known_hosts} "
        "-o ConnectTimeout=30"
    )
    if not remote.ssh_key:
        yield {"GIT_SSH_COMMAND": f"ssh {ssh_options}"} if remote.transport == "ssh" else {}
        return
    with tempfile.TemporaryDirectory(prefix="rag-ssh-") as directory:
        key = Path(directory) / "key"
        descriptor = os.open(key, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w") as handle:
            handle.write(remote.ssh_key.strip() + "\n")
        yield {"GIT_SSH_COMMAND": f"ssh {ssh_options} -o IdentitiesOnly=yes -i {shlex.quote(str(key))}"}


def mirror_path(repository_id: int) -> Path:
    return Path(settings.RAG["GIT_DIR"]) / f"{int(repository_id)}.git"


def _fetch_url(remote: Remote) -> str:
    return Path(remote.url).as_uri() if remote.is_local else remote.url


def _recheck(remote: Remote) -> None:
    if not remote.is_local:
        check_host_addresses(*_host_and_port(remote.url))


def default_branch(remote: Remote) -> str:
    """The branch the remote's HEAD points at (``ls-remote --symref``)."""
    _recheck(remote)
    with _credentials(remote) as env:
        out = run_git(
            ["ls-remote", "--symref", "--", _fetch_url(remote), "HEAD"], transport=remote.transport, env=env,
            what=f"git ls-remote {remote.url}",
        )
    for line in out.decode("utf-8", "replace").splitlines():
        if line.startswith("ref: refs/heads/") and line.endswith("\tHEAD"):
            return check_branch(line[len("ref: ") : -len("\tHEAD")])
    raise GitError(f"{remote.url} has no default branch; name the branch.")


def fetch_head(remote: Remote, branch: str, mirror: Path) -> Head:
    """Fetch the branch's head (shallow) into the bare mirror; its commit and message."""
    branch = check_branch(branch) or default_branch(remote)
    _recheck(remote)
    if not (mirror / "HEAD").exists():
        mirror.parent.mkdir(parents=True, exist_ok=True)
        run_git(["init", "--bare", "--quiet", str(mirror)], what="git init")
    ref = f"refs/heads/{branch}"
    with _credentials(remote) as env:
        run_git(
            ["fetch", "--quiet", "--depth=1", "--no-tags", "--no-recurse-submodules", "--no-write-fetch-head",
             "--", _fetch_url(remote), f"+{ref}:{ref}"],
            cwd=mirror, transport=remote.transport, env=env, what=f"git fetch {remote.url} {branch}",
        )
    sha = run_git(["rev-parse", "--verify", "--end-of-options", f"{ref}^{{commit}}"], cwd=mirror, what="git rev-parse")
    sha_text = sha.decode().strip()
    return Head(sha=sha_text, message=commit_message(mirror, sha_text), branch=branch)


def commit_message(mirror: Path, sha: str) -> str:
    raw = run_git(["log", "-1", "--format=%B", sha, "--"], cwd=mirror, what="git log")
    return raw.decode("utf-8", "replace").strip()[:MESSAGE_CHARS]


# --- reading a commit -------------------------------------------------------------


@dataclass(frozen=True)
class TreeEntry:
    mode: str
    kind: str
    sha: str
    size: int
    path: str


def list_tree(mirror: Path, sha: str) -> list[TreeEntry]:
    if not _SHA.match(sha):
        raise GitError(f"{sha!r} is not a commit id.")
    out = run_git(["ls-tree", "-r", "-l", "-z", "--full-tree", sha], cwd=mirror, what=f"git ls-tree {sha[:12]}")
    entries: list[TreeEntry] = []
    for record in out.split(b"\x00"):
        if not record:
            continue
        meta, _, raw_path = record.partition(b"\t")
        mode, kind, object_sha, size = meta.decode().split()
        # Stored as text: bytes that are not UTF-8 are replaced (as in a zip's names).
        path = raw_path.decode("utf-8", "replace")
        entries.append(TreeEntry(mode, kind, object_sha, int(size) if size != "-" else 0, path))
    return entries


class _BlobReader:
    """One ``git cat-file --batch`` for all of a commit's blobs, killed if it outlives the timeout."""

    def __init__(self, mirror: Path) -> None:
        self.process = subprocess.Popen(
            ["git", *_base_config("file"), "cat-file", "--batch"], cwd=mirror, env=_environment(),
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, start_new_session=True,
        )
        self.timer = threading.Timer(_timeout(), _kill_group, args=(self.process,))
        self.timer.start()

    def read(self, sha: str, limit: int) -> bytes:
        assert self.process.stdin is not None
        try:
            self.process.stdin.write(f"{sha}\n".encode())
            self.process.stdin.flush()
        except (BrokenPipeError, ValueError, OSError) as exc:
            raise UnreadableEntry(exc.__class__.__name__) from exc
        return self._answer(limit)

    def read_many(self, named: list[tuple[str, str]], limit: int) -> Iterator[tuple[str, bytes | UnreadableEntry]]:
        """(name, bytes or ``UnreadableEntry``) for each (name, blob sha), in order.

        The requests are written by a thread while the answers are read here, so
        git never waits for a round trip (and neither side blocks on a full pipe).
        """
        assert self.process.stdin is not None
        stdin = self.process.stdin

        def ask() -> None:
            try:
                stdin.write(b"".join(f"{sha}\n".encode() for _, sha in named))
                stdin.flush()
            except (BrokenPipeError, ValueError, OSError):
                pass

        writer = threading.Thread(target=ask, daemon=True)
        writer.start()
        try:
            for name, _ in named:
                try:
                    yield name, self._answer(limit)
                except UnreadableEntry as exc:
                    yield name, exc
        finally:
            writer.join(timeout=1)

    def _answer(self, limit: int) -> bytes:
        """The next answer of ``--batch``: the blob's bytes (at most ``limit + 1``)."""
        assert self.process.stdout is not None
        try:
            header = self.process.stdout.readline().split()
            if len(header) != 3:
                raise UnreadableEntry("missing object")
            size = int(header[2])
            data = self.process.stdout.read(size + 1)
        except (BrokenPipeError, ValueError, OSError) as exc:
            raise UnreadableEntry(exc.__class__.__name__) from exc
        if len(data) != size + 1:
            raise UnreadableEntry("git stopped")
        return data[:size][: limit + 1]

    def close(self) -> bool:
        """Stop the reader; False when it had been killed for running out of time."""
        self.timer.cancel()
        timed_out = self.process.poll() is not None and self.process.returncode == -signal.SIGKILL
        if self.process.stdin:
            self.process.stdin.close()
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            _kill_group(self.process)
            self.process.wait()
        return not timed_out


def read_commit_files(mirror: Path, sha: str, limits: IntakeLimits | None = None) -> Extraction:
    """The text files of a commit, held to the zip intake's limits and selected as a zip's are.

    Refused (``IntakeError``): more entries than ``MAX_ENTRIES``, more bytes than
    ``MAX_UNCOMPRESSED_BYTES``, an absolute path or one with ``..``, no files.
    Skipped and listed: links (never followed) and submodules; then what any
    source skips (``select_files``: size cap, binaries, vendored folders; a commit's files are all
    tracked, so its .gitignore leaves out none of them, as in git).
    """
    limits = limits or IntakeLimits.from_settings()
    tree = list_tree(mirror, sha)
    if len(tree) > limits.max_entries:
        raise TooManyEntriesError(f"The commit has {len(tree):,} files; the limit is {limits.max_entries:,}.")
    skipped: list[tuple[str, str]] = []
    blobs: dict[str, TreeEntry] = {}
    total = 0
    for entry in tree:
        check_entry_path(entry.path)
        path = str(PurePosixPath(entry.path))
        if entry.mode == "120000":
            skipped.append((path, REASON_LINK))
        elif entry.kind == "commit":
            skipped.append((path, REASON_SUBMODULE))
        elif entry.kind == "blob":
            blobs[path] = entry
            total += entry.size
    if total > limits.max_uncompressed_bytes:
        raise UncompressedTooLargeError(
            f"The commit's files add up to {size_in_words(total)}; the limit is {size_in_words(limits.max_uncompressed_bytes)}."
        )
    if not blobs:
        raise EmptyArchiveError("The commit contains no files.")
    reader = _BlobReader(mirror)
    try:
        extraction = select_files(
            [(path, entry.size) for path, entry in blobs.items()],
            lambda path: reader.read(blobs[path].sha, limits.max_file_bytes), limits, skipped,
            read_many=lambda paths: reader.read_many([(p, blobs[p].sha) for p in paths], limits.max_file_bytes),
            tracked=True,
        )
    finally:
        finished = reader.close()
    if not finished:
        raise GitTimeout(f"Reading commit {sha[:12]} did not finish within {_timeout():g} s.")
    return extraction
