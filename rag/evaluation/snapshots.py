"""A repository's files at one commit, read straight from a git mirror without a checkout.

``git ls-tree`` lists the tree with each file's blob id; ``git cat-file --batch``
streams only the blobs not already held from the previous snapshot of the same
mirror, so walking one repository's commits reads little more than what changed.
"""

from __future__ import annotations

import subprocess
from dataclasses import dataclass, field
from pathlib import Path

# Regular and executable files; symlinks (120000) and submodules (160000) are not content.
_FILE_MODES = {"100644", "100755"}


class SnapshotError(RuntimeError):
    """The mirror or the commit cannot be read; the message says which."""


@dataclass
class Snapshot:
    """Files of ``commit``: ``blobs`` maps path -> blob id, ``contents`` path -> bytes."""

    commit: str
    blobs: dict[str, str]
    contents: dict[str, bytes]
    blobs_read: int = 0
    blobs_reused: int = 0
    changed_paths: frozenset[str] = field(default_factory=frozenset)
    absent_paths: tuple[str, ...] = ()


def resolve_mirror(mirrors_dir: str | Path, mirror: str) -> Path:
    """The git directory for ``mirror``: ``DIR/<mirror>/repo`` when present, else ``DIR/<mirror>``."""
    base = Path(mirrors_dir) / mirror
    for candidate in (base / "repo", base):
        if candidate.is_dir() and _is_git_repository(candidate):
            return candidate
    raise SnapshotError(f"no git repository for mirror {mirror!r} under {mirrors_dir} (expected {base} or {base / 'repo'})")


def _is_git_repository(path: Path) -> bool:
    result = subprocess.run(
        ["git", "-C", str(path), "rev-parse", "--git-dir"], capture_output=True, text=True, check=False
    )
    return result.returncode == 0


def commit_timestamp(git_dir: Path, commit: str) -> int:
    """Committer time of ``commit`` (seconds); used to walk a repository's snapshots in history order."""
    result = git_output(git_dir, "show", "-s", "--format=%ct", f"{commit}^{{commit}}")
    return int(result.decode().strip())


def read_snapshot(git_dir: Path, commit: str, previous: Snapshot | None = None) -> Snapshot:
    """Read every regular file of ``commit``, reusing bytes of unchanged blobs from ``previous``."""
    listing = git_output(git_dir, "ls-tree", "-r", "-z", "--full-tree", f"{commit}^{{tree}}")
    blobs: dict[str, str] = {}
    for record in listing.split(b"\0"):
        if not record:
            continue
        meta, _, raw_path = record.partition(b"\t")
        mode, kind, blob_id = meta.decode().split(" ")
        if kind != "blob" or mode not in _FILE_MODES:
            continue
        blobs[raw_path.decode("utf-8", errors="surrogateescape")] = blob_id

    known: dict[str, bytes] = {}
    if previous is not None:
        for path, blob_id in previous.blobs.items():
            known.setdefault(blob_id, previous.contents[path])
    reused = {blob_id for blob_id in blobs.values() if blob_id in known}
    fetched = _read_blobs(git_dir, sorted(set(blobs.values()) - reused))
    known.update(fetched)

    absent = sorted(path for path, blob_id in blobs.items() if blob_id not in known)
    for path in absent:
        del blobs[path]
    previous_blobs = previous.blobs if previous is not None else {}
    changed = {path for path, blob_id in blobs.items() if previous_blobs.get(path) != blob_id}
    return Snapshot(
        commit=commit,
        blobs=blobs,
        contents={path: known[blob_id] for path, blob_id in blobs.items()},
        blobs_read=len(fetched),
        blobs_reused=len(reused),
        changed_paths=frozenset(changed | (set(previous_blobs) - set(blobs))),
        absent_paths=tuple(absent),
    )


def _read_blobs(git_dir: Path, blob_ids: list[str]) -> dict[str, bytes]:
    if not blob_ids:
        return {}
    request = "".join(f"{blob_id}\n" for blob_id in blob_ids).encode()
    output = git_output(git_dir, "cat-file", "--batch", stdin=request)
    blobs: dict[str, bytes] = {}
    position = 0
    for blob_id in blob_ids:
        header_end = output.index(b"\n", position)
        header = output[position:header_end].decode().split(" ")
        if header == [blob_id, "missing"]:
            # Mirrors may omit the largest blobs (data files); the snapshot goes on without them.
            position = header_end + 1
            continue
        if len(header) != 3 or header[0] != blob_id:
            raise SnapshotError(f"unexpected cat-file answer for blob {blob_id}: {' '.join(header)}")
        size = int(header[2])
        start = header_end + 1
        blobs[blob_id] = output[start : start + size]
        position = start + size + 1  # content is followed by a newline
    return blobs


def git_output(git_dir: Path, *args: str, stdin: bytes | None = None) -> bytes:
    result = subprocess.run(["git", "-C", str(git_dir), *args], input=stdin, capture_output=True, check=False)
    if result.returncode != 0:
        message = result.stderr.decode(errors="replace").strip() or f"git {args[0]} failed"
        raise SnapshotError(f"{git_dir}: {message}")
    return result.stdout
