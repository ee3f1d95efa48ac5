"""Model-written diffs applied strictly to indexed texts, and patches that real ``git apply`` accepts."""

from __future__ import annotations

import pytest

from chat.agent.edits.diffs import (
    DiffParseError,
    apply_file_diff,
    extract_diff_text,
    parse_diff,
    render_patch,
)
from chat.agent.edits.graph import WINDOW_LINES, file_view
from tests.chat.docs_edits.conftest import git_apply_check

MODULE = "def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n"


def check_one(diff: str, snapshot: dict[str, str]):
    [file_diff] = parse_diff(diff)
    return apply_file_diff(file_diff, snapshot)


def assert_git_accepts(snapshot: dict[str, str], checks, tmp_path) -> str:
    patch = render_patch(checks)
    result = git_apply_check({path: text.encode() for path, text in snapshot.items()}, patch, tmp_path)
    assert result.returncode == 0, f"{result.stderr}\n{patch}"
    return patch


def test_wrong_line_numbers_and_counts_still_apply_when_the_content_matches(tmp_path):
    snapshot = {"calc.py": MODULE}
    diff = "--- a/calc.py\n+++ b/calc.py\n@@ -40,9 +40,9 @@\n def sub(a, b):\n-    return a - b\n+    return b - a\n"

    check = check_one(diff, snapshot)

    assert check.ok and check.applied == [0]
    assert check.new_text == MODULE.replace("return a - b", "return b - a")
    patch = assert_git_accepts(snapshot, [check], tmp_path)
    assert "\n@@ -3,4 +3,4 @@\n \n \n def sub(a, b):\n-    return a - b\n+    return b - a\n" in patch


def test_the_closest_match_to_the_stated_line_wins():
    text = "x = 1\ny = 2\nx = 1\ny = 2\n"
    check = check_one("--- a/t.py\n+++ b/t.py\n@@ -3,2 +3,2 @@\n x = 1\n-y = 2\n+y = 3\n", {"t.py": text})
    assert check.new_text == "x = 1\ny = 2\nx = 1\ny = 3\n"


def test_a_hunk_whose_context_differs_is_rejected_naming_the_line():
    diff = "--- a/calc.py\n+++ b/calc.py\n@@ -5,2 +5,2 @@\n def sub(x, y):\n-    return x - y\n+    return y - x\n"

    check = check_one(diff, {"calc.py": MODULE})

    [failure] = check.failures
    assert failure.reason == (
        "its context and removed lines do not appear in the indexed file: at line 5 the hunk expects "
        "'def sub(x, y):' but the file has 'def sub(a, b):'"
    )
    assert failure.hunk.startswith("@@ -5,2 +5,2 @@\n def sub(x, y):")
    assert check.new_text == MODULE


def test_overlapping_hunks_are_rejected_and_the_first_one_kept():
    diff = (
        "--- a/calc.py\n+++ b/calc.py\n"
        "@@ -1,2 +1,2 @@\n def add(a, b):\n-    return a + b\n+    return b + a\n"
        "@@ -2,1 +2,1 @@\n-    return a + b\n+    return a + b + 0\n"
    )

    check = check_one(diff, {"calc.py": MODULE})

    assert check.applied == [0]
    assert [(f.index, f.reason) for f in check.failures] == [(1, "it overlaps hunk 1 of the same file (lines 1-2)")]
    assert "return b + a" in check.new_text


def test_blank_context_lines_without_their_space_are_read_as_blank_lines(tmp_path):
    diff = "--- a/calc.py\n+++ b/calc.py\n@@ -2,4 +2,4 @@\n     return a + b\n\n\n-def sub(a, b):\n+def subtract(a, b):\n"

    check = check_one(diff, {"calc.py": MODULE})

    assert check.ok
    assert_git_accepts({"calc.py": MODULE}, [check], tmp_path)


def test_a_crlf_file_keeps_its_line_endings_and_git_accepts_the_patch(tmp_path):
    text = MODULE.replace("\n", "\r\n")
    diff = "--- a/calc.py\n+++ b/calc.py\n@@ -1,2 +1,3 @@\n def add(a, b):\n+    \"\"\"Add.\"\"\"\n     return a + b\n"

    check = check_one(diff, {"calc.py": text})

    assert check.new_text == text.replace("def add(a, b):\r\n", 'def add(a, b):\r\n    """Add."""\r\n')
    assert_git_accepts({"calc.py": text}, [check], tmp_path)


def test_a_file_without_a_final_newline_gets_git_s_marker(tmp_path):
    text = "first\nlast"
    check = check_one("--- a/notes.txt\n+++ b/notes.txt\n@@ -1,2 +1,2 @@\n first\n-last\n+final\n", {"notes.txt": text})

    assert check.new_text == "first\nfinal"
    patch = assert_git_accepts({"notes.txt": text}, [check], tmp_path)
    assert patch.count("\\ No newline at end of file\n") == 2


def test_a_new_file_is_created_and_an_existing_path_is_refused(tmp_path):
    new = "--- /dev/null\n+++ b/pkg/extra.py\n@@ -0,0 +1,2 @@\n+def extra():\n+    return 1\n"
    check = check_one(new, {"calc.py": MODULE})
    assert check.ok and check.new_text == "def extra():\n    return 1\n"
    patch = assert_git_accepts({"calc.py": MODULE}, [check], tmp_path)
    assert "new file mode 100644\n--- /dev/null\n+++ b/pkg/extra.py\n" in patch

    clash = check_one(new.replace("pkg/extra.py", "calc.py"), {"calc.py": MODULE})
    assert clash.failures[0].reason == "calc.py already exists in the indexed snapshot; change it with hunks against its text"


@pytest.mark.parametrize("path", ["../outside.py", "/etc/passwd", "pkg/../../x.py"])
def test_paths_outside_the_repository_are_refused(path):
    check = check_one(f"--- a/{path}\n+++ b/{path}\n@@ -1 +1 @@\n-a\n+b\n", {path: "a\n"})
    assert check.failures[0].reason.endswith("is not a relative path inside the repository")


def test_a_file_that_is_not_in_the_snapshot_is_refused():
    check = check_one("--- a/gone.py\n+++ b/gone.py\n@@ -1 +1 @@\n-a\n+b\n", {"calc.py": MODULE})
    assert check.failures[0].reason == "gone.py is not a file of the indexed snapshot"


def test_an_edit_that_breaks_python_syntax_is_caught():
    diff = "--- a/calc.py\n+++ b/calc.py\n@@ -1,2 +1,2 @@\n-def add(a, b):\n+def add(a, b)\n     return a + b\n"

    check = check_one(diff, {"calc.py": MODULE})

    assert not check.failures and not check.ok
    assert check.syntax_error.startswith("calc.py no longer parses as Python (line 1")


def test_the_diff_is_taken_from_the_fenced_block_of_an_answer():
    answer = "Sure, here it is:\n\n```diff\n--- a/calc.py\n+++ b/calc.py\n@@ -1 +1 @@\n-x\n+y\n```\n\nThat's all."
    [section] = parse_diff(extract_diff_text(answer))
    assert section.path == "calc.py" and section.hunks[0].lines == ("-x", "+y")


def test_text_without_a_file_header_is_not_a_diff():
    with pytest.raises(DiffParseError, match="a hunk before any"):
        parse_diff("@@ -1 +1 @@\n-x\n+y\n")
    with pytest.raises(DiffParseError, match="no '--- a/path'"):
        parse_diff("I could not write the change.")


def test_a_long_file_is_shown_to_the_model_as_numbered_windows_around_the_planned_places():
    text = "".join(f"line {n}\n" for n in range(1, 2001))

    shown = file_view(text, ["big.py:1000-1002", "big.py:1050"])

    assert shown.startswith(f"(lines {1000 - WINDOW_LINES}-{1050 + WINDOW_LINES} of 2000)\n")
    assert "\n1001 | line 1001\n" in shown and "line 1200" not in shown
    assert file_view("a\nb\n", []) == "1 | a\n2 | b"
