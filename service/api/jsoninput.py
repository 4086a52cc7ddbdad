"""Client JSON, read strictly: only what every store (PostgreSQL text and JSON, SQLite, Redis) can hold
and every later step (pydantic, the engines, the response encoder) can handle reaches them.

Refused: text that is not UTF-8 or not JSON (400 invalid_json), nesting past MAX_DEPTH (400 invalid_json:
deep enough to exhaust the parser's recursion is a 500 otherwise), and, naming the field (422
invalid_input): NUL (PostgreSQL text cannot hold it), lone UTF-16 surrogates (no UTF-8 encoding exists, so
neither the database nor the response can be written), integers outside int64, NaN and infinities (not
JSON, and refused by the response encoder).
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from service.game.errors import GameError
from service.i18n.message import _, _n

MAX_DEPTH = 32
INT64 = 2**63
UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


def _constant(name: str) -> Any:
    raise GameError(400, "invalid_json", _("{name} is not a JSON number", name=name), field="body")


def loads(raw: bytes | str, *, where: str = "body") -> Any:
    """Parse and check a JSON document; a GameError names what is wrong with it."""
    try:
        text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
    except UnicodeDecodeError as exc:
        raise GameError(
            400, "invalid_json", _("the {where} is not UTF-8 (byte {start})", where=where, start=exc.start), field=where
        ) from None
    try:
        data = json.loads(text, parse_constant=_constant)
    except RecursionError:
        raise _too_deep(where) from None
    except ValueError as exc:
        raise GameError(
            400, "invalid_json", _("the {where} is not valid JSON: {exc}", where=where, exc=exc), field=where
        ) from None
    check(data, where)
    return data


def check(data: Any, where: str = "body") -> None:
    """Walk a parsed value (iteratively: the point is to refuse what recursion cannot handle)."""
    stack: list[tuple[Any, tuple, int]] = [(data, (), 1)]
    while stack:
        value, path, depth = stack.pop()
        if isinstance(value, dict):
            if depth > MAX_DEPTH:
                raise _too_deep(where)
            for key, item in value.items():
                if UNSTORABLE.search(key):  # named by its object: the key itself may not be printable
                    raise _unstorable(where, path, _("a key"))
                stack.append((item, path + (key,), depth + 1))
        elif isinstance(value, list):
            if depth > MAX_DEPTH:
                raise _too_deep(where)
            stack.extend((item, path + (i,), depth + 1) for i, item in enumerate(value))
        elif isinstance(value, str):
            if UNSTORABLE.search(value):
                raise _unstorable(where, path, _("a string"))
        elif isinstance(value, bool) or value is None:
            continue
        elif isinstance(value, int):
            if not -INT64 <= value < INT64:
                raise GameError(
                    422,
                    "invalid_input",
                    _("{field}: integers are limited to 64 bits", field=_name(where, path)),
                    field=_name(where, path),
                )
        elif isinstance(value, float) and not math.isfinite(value):
            raise GameError(
                422,
                "invalid_input",
                _("{field}: the number is out of range", field=_name(where, path)),
                field=_name(where, path),
            )


def _name(where: str, path: tuple) -> str:
    """The field as from_validation names it: dotted, without the top-level `body`."""
    parts = [str(p) for p in path]
    if where != "body":
        parts.insert(0, where)
    return ".".join(parts) or where


def _too_deep(where: str) -> GameError:
    return GameError(
        400,
        "invalid_json",
        _n(
            "the {where} nests deeper than {max_depth} level",
            "the {where} nests deeper than {max_depth} levels",
            MAX_DEPTH,
            where=where,
            max_depth=MAX_DEPTH,
        ),
        field=where,
    )


def _unstorable(where: str, path: tuple, what: str) -> GameError:
    name = _name(where, path)
    return GameError(
        422,
        "invalid_input",
        _("{name}: {what} may not contain NUL or unpaired surrogates (\\ud800-\\udfff)", name=name, what=what),
        field=name,
    )
