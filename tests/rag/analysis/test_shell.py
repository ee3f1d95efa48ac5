"""Shell scripts as their users write them: functions with their comments, sourced scripts, programs, subcommands."""

from __future__ import annotations

from rag.analysis.languages.spec import is_test_file
from rag.analysis.repository import analyze_repository
from tests.rag.analysis.readings import edge_targets, entrypoint_rows, symbol_rows


def _entries(files: dict[str, str]) -> set[tuple]:
    """(kind, framework, command, handler, handler as written) of every entrypoint in ``files``."""
    return entrypoint_rows(files, "entry_type", "framework", "route_or_command", "handler", "handler_raw")


_DEPLOY = (
    "#!/usr/bin/env bash\n"
    "set -euo pipefail\n"
    "readonly VERSION=1.2\n"
    "DIR=\"$(cd \"$(dirname \"${BASH_SOURCE[0]}\")\" && pwd)\"\n"
    "source ./lib/common.sh\n"
    ". \"$DIR/lib/extra.sh\"\n"
    "trap cleanup EXIT\n\n"
    "# Builds the image.\n# Tags it with the version.\n"
    "build() {\n  log \"building $VERSION\"\n  compile --fast\n}\n\n"
    "function cleanup {\n  rm -rf \"$DIR/tmp\"\n}\n\n"
    "function start() (\n  build\n)\n\n"
    "case \"$1\" in\n"
    "  start|up) start ;;\n"
    "  logs) shift; tail_logs \"$@\" ;;\n"
    "  stop) echo \"stopping\" ;;\n"
    "  -h|--help) echo usage ;;\n"
    "  *) exit 1 ;;\n"
    "esac\n"
)
_COMMON = "# Prints a line to stderr.\nlog() {\n  echo \"$@\" >&2\n}\n\ncompile() {\n  log compiling\n}\n"
# A script elsewhere with a log of its own: deploy.sh calls the one it sources.
_OTHER_LOG = "#!/bin/sh\nlog() {\n  printf '%s\\n' \"$*\"\n}\n"


def _project() -> dict[str, str]:
    return {
        "scripts/deploy.sh": _DEPLOY,
        "scripts/lib/common.sh": _COMMON,
        "tools/log.sh": _OTHER_LOG,
    }


def test_functions_in_every_form_are_symbols_of_the_script_with_their_comments_and_exported_constants():
    symbols = symbol_rows(_project(), "kind", "signature", "docstring", "parent")

    assert {qname: row for qname, row in symbols.items() if qname.startswith("scripts.deploy.")} == {
        "scripts.deploy.VERSION": ("const", "readonly VERSION=1.2", "", None),
        "scripts.deploy.build": ("function", "build()", "Builds the image.\nTags it with the version.", None),
        "scripts.deploy.cleanup": ("function", "function cleanup", "", None),
        "scripts.deploy.start": ("function", "function start() (", "", None),
    }
    assert symbols["scripts.lib.common.log"] == ("function", "log()", "Prints a line to stderr.", None)


def test_a_sourced_script_is_imported_by_its_path_from_the_scripts_folder():
    imports = edge_targets({
        **_project(),
        "scripts/lib/extra.sh": "extra() {\n  :\n}\n",
        "ci/build.sh": (
            "#!/bin/bash\n"
            'source "${BASH_SOURCE%/*}/../scripts/lib/common.sh"\n'
            '. "$(dirname "$0")/steps.sh"\n'
            'source "$HOME/$PROFILE"\n'
            'source "$ROOT/$LIBDIR/lib/extra.sh"\n'
        ),
        "ci/steps.sh": "step() {\n  :\n}\n",
    }, "imports")

    assert imports == {
        ("ci.build", '"${BASH_SOURCE%/*}/../scripts/lib/common.sh"', 2): "scripts.lib.common",
        ("ci.build", '"$(dirname "$0")/steps.sh"', 3): "ci.steps",
        # A path through another expansion is not known.
        ("ci.build", '"$HOME/$PROFILE"', 4): None,
        # Folders through several variables: the path after them, the one file that ends with it.
        ("ci.build", '"$ROOT/$LIBDIR/lib/extra.sh"', 5): "scripts.lib.extra",
        ("scripts.deploy", "./lib/common.sh", 5): "scripts.lib.common",
        # A path through the script's own folder, however the script writes it.
        ("scripts.deploy", '"$DIR/lib/extra.sh"', 6): "scripts.lib.extra",
    }


def test_calls_reach_the_functions_of_the_script_and_of_the_scripts_it_sources():
    calls = edge_targets({**_project(), "tools/report.sh": "compile\nlog done\n"})

    assert calls[("scripts.deploy.build", "log", 12)] == "scripts.lib.common.log"
    assert calls[("scripts.deploy.build", "compile", 13)] == "scripts.lib.common.compile"
    assert calls[("scripts.deploy.start", "build", 21)] == "scripts.deploy.build"
    # The function a trap runs is called.
    assert calls[("scripts.deploy", "cleanup", 7)] == "scripts.deploy.cleanup"
    # A function of a script it neither is nor sources is out of reach; the system's programs are no function.
    assert calls[("tools.report", "compile", 1)] is None
    assert calls[("tools.report", "log", 2)] == "tools.log.log"
    assert calls[("scripts.lib.common.log", "echo", 3)] is None
    assert calls[("scripts.deploy.cleanup", "rm", 17)] is None


def test_a_script_with_a_shebang_is_a_program_and_the_branches_of_its_case_on_the_first_argument_are_commands():
    assert _entries(_project()) == {
        ("cli_command", "main", "deploy", None, "block at scripts/deploy.sh:1"),
        ("cli_command", "main", "log", None, "block at tools/log.sh:1"),
        # Named by the branch's first word, handled by the function it runs (after a `shift`).
        ("cli_command", "shell", "start", "scripts.deploy.start", "start"),
        ("cli_command", "shell", "logs", None, "tail_logs"),
        ("cli_command", "shell", "stop", None, ""),
    }


def test_a_file_without_a_suffix_whose_first_line_runs_a_shell_is_a_script():
    files = {
        "bin/shop": (
            "#!/usr/bin/env bash\n"
            "main() {\n  case \"${1:-}\" in\n    serve) serve \"$@\" ;;\n  esac\n}\n"
            "serve() {\n  :\n}\n"
            "while getopts \"v\" opt; do\n  case \"$opt\" in\n    v) verbose ;;\n  esac\ndone\n"
            "main \"$@\"\n"
        ),
        # Python's, and a file with no shebang: no shell.
        "bin/tool": "#!/usr/bin/env python3\nprint('hi')\n",
        "NOTES": "serve() { :; }\n",
    }
    analysis = analyze_repository(files)

    assert {path: file.language for path, file in analysis.files.items()}["bin/shop"] == "shell"
    assert [symbol.qname for symbol in analysis.files["bin/shop"].symbols] == ["bin.shop.main", "bin.shop.serve"]
    assert not analysis.files["bin/tool"].symbols and not analysis.files["NOTES"].symbols
    # A getopts loop's branches are options, not commands.
    assert _entries(files) == {
        ("cli_command", "main", "shop", None, "block at bin/shop:1"),
        ("cli_command", "shell", "serve", "bin.shop.serve", "serve"),
    }


def test_bats_files_and_scripts_named_or_placed_as_tests_are_tests():
    assert is_test_file("ci/deploy.bats")
    assert is_test_file("scripts/test_deploy.sh")
    assert is_test_file("scripts/deploy_test.sh")
    assert is_test_file("tests/e2e/run.sh")
    assert is_test_file("tools/test/run.sh")
    assert not is_test_file("scripts/deploy.sh")
    assert not is_test_file("scripts/testing.sh")

    files = {
        "scripts/deploy.sh": _DEPLOY,
        "scripts/lib/common.sh": _COMMON,
        "ci/deploy.bats": "#!/usr/bin/env bats\n\nsetup() {\n  source ../scripts/lib/common.sh\n}\n\n"
        "@test \"compiles\" {\n  run compile\n}\n",
    }
    analysis = analyze_repository(files)
    bats = analysis.files["ci/deploy.bats"]
    assert bats.artifact_type == "test"
    # A test's script is no program; Bats' `run` calls the function it names.
    assert not bats.entrypoints
    assert {(edge.raw, edge.dst) for edge in bats.edges if edge.raw in ("compile", "run")} == {
        ("compile", "scripts.lib.common.compile"), ("run", None),
    }
