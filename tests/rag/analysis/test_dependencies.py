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
        (8, "maven", "libs.guava", "", "implementation"),
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
    assert [d.alias for d in declared_dependencies("gradle/libs.versions.toml", textwrap.dedent(catalog))] == [
        "libs.guava", "libs.okio", "libs.plugins.kotlin",
    ]
    assert declared("gradle/libs.versions.toml", catalog) == [
        (4, "maven", "com.google.guava:guava", "33.0.0-jre", "library"),
        (5, "maven", "com.squareup.okio:okio", "3.6.0", "library"),
        (7, "maven", "org.jetbrains.kotlin.jvm", "1.9.0", "plugin"),
    ]


def test_a_catalog_bundle_is_each_library_it_groups_under_the_bundle_s_accessor():
    catalog = """\
        [libraries]
        compose-ui = "androidx.compose.ui:ui:1.6.0"
        compose-material3 = { module = "androidx.compose.material3:material3", version = "1.2.0" }
        [bundles]
        compose = ["compose-ui", "compose_material3", "not-a-library"]
        broken = "compose-ui"
        """
    found = declared_dependencies("gradle/libs.versions.toml", textwrap.dedent(catalog))
    # Sorted by line: each bundle entry at its library's line, where its version is written.
    assert [(d.line, d.name, d.version, d.scope, d.alias) for d in found] == [
        (2, "androidx.compose.ui:ui", "1.6.0", "library", "libs.compose.ui"),
        (2, "androidx.compose.ui:ui", "1.6.0", "bundle", "libs.bundles.compose"),
        (3, "androidx.compose.material3:material3", "1.2.0", "library", "libs.compose.material3"),
        (3, "androidx.compose.material3:material3", "1.2.0", "bundle", "libs.bundles.compose"),
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


def test_gemfile_reads_groups_blocks_and_options_and_the_gemspec_its_dependency_calls():
    gemfile = """\
        source "https://rubygems.org"
        git_source(:github) { |repo| "https://github.com/#{repo}.git" }
        ruby "3.2.2"

        gem "rails", "~> 7.1.0"
        gem 'pg', '~> 1.1', '>= 1.1.4' # the database
        gem "bootsnap", require: false, group: :production
        gem "mylib", github: "acme/mylib"
        gem("sidekiq",
            "~> 7.2",
            groups: [:worker, "jobs"])

        if ENV["REDIS_URL"]
          gem "redis"
        end

        group :development, :test do
          gem "debug", platforms: %i[mri windows]
          platforms :jruby do
            gem "activerecord-jdbc-adapter", "~> 70.0"
          end
          gem "rspec-rails", group: :ci
        end

        group :test do
          gem "capybara"
        end
        gem "puma", ">= 5.0"
        """
    assert declared("Gemfile", gemfile) == [
        (5, "rubygems", "rails", "~> 7.1.0", "runtime"),
        (6, "rubygems", "pg", "~> 1.1, >= 1.1.4", "runtime"),
        (7, "rubygems", "bootsnap", "", "production"),
        (8, "rubygems", "mylib", "github acme/mylib", "runtime"),
        (9, "rubygems", "sidekiq", "~> 7.2", "worker,jobs"),
        (14, "rubygems", "redis", "", "runtime"),
        (18, "rubygems", "debug", "", "development,test"),
        (20, "rubygems", "activerecord-jdbc-adapter", "~> 70.0", "development,test"),
        (22, "rubygems", "rspec-rails", "", "development,test,ci"),
        (26, "rubygems", "capybara", "", "test"),
        (28, "rubygems", "puma", ">= 5.0", "runtime"),
    ]
    gemspec = """\
        Gem::Specification.new do |spec|
          spec.name = "my_gem"
          spec.add_dependency "rack", ">= 2.0", "< 4"
          spec.add_runtime_dependency("zeitwerk", "~> 2.6")
          s.add_development_dependency %q<rspec>.freeze, ["~> 3.12"]
          spec.add_dependency(
            "concurrent-ruby",
            "~> 1.2"
          )
          if s.respond_to? :add_runtime_dependency then
            s.add_runtime_dependency(%q<rack>.freeze, [">= 0"])
          end
        end
        """
    assert declared("my_gem.gemspec", gemspec) == [
        (3, "rubygems", "rack", ">= 2.0, < 4", "runtime"),
        (4, "rubygems", "zeitwerk", "~> 2.6", "runtime"),
        (5, "rubygems", "rspec", "~> 3.12", "dev"),
        (6, "rubygems", "concurrent-ruby", "~> 1.2", "runtime"),
    ]


def test_dotnet_projects_central_versions_and_packages_config():
    project = """\
        <Project Sdk="Microsoft.NET.Sdk.Web">
          <PropertyGroup>
            <TargetFramework>net8.0</TargetFramework>
            <SerilogVersion>3.1.1</SerilogVersion>
          </PropertyGroup>
          <ItemGroup>
            <PackageReference Include="Newtonsoft.Json" Version="13.0.3" />
            <PackageReference Include="Serilog" Version="$(SerilogVersion)" />
            <PackageReference Include="StyleCop.Analyzers" Version="1.1.118" PrivateAssets="all" />
            <PackageReference Include="Microsoft.EntityFrameworkCore.Design">
              <Version>8.0.0</Version>
              <PrivateAssets>all</PrivateAssets>
            </PackageReference>
            <PackageReference Update="Microsoft.SourceLink.GitHub" Version="8.0.0" />
            <ProjectReference Include="..\\Core\\Core.csproj" />
          </ItemGroup>
        </Project>
        """
    assert declared("src/Api/Api.csproj", project) == [
        (7, "nuget", "Newtonsoft.Json", "13.0.3", "runtime"),
        (8, "nuget", "Serilog", "3.1.1", "runtime"),
        (9, "nuget", "StyleCop.Analyzers", "1.1.118", "dev"),
        (10, "nuget", "Microsoft.EntityFrameworkCore.Design", "8.0.0", "dev"),
        (14, "nuget", "Microsoft.SourceLink.GitHub", "8.0.0", "runtime"),
    ]
    legacy = """\
        <?xml version="1.0" encoding="utf-8"?>
        <Project ToolsVersion="15.0" xmlns="http://schemas.microsoft.com/developer/msbuild/2003">
          <ItemGroup>
            <PackageReference Include="Dapper"><Version>2.1.24</Version></PackageReference>
          </ItemGroup>
        </Project>
        """
    assert declared("Legacy/Legacy.vbproj", legacy) == [(4, "nuget", "Dapper", "2.1.24", "runtime")]
    assert declared("Tool/Tool.fsproj", legacy) == [(4, "nuget", "Dapper", "2.1.24", "runtime")]
    central = """\
        <Project>
          <PropertyGroup>
            <ManagePackageVersionsCentrally>true</ManagePackageVersionsCentrally>
          </PropertyGroup>
          <ItemGroup>
            <PackageVersion Include="Newtonsoft.Json" Version="13.0.3" />
            <PackageVersion Include="xunit" Version="2.6.2" />
          </ItemGroup>
        </Project>
        """
    assert declared("Directory.Packages.props", central) == [
        (6, "nuget", "Newtonsoft.Json", "13.0.3", "managed"),
        (7, "nuget", "xunit", "2.6.2", "managed"),
    ]
    config = """\
        <?xml version="1.0" encoding="utf-8"?>
        <packages>
          <package id="EntityFramework" version="6.4.4" targetFramework="net48" />
          <package id="NUnit" version="3.13.3" targetFramework="net48" developmentDependency="true" />
        </packages>
        """
    assert declared("Web/packages.config", config) == [
        (3, "nuget", "EntityFramework", "6.4.4", "runtime"),
        (4, "nuget", "NUnit", "3.13.3", "dev"),
    ]


def test_pubspec_reads_each_section_and_each_source():
    text = """\
        name: shop
        description: A shop.
        version: 1.0.0+1

        environment:
          sdk: ">=3.0.0 <4.0.0"

        dependencies: # what the app runs on
          flutter:
            sdk: flutter
          http: ^1.1.0  # the client
          intl: "0.18.1"
          shared:
            path: ../shared
          router:
            git:
              url: https://github.com/acme/router.git
              ref: main
              path: packages/router
          charts:
            git: https://github.com/acme/charts.git
          internal:
            hosted: https://pub.example.com
            version: ^2.0.0
          any_version:

        dev_dependencies:
          flutter_test:
            sdk: flutter
          # the linter
          flutter_lints: ^3.0.0

        dependency_overrides:
          http: 1.1.2

        flutter:
          uses-material-design: true
        """
    assert declared("app/pubspec.yaml", text) == [
        (9, "pub", "flutter", "sdk flutter", "runtime"),
        (11, "pub", "http", "^1.1.0", "runtime"),
        (12, "pub", "intl", "0.18.1", "runtime"),
        (13, "pub", "shared", "path ../shared", "runtime"),
        (15, "pub", "router", "git https://github.com/acme/router.git", "runtime"),
        (20, "pub", "charts", "git https://github.com/acme/charts.git", "runtime"),
        (22, "pub", "internal", "^2.0.0", "runtime"),
        (25, "pub", "any_version", "", "runtime"),
        (28, "pub", "flutter_test", "sdk flutter", "dev"),
        (31, "pub", "flutter_lints", "^3.0.0", "dev"),
        (34, "pub", "http", "1.1.2", "override"),
    ]


def test_mix_exs_reads_the_deps_function_and_else_the_tuples_that_look_like_dependencies():
    text = """\
        defmodule Shop.MixProject do
          use Mix.Project

          def project do
            [app: :shop, version: "0.1.0", deps: deps()]
          end

          def application do
            [extra_applications: [:logger], mod: {Shop.Application, []}]
          end

          # {:commented_out, "~> 1.0"}
          defp deps do
            [
              {:phoenix, "~> 1.7"},
              {:credo, "~> 1.7", only: [:dev, :test], runtime: false},
              {:ex_doc, ">= 0.0.0", only: :dev},
              {:plug_cowboy,
               "~> 2.5"},
              {:heroicons, github: "tailwindlabs/heroicons", tag: "v2.1.1", app: false},
              {:core, path: "../core"},
              {:mint, git: "https://github.com/elixir-mint/mint.git", branch: "main"}
            ]
            |> Enum.map(fn dep -> dep end)
          end

          defp aliases do
            [setup: ["deps.get"], lint: {:not_a_dependency, "x"}]
          end
        end
        """
    assert declared("mix.exs", text) == [
        (15, "hex", "phoenix", "~> 1.7", "runtime"),
        (16, "hex", "credo", "~> 1.7", "dev,test"),
        (17, "hex", "ex_doc", ">= 0.0.0", "dev"),
        (18, "hex", "plug_cowboy", "~> 2.5", "runtime"),
        (20, "hex", "heroicons", "github tailwindlabs/heroicons", "runtime"),
        (21, "hex", "core", "path ../core", "runtime"),
        (22, "hex", "mint", "git https://github.com/elixir-mint/mint.git", "runtime"),
    ]
    no_deps_function = """\
        defmodule Tiny.MixProject do
          use Mix.Project
          def project, do: [app: :tiny, deps: [{:jason, "~> 1.4"}, {:dialyxir, [only: :dev]}]]
          def start(_type, _args), do: {:ok, self()}
        end
        """
    assert declared("apps/tiny/mix.exs", no_deps_function) == [
        (3, "hex", "jason", "~> 1.4", "runtime"),
        (3, "hex", "dialyxir", "", "dev"),
    ]


def test_package_swift_reads_each_requirement_form():
    text = """\
        // swift-tools-version:5.9
        import PackageDescription

        let package = Package(
            name: "Server",
            dependencies: [
                .package(url: "https://github.com/apple/swift-nio.git", from: "2.0.0"),
                .package(url: "https://github.com/vapor/vapor", .upToNextMajor(from: "4.89.0")),
                .package(
                    url: "https://github.com/apple/swift-log.git",
                    exact: "1.5.3"
                ),
                .package(url: "git@github.com:acme/kit.git", branch: "main"),
                .package(url: "https://github.com/acme/range.git", "1.0.0"..<"2.0.0"),
                .package(path: "../Core"),
                .package(name: "Legacy", url: "https://github.com/acme/legacy-swift.git", .exact("1.2.3")),
                // .package(url: "https://github.com/acme/commented-out.git", from: "1.0.0"),
            ],
            targets: [
                .target(name: "App", dependencies: [.product(name: "NIO", package: "swift-nio")]),
            ]
        )
        """
    assert declared("Package.swift", text) == [
        (7, "swift", "swift-nio", "from 2.0.0", "runtime"),
        (8, "swift", "vapor", "upToNextMajor from 4.89.0", "runtime"),
        (9, "swift", "swift-log", "exact 1.5.3", "runtime"),
        (13, "swift", "kit", "branch main", "runtime"),
        (14, "swift", "range", '"1.0.0"..<"2.0.0"', "runtime"),
        (15, "swift", "Core", "path ../Core", "runtime"),
        (16, "swift", "Legacy", "exact 1.2.3", "runtime"),
    ]


def test_vcpkg_and_conan_manifests():
    vcpkg = """\
        {
          "name": "engine",
          "version": "1.0.0",
          "dependencies": [
            "fmt",
            {
              "name": "boost-asio",
              "version>=": "1.83.0"
            },
            { "name": "vcpkg-cmake", "host": true }
          ],
          "features": {
            "tests": {
              "description": "Build the tests",
              "dependencies": ["gtest"]
            }
          },
          "overrides": [{"name": "fmt", "version": "10.1.1"}]
        }
        """
    assert declared("vcpkg.json", vcpkg) == [
        (5, "vcpkg", "fmt", "", "runtime"),
        (7, "vcpkg", "boost-asio", ">= 1.83.0", "runtime"),
        (10, "vcpkg", "vcpkg-cmake", "", "build"),
        (15, "vcpkg", "gtest", "", "tests"),
        (18, "vcpkg", "fmt", "10.1.1", "override"),
    ]
    conanfile_txt = """\
        [requires]
        zlib/1.2.13
        boost/1.83.0@acme/stable
        # openssl/3.1.0
        spdlog/[>=1.11 <2]

        [tool_requires]
        cmake/3.27.7
        [build_requires]
        ninja/1.11.1
        [test_requires]
        gtest/1.14.0
        [generators]
        CMakeDeps
        """
    assert declared("conanfile.txt", conanfile_txt) == [
        (2, "conan", "zlib", "1.2.13", "runtime"),
        (3, "conan", "boost", "1.83.0", "runtime"),
        (5, "conan", "spdlog", "[>=1.11 <2]", "runtime"),
        (8, "conan", "cmake", "3.27.7", "build"),
        (10, "conan", "ninja", "1.11.1", "build"),
        (12, "conan", "gtest", "1.14.0", "test"),
    ]
    conanfile_py = """\
        from conan import ConanFile

        class EngineConan(ConanFile):
            name = "engine"
            requires = "fmt/10.1.1", "zlib/1.3"
            tool_requires = ["cmake/3.27.7"]

            def requirements(self):
                self.requires("boost/1.83.0")
                self.requires(f"openssl/{self.version}")
                if self.options.tests:
                    self.test_requires("gtest/1.14.0")

            def build_requirements(self):
                self.tool_requires("ninja/1.11.1")
                self.build_requires("protobuf/3.21.12")
        """
    assert declared("conanfile.py", conanfile_py) == [
        (5, "conan", "fmt", "10.1.1", "runtime"),
        (5, "conan", "zlib", "1.3", "runtime"),
        (6, "conan", "cmake", "3.27.7", "build"),
        (9, "conan", "boost", "1.83.0", "runtime"),
        (12, "conan", "gtest", "1.14.0", "test"),
        (15, "conan", "ninja", "1.11.1", "build"),
        (16, "conan", "protobuf", "3.21.12", "build"),
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
        ("Gemfile", 'gem rails\ngem :pg, "1.0"\ngem(rack_version)'),
        ("my_gem.gemspec", 'spec.add_dependency rails_name, ">= 6"\nspec.add_dependency'),
        ("App.csproj", '<Project><ItemGroup><PackageReference Include="Serilog" Version="3.1.1" />'),
        ("App.csproj", '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;"><!ENTITY e "&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;"><!ENTITY f "&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;"><!ENTITY g "&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;"><!ENTITY h "&g;&g;&g;&g;&g;&g;&g;&g;&g;&g;">]><Project><ItemGroup><PackageReference Include="&h;" Version="1" /></ItemGroup></Project>'),
        ("Directory.Packages.props", '<Packages><PackageVersion Include="xunit" Version="2.6.2" /></Packages>'),
        ("packages.config", '<packages><package id="NUnit" version="3.13.3" /></packages'),
        ("pubspec.yaml", "dependencies: [http, path]\n  meta: ^1.9.0\ndev_dependencies:\n- test\n"),
        ("mix.exs", 'defmodule A.MixProject do\n  defp deps do\n    [{:phoenix, "~> 1.7"\n  end\nend\n'),
        ("mix.exs", "{:a, " * 100_000),
        ("Package.swift", '.package(url: "https://github.com/apple/swift-nio.git", from: "2.0.0"'),
        ("Package.swift", ".package(" * 50_000),
        ("vcpkg.json", '{"dependencies": {"fmt": "10.1.1"}}'),
        ("vcpkg.json", '{"dependencies": ["fmt", '),
        ("conanfile.txt", "[requires\nzlib/1.2.13\n"),
        ("conanfile.py", 'requires = "zlib/1.3"\n' + "(" * 5_000),
        ("conanfile.py", "requires = 3\nself.requires(version)\n"),
    ],
)
def test_a_manifest_its_parser_refuses_declares_nothing(path, text):
    assert declared_dependencies(path, text) == []


def test_an_oversized_manifest_is_not_read():
    text = '{"dependencies": {"lodash": "1"}, "padding": "' + "x" * MAX_MANIFEST_CHARS + '"}'
    assert declared_dependencies("package.json", text) == []
    assert declared_dependencies("package.json", '{"dependencies": {"lodash": "1"}}') != []


def test_a_directory_build_props_references_packages_for_every_project_below_it_and_gems_rb_is_a_gemfile():
    props = '<Project>\n  <ItemGroup>\n    <PackageReference Include="StyleCop.Analyzers" Version="1.1.118" PrivateAssets="all" />\n  </ItemGroup>\n</Project>\n'
    assert declared("Directory.Build.props", props) == [(3, "nuget", "StyleCop.Analyzers", "1.1.118", "dev")]
    assert declared("gems.rb", 'source "https://rubygems.org"\ngem "rails", "~> 7.1"\n') == [(2, "rubygems", "rails", "~> 7.1", "runtime")]


def test_manifests_are_told_by_name():
    assert is_manifest("a/b/Cargo.toml") and is_manifest("requirements.txt") and is_manifest("gradle/libs.versions.toml")
    assert not is_manifest("src/main.rs") and not is_manifest("docs/requirements-of-the-api.md")
    for path in (
        "Gemfile", "gems/my_gem.gemspec", "src/Api/Api.csproj", "Tool/Tool.fsproj", "Legacy/Legacy.vbproj",
        "Directory.Packages.props", "Web/packages.config", "app/pubspec.yaml", "apps/web/mix.exs", "Package.swift",
        "vcpkg.json", "conanfile.txt", "recipes/conanfile.py", "gems.rb", "Directory.Build.props", "src/Directory.Build.targets",
    ):
        assert is_manifest(path), path
    for path in (
        "Gemfile.lock", "src/Api/Api.csproj.user", "packages.lock.json", "pubspec.lock", "mix.lock",
        "Package.resolved", "Sources/App/main.swift", "conan.lock", "vcpkg-configuration.json",
    ):
        assert not is_manifest(path), path


@pytest.mark.parametrize(
    ("path", "text", "expected"),
    [
        # A profile's dependencies written before the project's.
        (
            "pom.xml",
            "<project>\n<profiles><profile><dependencies>\n<dependency><artifactId>a</artifactId></dependency>\n"
            "</dependencies></profile></profiles>\n<dependencies>\n<dependency><artifactId>b</artifactId></dependency>\n"
            "</dependencies>\n</project>\n",
            [(3, "a"), (6, "b")],
        ),
        # An exclusion names the same artifact before the dependency that declares it.
        (
            "pom.xml",
            "<project><dependencies>\n<dependency><artifactId>spring-core</artifactId>\n<exclusions><exclusion>\n"
            "<artifactId>commons-logging</artifactId>\n</exclusion></exclusions></dependency>\n<dependency>\n"
            "<artifactId>commons-logging</artifactId>\n</dependency>\n</dependencies></project>\n",
            [(2, "spring-core"), (7, "commons-logging")],
        ),
        # Two dependencies on one line.
        ("pom.xml", "<project><dependencies><dependency><artifactId>x</artifactId></dependency><dependency><artifactId>y</artifactId></dependency></dependencies></project>", [(1, "x"), (1, "y")]),
        # Another element includes a name first.
        (
            "App.csproj",
            '<Project>\n<ItemGroup><Using Include="Xunit" /></ItemGroup>\n<ItemGroup>\n'
            '<PackageReference Include="xunit" Version="2.6.1" />\n</ItemGroup>\n</Project>\n',
            [(4, "xunit")],
        ),
    ],
)
def test_an_xml_manifest_s_entries_are_on_the_lines_of_their_own_elements(path, text, expected):
    assert [(d.line, d.name.rsplit(":", 1)[-1]) for d in declared_dependencies(path, text)] == expected


@pytest.mark.parametrize(
    ("path", "text"),
    [
        ("go.mod", 'require "" v1.0.0\n'),
        ("Cargo.toml", '[dependencies]\n"" = "1"\n'),
        ("pubspec.yaml", 'dependencies:\n  "": ^1.0\n'),
        ("mix.exs", 'defp deps do\n  [{:"", "~> 1.0"}]\nend\n'),
    ],
)
def test_a_package_without_a_name_is_no_dependency(path, text):
    assert declared_dependencies(path, text) == []


def test_a_package_in_a_table_of_its_own_or_set_by_a_dotted_key_is_on_its_line():
    cargo = '[package]\nname = "x"\n\n[dependencies]\nfoo = "1"\ntokio.workspace = true\n\n[dependencies.serde]\nversion = "1"\n'
    poetry = '[tool.poetry.dependencies]\npython = "^3.10"\n\n[tool.poetry.dependencies.requests]\nversion = "^2"\n'
    assert [(d.line, d.name) for d in declared_dependencies("Cargo.toml", cargo)] == [(5, "foo"), (6, "tokio"), (8, "serde")]
    assert [(d.line, d.name) for d in declared_dependencies("pyproject.toml", poetry)] == [(4, "requests")]


@pytest.mark.parametrize(
    ("path", "text", "expected"),
    [
        # Python's parser does not end a line at a form feed; the lines here do, as ``str.splitlines`` does.
        ("conanfile.py", 'from conan import ConanFile\n\x0c\nclass C(ConanFile):\n    requires = "zlib/1.2.13"\n', [(5, "zlib")]),
        ("setup.py", '\x0c\x0c\x0c\nsetup(\n    description="click",\n    install_requires=["click"])\n', [(7, "click")]),
        # A key written with an escape.
        ("composer.json", '{\n  "require": {\n    "monolog\\/monolog": "^3"\n  }\n}\n', [(3, "monolog/monolog")]),
        # A feature's list written before the project's own.
        (
            "vcpkg.json",
            '{\n  "features": {"net": {"description": "n", "dependencies": ["curl"]}},\n  "dependencies": ["curl"]\n}\n',
            [(2, "curl"), (3, "curl")],
        ),
    ],
)
def test_entries_are_on_the_lines_str_splitlines_counts(path, text, expected):
    assert sorted((d.line, d.name) for d in declared_dependencies(path, text)) == expected
