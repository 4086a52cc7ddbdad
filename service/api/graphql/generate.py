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


def _list_of(tp: Any) -> Any:
    """`list[tp]` for a type made at run time (mypy reads `list[...]` as a static type and refuses a variable)."""
    return types.GenericAlias(list, (tp,))


def _converted(name: str, conv):
    def resolve(root) -> Any:
        return conv(root.get(name) if isinstance(root, dict) else getattr(root, name))

    return resolve


def _skip_none(conv):
    return None if conv is None else (lambda v: None if v is None else conv(v))


def _merge_literals(args: list[Any]) -> list[Any]:
    """`A | Literal["x"] | Literal["y"]` as `A | Literal["x", "y"]` (one enum for the names), and `str | Literal`
    as `str`."""
    literals = [a for a in args if typing.get_origin(a) is Literal]
    rest = [a for a in args if typing.get_origin(a) is not Literal]
    if literals and str in rest:
        return rest
    if len(literals) < 2:
        return args
    return rest + [Literal[tuple(dict.fromkeys(v for a in literals for v in typing.get_args(a)))]]


_SCALARS = {str: "String", int: "Int", bool: "Boolean", float: "Float", strawberry.ID: "ID"}


def _plain_name(key: Any, value: Any) -> str | None:
    """`IntEntry`, `StringListEntry`, `RoleOptionalIntEntry`…: the name of an entry of plain values, or None."""

    def name(tp: Any) -> str | None:
        if typing.get_origin(tp) is typing.Union:
            args = [a for a in typing.get_args(tp) if a is not type(None)]
            inner = name(args[0]) if len(args) == 1 else None
            return inner and "Optional" + inner
        if typing.get_origin(tp) is list:
            inner = name(typing.get_args(tp)[0])
            return inner and inner + "List"
        if tp in _SCALARS:
            return _SCALARS[tp]
        definition = getattr(tp, "__strawberry_definition__", None) or getattr(tp, "_enum_definition", None)
        return definition.name if isinstance(tp, type) and issubclass(tp, enum.Enum) and definition else None

    value_name = name(value)
    if value_name is None:
        return None
    return value_name if key is str else (name(key) or "") + value_name if name(key) else None


def _slot(member: Any, naming) -> tuple[str, Any]:
    """The field of a choice that holds `member`, and how to tell a value of it."""
    origin = typing.get_origin(member)
    if member is bool:
        return "boolean", lambda v: isinstance(v, bool)
    if member is int:
        return "int", lambda v: isinstance(v, int) and not isinstance(v, bool)
    if member is float:
        return "float", lambda v: isinstance(v, float)
    if member is str:
        return "string", lambda v: isinstance(v, str)
    if origin is Literal:
        values = typing.get_args(member)
        return "string", lambda v: isinstance(v, str) and v in values
    if _is_model(member):
        name = naming(member)
        return name[:1].lower() + name[1:], lambda v: isinstance(v, (member, dict))
    if origin is dict:
        return "entries", lambda v: isinstance(v, dict)
    if origin in (list, tuple, set, frozenset):
        return "list", lambda v: isinstance(v, (list, tuple))
    raise TypeError(f"no GraphQL shape for {member!r} in a choice")


@strawberry.type(
    description="A value no model describes yet (the service's own events, such as `dice_rolled`, "
    "or a rule system without a model for it): its JSON as is."
)
class Untyped:
    json: JSON


class Generator:
    """Makes (once) the strawberry type of each model; `naming(model)` gives the GraphQL name."""

    def __init__(self, naming) -> None:
        self.naming = naming
        self.outputs: dict[type, type] = {}
        self.inputs: dict[type, type] = {}
        self.enums: dict[tuple[str, ...], type] = {}
        self.unions: dict[tuple[type, ...], Any] = {}
        self.entry_types: dict[str, Any] = {}
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
        if key not in _ENUM_NAMES and name in _ENUM_NAMES.values():
            name += "Value"  # a concept's name is kept for its own values (TrikusTraitKind; `unknown` added here)
        # The name is the schema's, known only now; mypy's functional Enum API takes a literal name only.
        py = enum.Enum(self.claim(_ENUM_NAMES.get(key, name)), [(v, v) for v in values], type=str)  # type: ignore[misc]
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
        return self.typed(tp, owner, field, inputs=inputs)[0]

    def typed(self, tp: Any, owner: str, field: str, *, inputs: bool) -> tuple[Any, Any]:
        """(the GraphQL type of `tp`, a function from the value to what GraphQL is given, or None when the value
        is given as is). On output it turns a map into entries and wraps a choice; on input (after `to_plain`)
        it turns entries back into the map and a choice into its one value."""
        tp = _strip(tp)
        if _is_union(tp):
            args = [_strip(a) for a in typing.get_args(tp) if a is not type(None)]
            optional = len(args) < len(typing.get_args(tp))
            args = _merge_literals(args)
            if len(args) == 1:
                inner, conv = self.typed(args[0], owner, field, inputs=inputs)
            elif not inputs and all(_is_model(a) for a in args):
                inner, conv = self.union(args, f"{owner}{camel(field)}"), None
            else:
                inner, conv = self._choice(args, owner, field, inputs=inputs)
            return (typing.Optional[inner] if optional else inner), _skip_none(conv)
        origin = typing.get_origin(tp)
        if tp is str and (field == "id" or field.endswith(("_id", "_ids"))):
            return strawberry.ID, None  # every identifier is an ID, as `campaign(id: ID!)`
        if tp in (str, int, bool, float):
            return tp, None
        if origin is Literal:
            out = self._literal(tp, owner, field, inputs=inputs)
            return (out, None) if out is not JSON else self._untyped(inputs)
        if _is_model(tp):
            if tp in self._building:
                return self._untyped(inputs)  # a model that contains itself: GraphQL would need a lazy reference
            return (self.input(tp) if inputs else self.output(tp)), None
        if isinstance(tp, type) and issubclass(tp, enum.Enum):
            return strawberry.enum(tp), None
        args = list(typing.get_args(tp))
        if origin in (list, set, frozenset) or (origin is tuple and len(args) == 2 and args[1] is Ellipsis):
            inner, conv = self.typed(args[0], owner, field, inputs=inputs)
            return _list_of(inner), (None if conv is None else lambda v: [conv(x) for x in v])
        if origin is tuple:
            kinds = {_strip(a) for a in args}
            if len(kinds) == 1:
                inner, conv = self.typed(kinds.pop(), owner, field, inputs=inputs)
                return _list_of(inner), (None if conv is None else lambda v: [conv(x) for x in v])
            if len(args) == 2 and _strip(args[0]) is str:
                # A [name, value] pair is one entry of a map kept in order.
                return self._entries(str, args[1], owner, field, inputs=inputs, pairs=True)
            return self._untyped(inputs)
        if origin is dict and args and _strip(args[1]) is not Any:
            return self._entries(args[0], args[1], owner, field, inputs=inputs)
        return self._untyped(inputs)

    def _untyped(self, inputs: bool) -> tuple[Any, Any]:
        """What no annotation describes (`Any`, a dict of anything): `Untyped`, whose `json` holds it as is."""
        if inputs:
            raise TypeError("an input field must be typed: GraphQL has no untyped input")
        return Untyped, lambda v: Untyped(json=v)

    def _entries(
        self, key: Any, value: Any, owner: str, field: str, *, inputs: bool, pairs: bool = False
    ) -> tuple[Any, Any]:
        """A map as a list of `{key, value}` entries (GraphQL has no maps), in the map's order; with `pairs`, one
        [key, value] pair as one entry (a list of pairs is then a list of entries, as a map would be)."""
        base = owner[: -len("Input")] if inputs and owner.endswith("Input") else owner
        key_tp, _ = self.typed(key, owner, field + "_key", inputs=inputs)
        value_tp, value_conv = self.typed(value, owner, field, inputs=inputs)
        # A map of plain values shares its entry type with every map of the same key and value types
        # (`IntEntry`: a name to a number); a map of objects has its own. Only the type is shared: whether a
        # field holds a map or pairs is the field's, and so is its converter.
        shared = _plain_name(key_tp, value_tp)
        name = (f"{shared}Entry" if shared else f"{base}{camel(field)}Entry") + ("Input" if inputs else "")
        entry = self.entry_types.get(name)
        if entry is None:
            entry = self.entry_types[name] = self._entry_type(name, key_tp, value_tp, value_conv, inputs=inputs)
        if inputs:
            if pairs:
                return entry, lambda e: [e["key"], e["value"]]
            return _list_of(entry), lambda items: {e["key"]: e["value"] for e in items}
        conv = value_conv or (lambda v: v)
        if pairs:
            return entry, lambda pair: Entry(pair[0], conv(pair[1]))
        return _list_of(entry), lambda items: [Entry(k, conv(v)) for k, v in items.items()]

    def _entry_type(self, name: str, key_tp: Any, value_tp: Any, value_conv: Any, *, inputs: bool) -> Any:
        attrs: dict[str, Any] = {"__annotations__": {"key": key_tp, "value": value_tp}, "__module__": __name__}
        doc = "One entry of a map: its key and its value."
        if inputs:
            attrs["plain"] = {"value": value_conv} if value_conv else {}
            return strawberry.input(type(name, (), attrs), name=self.claim(name), description=doc)
        attrs["is_type_of"] = classmethod(lambda c, obj, info: isinstance(obj, Entry))
        return strawberry.type(type(name, (), attrs), name=self.claim(name), description=doc)

    def _choice(self, members: list[Any], owner: str, field: str, *, inputs: bool) -> tuple[Any, Any]:
        """A value of one of several shapes, not all of them objects (`int` or `"unlimited"`): an object with
        one field per shape, of which exactly one is set (an input is `@oneOf`). The fields are named
        mechanically: `int`, `float`, `boolean`, `string` (a name of a `Literal` too), `entries` (a map),
        `list`, and the object type's name in lower camel case for a model."""
        base = owner[: -len("Input")] if inputs and owner.endswith("Input") else owner
        name = f"{base}{camel(field)}" + ("Input" if inputs else "")
        slots: dict[str, tuple[Any, Any, Any]] = {}  # field -> (GraphQL type, converter, test of a value)
        for m in members:
            tp, conv = self.typed(m, owner, field, inputs=inputs)
            slot, test = _slot(m, self.naming)
            slots[slot] = (tp, conv, test)
        annotations = {slot: typing.Optional[tp] for slot, (tp, _, _) in slots.items()}
        attrs: dict[str, Any] = {"__annotations__": annotations, "__module__": __name__}
        doc = "One of several shapes: exactly one field is set."
        if inputs:
            for slot in slots:
                attrs[slot] = strawberry.field(default=UNSET)
            attrs["plain"] = {slot: conv for slot, (_, conv, _) in slots.items() if conv}
            cls = type(name, (), attrs)
            out = strawberry.input(cls, name=self.claim(name), description=doc, one_of=True)
            return out, lambda chosen: next(iter(chosen.values()))
        for slot in slots:
            attrs[slot] = strawberry.field(default=None)
        out = strawberry.type(type(name, (), attrs), name=self.claim(name), description=doc)

        def wrap(value):
            for slot, (_, conv, test) in slots.items():
                if test(value):
                    return out(**{slot: conv(value) if conv else value})
            raise TypeError(f"{name}: no shape fits {type(value).__name__}")

        return out, wrap

    def union(self, members: list[type[BaseModel]], name: str, extra: tuple = ()) -> Any:
        key = (name, *members, *extra)
        if key not in self.unions:
            self.unions[key] = typing.Annotated[
                typing.Union[tuple(self.output(m) for m in members) + extra], strawberry.union(self.claim(name))
            ]
        return self.unions[key]

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
                    tp, conv = self.typed(info.annotation, name, field, inputs=False)
                    resolver = _converted(field, conv) if conv else None
                annotations[field] = tp
                attrs[field] = (
                    strawberry.field(description=info.description, resolver=resolver)
                    if resolver
                    else strawberry.field(description=info.description)
                )
            attrs["__annotations__"] = annotations
            # A union's member is told by the model instance's class (unions never get plain dicts: see
            # typed.py); elsewhere the application layer's dict of the model's shape is the object.
            attrs["is_type_of"] = classmethod(
                lambda c, obj, info, model=model: type(obj) is model or isinstance(obj, dict)
            )
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
            plain: dict[str, Any] = {}
            for field, info in model.model_fields.items():
                if field in skip:
                    continue
                tp, conv = self.typed(info.annotation, name, field, inputs=True)
                if conv:
                    plain[field] = conv
                if info.is_required():
                    attrs[field] = strawberry.field(description=info.description)
                else:
                    # Unset stays unset: the model's own default applies, as on REST.
                    tp = typing.Optional[tp]
                    attrs[field] = strawberry.field(description=_with_default(info), default=UNSET)
                annotations[field] = tp
            attrs["__annotations__"] = annotations
            attrs["plain"] = plain
            cls = type(name, (), attrs)
            out = strawberry.input(cls, name=self.claim(name), description=_doc(model))
        finally:
            self._building.discard(model)
        self.inputs[model] = out
        return out


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
        # A generated input says how a field's value becomes the REST body's (entries become a map, a choice
        # its one value).
        convert = getattr(type(value), "plain", {})
        out = {}
        for f in definition.fields:
            v = to_plain(getattr(value, f.python_name))
            if v is not UNSET:
                conv = convert.get(f.python_name)
                out[f.python_name] = conv(v) if conv is not None and v is not None else v
        return out
    return value
