"""pandas helper: parse a column of a DataFrame into intent and slot columns.

pandas is imported only when :func:`add_parse_columns` is called (``pip install pandas``).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, List, Optional, Sequence

from ._parser import Parser
from .columns import MAIN_FIELDS, slot

if TYPE_CHECKING:  # pragma: no cover
    import pandas

__all__ = ["add_parse_columns"]


def add_parse_columns(
    df: "pandas.DataFrame",
    column: str,
    parser: Optional[Parser] = None,
    *,
    fields: Sequence[str] = MAIN_FIELDS,
    prefix: str = "",
    result_column: Optional[str] = "result",
    json_column: Optional[str] = None,
    overwrite: bool = False,
    **parser_options: Any,
) -> "pandas.DataFrame":
    """Return a copy of ``df`` with the parse of ``df[column]`` added as columns.

    Args:
        df: the DataFrame; its rows and index are kept as they are.
        column: the column of utterances (``str`` or UTF-8 ``bytes``; ``None``/NaN give a result whose
            ``error`` says there was no text).
        parser: the :class:`Parser` to use; without one, a Parser is made from ``parser_options``
            (``locale=…``, ``app_names=…`` …) and closed afterwards.
        fields: the result values to put in columns, each named ``prefix + field`` (see
            :func:`mediaparse.columns.slot`: ``"mediaName"`` looks inside ``mediaSearch``, dotted names
            are paths). Absent values are ``None``.
        result_column: a column for the whole result (a dict), or ``None`` for none.
        json_column: a column for the CLI's JSON line (a str), or ``None`` (the default) for none.
        overwrite: replace existing columns of the same names instead of raising ``ValueError``.
    """
    try:
        import pandas as pd
    except ImportError as error:  # pragma: no cover - depends on the environment
        raise ImportError("add_parse_columns needs pandas: pip install pandas") from error

    if column not in df.columns:
        raise KeyError(f"no column {column!r} in the DataFrame (columns: {list(df.columns)})")
    names: List[str] = [prefix + f for f in fields]
    for extra in (result_column, json_column):
        if extra is not None:
            names.append(extra)
    if len(set(names)) != len(names):
        raise ValueError(f"the new columns' names repeat: {names}")
    clash = [n for n in names if n in df.columns]
    if clash and not overwrite:
        raise ValueError(
            f"the DataFrame already has columns {clash}; pass prefix='parse_' (or another), or overwrite=True"
        )

    texts: List[Any] = []
    for position, value in enumerate(df[column].tolist()):
        if isinstance(value, (str, bytes)):
            texts.append(value)
        elif value is None or (not isinstance(value, (list, tuple, dict)) and pd.isna(value)):
            texts.append(None)
        else:
            raise TypeError(
                f"column {column!r} holds {value!r:.60} (of type {type(value).__name__}) at row {position}, not text: "
                f"convert the column first (df[{column!r}].astype(str)) or drop those rows"
            )

    own = parser is None
    if parser is None:
        parser = Parser(**parser_options)
    elif parser_options:
        raise TypeError(f"pass either parser= or Parser options, not both (got {sorted(parser_options)})")
    try:
        lines = list(parser.parse_many_raw(texts))
    finally:
        if own:
            parser.close()
    if len(lines) != len(texts):  # parse_many_raw yields one line per text or raises
        raise RuntimeError(f"mediaparse gave {len(lines)} results for {len(texts)} rows")

    results = [json.loads(line) for line in lines]
    out = df.copy()
    for field in fields:
        out[prefix + field] = pd.Series([slot(r, field) for r in results], index=df.index, dtype=object)
    if result_column is not None:
        out[result_column] = pd.Series(results, index=df.index, dtype=object)
    if json_column is not None:
        out[json_column] = pd.Series(lines, index=df.index, dtype=object)
    return out
