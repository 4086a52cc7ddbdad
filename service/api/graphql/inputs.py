"""GraphQL input types for what a client sends per rule system: moves, options and character sheets.

Each is a `@oneOf` input: first the system (`{stepdice: …}`), then, for a move, the move's type
(`{stepdice: {attack: {characterId: …}}}`), so a client can only build a move its schema knows, with the
move's own fields. A move without fields is sent as `true`. They are generated from the same models the
engines parse, and turned back into the REST body (`to_body`), which the application layer checks as usual.
"""

import keyword
from typing import Any, Optional

import strawberry
from strawberry.types.unset import UNSET

from service.api.graphql.generate import to_plain
from service.api.graphql.typed import GEN
from service.api.systemmodels import MODELS, SystemModels, type_name
from service.game.errors import GameError
from service.i18n.message import _


def _one_of(name: str, fields: dict[str, tuple[Any, str | None]], description: str) -> type:
    attrs: dict[str, Any] = {"__module__": __name__, "__annotations__": {}}
    keys: dict[str, str] = {}
    for key, (tp, doc) in fields.items():
        # A move may be named like a Python keyword (Step Dice's `raise`).
        field = key + "_" if keyword.iskeyword(key) else key
        keys[field] = key
        attrs["__annotations__"][field] = Optional[tp]
        attrs[field] = strawberry.field(description=doc, default=UNSET, name=camel_lower(key))
    attrs["one_of_keys"] = keys
    return strawberry.input(type(name, (), attrs), name=GEN.claim(name), description=description, one_of=True)


def camel_lower(name: str) -> str:
    first, *rest = name.split("_")
    return first + "".join(p[:1].upper() + p[1:] for p in rest)


def _move_input(model) -> tuple[Any, str | None]:
    doc = " ".join((model.__doc__ or "").split()) or None
    if set(model.model_fields) == {"type"}:
        return bool, (doc + " " if doc else "") + "Send `true`: the move has no fields."
    return GEN.input(model, f"{type_name(model)}Input", skip=("type",)), doc


def _system_action(models: SystemModels) -> type:
    fields = {t: _move_input(m) for t, m in models.actions.items()}
    return _one_of(
        f"{models.prefix}ActionInput",
        fields,
        f"One {models.id} move: set exactly one field, named after the move's `type`.",
    )


ActionInput = _one_of(
    "ActionInput",
    {s.id: (_system_action(s), None) for s in MODELS.values()},
    "A move: set the field of the campaign's rule system (another system's is refused with `system_mismatch`).",
)
OptionsInput = _one_of(
    "OptionsInput",
    {s.id: (GEN.input(s.options), None) for s in MODELS.values()},
    "A campaign's options: set the field of its rule system; omitted options take the spec's default.",
)
SheetInput = _one_of(
    "SheetInput",
    {s.id: (GEN.input(s.character_input), None) for s in MODELS.values()},
    "A character sheet: set the field of the campaign's rule system.",
)


def _chosen(value: Any) -> tuple[str, Any]:
    """The one field a `@oneOf` input has set (GraphQL validation has made sure there is exactly one)."""
    for f in value.__strawberry_definition__.fields:
        chosen = getattr(value, f.python_name)
        if chosen is not UNSET and chosen is not None:
            return type(value).one_of_keys[f.python_name], chosen
    raise ValueError("a oneOf input without a value")


def chosen_system(value: Any) -> str:
    """The rule system a move, sheet or options input is for."""
    return _chosen(value)[0]


def action_body(value: Any) -> tuple[str, dict[str, Any]]:
    """(system, the move as the REST body's `action`)."""
    system, moves = _chosen(value)
    move_type, fields = _chosen(moves)
    if fields is False:
        raise GameError(
            422,
            "invalid_input",
            _("send `{move_type}: true` to make the move", move_type=move_type),
            field=f"action.{move_type}",
        )
    return system, {"type": move_type, **({} if fields is True else to_plain(fields))}


def per_system_body(value: Any) -> tuple[str, dict[str, Any]]:
    """(system, the options or sheet as the REST body has them)."""
    system, fields = _chosen(value)
    return system, to_plain(fields)
