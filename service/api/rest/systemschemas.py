"""JSON Schemas of every rule system's models, under names unique across the whole document.

Each system's schemas are generated together (so a nested model shared by two of its moves is one schema),
then every name that does not already carry the system's prefix gets it: Trikus's `Attack` becomes
`TrikusAttack`, never clashing with another system's move of the same name. Every schema's `title` is its
name, so client generators that name classes after titles do not produce two `CharacterInput` classes.
"""

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, create_model
from pydantic.json_schema import DefsRef, GenerateJsonSchema

from service.api.systemmodels import MODELS, NAMES, SystemModels
from service.game.inputs import Faces

REF = "#/components/schemas/{model}"


_BY_ID = {str(id(model)): model for model in NAMES}


class Named(GenerateJsonSchema):
    """Schemas named as service/api/systemmodels.py names the models (the GraphQL types carry the same names),
    instead of pydantic's module paths for two models of one name."""

    def get_defs_ref(self, core_mode_ref):
        ref = super().get_defs_ref(core_mode_ref)
        core_ref, _ = core_mode_ref
        model = _BY_ID.get(core_ref.rpartition(":")[2])
        if model is not None and not any(c in core_ref for c in "[],"):
            self._prioritized_defsref_choices[ref].insert(0, DefsRef(NAMES[model]))
        return ref


def top_name(models: SystemModels, kind: str) -> str:
    """The schema (and GraphQL type) name of a system's model of one kind."""
    fixed = {
        "options": "Options",
        "character_input": "CharacterInput",
        "action": "Action",
        "action_request": "ActionRequest",
    }
    if kind in fixed:
        return models.prefix + fixed[kind]
    return NAMES[models.model(kind)]


def prefixed(models: SystemModels, name: str) -> str:
    return name if name.startswith(models.prefix) else models.prefix + name


def action_request(models: SystemModels) -> type[BaseModel]:
    """The body of this system's action operation: the move is one of this system's actions only."""
    return create_model(
        top_name(models, "action_request"),
        __config__=ConfigDict(extra="forbid", strict=True),
        __doc__="A move in a campaign of this system; its `type` picks the action.",
        action=(models.action, Field(description="The move, with its `type`.")),
        dice=(
            Faces | None,
            Field(
                None,
                max_length=100,
                description="Table mode only: the physical faces, in the order the move rolls them.",
            ),
        ),
    )


def _roots(models: SystemModels) -> list[tuple[str, Any]]:
    roots: list[tuple[str, Any]] = [
        ("options", models.options),
        ("character_input", models.character_input),
        ("action", models.action),
        ("action_request", action_request(models)),
    ]
    for kind in ("state", "sheet"):
        if models.model(kind) is not None:
            roots.append((kind, models.model(kind)))
    for event_type, model in sorted(models.events.items()):
        roots.append((f"event:{event_type}", model))
    return roots


def _rename(node: Any, names: dict[str, str]) -> Any:
    """Every `$ref` (and discriminator mapping) to a renamed schema, pointed at the new name."""
    if isinstance(node, dict):
        return {k: _rename(v, names) for k, v in node.items()}
    if isinstance(node, list):
        return [_rename(v, names) for v in node]
    if isinstance(node, str) and node.startswith(REF.format(model="")):
        old = node[len(REF.format(model="")) :]
        return REF.format(model=names.get(old, old))
    return node


def system_schemas(models: SystemModels) -> tuple[dict[str, Any], dict[str, str]]:
    """(schemas by name, name of each root: `options`, `action`, `state`, `event:<type>`, ...)."""
    roots = _roots(models)
    adapters: list[tuple[str, Literal["validation"], TypeAdapter[Any]]] = [
        (kind, "validation", TypeAdapter(tp)) for kind, tp in roots
    ]
    tops, defs = TypeAdapter.json_schemas(adapters, ref_template=REF, schema_generator=Named)
    defs = dict(defs.get("$defs", defs) if "$defs" in defs else defs)
    names: dict[str, str] = {}
    root_names: dict[str, str] = {}
    out_tops: dict[str, Any] = {}
    for (kind, _), schema in zip(((k, m) for k, _, m in adapters), (tops[(k, "validation")] for k, _, _ in adapters)):
        want = top_name(models, kind) if not kind.startswith("event:") else None
        ref = schema.get("$ref") if set(schema) == {"$ref"} else None
        if ref is not None:
            old = ref[len(REF.format(model="")) :]
            new = want or prefixed(models, old)
            if old in names and names[old] != new:
                out_tops[new] = {"$ref": REF.format(model=names[old])}  # one model as two roots: an alias
            else:
                names[old] = new
            root_names[kind] = new
        else:
            new = want or prefixed(models, f"{kind.split(':', 1)[1].title().replace('_', '')}Payload")
            out_tops[new] = schema
            root_names[kind] = new
    for old in defs:
        names.setdefault(old, old if old in NAMES.values() else prefixed(models, old))
    if len(set(names.values())) != len(names):
        raise ValueError(f"{models.id}: two schemas would share a name: {sorted(names.items())}")
    out = {names[old]: _rename(schema, names) for old, schema in defs.items()}
    out.update({name: _rename(schema, names) for name, schema in out_tops.items()})
    for name, schema in out.items():
        schema["title"] = name
    return out, root_names


def all_system_schemas(systems: list[str]) -> tuple[dict[str, Any], dict[str, dict[str, str]]]:
    schemas: dict[str, Any] = {}
    roots: dict[str, dict[str, str]] = {}
    for system_id in systems:
        defs, names = system_schemas(MODELS[system_id])
        clash = {n for n in set(defs) & set(schemas) if defs[n] != schemas[n]}
        if clash:
            raise ValueError(f"{system_id}: schema names already used by another system: {sorted(clash)}")
        schemas.update(defs)
        roots[system_id] = names
    return schemas, roots
