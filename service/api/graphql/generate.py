"""GraphQL types generated from pydantic models: the models the REST document is rendered from.

A model becomes an object type (fields resolve from the model instance, or from a plain dict of the same
shape), and an input type when a client sends it. Field types follow the annotations:

- `str`, `int`, `bool`, `float` are the scalars; a `Literal` of names is an enum (of the literal's values,
  spelled as in REST), any other `Literal` its scalar;
- a model is its type, a union of models a GraphQL union (resolved by the instance's class);
- `dict[str, Model]` is a list of `{key, value}` entries (GraphQL has no maps); any other dict, and what no
  rule above covers, is the `JSON` scalar.

strawberry's own pydantic integration needs one hand-written class per model and has no answer for
`Literal` or dicts; this walks the models instead, so a new field in a rule system's model shows up in the
schema without a line here.
"""
from __future__ import annotations

import enum
import json
import re
import types
import typing
from typing import Any, Literal

import strawberry
from pydantic import BaseModel
from strawberry.scalars import JSON
from strawberry.types.unset import UNSET

NAME = re.compile(r"^[_A-Za-z][_0-9A-Za-z]*$")
# Enums every part of the API shares: the same values get the same name wherever they appear.
_ENUM_NAMES: dict[tuple[str, ...], str] = {}


def share_enum(name: str, values: tuple[str, ...]) -> None:
    _ENUM_NAMES[tuple(values)] = name


def camel(name: str) -> str:
    return "".join(p[:1].upper() + p[1:] for p in name.split("_"))


def _strip(tp: Any) -> Any:
    while typing.get_origin(tp) is typing.Annotated:
        tp = typing.get_args(tp)[0]
    return tp


def _is_union(tp: Any) -> bool:
    return typing.get_origin(tp) in (typing.Union, types.UnionType)


def _is_model(tp: Any) -> bool:
    return isinstance(tp, type) and issubclass(tp, BaseModel)


class Entry:
    """One `{key, value}` of a map, for the generated entry types."""

    __slots__ = ("key", "value")

    def __init__(self, key: str, value: Any) -> None:
        self.key, self.value = key, value


def _entries(name: str):
    def resolve(root) -> list[Entry]:
        value = root.get(name) if isinstance(root, dict) else getattr(root, name)
        return [Entry(k, v) for k, v in (value or {}).items()]
    return resolve


class Generator:
    """Makes (once) the strawberry type of each model; `naming(model)` gives the GraphQL name."""

    def __init__(self, naming) -> None:
        self.naming = naming
        self.outputs: dict[type, type] = {}
        self.inputs: dict[type, type] = {}
        self.enums: dict[tuple[str, ...], type] = {}
        self.unions: dict[tuple[type, ...], Any] = {}
        self.names: set[str] = set()
        self._building: set[type] = set()
        # (model, field name) -> (annotation, resolver or None): fields the caller types itself.
        self.overrides: dict[tuple[type, str], tuple[Any, Any]] = {}

    def claim(self, name: str) -> str:
        if name in self.names:
            raise ValueError(f"two GraphQL types would be named {name}")
        self.names.add(name)
        return name

    # Enums -------------------------------------------------------------------------------------------------
    def enum(self, values: tuple[str, ...], name: str) -> Any:
        key = tuple(values)
        if key in self.enums:
            return self.enums[key]
        py = enum.Enum(self.claim(_ENUM_NAMES.get(key, name)), [(v, v) for v in values], type=str)
        self.enums[key] = strawberry.enum(py)
        return self.enums[key]

    def _literal(self, tp: Any, owner: str, field: str, *, inputs: bool) -> Any:
        values = typing.get_args(tp)
        if all(isinstance(v, bool) for v in values):
            return bool
        if all(isinstance(v, int) and not isinstance(v, bool) for v in values):
            return int
        if not all(isinstance(v, str) for v in values):
            return JSON
        usable = all(NAME.match(v) and v not in ("true", "false", "null") for v in values)
        # One value (the `type` of a move or event) says nothing a client chooses: a plain string.
        if not usable or (len(values) == 1 and tuple(values) not in _ENUM_NAMES):
            return str
        return self.enum(tuple(values), f"{owner}{camel(field)}")

    # Field types -------------------------------------------------------------------------------------------
    def annotation(self, tp: Any, owner: str, field: str, *, inputs: bool) -> Any:
        tp = _strip(tp)
        if _is_union(tp):
            args = [a for a in typing.get_args(tp) if a is not type(None)]
            inner = self.annotation(args[0], owner, field, inputs=inputs) if len(args) == 1 else \
                self._union([_strip(a) for a in args], owner, field, inputs=inputs)
            return typing.Optional[inner] if len(args) < len(typing.get_args(tp)) else inner
        origin = typing.get_origin(tp)
        if tp is str and (field == "id" or field.endswith(("_id", "_ids"))):
            return strawberry.ID  # every identifier is an ID, as `campaign(id: ID!)`
        if tp in (str, int, bool, float):
            return tp
        if origin is Literal:
            return self._literal(tp, owner, field, inputs=inputs)
        if _is_model(tp):
            if tp in self._building:
                return JSON  # a model that contains itself: GraphQL would need a lazy reference
            return self.input(tp) if inputs else self.output(tp)
        if isinstance(tp, type) and issubclass(tp, enum.Enum):
            return strawberry.enum(tp)
        if origin in (list, set, frozenset) or (origin is tuple and len(typing.get_args(tp)) == 2
                                                 and typing.get_args(tp)[1] is Ellipsis):
            return list[self.annotation(typing.get_args(tp)[0], owner, field, inputs=inputs)]
        if origin is tuple:
            args = {_strip(a) for a in typing.get_args(tp)}
            if len(args) == 1:
                return list[self.annotation(args.pop(), owner, field, inputs=inputs)]
            return JSON
        if origin is dict and not inputs:
            value = _strip(typing.get_args(tp)[1])
            if _is_model(value) or (_is_union(value) and all(_is_model(_strip(a)) for a in typing.get_args(value))):
                return list[self._entry(value, owner, field)]
        return JSON

    def _union(self, members: list[Any], owner: str, field: str, *, inputs: bool) -> Any:
        if inputs or not all(_is_model(m) for m in members):
            return JSON
        return self.union(members, f"{owner}{camel(field)}")

    def union(self, members: list[type[BaseModel]], name: str, extra: tuple = ()) -> Any:
        key = (name, *members, *extra)
        if key not in self.unions:
            self.unions[key] = typing.Annotated[typing.Union[tuple(self.output(m) for m in members) + extra],
                                                strawberry.union(self.claim(name))]
        return self.unions[key]

    def _entry(self, value: Any, owner: str, field: str) -> type:
        name = f"{owner}{camel(field)}Entry"
        inner = self.annotation(value, owner, field, inputs=False)
        cls = type(name, (), {"__annotations__": {"key": str, "value": inner}, "__module__": __name__,
                              "is_type_of": classmethod(lambda c, obj, info: isinstance(obj, Entry))})
        out = strawberry.type(cls, name=self.claim(name), description="One entry of a map: its key and its value.")
        out.map_entry = True
        return out

    # Object and input types --------------------------------------------------------------------------------
    def output(self, model: type[BaseModel], name: str | None = None) -> type:
        if model in self.outputs:
            return self.outputs[model]
        name = name or self.naming(model)
        self._building.add(model)
        try:
            annotations: dict[str, Any] = {}
            attrs: dict[str, Any] = {"__module__": __name__}
            for field, info in model.model_fields.items():
                override = self.overrides.get((model, field))
                tp, resolver = override if override else (None, None)
                if tp is None:
                    tp = self.annotation(info.annotation, name, field, inputs=False)
                    if typing.get_origin(tp) is list and _is_entry(typing.get_args(tp)[0]):
                        resolver = _entries(field)
                annotations[field] = tp
                attrs[field] = strawberry.field(description=info.description, resolver=resolver) if resolver \
                    else strawberry.field(description=info.description)
            attrs["__annotations__"] = annotations
            # A union's member is told by the model instance's class (unions never get plain dicts: see
            # typed.py); elsewhere the application layer's dict of the model's shape is the object.
            attrs["is_type_of"] = classmethod(lambda c, obj, info, model=model: type(obj) is model
                                              or isinstance(obj, dict))
            cls = type(name, (), attrs)
            out = strawberry.type(cls, name=self.claim(name), description=_doc(model))
        finally:
            self._building.discard(model)
        self.outputs[model] = out
        return out

    def input(self, model: type[BaseModel], name: str | None = None, *, skip: tuple[str, ...] = ()) -> type:
        if model in self.inputs:
            return self.inputs[model]
        name = name or _input_name(self.naming(model))
        self._building.add(model)
        try:
            annotations: dict[str, Any] = {}
            attrs: dict[str, Any] = {"__module__": __name__}
            for field, info in model.model_fields.items():
                if field in skip:
                    continue
                tp = self.annotation(info.annotation, name, field, inputs=True)
                if info.is_required():
                    attrs[field] = strawberry.field(description=info.description)
                else:
                    # Unset stays unset: the model's own default applies, as on REST.
                    tp = typing.Optional[tp]
                    attrs[field] = strawberry.field(description=_with_default(info), default=UNSET)
                annotations[field] = tp
            attrs["__annotations__"] = annotations
            cls = type(name, (), attrs)
            out = strawberry.input(cls, name=self.claim(name), description=_doc(model))
        finally:
            self._building.discard(model)
        self.inputs[model] = out
        return out


def _is_entry(tp: Any) -> bool:
    return getattr(tp, "map_entry", False)


def _input_name(name: str) -> str:
    return name if name.endswith("Input") else name + "Input"


def _doc(model: type[BaseModel]) -> str | None:
    doc = model.__doc__
    if not doc or doc is BaseModel.__doc__:
        return None
    return " ".join(doc.split())


def _with_default(info) -> str | None:
    default = info.get_default(call_default_factory=True)
    note = f"Default: `{json.dumps(default)}`." if isinstance(default, (str, int, float, bool)) else None
    return " ".join(p for p in (info.description, note) if p) or None


def to_plain(value: Any) -> Any:
    """An input object as the dict the REST body would be: unset fields left out, enums as their values."""
    if value is UNSET:
        return UNSET
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, list):
        return [to_plain(v) for v in value]
    definition = getattr(value, "__strawberry_definition__", None)
    if definition is not None:
        out = {}
        for f in definition.fields:
            v = to_plain(getattr(value, f.python_name))
            if v is not UNSET:
                out[f.python_name] = v
        return out
    return value
