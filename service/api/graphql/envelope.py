"""A mutation's `input`, made from the REST operation it stands for: the ids REST takes in the URL, then the
fields of the REST body's model, so a field, limit or description added to the body reaches GraphQL too.

Where the body holds an open dict that GraphQL types per rule system (a move, a sheet, options), a
replacement names the typed input and how its value becomes the body's. `body()` turns an input back into the
REST body, which the resolver parses with the same model as REST (service/api/bodies.py).
"""

import enum
import typing
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, cast

import strawberry
from pydantic import BaseModel
from pydantic.fields import FieldInfo
from strawberry.types.unset import UNSET

from service.api.graphql.generate import to_plain
from service.api.graphql.typed import GEN


@dataclass(frozen=True)
class Typed:
    """A body field GraphQL sends as another type: the type, and the body's value made from the input's."""

    type: Any
    body: Callable[[Any], Any] = to_plain


class Envelope(Protocol):
    """An input class envelope() makes: what body() and the contract tests read from it besides its fields."""

    body_model: ClassVar[type[BaseModel] | None]
    skipped: ClassVar[tuple[str, ...]]
    ids: ClassVar[tuple[str, ...]]
    convert: ClassVar[dict[str, Callable[[Any], Any]]]
    null_is_default: ClassVar[frozenset[str]]


def envelope(
    name: str,
    model: type[BaseModel] | None = None,
    *,
    ids: Sequence[str] = (),
    replace: dict[str, Typed] | None = None,
    skip: Sequence[str] = (),
    extra: dict[str, tuple[Any, Any]] | None = None,
) -> type:
    """The input `name`: `ids` (each `ID!`), the fields of `model` but those in `skip`, and `extra` (name ->
    (annotation, strawberry field)): what GraphQL carries beside the body, such as a REST header."""
    replace = replace or {}
    fields = dict(model.model_fields) if model is not None else {}
    unknown = (set(skip) | set(replace)) - set(fields)
    if unknown:
        raise ValueError(f"{name}: {sorted(unknown)} are no fields of the body")
    annotations: dict[str, Any] = {key: strawberry.ID for key in ids}
    attrs: dict[str, Any] = {"__module__": __name__}
    convert: dict[str, Callable[[Any], Any]] = {}
    null_is_default: set[str] = set()
    for key, info in fields.items():
        if key in skip:
            continue
        if key in replace:
            tp, conv = replace[key].type, replace[key].body
        else:
            tp, plain = GEN.typed(info.annotation, name, key, inputs=True)
            conv = to_plain if plain is None else _then(plain)
        convert[key] = conv
        annotations[key], attrs[key], default_null = _field(tp, info)
        if default_null:
            null_is_default.add(key)
    for key, (tp, field) in (extra or {}).items():
        annotations[key], attrs[key] = tp, field
    attrs["__annotations__"] = annotations
    cls = type(name, (), attrs)
    out = cast("type[Envelope]", strawberry.input(cls, name=GEN.claim(name)))
    out.body_model, out.skipped, out.ids = model, tuple(skip), tuple(ids)
    out.convert, out.null_is_default = convert, frozenset(null_is_default)
    return out


def _then(plain: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """`to_plain`, then `plain`: bound here, where a lambda in envelope()'s loop would see the last field's."""
    return lambda v: plain(to_plain(v))


def _field(tp: Any, info: FieldInfo) -> tuple[Any, Any, bool]:
    """(annotation, strawberry field, whether null stands for the model's default). A plain default is the SDL's
    default; any other (a `default_factory`) shows as `null`, which leaves the field out of the body."""
    if info.is_required():
        # A required field that may be null (`player_id: str | None`) is null when omitted: GraphQL lets a client
        # leave out any nullable field, and these mutations have always read that as null.
        return tp, strawberry.field(description=info.description), False
    default = info.default
    if info.default_factory is not None or not isinstance(default, (type(None), str, int, float, bool)):
        return typing.Optional[tp], strawberry.field(description=info.description, default=None), True
    if default is None:
        return typing.Optional[tp], strawberry.field(description=info.description, default=None), False
    kind = _enum_in(tp)
    value = kind(default) if kind is not None else default
    return tp, strawberry.field(description=info.description, default=value), False


def _enum_in(tp: Any) -> Any:
    args = [a for a in typing.get_args(tp) if a is not type(None)] if typing.get_origin(tp) is typing.Union else [tp]
    found = args[0] if len(args) == 1 else None
    return found if isinstance(found, type) and issubclass(found, enum.Enum) else None


def body(value: Any) -> dict[str, Any]:
    """The REST body `value` stands for: its body fields as REST has them; unset ones left out, so the model's
    default applies, as when a REST client omits them."""
    cls: type[Envelope] = type(value)
    out: dict[str, Any] = {}
    for key, conv in cls.convert.items():
        v = getattr(value, key)
        if v is UNSET or (v is None and key in cls.null_is_default):
            continue
        out[key] = None if v is None else conv(v)
    return out
