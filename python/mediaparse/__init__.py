"""mediaparse: parse spoken media requests with the ``mediaparse`` CLI from Python.

>>> from mediaparse import Parser
>>> with Parser(locale="en-US") as parser:
...     parser.parse("play Khalid")["intent"]
'INPlayMediaIntent'

One :class:`Parser` keeps one ``mediaparse`` process and streams lines through it. The result of each
utterance is the contract's JSON object (docs/CONTRACT.md in the MediaParse repository) as a dict.
"""

from ._parser import (
    ENV_BINARY,
    BinaryNotFoundError,
    MediaParseError,
    Parser,
    ParserBusyError,
    ParserClosedError,
    ProcessDiedError,
    StartError,
    UnsupportedLocaleError,
    find_binary,
    null_result,
    supported_locales,
)
from .columns import MAIN_FIELDS, main_slots, slot
from .dataframe import add_parse_columns

__version__ = "0.1.0"

__all__ = [
    "ENV_BINARY",
    "MAIN_FIELDS",
    "BinaryNotFoundError",
    "MediaParseError",
    "Parser",
    "ParserBusyError",
    "ParserClosedError",
    "ProcessDiedError",
    "StartError",
    "UnsupportedLocaleError",
    "add_parse_columns",
    "find_binary",
    "main_slots",
    "null_result",
    "slot",
    "supported_locales",
]
