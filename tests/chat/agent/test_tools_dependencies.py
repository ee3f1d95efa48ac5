"""The dependencies tool over a repository with manifests of several ecosystems, as the model would call it."""

from __future__ import annotations

import pytest

from chat.agent.citing import Span
from chat.agent.config import AgentConfig
from chat.agent.tools import ProjectToolbox
from llm.types import ToolCall
from rag.analysis.dependencies import MAX_ENTRIES
from rag.services import list_dependencies

pytestmark = pytest.mark.django_db

PROJECT = {
    "web/package.json": '{\n  "name": "web",\n  "dependencies": {\n    "react": "^18.2.0"\n  },\n  "devDependencies": {\n    "vitest": "1.6.0"\n  }\n}\n',
    "web/src/App.tsx": "import React from 'react';\nimport { jsx } from 'react/jsx-runtime';\n\nexport function App() { return null; }\n",
    "web/src/api.ts": "import { App } from './App';\n\nexport const app = App;\n",
    "server/go.mod": "module example.com/server\n\nrequire (\n\tgithub.com/gin-gonic/gin v1.9.1\n\tgolang.org/x/net v0.17.0 // indirect\n)\n",
    "server/main.go": "package main\n\nimport \"github.com/gin-gonic/gin/binding\"\n\nfunc main() { _ = binding.JSON }\n",
    "api/pom.xml": (
        '<project xmlns="http://maven.apache.org/POM/4.0.0">\n  <dependencies>\n    <dependency>\n'
        "      <groupId>com.fasterxml.jackson.core</groupId>\n      <artifactId>jackson-databind</artifactId>\n"
        "      <version>2.15.2</version>\n    </dependency>\n  </dependencies>\n</project>\n"
    ),
    "requirements.txt": "Django>=5.2\nrequests==2.32.3\n",
    # A test's fixture declares packages of its own: not the project's.
    "tests/fixtures/sample/package.json": '{"dependencies": {"left-pad": "1.3.0"}}\n',
}


@pytest.fixture(scope="module")
def project(django_db_setup, django_db_blocker, tmp_path_factory):
    from tests.chat.conftest import indexed_shopapp
    from tests.rag.conftest import make_zip

    with indexed_shopapp("dependencies-owner", tmp_path_factory, django_db_blocker, name="polyglot", archive=make_zip(PROJECT)) as repository:
        yield repository


@pytest.fixture
def indexed(owner, settings, tmp_path):
    """Index ``files`` as a repository of ``owner`` named ``name``: the repository."""
    from tests.rag.conftest import index_zip, make_zip

    settings.RAG = {**settings.RAG, "UPLOAD_DIR": str(tmp_path / "uploads")}
    return lambda files, name: index_zip(owner, make_zip(files), name=name).repository


def call(repository, tool: str, **arguments):
    toolbox = ProjectToolbox(repository, AgentConfig(), window_tokens=8192)
    return toolbox.call_sync(ToolCall(id="call_1", name=tool, arguments=arguments))


def test_every_manifest_s_packages_with_version_scope_and_line(project):
    outcome = call(project, "list_dependencies")

    assert not outcome.error
    assert outcome.content.splitlines() == [
        "7 dependencies declared in 4 manifests:",
        "- maven com.fasterxml.jackson.core:jackson-databind 2.15.2 [compile] at api/pom.xml:5",
        "- pypi Django >=5.2 [runtime] at requirements.txt:1",
        "- pypi requests ==2.32.3 [runtime] at requirements.txt:2",
        "- go github.com/gin-gonic/gin v1.9.1 [runtime] at server/go.mod:4",
        "- go golang.org/x/net v0.17.0 [indirect] at server/go.mod:5",
        "- npm react ^18.2.0 [runtime] at web/package.json:4",
        "- npm vitest 1.6.0 [dev] at web/package.json:7",
    ]
    assert Span("api/pom.xml", 5, 5, "C0_SOURCE_CHUNKS", 0.0) in outcome.spans


def test_narrowed_by_a_part_of_the_name_or_by_ecosystem(project):
    jackson = call(project, "list_dependencies", name="Jackson Databind")
    npm = call(project, "list_dependencies", ecosystem="NPM")
    none = call(project, "list_dependencies", name="left-pad")

    assert jackson.content.splitlines()[1:] == ["- maven com.fasterxml.jackson.core:jackson-databind 2.15.2 [compile] at api/pom.xml:5"]
    assert [line.split()[2] for line in npm.content.splitlines()[1:]] == ["react", "vitest"]
    assert none.content == "No dependencies matching 'left-pad' (4 manifests read)."


def test_a_repository_without_manifests_says_so(shopapp):
    assert list_dependencies(shopapp, ecosystem="cargo").dependencies == ()
    assert list_dependencies(shopapp, ecosystem="cargo").manifests == 2


@pytest.fixture
def offline(settings):
    settings.LLM = {**settings.LLM, "PROVIDER": "offline"}


def _offline_answer(question: str, repository) -> str:
    from tests.chat.agent.conftest import answer_text, make_turn, run_turn_to_end

    return answer_text(run_turn_to_end(make_turn(question, repository)))


def test_an_answer_without_a_model_shows_the_declaration_of_a_package_the_question_names(project, offline):
    text = _offline_answer("Which version of jackson-databind do we build with?", project)

    section = text[text.index("Declared dependencies:") :].split("\n\n")[0]
    assert section.splitlines()[1:] == ["- maven `com.fasterxml.jackson.core:jackson-databind` `2.15.2` (compile) in `api/pom.xml:5`"]


def test_an_answer_without_a_model_lists_the_packages_when_asked_about_them(project, offline):
    text = _offline_answer("What third-party libraries does this project depend on?", project)

    lines = text[text.index("Declared dependencies:") :].split("\n\n")[0].splitlines()[1:]
    assert [line.split("`")[1] for line in lines] == [
        "com.fasterxml.jackson.core:jackson-databind", "Django", "requests", "github.com/gin-gonic/gin", "react",
        "golang.org/x/net", "vitest",
    ]


def test_a_plain_word_that_is_also_a_package_is_no_question_about_it(project, offline):
    assert "Declared dependencies" not in _offline_answer("How does the react app render?", project)
    assert "Declared dependencies" in _offline_answer("Which react version is used?", project)


def test_manifests_past_the_reading_budget_are_counted_not_read(indexed, monkeypatch):
    from rag.services import dependencies

    repository = indexed(PROJECT, "budget")
    # The budget holds the first two manifests in path order (api/pom.xml, requirements.txt) and no more.
    monkeypatch.setattr(dependencies, "MAX_MANIFEST_BYTES", len(PROJECT["api/pom.xml"]) + len(PROJECT["requirements.txt"]))

    found = list_dependencies(repository)
    assert {d.path for d in found.dependencies} == {"api/pom.xml", "requirements.txt"}
    assert (found.manifests, found.left_out) == (2, 2)
    outcome = call(repository, "list_dependencies")
    assert outcome.content.splitlines()[0] == "3 dependencies declared in 2 manifests: (2 more manifests not read: past the reading budget)"


def test_an_entry_without_a_version_shows_the_version_a_manifest_above_it_manages(indexed):
    project = {
        "Directory.Packages.props": '<Project>\n  <ItemGroup>\n    <PackageVersion Include="MediatR" Version="14.2.0" />\n  </ItemGroup>\n</Project>\n',
        "src/App/App.csproj": '<Project Sdk="Microsoft.NET.Sdk">\n  <ItemGroup>\n    <PackageReference Include="mediatr" />\n    <PackageReference Include="Serilog" />\n  </ItemGroup>\n</Project>\n',
        "src/App/Program.cs": "class Program { static void Main() {} }\n",
        "Cargo.toml": '[workspace]\nmembers = ["crates/cli"]\n\n[workspace.dependencies]\nserde = "1.0.190"\n',
        "crates/cli/Cargo.toml": '[package]\nname = "cli"\n\n[dependencies]\nserde = { workspace = true }\n',
        "crates/cli/src/main.rs": "fn main() {}\n",
    }
    repository = indexed(project, "managed")

    versions = {(d.path, d.name): d.version for d in list_dependencies(repository).dependencies}
    assert versions[("src/App/App.csproj", "mediatr")] == "14.2.0 (Directory.Packages.props:3)"
    assert versions[("src/App/App.csproj", "Serilog")] == ""
    assert versions[("crates/cli/Cargo.toml", "serde")] == "1.0.190 (Cargo.toml:5)"
    assert versions[("Directory.Packages.props", "MediatR")] == "14.2.0"


def test_asked_about_a_package_it_says_which_files_import_it(project):
    react = call(project, "list_dependencies", name="react").content.splitlines()
    gin = call(project, "list_dependencies", name="gin").content.splitlines()
    vitest = call(project, "list_dependencies", name="vitest").content.splitlines()
    jackson = call(project, "list_dependencies", name="jackson").content.splitlines()

    assert react[1:] == ["- npm react ^18.2.0 [runtime] at web/package.json:4", "  imported by 1 file: web/src/App.tsx"]
    assert gin[2] == "  imported by 1 file: server/main.go"
    assert vitest[2] == "  imported by no file of the index (a tool or a configuration may load it)"
    assert len(jackson) == 2  # Maven's packages are imported by names of their own: nothing said


def test_the_files_importing_a_package_in_python_rust_dotnet_and_dart(indexed):
    from rag.services import importing_files

    project = {
        "requirements.txt": "requests>=2\nsome-lib>=1\n",
        "app/client.py": "import requests\nfrom some_lib.parts import thing\n",
        "tests/test_client.py": "import requests\n",
        "Cargo.toml": '[package]\nname = "x"\n\n[dependencies]\nserde-json = "1"\n',
        "src/lib.rs": "use serde_json::Value;\n",
        "App/App.csproj": '<Project>\n  <ItemGroup>\n    <PackageReference Include="Serilog" Version="3.1.1" />\n  </ItemGroup>\n</Project>\n',
        "App/Program.cs": "using Serilog.Events;\nclass Program {}\n",
        "pubspec.yaml": "name: x\ndependencies:\n  http: ^1.1.0\n",
        "lib/main.dart": "import 'package:http/http.dart' as http;\n",
    }
    repository = indexed(project, "importers")

    importers = {d.name: importing_files(repository, d) for d in list_dependencies(repository).dependencies}
    assert importers == {
        "requests": ("app/client.py",),  # the test's import is no use of the project's
        "some-lib": ("app/client.py",),
        "serde-json": ("src/lib.rs",),
        "Serilog": ("App/Program.cs",),
        "http": ("lib/main.dart",),
    }


def test_python_packages_are_found_by_the_modules_they_install(indexed):
    from rag.services import importing_files

    project = {
        "requirements.txt": (
            "PyYAML>=6\nbeautifulsoup4\npython-dateutil\npsycopg2-binary\nzope.interface\ngoogle-cloud-storage\n"
            "pymongo\nmongo\n"
        ),
        "app/config.py": (
            "import yaml\nfrom bs4 import BeautifulSoup\nfrom dateutil import parser\nimport psycopg2.extras\n"
            "from zope.interface import implementer\nfrom google.cloud import storage\n"
        ),
        "app/db.py": "import pymongo\n",
        # ``mongo`` is a package of its own here, not the module ``pymongo`` might have been.
        "app/other.py": "import mongo\n",
    }
    repository = indexed(project, "python-modules")

    importers = {d.name: importing_files(repository, d) for d in list_dependencies(repository).dependencies}
    assert importers == {
        "PyYAML": ("app/config.py",),
        "beautifulsoup4": ("app/config.py",),
        "python-dateutil": ("app/config.py",),
        "psycopg2-binary": ("app/config.py",),
        "zope.interface": ("app/config.py",),
        "google-cloud-storage": ("app/config.py",),
        "pymongo": ("app/db.py",),
        "mongo": ("app/other.py",),
    }


def test_a_gradle_script_s_catalog_reference_is_the_library_the_catalog_names(indexed):
    project = {
        "settings.gradle.kts": 'include(":app")\n',
        "gradle/libs.versions.toml": (
            '[versions]\nokhttp = "4.12.0"\n\n[libraries]\n'
            'okhttp-core = { module = "com.squareup.okhttp3:okhttp", version.ref = "okhttp" }\n'
            'okio = "com.squareup.okio:okio:3.6.0"\n\n[bundles]\nnetwork = ["okhttp-core", "okio"]\n'
        ),
        "app/build.gradle.kts": (
            "dependencies {\n    implementation(libs.okhttp.core)\n    testImplementation(libs.not.in.the.catalog)\n"
            "    api(libs.bundles.network)\n}\n"
        ),
        "app/src/main/kotlin/App.kt": "fun main() {}\n",
    }
    repository = indexed(project, "catalog")

    script = [(d.name, d.version, d.scope, d.line) for d in list_dependencies(repository).dependencies if d.path == "app/build.gradle.kts"]
    assert script == [
        ("com.squareup.okhttp3:okhttp", "4.12.0 (gradle/libs.versions.toml:5)", "implementation", 2),
        ("libs.not.in.the.catalog", "", "testImplementation", 3),
        # A bundle: each library it groups, with the library's version and where.
        ("com.squareup.okhttp3:okhttp", "4.12.0 (gradle/libs.versions.toml:5)", "api", 4),
        ("com.squareup.okio:okio", "3.6.0 (gradle/libs.versions.toml:6)", "api", 4),
    ]
    # The catalog's bundle entries stand for their libraries and are not listed of their own.
    catalog = [(d.name, d.scope) for d in list_dependencies(repository).dependencies if d.path == "gradle/libs.versions.toml"]
    assert catalog == [("com.squareup.okhttp3:okhttp", "library"), ("com.squareup.okio:okio", "library")]


def test_a_script_naming_a_large_bundle_over_and_over_lists_no_more_than_a_manifest_may(indexed):
    libraries = 300
    project = {
        "gradle/libs.versions.toml": (
            "[libraries]\n" + "".join(f'l{i} = "org.example:a{i}:1.0"\n' for i in range(libraries))
            + "[bundles]\nall = [" + ", ".join(f'"l{i}"' for i in range(libraries)) + "]\n"
        ),
        "app/build.gradle.kts": "dependencies {\n" + "    implementation(libs.bundles.all)\n" * 40 + "}\n",
        "app/src/main/kotlin/App.kt": "fun main() {}\n",
    }
    repository = indexed(project, "bundles")

    script = [d for d in list_dependencies(repository).dependencies if d.path == "app/build.gradle.kts"]
    # 40 references of 300 libraries would be 12,000 entries: a manifest's are at most MAX_ENTRIES.
    assert len(script) == MAX_ENTRIES
    assert script[0].name == "org.example:a0" and script[-1].line == 1 + MAX_ENTRIES // libraries + 1
