"""Typed readers for settings that come from the environment.

Each reader accepts ``NAME`` or, for secrets mounted as files, ``NAME_FILE``
(the file's content, stripped). A value that does not parse raises
``ImproperlyConfigured`` naming the variable and what was expected, so a typo
in a deployment stops the process at start-up instead of misbehaving later.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def _raw(name: str, environ: Mapping[str, str] | None = None) -> str | None:
    environ = os.environ if environ is None else environ
    if name in environ:
        return environ[name]
    file_name = environ.get(f"{name}_FILE")
    if file_name:
        try:
            with open(file_name, encoding="utf-8") as fh:
                return fh.read().strip()
        except OSError as exc:
            raise ImproperlyConfigured(f"{name}_FILE={file_name!r} cannot be read: {exc}") from exc
    return None


def env_str(name: str, default: str = "", environ: Mapping[str, str] | None = None) -> str:
    value = _raw(name, environ)
    return default if value is None else value


def env_bool(name: str, default: bool = False, environ: Mapping[str, str] | None = None) -> bool:
    value = _raw(name, environ)
    if value is None or value.strip() == "":
        return default
    lowered = value.strip().lower()
    if lowered in _TRUE:
        return True
    if lowered in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={value!r} is not a boolean; use one of true/false, 1/0, yes/no, on/off")


def env_int(
    name: str,
    default: int,
    *,
    minimum: int | None = None,
    maximum: int | None = None,
    environ: Mapping[str, str] | None = None,
) -> int:
    value = _raw(name, environ)
    if value is None or value.strip() == "":
        return default
    try:
        number = int(value.strip())
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r} is not an integer") from None
    if minimum is not None and number < minimum:
        raise ImproperlyConfigured(f"{name}={number} is below the minimum of {minimum}")
    if maximum is not None and number > maximum:
        raise ImproperlyConfigured(f"{name}={number} is above the maximum of {maximum}")
    return number


def env_float(
    name: str,
    default: float,
    *,
    minimum: float | None = None,
    maximum: float | None = None,
    environ: Mapping[str, str] | None = None,
) -> float:
    value = _raw(name, environ)
    if value is None or value.strip() == "":
        return default
    try:
        number = float(value.strip())
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r} is not a number") from None
    if minimum is not None and number < minimum:
        raise ImproperlyConfigured(f"{name}={number} is below the minimum of {minimum}")
    if maximum is not None and number > maximum:
        raise ImproperlyConfigured(f"{name}={number} is above the maximum of {maximum}")
    return number


def env_list(name: str, default: list[str], environ: Mapping[str, str] | None = None) -> list[str]:
    """A comma-separated list; blank items are dropped."""
    value = _raw(name, environ)
    if value is None:
        return list(default)
    return [item.strip() for item in value.split(",") if item.strip()]


def env_choice(name: str, default: str, choices: tuple[str, ...], environ: Mapping[str, str] | None = None) -> str:
    value = env_str(name, default, environ).strip().lower()
    if value not in choices:
        shown = ", ".join(choice or "empty" for choice in choices)
        raise ImproperlyConfigured(f"{name}={value!r} must be one of: {shown}")
    return value
