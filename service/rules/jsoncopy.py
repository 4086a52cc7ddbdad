"""A deep copy for JSON-shaped data (dicts, lists, strings, numbers, booleans, None): the states and event
payloads every move copies.

JSON-shaped data is copied by a round trip through orjson's JSON text, about twice as fast as walking it in
Python on a table of a few dozen KB, and what comes out is what a state read back from the records would be:
a list or dict that appears twice in the input comes out as two copies (copy.deepcopy would keep one shared
object), and a tuple comes out as a list. Anything orjson will not write as JSON (a set, a Fraction, a key that
is not a string, an integer past 64 bits, a subclass of dict, list, str or int) is copied by walking the value:
dicts and lists rebuilt, anything not JSON-shaped through copy.deepcopy. orjson does write an enum member or a
UUID, as its value: the rule engines put neither in a state or an event."""

from __future__ import annotations

import copy
from typing import Any

import orjson

_ATOMS = frozenset({str, int, float, bool, type(None)})
# Subclasses go to `default`, which orjson is not given: they raise, and the walk keeps their type.
_STRICT = orjson.OPT_PASSTHROUGH_SUBCLASS | orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME


def json_copy(value: Any) -> Any:
    kind = type(value)
    if kind in _ATOMS:
        return value
    if kind is dict or kind is list:
        try:
            return orjson.loads(orjson.dumps(value, option=_STRICT))
        except TypeError:
            pass
    return _walk(value)


def _walk(value: Any) -> Any:
    kind = type(value)
    if kind is dict:
        return {k: v if type(v) in _ATOMS else _walk(v) for k, v in value.items()}
    if kind is list:
        return [v if type(v) in _ATOMS else _walk(v) for v in value]
    if kind in _ATOMS:
        return value
    return copy.deepcopy(value)
