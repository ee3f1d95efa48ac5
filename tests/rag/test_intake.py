"""Every intake rule, checked against real zip archives built here."""

from __future__ import annotations

import io
import stat
import zipfile

import pytest

from rag.intake import (
    ArchiveTooLargeError,
    CompressionRatioError,
    DeviceFileEntryError,
    EmptyArchiveError,
    IntakeLimits,
    NotAZipError,
    TooManyEntriesError,
    UncompressedTooLargeError,
    UnsafePathError,
    extract_files,
    inspect_archive,
)
from tests.rag.conftest import add_symlink, make_zip

LIMITS = IntakeLimits(
    max_upload_bytes=1_000_000,
    max_uncompressed_bytes=2_000_000,
    max_entries=50,
    max_compression_ratio=50.0,
    max_file_bytes=10_000,
)


def _inspect(data: bytes, limits: IntakeLimits = LIMITS):
    return inspect_archive(io.BytesIO(data), limits)


def _extract(tmp_path, data: bytes, limits: IntakeLimits = LIMITS):
    path = tmp_path / "repo.zip"
    path.write_bytes(data)
    return extract_files(path, limits)


def test_it_accepts_a_plain_repository_zip():
    report = _inspect(make_zip({"a.py": "x = 1\n", "b/c.md": "# C\n"}))
    assert (report.files, report.entries) == (2, 2)


def test_it_rejects_a_file_that_is_not_a_zip():
    with pytest.raises(NotAZipError) as caught:
        _inspect(b"this is plain text, not an archive")
    assert "not a readable zip" in caught.value.message


def test_it_rejects_a_truncated_zip():
    data = make_zip({"a.py": "x = 1\n" * 100})
    with pytest.raises(NotAZipError):
        _inspect(data[: len(data) // 2])


def test_it_rejects_an_archive_over_the_compressed_size_limit():
    data = make_zip({"a.py": "x = 1\n"})
    with pytest.raises(ArchiveTooLargeError) as caught:
        _inspect(data, IntakeLimits(**{**LIMITS.__dict__, "max_upload_bytes": len(data) - 1}))
    assert "the limit is" in caught.value.message


def test_it_rejects_an_archive_that_unpacks_over_the_total_limit():
    files = {f"f{i}.txt": "".join(chr(65 + (j * 7 + i) % 26) for j in range(9_000)) for i in range(5)}
    with pytest.raises(UncompressedTooLargeError) as caught:
        _inspect(make_zip(files), IntakeLimits(**{**LIMITS.__dict__, "max_uncompressed_bytes": 40_000}))
    assert "unpacks to" in caught.value.message


def test_it_rejects_too_many_entries():
    with pytest.raises(TooManyEntriesError) as caught:
        _inspect(make_zip({f"f{i}.py": "" for i in range(51)}))
    assert "51 entries" in caught.value.message


def test_it_rejects_a_zip_bomb_by_compression_ratio():
    with pytest.raises(CompressionRatioError) as caught:
        _inspect(make_zip({"zeros.txt": "0" * 1_500_000}))
    assert "zip bomb" in caught.value.message


def test_it_rejects_zip_with_parent_paths():
    with pytest.raises(UnsafePathError) as caught:
        _inspect(make_zip({"../evil.py": "x"}, top=None))
    assert "leaves its folder" in caught.value.message


def test_it_rejects_zip_with_absolute_paths():
    with pytest.raises(UnsafePathError) as caught:
        _inspect(make_zip({"/etc/passwd": "x"}, top=None))
    assert "absolute path" in caught.value.message


def test_a_symlink_entry_is_accepted_never_read_and_listed_as_skipped(tmp_path):
    # GitHub's zips and `git archive` keep a repository's links as link entries (ripgrep's HomebrewFormula).
    data = add_symlink(make_zip({"a.py": "x = 1\n"}), "shop-main/passwd.py", "/etc/passwd")
    report = _inspect(data)
    assert (report.entries, report.files) == (2, 1)
    extraction = _extract(tmp_path, data)
    assert [f.path for f in extraction.files] == ["a.py"]
    assert extraction.skipped == [("passwd.py", "symbolic link (not followed)")]


def test_an_archive_of_links_alone_has_no_files():
    with pytest.raises(EmptyArchiveError):
        _inspect(add_symlink(make_zip({}, top=None), "link.py", "a.py"))


def test_it_rejects_a_device_file_entry():
    buffer = io.BytesIO(make_zip({"a.py": "x"}))
    with zipfile.ZipFile(buffer, "a") as archive:
        info = zipfile.ZipInfo("shop-main/dev")
        info.create_system = 3
        info.external_attr = (stat.S_IFCHR | 0o600) << 16
        archive.writestr(info, "")
    with pytest.raises(DeviceFileEntryError):
        _inspect(buffer.getvalue())


def test_it_rejects_an_archive_without_files():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("empty/", "")
    with pytest.raises(EmptyArchiveError):
        _inspect(buffer.getvalue())


def test_it_strips_a_single_top_level_folder(tmp_path):
    extraction = _extract(tmp_path, make_zip({"pkg/a.py": "x = 1\n", "README.md": "# R\n"}, top="project-main"))
    assert sorted(f.path for f in extraction.files) == ["README.md", "pkg/a.py"]


def test_it_keeps_paths_when_there_are_several_top_level_entries(tmp_path):
    extraction = _extract(tmp_path, make_zip({"pkg/a.py": "x = 1\n", "setup.py": "y = 2\n"}, top=None))
    assert sorted(f.path for f in extraction.files) == ["pkg/a.py", "setup.py"]


def test_it_skips_and_counts_what_does_not_belong_in_an_index(tmp_path):
    files = {
        "app/main.py": "print('hi')\n",
        "app/logo.png": b"\x89PNG\r\n\x1a\n" + bytes(range(256)),
        "app/blob.dat": b"abc\x00def",
        "app/huge.py": "x = 1\n" * 5000,
        ".git/config": "[core]\n",
        "node_modules/left-pad/index.js": "module.exports = 1\n",
        "env/pyvenv.cfg": "home = /usr/bin\n",
        "env/lib/site.py": "x = 1\n",
        "app/__pycache__/main.cpython-311.pyc": b"\x00\x01",
        "dist/app-1.0.tar.gz": b"\x1f\x8b",
        "build/lib/app.py": "x = 1\n",
        "secrets/token.txt": "hunter2\n",
        "app/debug.log": "noise\n",
        ".gitignore": "secrets/\n*.log\n",
    }
    extraction = _extract(tmp_path, make_zip(files))
    assert sorted(f.path for f in extraction.files) == [".gitignore", "app/main.py"]
    reasons = dict(extraction.skipped)
    assert reasons["app/logo.png"] == "binary"
    assert reasons["app/blob.dat"] == "binary"
    assert reasons["app/huge.py"] == "over the size cap"
    assert reasons[".git/config"] == "version control (.git/)"
    assert reasons["node_modules/left-pad/index.js"] == "dependencies (node_modules/)"
    assert reasons["env/lib/site.py"] == "virtualenv"
    assert reasons["app/__pycache__/main.cpython-311.pyc"] == "cache (__pycache__/)"
    assert reasons["dist/app-1.0.tar.gz"] == "build output (dist/)"
    assert reasons["build/lib/app.py"] == "build output (build/)"
    assert reasons["secrets/token.txt"] == ".gitignore"
    assert reasons["app/debug.log"] == ".gitignore"
    report = extraction.skipped_report()
    assert report["total"] == 12
    assert report["reasons"]["binary"] == 2
    assert report["reasons"][".gitignore"] == 2


def test_a_zip_git_archived_from_a_commit_keeps_the_files_its_gitignore_names_as_git_tracks_them(tmp_path):
    files = {".gitignore": "*\n!*.*\n!*/\n", "LICENSE": "MIT\n", "rest/server.go": "package rest\n"}
    kept = _extract(tmp_path, _with_comment(make_zip(files), b"11f21098ddd95a58f801920fea4f0543d4d01586"))
    assert sorted(f.path for f in kept.files) == [".gitignore", "LICENSE", "rest/server.go"]
    # Any other comment is no commit's id: a zip of a working folder skips what its .gitignore names.
    folder = _extract(tmp_path, _with_comment(make_zip(files), b"made by hand 11f21098ddd95a58f801920fea4f0543d4d01586"))
    assert dict(folder.skipped)["LICENSE"] == ".gitignore"


def _with_comment(archive: bytes, comment: bytes) -> bytes:
    buffer = io.BytesIO(archive)
    with zipfile.ZipFile(buffer, "a") as written:
        written.comment = comment
    return buffer.getvalue()


def test_it_decodes_a_file_that_is_not_utf8_and_counts_it(tmp_path):
    extraction = _extract(tmp_path, make_zip({"latin.py": "name = 'caf\xe9'\n".encode("latin-1"), "ok.py": "x = 1\n"}))
    by_path = {f.path: f for f in extraction.files}
    assert by_path["latin.py"].text == "name = 'caf\ufffd'\n"
    assert by_path["latin.py"].replaced_bytes is True
    assert by_path["ok.py"].replaced_bytes is False
    assert extraction.replaced == 1
