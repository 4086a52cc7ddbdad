"""Each rule system's pydantic models, gathered once: the single source both contracts are generated from.

The OpenAPI schemas (service/api/rest/openapi.py) and the GraphQL types (service/api/graphql/generate.py) are
both rendered from these models, under the same names. A system that does not (yet) export a typed table state,
sheet or event payloads gets an untyped object in their place, in both contracts alike.
"""

import typing
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from service.rules.registry import SYSTEMS

# Where the prefix is not the id in CamelCase: the prefix the rule system's own model names carry.
_PREFIXES = {"stepdice": "StepDice"}

# Response fields whose shape depends on the campaign's system are marked with this key in
# `json_schema_extra`; the generators put the per-system models in their place.
PER_SYSTEM = "x-per-system"
KINDS = ("options", "sheet", "state", "event_data", "character_input", "action")


def prefix(system_id: str) -> str:
    return _PREFIXES.get(system_id) or "".join(p.capitalize() for p in system_id.split("_"))


def per_system(kind: str) -> dict[str, Any]:
    """`Field(json_schema_extra=per_system("sheet"))`: this field holds the campaign's system's model of `kind`."""
    assert kind in KINDS, kind
    return {PER_SYSTEM: kind}


@dataclass(frozen=True)
class SystemModels:
    id: str
    prefix: str
    options: type[BaseModel]
    character_input: type[BaseModel]
    action: Any  # the discriminated union, as the engine parses moves
    actions: dict[str, type[BaseModel]]  # move type -> its model
    state: type[BaseModel] | None = None
    sheet: type[BaseModel] | None = None
    events: dict[str, type[BaseModel]] = field(default_factory=dict)

    def model(self, kind: str) -> Any:
        return {
            "options": self.options,
            "character_input": self.character_input,
            "action": self.action,
            "state": self.state,
            "sheet": self.sheet,
        }[kind]


def reachable(tp: Any, seen: set[type[BaseModel]] | None = None) -> set[type[BaseModel]]:
    """Every model a type refers to, itself included."""
    seen = set() if seen is None else seen
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        if tp not in seen:
            seen.add(tp)
            for f in tp.model_fields.values():
                reachable(f.annotation, seen)
    else:
        for arg in typing.get_args(tp):
            reachable(arg, seen)
    return seen


def owner(model: type) -> str | None:
    """The rule system whose package defines the model; None for one the systems share (e.g. AwaitingEntry)."""
    parts = model.__module__.split(".")
    return parts[2] if parts[:2] == ["service", "rules"] and len(parts) > 3 and parts[2] in SYSTEMS else None


def type_name(model: type) -> str:
    """The model's name in both contracts: a rule system's models carry its prefix (Trikus's `Attack` is
    `TrikusAttack`), so two systems' models of one name never clash."""
    system = owner(model)
    name = model.__name__
    return name if system is None or name.startswith(prefix(system)) else prefix(system) + name


def _members(union: Any) -> list[type[BaseModel]]:
    if typing.get_origin(union) is typing.Annotated:
        union = typing.get_args(union)[0]
    return [m for m in typing.get_args(union) if isinstance(m, type) and issubclass(m, BaseModel)]


def _model(system: Any, name: str) -> type[BaseModel] | None:
    model = getattr(system, name, None)
    return model if isinstance(model, type) and issubclass(model, BaseModel) else None


def gather(system: Any) -> SystemModels:
    actions = {typing.get_args(m.model_fields["type"].annotation)[0]: m for m in _members(system.Action)}
    events = getattr(system, "EventPayloads", None) or {}
    return SystemModels(
        id=system.id,
        prefix=prefix(system.id),
        options=system.Options,
        character_input=system.CharacterInput,
        action=system.Action,
        actions=actions,
        state=_model(system, "State"),
        sheet=_model(system, "Sheet"),
        events={t: m for t, m in events.items() if isinstance(m, type) and issubclass(m, BaseModel)},
    )


MODELS: dict[str, SystemModels] = {s.id: gather(s) for s in SYSTEMS.values()}


def _walk(tp: Any, out: list[type[BaseModel]]) -> None:
    """Models a type refers to, in a stable (declaration) order."""
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        if tp not in out:
            out.append(tp)
            for f in tp.model_fields.values():
                _walk(f.annotation, out)
    else:
        for arg in typing.get_args(tp):
            _walk(arg, out)


# When a system has two models of one name (a move and the event it emits are both `IskraGmNote`), the one met
# later is named after where it is used.
_SUFFIX = {"state": "State", "sheet": "Sheet", "event": "Event"}


def _names() -> dict[type[BaseModel], str]:
    names: dict[type[BaseModel], str] = {}
    taken: set[str] = set()
    for models in MODELS.values():
        roots: list[tuple[str, Any]] = [
            ("options", models.options),
            ("character_input", models.character_input),
            *(("action", m) for m in models.actions.values()),
            ("state", models.state),
            ("sheet", models.sheet),
            *(("event", models.events[t]) for t in sorted(models.events)),
        ]
        for kind, root in roots:
            found: list[type[BaseModel]] = []
            _walk(root, found)
            for model in found:
                if model in names:
                    continue
                name = type_name(model)
                if name in taken:
                    name += _SUFFIX.get(kind, "")
                n = 2
                while name in taken:
                    name, n = f"{name.rstrip('0123456789')}{n}", n + 1
                names[model] = name
                taken.add(name)
    return names


NAMES: dict[type[BaseModel], str] = _names()
