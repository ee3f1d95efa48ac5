"""Dependencies read from each ecosystem's manifests: name, version as written, scope and line."""

from __future__ import annotations

import textwrap

import pytest

from rag.analysis.dependencies import MAX_MANIFEST_CHARS, declared_dependencies, is_manifest


def declared(path: str, text: str) -> list[tuple[int, str, str, str, str]]:
    return [(d.line, d.ecosystem, d.name, d.version, d.scope) for d in declared_dependencies(path, textwrap.dedent(text))]


def test_package_json_reads_each_section_with_its_scope():
    text = """\
        {
          "name": "web",
          "dependencies": {
            "lodash": "^4.17.21",
            "@vue/shared": "workspace:*"
          },
          "devDependencies": {"vitest": "1.0.0"},
          "peerDependencies": {"vue": ">=3"}
        }
        """
    assert declared("web/package.json", text) == [
        (4, "npm", "lodash", "^4.17.21", "runtime"),
        (5, "npm", "@vue/shared", "workspace:*", "runtime"),
        (7, "npm", "vitest", "1.0.0", "dev"),
        (8, "npm", "vue", ">=3", "peer"),
    ]


def test_composer_json():
    text = '{"require": {"php": ">=8.1", "laravel/framework": "^10.0"},\n "require-dev": {"phpunit/phpunit": "^10"}}\n'
    assert declared("composer.json", text) == [
        (1, "composer", "php", ">=8.1", "runtime"),
        (1, "composer", "laravel/framework", "^10.0", "runtime"),
        (2, "composer", "phpunit/phpunit", "^10", "dev"),
    ]


def test_cargo_toml_reads_every_dependencies_table_and_each_source():
    text = """\
        [package]
        name = "app"
        [dependencies]
        serde = { version = "1.0", features = ["derive"] }
        regex = "1"
        core = { path = "../core" }
        my-tokio = { version = "1", package = "tokio" }
        shared = { workspace = true }
        [dev-dependencies]
        criterion = "0.5"
        [target.'cfg(unix)'.dependencies]
        libc = "0.2"
        [workspace.dependencies]
        anyhow = "1.0"
        """
    assert declared("Cargo.toml", text) == [
        (4, "cargo", "serde", "1.0", "runtime"),
        (5, "cargo", "regex", "1", "runtime"),
        (6, "cargo", "core", "path ../core", "runtime"),
        (7, "cargo", "tokio", "1", "runtime"),
        (8, "cargo", "shared", "workspace", "runtime"),
        (10, "cargo", "criterion", "0.5", "dev"),
        (12, "cargo", "libc", "0.2", "runtime"),
        (14, "cargo", "anyhow", "1.0", "workspace"),
    ]


def test_go_mod_reads_single_requires_and_blocks():
    text = """\
        module example.com/shop

        go 1.21

        require github.com/spf13/cobra v1.8.0

        require (
        \tgolang.org/x/net v0.17.0 // indirect
        \tgithub.com/gin-gonic/gin v1.9.1
        )
        replace example.com/other => ../other
        """
    assert declared("go.mod", text) == [
        (5, "go", "github.com/spf13/cobra", "v1.8.0", "runtime"),
        (8, "go", "golang.org/x/net", "v0.17.0", "indirect"),
        (9, "go", "github.com/gin-gonic/gin", "v1.9.1", "runtime"),
    ]


def test_pom_xml_resolves_version_properties_and_tells_managed_versions():
    text = """\
        <?xml version="1.0" encoding="UTF-8"?>
        <project xmlns="http://maven.apache.org/POM/4.0.0">
          <properties>
            <jackson.version>2.15.2</jackson.version>
          </properties>
          <dependencyManagement>
            <dependencies>
              <dependency>
                <groupId>org.junit</groupId>
                <artifactId>junit-bom</artifactId>
                <version>5.10.0</version>
              </dependency>
            </dependencies>
          </dependencyManagement>
          <dependencies>
            <dependency>
              <groupId>com.fasterxml.jackson.core</groupId>
              <artifactId>jackson-databind</artifactId>
              <version>${jackson.version}</version>
            </dependency>
            <dependency>
              <groupId>junit</groupId>
              <artifactId>junit</artifactId>
              <scope>test</scope>
            </dependency>
          </dependencies>
        </project>
        """
    assert declared("pom.xml", text) == [
        (10, "maven", "org.junit:junit-bom", "5.10.0", "managed"),
        (18, "maven", "com.fasterxml.jackson.core:jackson-databind", "2.15.2", "compile"),
        (23, "maven", "junit:junit", "", "test"),
    ]


def test_gradle_scripts_and_the_version_catalog():
    script = """\
        plugins {
            id("org.jetbrains.kotlin.jvm") version "1.9.0"
        }
        dependencies {
            implementation("com.squareup.okhttp3:okhttp:4.12.0")
            testImplementation 'junit:junit:4.13.2'
            api(platform("org.springframework.boot:spring-boot-dependencies:3.2.0"))
            implementation(libs.guava)
            compileOnly group: 'org.projectlombok', name: 'lombok', version: '1.18.30'
        }
        """
    assert declared("app/build.gradle.kts", script) == [
        (5, "maven", "com.squareup.okhttp3:okhttp", "4.12.0", "implementation"),
        (6, "maven", "junit:junit", "4.13.2", "testImplementation"),
        (7, "maven", "org.springframework.boot:spring-boot-dependencies", "3.2.0", "api"),
        (9, "maven", "org.projectlombok:lombok", "1.18.30", "compileOnly"),
    ]
    catalog = """\
        [versions]
        guava = "33.0.0-jre"
        [libraries]
        guava = { module = "com.google.guava:guava", version.ref = "guava" }
        okio = "com.squareup.okio:okio:3.6.0"
        [plugins]
        kotlin = { id = "org.jetbrains.kotlin.jvm", version = "1.9.0" }
        """
    assert declared("gradle/libs.versions.toml", catalog) == [
        (4, "maven", "com.google.guava:guava", "33.0.0-jre", "library"),
        (5, "maven", "com.squareup.okio:okio", "3.6.0", "library"),
        (7, "maven", "org.jetbrains.kotlin.jvm", "1.9.0", "plugin"),
    ]


def test_requirements_files_skip_options_and_join_continued_lines():
    text = """\
        # what the tests need
        -r requirements.txt
        pytest>=7  # the runner
        django[argon2]==4.2 ; python_version >= "3.8"
        requests \\
            --hash=sha256:abc
        -e .
        not a requirement!
        """
    expected = [
        (3, "pypi", "pytest", ">=7", "runtime"),
        (4, "pypi", "django", '==4.2 ; python_version >= "3.8"', "runtime"),
        (5, "pypi", "requests", "", "runtime"),
    ]
    assert declared("requirements-dev.txt", text) == expected
    assert declared("requirements/base.in", text) == expected
    assert declared("docs/notes.txt", text) == []


def test_pyproject_reads_pep_621_dependency_groups_and_poetry():
    text = """\
        [project]
        name = "app"
        dependencies = [
          "httpx>=0.28,<0.29",
          "Django>=5.2",
        ]
        [project.optional-dependencies]
        docs = ["sphinx>=7"]
        [dependency-groups]
        test = ["pytest", {include-group = "docs"}]
        [tool.poetry.dependencies]
        python = "^3.11"
        numpy = "^1.26"
        [tool.poetry.group.lint.dependencies]
        black = {version = "^24", optional = true}
        """
    assert declared("pyproject.toml", text) == [
        (4, "pypi", "httpx", ">=0.28,<0.29", "runtime"),
        (5, "pypi", "Django", ">=5.2", "runtime"),
        (8, "pypi", "sphinx", ">=7", "docs"),
        (10, "pypi", "pytest", "", "test"),
        (13, "pypi", "numpy", "^1.26", "runtime"),
        (15, "pypi", "black", "^24", "lint"),
    ]


def test_setup_cfg_and_setup_py():
    cfg = """\
        [metadata]
        name = app
        [options]
        install_requires =
            asgiref>=3.8
            sqlparse>=0.3.1  # a comment
        [options.extras_require]
        argon2 = argon2-cffi>=19.1.0
        """
    assert declared("setup.cfg", cfg) == [
        (5, "pypi", "asgiref", ">=3.8", "runtime"),
        (6, "pypi", "sqlparse", ">=0.3.1", "runtime"),
        (8, "pypi", "argon2-cffi", ">=19.1.0", "argon2"),
    ]
    script = """\
        from setuptools import setup
        setup(
            name="app",
            install_requires=[
                "click>=8",
                "rich",
            ],
            extras_require={"yaml": ["PyYAML"]},
        )
        """
    assert declared("setup.py", script) == [
        (5, "pypi", "click", ">=8", "runtime"),
        (6, "pypi", "rich", "", "runtime"),
        (8, "pypi", "PyYAML", "", "yaml"),
    ]


@pytest.mark.parametrize(
    ("path", "text"),
    [
        ("package.json", '{"dependencies": ["not", "a", "map"]}'),
        ("package.json", "{" * 100_000),
        ("Cargo.toml", "[dependencies\nserde = 1"),
        ("pom.xml", "<project><dependencies><dependency>"),
        ("pom.xml", '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;"><!ENTITY e "&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;"><!ENTITY f "&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;"><!ENTITY g "&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;"><!ENTITY h "&g;&g;&g;&g;&g;&g;&g;&g;&g;&g;">]><project><dependencies><dependency><artifactId>&h;</artifactId></dependency></dependencies></project>'),
        ("pyproject.toml", "[project]\ndependencies = 3"),
        ("setup.py", "setup(install_requires=" + "[" * 5_000),
        ("setup.cfg", "[options\ninstall_requires = x"),
    ],
)
def test_a_manifest_its_parser_refuses_declares_nothing(path, text):
    assert declared_dependencies(path, text) == []


def test_an_oversized_manifest_is_not_read():
    text = '{"dependencies": {"lodash": "1"}, "padding": "' + "x" * MAX_MANIFEST_CHARS + '"}'
    assert declared_dependencies("package.json", text) == []
    assert declared_dependencies("package.json", '{"dependencies": {"lodash": "1"}}') != []


def test_manifests_are_told_by_name():
    assert is_manifest("a/b/Cargo.toml") and is_manifest("requirements.txt") and is_manifest("gradle/libs.versions.toml")
    assert not is_manifest("src/main.rs") and not is_manifest("docs/requirements-of-the-api.md")
