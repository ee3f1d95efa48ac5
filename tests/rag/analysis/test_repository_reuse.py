"""Incremental analysis: unchanged files reuse their per-file pass; resolution always runs over all."""

from __future__ import annotations

import json

from rag.analysis.repository import analyze_repository, content_hash
from rag.analysis.serialization import ANALYSIS_VERSION, file_analysis_from_dict, file_analysis_to_dict
from tests.rag.analysis.test_fixture_project import load_fixture

FILES = {
    "pkg/__init__.py": "",
    "pkg/pricing.py": "def compute_tax(amount):\n    return amount // 5\n",
    "pkg/cli.py": (
        "from pkg.pricing import compute_tax\n\n\ndef main():\n    return compute_tax(10)\n"
    ),
    "README.md": "# pkg\n\nTaxes.\n",
}


def edge_targets(analysis, path):
    return {(edge.kind, edge.src, edge.raw, edge.dst) for edge in analysis.files[path].edges}


def test_it_reuses_unchanged_files_and_reresolves_their_edges():
    first = analyze_repository(FILES)
    assert first.reused == frozenset()
    assert ("calls", "pkg.cli.main", "compute_tax", "pkg.pricing.compute_tax") in edge_targets(first, "pkg/cli.py")

    changed = dict(FILES, **{"pkg/pricing.py": "def tax_of(amount):\n    return amount // 5\n"})
    second = analyze_repository(changed, previous=first.files)

    assert second.reused == frozenset({"pkg/__init__.py", "pkg/cli.py", "README.md"})
    assert second.files["pkg/cli.py"].chunks is first.files["pkg/cli.py"].chunks
    assert second.files["pkg/pricing.py"].content_hash == content_hash(changed["pkg/pricing.py"])
    assert [s.qname for s in second.files["pkg/pricing.py"].symbols] == ["pkg.pricing.tax_of"]
    # cli.py did not change, but what its names point to did.
    assert edge_targets(second, "pkg/cli.py") == {
        ("imports", "pkg.cli", "pkg.pricing.compute_tax", None),
        ("calls", "pkg.cli.main", "compute_tax", None),
    }


def test_a_reused_file_gives_the_same_layers_as_a_fresh_analysis():
    first = analyze_repository(FILES)
    again = analyze_repository(FILES, previous=first.files)
    fresh = analyze_repository(FILES)
    assert again.reused == frozenset(FILES)
    for path in FILES:
        assert again.files[path].chunks == fresh.files[path].chunks
        assert again.files[path].symbols == fresh.files[path].symbols
        assert again.files[path].edges == fresh.files[path].edges
        assert again.files[path].entrypoints == fresh.files[path].entrypoints


def test_entry_candidate_flags_follow_the_current_entrypoints():
    with_script = dict(FILES, **{"pyproject.toml": '[project.scripts]\ntaxes = "pkg.pricing:compute_tax"\n'})
    first = analyze_repository(with_script)
    assert {s.qname: s.is_entry_candidate for s in first.symbols()} == {
        "pkg.pricing.compute_tax": True,
        "pkg.cli.main": True,
    }
    without_script = analyze_repository(FILES, previous=first.files)
    assert "pkg/pricing.py" in without_script.reused
    assert {s.qname: s.is_entry_candidate for s in without_script.symbols()} == {
        "pkg.pricing.compute_tax": False,
        "pkg.cli.main": True,
    }


def test_files_removed_from_the_repository_are_gone_from_the_result():
    first = analyze_repository(FILES)
    fewer = {path: text for path, text in FILES.items() if path != "pkg/pricing.py"}
    second = analyze_repository(fewer, previous=first.files)
    assert set(second.files) == set(fewer)
    assert ("calls", "pkg.cli.main", "compute_tax", None) in edge_targets(second, "pkg/cli.py")


def test_analyses_survive_a_json_round_trip_and_feed_the_next_run():
    files = load_fixture()
    first = analyze_repository(files)
    stored = json.loads(json.dumps({path: file_analysis_to_dict(a) for path, a in first.files.items()}))
    restored = {path: file_analysis_from_dict(data) for path, data in stored.items()}
    assert restored == first.files

    again = analyze_repository(files, previous=restored)
    assert again.reused == frozenset(files)
    assert again.edges() == first.edges()
    assert again.entrypoints() == first.entrypoints()


def test_a_stored_analysis_from_another_analyser_version_is_not_reused():
    data = file_analysis_to_dict(analyze_repository(FILES).files["pkg/cli.py"])
    assert file_analysis_from_dict({**data, "version": ANALYSIS_VERSION + 1}) is None
    assert file_analysis_from_dict({**data, "facts": {"module": "pkg.cli"}}) is None
    assert file_analysis_from_dict({"version": ANALYSIS_VERSION}) is None
