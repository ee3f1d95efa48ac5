"""Manifests of many entries, each read by ``declared_dependencies``: the time per entry should not grow with their number.

``python -m rag.benchmarks.manifests [--entries 1000,10000,50000] [--runs 3]`` builds, for every format read,
a manifest of each number of entries (one package per entry, as the format writes it; a manifest past
``MAX_MANIFEST_CHARS`` is not read and is left out), and prints the median seconds to read it, the
entries found and the microseconds per entry. A reader that searched the lines from each entry on
would show microseconds per entry growing with the entries.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from rag.analysis.dependencies import MAX_MANIFEST_CHARS, declared_dependencies


def _lines(header: str, entry: Callable[[int], str], footer: str = "") -> Callable[[int], str]:
    return lambda count: header + "".join(entry(n) for n in range(count)) + footer


def _json_object(count: int) -> str:
    return '{\n  "dependencies": {\n' + ",\n".join(f'    "package-{n}": "^1.{n}.0"' for n in range(count)) + "\n  }\n}\n"


def _composer(count: int) -> str:
    return '{\n  "require": {\n' + ",\n".join(f'    "vendor/package-{n}": "^1.{n}"' for n in range(count)) + "\n  }\n}\n"


def _vcpkg(count: int) -> str:
    return '{\n  "dependencies": [\n' + ",\n".join(f'    "package-{n}"' for n in range(count)) + "\n  ]\n}\n"


FORMATS: dict[str, Callable[[int], str]] = {
    "package.json": _json_object,
    "composer.json": _composer,
    "Cargo.toml": _lines('[package]\nname = "x"\n[dependencies]\n', lambda n: f'crate-{n} = "1.{n}"\n'),
    "go.mod": _lines("module example.com/x\n\nrequire (\n", lambda n: f"\texample.com/module{n} v1.{n}.0\n", ")\n"),
    "pom.xml": _lines(
        "<project><dependencies>\n",
        lambda n: f"<dependency><groupId>org.x</groupId><artifactId>artifact-{n}</artifactId><version>1.{n}</version></dependency>\n",
        "</dependencies></project>\n",
    ),
    "build.gradle.kts": _lines("dependencies {\n", lambda n: f'    implementation("org.x:artifact-{n}:1.{n}")\n', "}\n"),
    "gradle/libs.versions.toml": _lines("[libraries]\n", lambda n: f'lib-{n} = "org.x:artifact-{n}:1.{n}"\n'),
    "requirements.txt": _lines("", lambda n: f"package-{n}>=1.{n}\n"),
    "pyproject.toml": _lines('[project]\nname = "x"\ndependencies = [\n', lambda n: f'  "package-{n}>=1.{n}",\n', "]\n"),
    "setup.cfg": _lines("[options]\ninstall_requires =\n", lambda n: f"    package-{n}>=1.{n}\n"),
    "setup.py": _lines("from setuptools import setup\nsetup(install_requires=[\n", lambda n: f'    "package-{n}>=1.{n}",\n', "])\n"),
    "Gemfile": _lines('source "https://rubygems.org"\n', lambda n: f'gem "gem-{n}", "~> 1.{n}"\n'),
    "x.gemspec": _lines("Gem::Specification.new do |spec|\n", lambda n: f'  spec.add_dependency "gem-{n}", "~> 1.{n}"\n', "end\n"),
    "App.csproj": _lines("<Project><ItemGroup>\n", lambda n: f'<PackageReference Include="Package{n}" Version="1.{n}" />\n', "</ItemGroup></Project>\n"),
    "packages.config": _lines("<packages>\n", lambda n: f'<package id="Package{n}" version="1.{n}" />\n', "</packages>\n"),
    "pubspec.yaml": _lines("name: x\ndependencies:\n", lambda n: f"  package_{n}: ^1.{n}.0\n"),
    "mix.exs": _lines("defmodule X.MixProject do\n  defp deps do\n    [\n", lambda n: f'      {{:dep_{n}, "~> 1.{n}"}},\n', "    ]\n  end\nend\n"),
    "Package.swift": _lines(
        "let package = Package(\n  dependencies: [\n",
        lambda n: f'    .package(url: "https://example.com/x/package-{n}.git", from: "1.{n}.0"),\n',
        "  ]\n)\n",
    ),
    "vcpkg.json": _vcpkg,
    "conanfile.txt": _lines("[requires]\n", lambda n: f"package{n}/1.{n}\n"),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entries", default="1000,10000,50000", help="numbers of entries, comma-separated")
    parser.add_argument("--runs", type=int, default=3, help="reads of each manifest; the median is printed")
    options = parser.parse_args()
    counts = [int(count) for count in options.entries.split(",")]
    print(f"{'manifest':<26} {'entries':>8} {'KiB':>6} {'found':>8} {'median s':>9} {'us/entry':>9}")
    for path, build in FORMATS.items():
        for count in counts:
            text = build(count)
            if len(text) > MAX_MANIFEST_CHARS:
                continue
            times = []
            for _ in range(options.runs):
                started = time.perf_counter()
                found = declared_dependencies(path, text)
                times.append(time.perf_counter() - started)
            median = statistics.median(times)
            print(f"{path:<26} {count:>8,} {len(text) // 1024:>6,} {len(found):>8,} {median:>9.3f} {median / count * 1e6:>9.1f}")


if __name__ == "__main__":
    main()
