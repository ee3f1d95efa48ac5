"""Zip intake: the checks an upload must pass before it is stored, and extraction.

``inspect_archive`` runs at upload time and raises an ``IntakeError`` whose
``message`` is shown to the person as is. ``extract_files`` runs in the worker:
it decides which entries become indexed text files and records every skipped
one with its reason. Nothing here touches the database.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import re
import stat
import struct
import zipfile
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path, PurePosixPath
from typing import IO

import pathspec
from django.conf import settings
from django.template.defaultfilters import filesizeformat


@dataclass(frozen=True)
class IntakeLimits:
    max_upload_bytes: int
    max_uncompressed_bytes: int
    max_entries: int
    max_compression_ratio: float
    max_file_bytes: int

    @classmethod
    def from_settings(cls) -> IntakeLimits:
        rag = settings.RAG
        return cls(
            max_upload_bytes=rag["MAX_UPLOAD_BYTES"],
            max_uncompressed_bytes=rag["MAX_UNCOMPRESSED_BYTES"],
            max_entries=rag["MAX_ENTRIES"],
            max_compression_ratio=rag["MAX_COMPRESSION_RATIO"],
            max_file_bytes=rag["MAX_FILE_BYTES"],
        )


class IntakeError(Exception):
    """An archive that is refused; ``message`` is written for the person who uploaded it."""

    code = "invalid"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class NotAZipError(IntakeError):
    code = "not_a_zip"


class ArchiveTooLargeError(IntakeError):
    code = "too_large"


class UncompressedTooLargeError(IntakeError):
    code = "uncompressed_too_large"


class TooManyEntriesError(IntakeError):
    code = "too_many_entries"


class CompressionRatioError(IntakeError):
    code = "compression_ratio"


class UnsafePathError(IntakeError):
    code = "unsafe_path"


class DeviceFileEntryError(IntakeError):
    code = "device_file"


class EmptyArchiveError(IntakeError):
    code = "empty"


class DuplicatePathError(IntakeError):
    code = "duplicate_path"


@dataclass(frozen=True)
class ArchiveReport:
    entries: int
    files: int
    compressed_bytes: int
    uncompressed_bytes: int


def size_in_words(n: int) -> str:
    return str(filesizeformat(n)).replace("\xa0", " ")


def _entry_mode(info: zipfile.ZipInfo) -> int:
    # Unix mode bits live in the high 16 bits of external_attr when the
    # archive was made on a Unix-like system (create_system 3).
    return (info.external_attr >> 16) & 0xFFFF if info.create_system == 3 else 0


def check_entry_path(name: str) -> None:
    if not name:
        raise UnsafePathError("The archive contains an entry without a name.")
    normalized = name.replace("\\", "/")
    if normalized.startswith("/") or (len(normalized) > 1 and normalized[1] == ":"):
        raise UnsafePathError(f"The archive contains an absolute path ({name!r}); only relative paths are accepted.")
    if ".." in normalized.split("/"):
        raise UnsafePathError(f"The archive contains a path that leaves its folder ({name!r}).")
    if "\x00" in name:
        raise UnsafePathError("The archive contains a file name with a NUL character.")


_END_OF_DIRECTORY = struct.Struct("<4sHHHHIIH")
_ZIP64_LOCATOR = struct.Struct("<4sIQI")
_ZIP64_END_OF_DIRECTORY = struct.Struct("<4sQHHIIQQQQ")
_DIRECTORY_ENTRY = struct.Struct("<4s24xHHH12x")
# The end record sits in the last 22 bytes plus a comment of at most 64 KiB.
_TAIL_BYTES = _END_OF_DIRECTORY.size + 0xFFFF


def _count_directory_entries(handle: IO[bytes], size: int, limit: int) -> int:
    """The entries of a zip's central directory, counted from its own records and stopping past ``limit``.

    ``zipfile`` builds an object for every record of the directory before
    anything can be checked: a crafted directory of millions of records is
    gigabytes of memory. Here only the end record is read, then the records'
    fixed headers one by one, so a refusal costs at most ``limit`` small reads.
    Raises ``TooManyEntriesError`` past the limit and ``NotAZipError`` when
    there is no end record.
    """
    tail_start = max(0, size - _TAIL_BYTES)
    handle.seek(tail_start)
    tail = handle.read(size - tail_start)
    at = tail.rfind(b"PK\x05\x06")
    if at < 0 or len(tail) - at < _END_OF_DIRECTORY.size:
        raise NotAZipError("This is not a readable zip archive (no end of central directory). Upload a .zip of the repository.")
    _sig, _disk, _cd_disk, _here, declared, directory_size, _offset, _comment = _END_OF_DIRECTORY.unpack_from(tail, at)
    end_at = tail_start + at
    if declared == 0xFFFF or directory_size == 0xFFFFFFFF:
        locator_at = at - _ZIP64_LOCATOR.size
        if locator_at >= 0 and tail[locator_at : locator_at + 4] == b"PK\x06\x07":
            _sig, _disk, record_offset, _disks = _ZIP64_LOCATOR.unpack_from(tail, locator_at)
            handle.seek(record_offset)
            record = handle.read(_ZIP64_END_OF_DIRECTORY.size)
            if len(record) == _ZIP64_END_OF_DIRECTORY.size and record[:4] == b"PK\x06\x06":
                fields = _ZIP64_END_OF_DIRECTORY.unpack(record)
                declared, directory_size = fields[7], fields[8]
                end_at = tail_start + locator_at - _ZIP64_END_OF_DIRECTORY.size
    if declared > limit:
        raise TooManyEntriesError(f"The archive has {declared:,} entries; the limit is {limit:,}.")
    # Measured back from the end record, as zipfile does (data may precede the archive).
    position = end_at - directory_size
    if position < 0:
        raise NotAZipError("This is not a readable zip archive (its directory is cut off). Upload a .zip of the repository.")
    handle.seek(position)
    count = 0
    while count <= limit:
        header = handle.read(_DIRECTORY_ENTRY.size)
        if len(header) < _DIRECTORY_ENTRY.size or header[:4] != b"PK\x01\x02":
            break
        _sig, name_length, extra_length, comment_length = _DIRECTORY_ENTRY.unpack(header)
        handle.seek(name_length + extra_length + comment_length, io.SEEK_CUR)
        count += 1
    if count > limit:
        raise TooManyEntriesError(f"The archive has more than {limit:,} entries, the limit.")
    return count


def inspect_archive(source: str | os.PathLike[str] | IO[bytes], limits: IntakeLimits | None = None) -> ArchiveReport:
    """Check a zip against every intake rule, reading only its directory; raise ``IntakeError``."""
    limits = limits or IntakeLimits.from_settings()
    if isinstance(source, (str, os.PathLike)):
        compressed = os.path.getsize(source)
    else:
        source.seek(0, io.SEEK_END)
        compressed = source.tell()
        source.seek(0)
    if compressed > limits.max_upload_bytes:
        raise ArchiveTooLargeError(
            f"The file is {size_in_words(compressed)}; the limit is {size_in_words(limits.max_upload_bytes)}."
        )
    try:
        with contextlib.ExitStack() as stack:
            handle = source if not isinstance(source, (str, os.PathLike)) else stack.enter_context(open(source, "rb"))
            _count_directory_entries(handle, compressed, limits.max_entries)
            handle.seek(0)
            with zipfile.ZipFile(handle) as archive:
                infos = archive.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, ValueError, OSError, struct.error) as exc:
        raise NotAZipError(f"This is not a readable zip archive ({exc}). Upload a .zip of the repository.") from exc
    finally:
        if not isinstance(source, (str, os.PathLike)):
            source.seek(0)
    if len(infos) > limits.max_entries:
        raise TooManyEntriesError(
            f"The archive has {len(infos):,} entries; the limit is {limits.max_entries:,}."
        )
    total = 0
    files = 0
    # Entries that name one file two ways (``a.py`` and ``./a.py``, ``a//b.py`` and ``a/b.py``) would be
    # two versions of one file with no telling which is meant: refused, naming both.
    seen: dict[PurePosixPath, str] = {}
    for info in infos:
        check_entry_path(info.filename)
        if not info.is_dir():
            path = PurePosixPath(info.filename.replace("\\", "/"))
            if path in seen:
                raise DuplicatePathError(
                    f"The archive holds {str(path)!r} twice ({seen[path]!r} and {info.filename!r}); "
                    "make the zip again from the folder."
                )
            seen[path] = info.filename
        mode = _entry_mode(info)
        if stat.S_ISLNK(mode):
            continue  # never read: listed as skipped by ``extract_files``
        if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) or stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode):
            raise DeviceFileEntryError(f"The archive contains a device or special file ({info.filename!r}).")
        if not info.is_dir():
            files += 1
            total += info.file_size
    if total > limits.max_uncompressed_bytes:
        raise UncompressedTooLargeError(
            f"The archive unpacks to {size_in_words(total)}; the limit is {size_in_words(limits.max_uncompressed_bytes)}."
        )
    if files == 0:
        raise EmptyArchiveError("The archive contains no files.")
    ratio = total / max(compressed, 1)
    if ratio > limits.max_compression_ratio:
        raise CompressionRatioError(
            f"The archive unpacks to {ratio:.0f} times its size (limit {limits.max_compression_ratio:.0f}); "
            "that is typical of a zip bomb, so it was refused."
        )
    return ArchiveReport(entries=len(infos), files=files, compressed_bytes=compressed, uncompressed_bytes=total)


# --- extraction -------------------------------------------------------------------

# Directories that never hold the repository's own source.
SKIPPED_DIRECTORIES: dict[str, str] = {
    ".git": "version control",
    ".hg": "version control",
    ".svn": "version control",
    "node_modules": "dependencies",
    "bower_components": "dependencies",
    "site-packages": "dependencies",
    "venv": "virtualenv",
    ".venv": "virtualenv",
    "virtualenv": "virtualenv",
    "__pycache__": "cache",
    ".mypy_cache": "cache",
    ".pytest_cache": "cache",
    ".ruff_cache": "cache",
    ".tox": "cache",
    ".nox": "cache",
    ".eggs": "build output",
    "build": "build output",
    "dist": "build output",
    "htmlcov": "build output",
    "__MACOSX": "archive metadata",
}

BINARY_SUFFIXES = frozenset(
    """
    .png .jpg .jpeg .gif .bmp .ico .webp .tif .tiff .psd .svgz .mp3 .mp4 .wav .ogg .flac .avi .mov .mkv .webm
    .zip .gz .tgz .bz2 .xz .7z .rar .tar .jar .war .whl .egg .pyc .pyo .pyd .so .dll .dylib .exe .bin .o .a .lib
    .class .woff .woff2 .ttf .otf .eot .pdf .doc .docx .xls .xlsx .ppt .pptx .sqlite .sqlite3 .db .mo .npy .npz
    .pkl .pickle .parquet .h5 .onnx .pt .safetensors
    """.split()
)

LANGUAGES = {
    ".py": "python", ".pyi": "python", ".md": "markdown", ".markdown": "markdown", ".rst": "rst",
    ".txt": "text", ".js": "javascript", ".mjs": "javascript", ".cjs": "javascript", ".jsx": "javascript",
    ".ts": "typescript", ".tsx": "typescript", ".html": "html", ".htm": "html", ".css": "css",
    ".json": "json", ".toml": "toml", ".yaml": "yaml", ".yml": "yaml", ".ini": "ini", ".cfg": "ini",
    ".sh": "shell", ".go": "go", ".java": "java", ".rs": "rust", ".c": "c", ".h": "c", ".cpp": "cpp",
    ".sql": "sql", ".xml": "xml",
}

REASON_BINARY = "binary"
REASON_TOO_LARGE = "over the size cap"
REASON_GITIGNORE = ".gitignore"
# The longest path kept, in bytes of UTF-8 (the index looks files up by path; real paths are a few hundred).
MAX_PATH_BYTES = 1_000
REASON_LONG_PATH = f"path longer than {MAX_PATH_BYTES:,} bytes"
# A link's target is a path, possibly outside the repository: a link is never followed or read, by any source.
REASON_LINK = "symbolic link (not followed)"


def language_for(path: str) -> str:
    return LANGUAGES.get(_suffix(path.rsplit("/", 1)[-1]), "text")


@dataclass(frozen=True)
class ExtractedFile:
    path: str
    text: str
    content_hash: str
    size: int
    language: str
    replaced_bytes: bool


@dataclass
class Extraction:
    files: list[ExtractedFile] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    replaced: int = 0

    def skipped_report(self, listed: int = 500) -> dict:
        """The run's JSON report: counts per reason and the first ``listed`` paths."""
        reasons = Counter(reason for _, reason in self.skipped)
        return {
            "total": len(self.skipped),
            "reasons": dict(reasons.most_common()),
            "files": [{"path": p, "reason": r} for p, r in self.skipped[:listed]],
        }


def _common_top_folder(file_names: list[str]) -> str | None:
    """The single top-level folder every file lives in (GitHub's ``repo-main/``), if any."""
    tops = {name.split("/", 1)[0] for name in file_names}
    if len(tops) == 1 and all("/" in name for name in file_names):
        return next(iter(tops))
    return None


def _skipped_directory(parts: tuple[str, ...], virtualenv_roots: set[str]) -> str | None:
    for i, part in enumerate(parts[:-1]):
        reason = SKIPPED_DIRECTORIES.get(part)
        if reason:
            return f"{reason} ({part}/)"
        if part.endswith(".egg-info"):
            return "build output (*.egg-info/)"
        if "/".join(parts[: i + 1]) in virtualenv_roots:
            return "virtualenv"
    return None


def _looks_binary(head: bytes) -> bool:
    """A NUL byte near the start (names with a binary suffix are left out before they are read)."""
    return b"\x00" in head[:8192]


def _decode(data: bytes) -> tuple[str, bool]:
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        text, replaced = data.decode("utf-8"), False
    except UnicodeDecodeError:
        # Undecodable bytes never stop a run: they become U+FFFD and are counted.
        text, replaced = data.decode("utf-8", errors="replace"), True
    # PostgreSQL text cannot hold NUL; a stray one past the binary sniff window is replaced too.
    if "\x00" in text:
        text, replaced = text.replace("\x00", "\ufffd"), True
    return text, replaced


def iter_archive_files(archive: zipfile.ZipFile) -> Iterator[tuple[str, zipfile.ZipInfo]]:
    """(relative path, entry) for every file entry, symbolic links included, with a single top-level
    folder stripped.

    Paths are normalised (``./a.py`` and ``a//b.py`` are ``a.py`` and ``a/b.py``) before
    the top folder is looked for, so an odd spelling never leaves a path starting with ``/``.
    """
    files: list[tuple[str, zipfile.ZipInfo]] = []
    for info in archive.infolist():
        check_entry_path(info.filename)
        if info.is_dir() or info.filename.endswith(("/", "\\")):
            continue
        name = str(PurePosixPath(info.filename.replace("\\", "/")))
        if name not in ("", "."):
            files.append((name, info))
    top = _common_top_folder([name for name, _ in files])
    for name, info in files:
        yield (name[len(top) + 1 :] if top is not None else name), info


class UnreadableEntry(Exception):
    """An entry whose bytes could not be read; the message is the reason recorded for it."""


def select_files(
    entries: Sequence[tuple[str, int]], read: Callable[[str], bytes], limits: IntakeLimits,
    skipped: Sequence[tuple[str, str]] = (),
    read_many: Callable[[list[str]], Iterator[tuple[str, bytes | UnreadableEntry]]] | None = None,
    *,
    tracked: bool = False,
) -> Extraction:
    """The text files of a source's entries, skipping what does not belong in an index.

    ``entries`` are (relative path, declared size) of regular files; ``read`` returns
    at most ``max_file_bytes + 1`` bytes of one (or raises ``UnreadableEntry``).
    ``read_many``, when given, reads the entries that pass the checks on names and
    sizes, in the order given, as (path, bytes or the ``UnreadableEntry``): a source
    that can read ahead (a git commit's blobs) does so. Every source (a zip, a git
    commit) goes through here, so both yield the same file set for the same tree.
    ``skipped`` are entries the source already left out. ``tracked``: every entry is a file git
    tracks (a commit's tree, or a zip git archived from one), and git ignores no tracked file, so the
    .gitignore leaves out nothing (``go-zero``'s ignores every file without a suffix, its LICENSE and
    Makefiles committed all the same); a zip of a working folder skips what its .gitignore names.
    """
    result = Extraction(skipped=list(skipped))
    paths = {name for name, _ in entries}
    virtualenv_roots = {name.rsplit("/", 1)[0] for name in paths if name.endswith("/pyvenv.cfg")}
    ignore = None
    if ".gitignore" in paths and not tracked:
        try:
            lines = read(".gitignore")[: limits.max_file_bytes].decode("utf-8", errors="replace").splitlines()
        except UnreadableEntry:
            lines = []
        ignore = pathspec.GitIgnoreSpec.from_lines(lines)
    wanted: list[str] = []
    for name, declared_size in entries:
        parts = tuple(name.split("/"))
        reason = _skipped_directory(parts, virtualenv_roots)
        if reason is None and ignore is not None and ignore.match_file(name):
            reason = REASON_GITIGNORE
        if reason is None and len(name.encode("utf-8", "surrogateescape")) > MAX_PATH_BYTES:
            reason = REASON_LONG_PATH
        if reason is None and declared_size > limits.max_file_bytes:
            reason = REASON_TOO_LARGE
        if reason is None and _suffix(parts[-1]) in BINARY_SUFFIXES:
            reason = REASON_BINARY
        if reason is not None:
            result.skipped.append((name, reason))
        else:
            wanted.append(name)
    for name, data in (read_many or partial(_read_each, read))(wanted):
        if isinstance(data, UnreadableEntry):
            result.skipped.append((name, f"unreadable ({data})"))
            continue
        if len(data) > limits.max_file_bytes:
            result.skipped.append((name, REASON_TOO_LARGE))
            continue
        if _looks_binary(data):
            result.skipped.append((name, REASON_BINARY))
            continue
        text, replaced = _decode(data)
        result.replaced += replaced
        result.files.append(
            ExtractedFile(
                path=name,
                text=text,
                content_hash=hashlib.sha256(data).hexdigest(),
                size=len(data),
                language=language_for(name),
                replaced_bytes=replaced,
            )
        )
    return result


def _read_each(read: Callable[[str], bytes], names: list[str]) -> Iterator[tuple[str, bytes | UnreadableEntry]]:
    for name in names:
        try:
            yield name, read(name)
        except UnreadableEntry as exc:
            yield name, exc


def _suffix(file_name: str) -> str:
    """``PurePosixPath(file_name).suffix``, lower-cased, without building a path."""
    dot = file_name.rfind(".")
    if dot <= 0 or dot == len(file_name) - 1:
        return ""
    return file_name[dot:].lower()


def extract_files(source: str | os.PathLike[str], limits: IntakeLimits | None = None) -> Extraction:
    """Read the text files of a checked archive, skipping what does not belong in an index."""
    limits = limits or IntakeLimits.from_settings()
    try:
        archive = zipfile.ZipFile(source)
    except (zipfile.BadZipFile, OSError) as exc:
        raise NotAZipError(f"The stored archive cannot be read ({exc}).") from exc
    with archive:
        entries: list[tuple[str, zipfile.ZipInfo]] = []
        links: list[tuple[str, str]] = []
        for name, info in iter_archive_files(archive):
            # A link's bytes are its target's path: never read, listed as skipped.
            if stat.S_ISLNK(_entry_mode(info)):
                links.append((name, REASON_LINK))
            else:
                entries.append((name, info))
        by_name = dict(entries)

        def read(name: str) -> bytes:
            try:
                with archive.open(by_name[name]) as handle:
                    # Reading one byte past the cap catches entries whose
                    # directory understates their size.
                    return handle.read(limits.max_file_bytes + 1)
            except (zipfile.BadZipFile, OSError, EOFError, ValueError, NotImplementedError) as exc:
                raise UnreadableEntry(exc.__class__.__name__) from exc

        return select_files(
            [(name, info.file_size) for name, info in entries], read, limits, skipped=links, tracked=archived_by_git(archive)
        )


# ``git archive`` (and the code hosts' downloads, made by it) write the archived commit's id as the zip's comment.
_COMMIT_ID = re.compile(rb"[0-9a-f]{40}(?:[0-9a-f]{24})?")


def archived_by_git(archive: zipfile.ZipFile) -> bool:
    """Whether ``git archive`` wrote the zip from a commit: its comment is the commit's id."""
    return _COMMIT_ID.fullmatch(archive.comment.strip()) is not None


# --- directories (the index_repo command) -------------------------------------------


def zip_directory(root: Path, destination: IO[bytes]) -> int:
    """Write a zip of ``root`` into ``destination``, leaving out skipped directories.

    Returns the number of files written. A link (to a file or a folder) is written as a
    link entry holding its target's path, never followed: extraction lists it as skipped,
    as it does a zip's or a git commit's links.
    """
    written = 0
    with zipfile.ZipFile(destination, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=1) as archive:

        def link(path: Path) -> None:
            info = zipfile.ZipInfo(path.relative_to(root).as_posix())
            info.create_system = 3  # Unix: the mode bits below are read
            info.external_attr = (stat.S_IFLNK | 0o777) << 16
            archive.writestr(info, os.readlink(path))

        for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
            current = Path(dirpath)
            for d in sorted(d for d in dirnames if (current / d).is_symlink()):
                link(current / d)
            dirnames[:] = sorted(
                d for d in dirnames
                if d not in SKIPPED_DIRECTORIES and not d.endswith(".egg-info") and not (current / d).is_symlink()
                and not (current / d / "pyvenv.cfg").exists()
            )
            for filename in sorted(filenames):
                full = current / filename
                if full.is_symlink():
                    link(full)
                elif full.is_file():
                    archive.write(full, full.relative_to(root).as_posix())
                    written += 1
    return written


def sha256_of(path: str | os.PathLike[str]) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
