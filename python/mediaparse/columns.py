"""Flat columns from a result: the intent and the main slots, for tables (pandas, Spark)."""

from __future__ import annotations

from typing import Any, Dict, Mapping, Sequence, Tuple

__all__ = ["MAIN_FIELDS", "slot", "main_slots"]

#: The columns :func:`main_slots` gives by default: the intent, the main slots, the score and the error.
MAIN_FIELDS: Tuple[str, ...] = (
    "intent",
    "mediaType",
    "mediaName",
    "artistName",
    "albumName",
    "genreNames",
    "appName",
    "command",
    "score",
    "error",
)


def slot(result: Mapping[str, Any], name: str) -> Any:
    """One value of a result by name, ``None`` when absent.

    A plain name is looked up at the top level, then inside ``mediaSearch`` (so ``"mediaName"`` finds
    ``result["mediaSearch"]["mediaName"]``); a dotted name is a path (``"target.area"``,
    ``"mediaDestination.playlistName"``, ``"mediaSearch.releaseDate.start"``).
    """
    if "." in name:
        value: Any = result
        for part in name.split("."):
            if not isinstance(value, Mapping) or part not in value:
                return None
            value = value[part]
        return value
    if name in result:
        return result[name]
    search = result.get("mediaSearch")
    if isinstance(search, Mapping):
        return search.get(name)
    return None


def main_slots(result: Mapping[str, Any], fields: Sequence[str] = MAIN_FIELDS) -> Dict[str, Any]:
    """``{field: slot(result, field)}`` for each of ``fields``."""
    return {field: slot(result, field) for field in fields}
