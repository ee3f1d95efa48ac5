"""Candidate ranking configurations: named sets of ``RankingParams`` overrides to choose among.

A JSON file gives them either as a grid, an object of field -> list of values
(every combination is a candidate), or as a list of objects, each a set of
overrides with an optional ``name``. The defaults are always the first
candidate, so a choice can only move away from them on evidence.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rag.services import DEFAULT_PARAMS, RankingParams

DEFAULTS_NAME = "defaults"


class CandidateError(ValueError):
    """The candidates cannot be used; the message names the field or entry."""


@dataclass(frozen=True)
class Candidate:
    name: str
    params: RankingParams


DEFAULT_CANDIDATE = Candidate(DEFAULTS_NAME, DEFAULT_PARAMS)

_FIELDS = {field.name: field for field in dataclasses.fields(RankingParams)}


def ranking_params(overrides: Mapping[str, Any]) -> RankingParams:
    """``RankingParams`` with ``overrides`` applied; each value must have the type of the field's default.

    A mapping field (``layer_weights``) takes a partial mapping, laid over the default one.
    """
    changes: dict[str, Any] = {}
    for name, value in overrides.items():
        if name not in _FIELDS:
            raise CandidateError(f"{name} is not a ranking parameter")
        default = getattr(DEFAULT_PARAMS, name)
        if isinstance(default, Mapping):
            if not isinstance(value, Mapping) or not all(
                key in default and _is_number(weight) for key, weight in value.items()
            ):
                raise CandidateError(f"{name} takes an object of {', '.join(sorted(default))} -> number")
            value = {**default, **{key: float(weight) for key, weight in value.items()}}
        elif isinstance(default, bool):
            if not isinstance(value, bool):
                raise CandidateError(f"{name} takes true or false, not {value!r}")
        elif isinstance(default, int):
            if isinstance(value, bool) or not isinstance(value, int):
                raise CandidateError(f"{name} takes a whole number, not {value!r}")
        elif isinstance(default, float):
            if not _is_number(value):
                raise CandidateError(f"{name} takes a number, not {value!r}")
            value = float(value)
        elif not isinstance(value, type(default)):
            raise CandidateError(f"{name} takes a {type(default).__name__}, not {value!r}")
        changes[name] = value
    return dataclasses.replace(DEFAULT_PARAMS, **changes)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def candidate_name(overrides: Mapping[str, Any]) -> str:
    """``field=value`` pairs in the order given: the name says what differs from the defaults."""
    if not overrides:
        return DEFAULTS_NAME
    return ",".join(f"{name}={json.dumps(value, sort_keys=True)}" for name, value in overrides.items())


def parse_candidates(data: Any) -> list[Candidate]:
    """Candidates from decoded JSON (a grid object or a list of override objects); defaults first.

    A candidate whose parameters equal an earlier one's is dropped, so no choice is decided
    between two names for the same ranking.
    """
    entries: list[tuple[str | None, dict[str, Any]]] = []
    if isinstance(data, Mapping):
        for name, values in data.items():
            if not isinstance(values, list) or not values:
                raise CandidateError(f"grid field {name} needs a non-empty list of values")
        names = list(data)
        for combination in itertools.product(*(data[name] for name in names)):
            entries.append((None, dict(zip(names, combination))))
    elif isinstance(data, list):
        for position, entry in enumerate(data, start=1):
            if not isinstance(entry, Mapping):
                raise CandidateError(f"candidate {position} is not an object")
            overrides = dict(entry)
            name = overrides.pop("name", None)
            if name is not None and (not isinstance(name, str) or not name.strip()):
                raise CandidateError(f"candidate {position}: name must be a non-empty string")
            entries.append((name, overrides))
    else:
        raise CandidateError("candidates are a grid object (field -> list of values) or a list of objects")

    candidates = [DEFAULT_CANDIDATE]
    for name, overrides in entries:
        params = ranking_params(overrides)
        if any(params == known.params for known in candidates):
            continue
        label = name or candidate_name(overrides)
        if any(label == known.name for known in candidates):
            raise CandidateError(f"two candidates are named {label}")
        candidates.append(Candidate(label, params))
    return candidates


def load_candidates(path: str | Path) -> list[Candidate]:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise CandidateError(f"cannot read candidates {path}: {exc.strerror or exc}") from exc
    except json.JSONDecodeError as exc:
        raise CandidateError(f"candidates {path}: not JSON ({exc.msg})") from exc
    return parse_candidates(data)
