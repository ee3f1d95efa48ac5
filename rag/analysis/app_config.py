"""JVM servers' configuration files: the path an application serves all its routes under.

Spring Boot serves every route of an application under ``server.servlet.context-path`` (Spring MVC) or
``spring.webflux.base-path`` (WebFlux), Micronaut under ``micronaut.server.context-path``, Quarkus under
``quarkus.http.root-path`` (its JAX-RS resources), each set in the application's
``src/main/resources/application.properties`` or ``application.yml``. Each is a ``context_path`` mount of
that framework (``Mount.parent``): ``rag.analysis.entrypoints.mounts`` puts the framework's routes of the
files under the folder that holds ``src/main`` under it (Next.js's ``basePath``, read from ``next.config.js`` by
the JavaScript analysis, likewise for the pages and routes of the files beside and below it). A profile's file (``application-dev.yml``) and a
YAML document of a profile (``spring.config.activate.on-profile``) are not read: they change the path for
some runs, not the one the application serves by default.

YAML is read by PyYAML's safe loader; a document's keys are read flat (``server.servlet.context-path`` written
nested or dotted alike), at most ``MAX_KEYS`` of them, so anchors that repeat a mapping many times over read
no further. A file that does not parse gives no prefix.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import yaml

from rag.analysis.facts import FileFacts, Mount

# The setting that gives the path, and the framework whose routes it prefixes.
CONTEXT_PATH_KEYS = {
    "server.servlet.context-path": "spring",
    "spring.webflux.base-path": "spring",
    "micronaut.server.context-path": "micronaut",
    "quarkus.http.root-path": "jaxrs",
}
CONFIG_FILE = re.compile(r"(?:^|/)src/main/resources/application\.(properties|ya?ml)$")
# Keys read of one YAML file, and the longest file read (an application's configuration is a few KB).
MAX_KEYS = 10_000
MAX_CONFIG_CHARS = 256 * 1024
_PROFILE_KEYS = ("spring.config.activate.on-profile", "spring.profiles")
# A properties line: ``key=value``, ``key: value`` or ``key value`` (``#`` and ``!`` start comments).
_PROPERTY = re.compile(r"^[ \t]*([\w.\-\[\]]+)[ \t]*[=: \t][ \t]*(.*?)[ \t]*$")
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def application_folder(path: str) -> str:
    """The folder of the application a configuration file configures: the one that holds ``src/main`` for a JVM
    server's, else the file's own (Next.js's ``next.config.js``)."""
    found = CONFIG_FILE.search(path)
    if found is None:
        return path.rsplit("/", 1)[0] + "/" if "/" in path else ""
    return path[: found.start() + (path[found.start()] == "/")]


def context_paths(path: str, text: str) -> FileFacts | None:
    """The ``context_path`` mounts an application's configuration file sets; None when it sets none."""
    if CONFIG_FILE.search(path) is None or len(text) > MAX_CONFIG_CHARS:
        return None
    settings = dict(_properties(text) if path.endswith(".properties") else _yaml_settings(text))
    mounts = tuple(
        Mount("context_path", framework, "", value, path, line)
        for key, framework in CONTEXT_PATH_KEYS.items()
        if (found := settings.get(key)) is not None and (value := _default_of(found[0].strip())) and value != "/"
        for line in (found[1],)
    )
    return FileFacts(mounts=mounts) if mounts else None


# A value the environment may set (``${CONTEXT_PATH:/api}``): its default, the path the application serves by default.
_PLACEHOLDER = re.compile(r"\$\{[^:}]*(?::([^}]*))?\}")


def _default_of(value: str) -> str:
    """The value with each placeholder its default (``${CONTEXT_PATH:/api}``: ``/api``); "" when one has none."""
    if any(found.group(1) is None for found in _PLACEHOLDER.finditer(value)):
        return ""
    return _PLACEHOLDER.sub(lambda found: found.group(1), value)


def _properties(text: str) -> Iterator[tuple[str, tuple[str, int]]]:
    for number, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith(("#", "!")):
            continue
        found = _PROPERTY.match(line)
        if found is not None and found.group(1) in CONTEXT_PATH_KEYS:
            yield found.group(1), (found.group(2), number)


def _yaml_settings(text: str) -> Iterator[tuple[str, tuple[str, int]]]:
    """The context-path keys of the first documents that are no profile's, with the line of the file that
    sets each (found by its last part: YAML's loader keeps no lines)."""
    lines = text.splitlines()
    try:
        for document in yaml.load_all(text, Loader=_LOADER):
            flat = dict(_flat(document))
            if any(key in flat for key in _PROFILE_KEYS):
                continue
            for key in CONTEXT_PATH_KEYS:
                value = flat.get(key)
                if isinstance(value, str):
                    last = key.rsplit(".", 1)[-1]
                    line = next((number for number, written in enumerate(lines, 1) if written.strip().startswith(last)), 1)
                    yield key, (value, line)
    except (yaml.YAMLError, RecursionError, ValueError):
        return


def _flat(document: object) -> Iterator[tuple[str, object]]:
    """A YAML document's settings by their dotted keys, at most ``MAX_KEYS`` of them."""
    pending: list[tuple[str, object]] = [("", document)]
    read = 0
    while pending and read < MAX_KEYS:
        prefix, value = pending.pop()
        read += 1
        if isinstance(value, dict):
            pending.extend((f"{prefix}.{key}" if prefix else str(key), item) for key, item in value.items())
        else:
            yield prefix, value
