"""The GraphQL object types, generated from the REST response models and the rule systems' models.

Where a field's shape depends on the campaign's rule system (options, sheets, the table, event payloads:
the fields marked `per_system` in service/api/replies.py) its type is a union over the systems, and
`typed()` turns the application layer's dict into what the union resolves: the system's model instance, or
`Untyped` for what no model describes yet (the service's own events, a system without a model).
"""

import functools
import importlib
import logging
import typing
from collections import OrderedDict
from typing import Any, cast

from pydantic import BaseModel, ValidationError
from strawberry.scalars import JSON
from strawberry.types import get_object_definition

from service.api.graphql import payloads as p
from service.api.graphql.generate import Generator, Untyped, share_enum
from service.api import replies as r
from service.game.log.serviceevents import SERVICE_EVENTS
from service.api.systemmodels import MODELS, NAMES, PER_SYSTEM, type_name
from service.dice.types import DiceMode, DieVisibility
from service.game.campaigns import records as campaigns
from service.rules.registry import SYSTEMS

log = logging.getLogger("rulekeeper.graphql")

share_enum("System", tuple(SYSTEMS))
share_enum("DiceMode", typing.get_args(DiceMode))
share_enum("Role", typing.get_args(r.You.model_fields["role"].annotation))
share_enum("DieVisibility", typing.get_args(DieVisibility))


def _share_named_literals() -> None:
    """An enum is named after the concept the code names it by: a rule system's `Attribute = Literal[…]` is
    `StepDiceAttribute` wherever a test, a failed test or an advancement uses it (not after whichever model the
    schema met first). A name several systems give the same values is shared without a prefix (`Sender`)."""
    found: dict[tuple[str, ...], set[str]] = {}
    taken: set[str] = set()
    for system_id, models in MODELS.items():
        for part in ("fields", "constants", "sheet", "state_model", "events_model", "options"):
            try:
                module = importlib.import_module(f"service.rules.{system_id}.{part}")
            except ImportError:
                continue
            taken |= {naming(v) for v in vars(module).values() if isinstance(v, type) and issubclass(v, BaseModel)}
            for alias, value in vars(module).items():
                values = typing.get_args(value) if typing.get_origin(value) is typing.Literal else ()
                if alias[:1].isupper() and len(values) > 1 and all(isinstance(v, str) for v in values):
                    found.setdefault(values, set()).add(models.prefix + alias)
    used: dict[str, tuple[str, ...]] = {}
    for values, names in found.items():
        names -= taken  # a model of that name (StepDiceDie) keeps it
        name = "Sender" if names and all(n.endswith("Sender") for n in names) else min(names, default=None)
        # One name for two sets of values (Trikus' `Result` of a throw and of an activity): the first found
        # (`fields`, where a system names its moves' values) keeps it.
        if name is not None and used.setdefault(name, values) == values:
            share_enum(name, values)


# REST names that read differently as GraphQL payloads (the names the schema has always used).
_NAMES = {
    r.LogEvent: "Event",
    r.CampaignCreated: "CreateCampaignPayload",
    r.PlayerCreated: "InvitePlayerPayload",
    r.CampaignImported: "ImportCampaignPayload",
    r.CharacterValidation: "ValidateCharacterPayload",
    r.ActionResult: "ActionPayload",
    r.RollResult: "RollPayload",
    r.DiceSessionClosed: "CloseDiceSessionPayload",
}


def naming(model: type[BaseModel]) -> str:
    return _NAMES.get(model) or NAMES.get(model) or type_name(model)


# Concepts the code has no alias for: named here, after the concept, from the field that holds them.
_CONCEPTS = {
    ("stepdice", "state_model", "StepDiceDice", "strength"): "StepDiceDieSize",
    ("stepdice", "events_model", "StepDiceTestRecord", "kind"): "StepDiceTestKind",
    ("stepdice", "events_model", "StepDiceTestRecord", "attack_type"): "StepDiceAttackType",
    ("stepdice", "events_model", "StepDiceTestRecord", "minion_pressure"): "StepDiceMinionPressure",
    ("stepdice", "events_model", "StepDiceTestRecord", "band"): "StepDiceBand",
    ("stepdice", "events_model", "StepDiceTestRecord", "phase"): "StepDicePhase",
    ("stepdice", "state_model", "StepDicePending", "stage"): "StepDiceChoiceStage",
    ("stepdice", "state_model", "StepDicePending", "text_required"): "StepDiceTextRequired",
    ("stepdice", "state_model", "StepDiceEncounter", "suggested_outcome"): "StepDiceSuggestedOutcome",
    ("stepdice", "state_model", "StepDiceScene", "kind"): "StepDiceSceneKind",
    ("stepdice", "state_model", "StepDiceEnemy", "state"): "StepDiceEnemyState",
    ("stepdice", "state_model", "StepDiceHelpToken", "mode"): "StepDiceHelpMode",
    ("stepdice", "events_model", "StepDiceAdvancementChosen", "choice"): "StepDiceAdvancementChoice",
    ("trikus", "state_model", "TrikusSheet", "controller"): "Controller",
    ("trikus", "state_model", "TrikusActivity", "kind"): "TrikusActivityKind",
    ("trikus", "state_model", "TrikusLastActivity", "results"): "TrikusActivityResult",
    ("trikus", "state_model", "TrikusDeclaration", "choice"): "TrikusCombatChoice",
    ("trikus", "state_model", "TrikusQueueJob", "kind"): "TrikusCombatRollKind",
    ("danger_pool", "state_model", "DangerPoolRoll", "kind"): "DangerPoolRollKind",
    ("danger_pool", "state_model", "DangerPoolRoll", "outcome"): "DangerPoolRollOutcome",
    ("danger_pool", "state_model", "DangerPoolRoll", "state"): "DangerPoolRollState",
    ("danger_pool", "state_model", "DangerPoolTieChoice", "option"): "DangerPoolTieOption",
    ("danger_pool", "state_model", "DangerPoolAftermathProposal", "state"): "DangerPoolProposalState",
    ("danger_pool", "state_model", "DangerPoolCharacter", "doomed_exit"): "DangerPoolExit",
    ("iskra", "state_model", "IskraFocusRequest", "use"): "IskraFocusUse",
    ("iskra", "state_model", "IskraAttackRecord", "mode"): "IskraAttackMode",
    ("action_deck", "state_model", "ActionDeckCharacter", "kind"): "ActionDeckCharacterKind",
    ("action_deck", "state_model", "ActionDeckCharacter", "side"): "ActionDeckCharacterSide",
    ("action_deck", "state_model", "ActionDeckOpposedRecord", "purpose"): "ActionDeckOpposedPurpose",
    ("action_deck", "events_model", "ActionDeckJumped", "direction"): "ActionDeckJumpDirection",
    ("stepdice", "actions_player", "StepDiceTest", "on_near_certain"): "StepDiceOnNearCertain",
    ("stepdice", "actions_player", "StepDiceTest", "on_near_impossible"): "StepDiceOnNearImpossible",
}


def _share_concepts() -> None:
    for (system_id, part, model, field), name in _CONCEPTS.items():
        module = importlib.import_module(f"service.rules.{system_id}.{part}")
        share_enum(name, _literal_in(getattr(module, model).model_fields[field].annotation))


def _literal_in(tp: Any) -> tuple[str, ...]:
    if typing.get_origin(tp) is typing.Literal:
        return typing.get_args(tp)
    found = [v for a in typing.get_args(tp) for v in [_literal_in(a)] if v]
    return found[-1] if found else ()


_share_named_literals()
_share_concepts()
GEN = Generator(naming)
GEN.names.add("Untyped")


def _kind_members(kind: str) -> tuple[list[type[BaseModel]], bool]:
    """The models of a union, and whether `Untyped` is one of its members. It is in every union but the
    options' (which are always checked against their model): the service's own events have no model, and a
    table or sheet its model does not describe still reaches the client (see `_model_or_untyped`)."""
    if kind == "event_data":
        engines = [m for s in MODELS.values() for m in dict.fromkeys(s.events.values())]
        return engines + list(SERVICE_EVENTS.values()), True
    members = [s.model(kind) for s in MODELS.values() if s.model(kind) is not None]
    return members, kind != "options" or len(members) < len(MODELS)


_UNION_NAMES = {
    "options": "SystemOptions",
    "sheet": "CharacterSheet",
    "state": "SystemState",
    "event_data": "EventData",
}


@functools.cache
def kind_type(kind: str) -> Any:
    members, untyped = _kind_members(kind)
    members = list(dict.fromkeys(members))
    # A union even while only Untyped is in it: queries written with `... on Untyped` keep working when the
    # systems' models arrive.
    return GEN.union(members, _UNION_NAMES[kind], extra=(Untyped,) if untyped else ())


def _marked(model: type[BaseModel]) -> dict[str, str]:
    return {
        # systemmodels.per_system() marks a field with the name of its kind.
        name: cast(str, (f.json_schema_extra or {}).get(PER_SYSTEM))
        for name, f in model.model_fields.items()
        if isinstance(f.json_schema_extra, dict) and PER_SYSTEM in f.json_schema_extra
    }


def _register(model: type[BaseModel], seen: set) -> None:
    if model in seen:
        return
    seen.add(model)
    for name, kind in _marked(model).items():
        GEN.overrides[(model, name)] = (kind_type(kind), None)
    for f in model.model_fields.values():
        for arg in _models_in(f.annotation):
            _register(arg, seen)


def _models_in(tp: Any) -> list[type[BaseModel]]:
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return [tp]
    return [m for a in typing.get_args(tp) for m in _models_in(a)]


def output(model: type[BaseModel]) -> type:
    _register(model, set())
    return GEN.output(model)


# Converting the application layer's dicts ------------------------------------------------------------------


def _model_or_untyped(model: type[BaseModel] | None, value: Any, what: str) -> Any:
    if model is None or not isinstance(value, dict):
        return Untyped(json=value)
    try:
        return model.model_validate(value, strict=False)
    except ValidationError as exc:
        # A model that lags behind its engine must not take the table away from a client: the data still
        # reaches it, untyped, and the log says which model to fix.
        log.warning("%s does not match %s: %s", what, model.__name__, exc.errors(include_url=False)[:3])
        return Untyped(json=JSON(value))


def _convert(kind: str, value: Any, system: str | None, parent: dict[str, Any]) -> Any:
    models = MODELS.get(system) if system else None
    if models is None:
        return Untyped(json=value)
    if kind == "event_data":
        event_type = cast(str, parent.get("type"))  # an event has its type (LogEvent requires it)
        model = models.events.get(event_type) or SERVICE_EVENTS.get(event_type)
        return _model_or_untyped(model, value, f"{system} event {event_type}")
    return _model_or_untyped(models.model(kind), value, f"{system} {kind}")


@functools.cache
def _plan(model: type[BaseModel]) -> tuple:
    marked = _marked(model)
    steps: list[tuple[str, str | None, type[BaseModel] | None, bool]] = []
    for name, f in model.model_fields.items():
        if name in marked:
            steps.append((name, marked[name], None, False))
            continue
        tp = f.annotation
        many = typing.get_origin(tp) is list
        inner = _models_in(tp)
        if len(inner) == 1 and _plan(inner[0]):
            steps.append((name, None, inner[0], many))
    return tuple(steps)


def typed(model: type[BaseModel], data: dict[str, Any], system: str | None) -> dict[str, Any]:
    """`data` (of `model`'s shape) with every per-system field as its system's model instance."""
    steps = _plan(model)
    if not steps or data is None:
        return data
    out = dict(data)
    for name, kind, nested, many in steps:
        value = out.get(name)
        if value is None:
            continue
        if kind is not None:
            out[name] = _convert(kind, value, system, data)
        elif many:
            out[name] = [typed(nested, v, system) for v in value]
        else:
            out[name] = typed(nested, value, system)
    return out


# A campaign's rule system never changes: once a caller has been let in, remember it.
_SYSTEMS: OrderedDict[str, str] = OrderedDict()


async def system_of(svc, token: str | None, campaign_id: str) -> str:
    system = _SYSTEMS.get(campaign_id)
    if system is None:
        system = (await campaigns.get_campaign(svc, campaign_id, token))["system"]
        remember(campaign_id, system)
    return system


def remember(campaign_id: str, system: str) -> None:
    _SYSTEMS[campaign_id] = system
    _SYSTEMS.move_to_end(campaign_id)
    while len(_SYSTEMS) > 10_000:
        _SYSTEMS.popitem(last=False)


_OUTPUTS: dict[str, type[BaseModel]] = {
    "Campaign": r.Campaign,
    "CampaignDetail": r.CampaignDetail,
    "Character": r.Character,
    "Event": r.LogEvent,
    "TableState": r.TableState,
    "ActionPayload": r.ActionResult,
    "RollPayload": r.RollResult,
    "DiceSession": r.DiceSession,
    "CloseDiceSessionPayload": r.DiceSessionClosed,
    "Verification": r.Verification,
    "SystemSummary": r.SystemSummary,
    "Player": r.Player,
    "CreateCampaignPayload": r.CampaignCreated,
    "InvitePlayerPayload": r.PlayerCreated,
    "ImportCampaignPayload": r.CampaignImported,
    "CharacterPayload": p.CharacterPayload,
    "ValidateCharacterPayload": r.CharacterValidation,
    "Webhook": r.Webhook,
    "WebhookSecretPayload": p.WebhookSecretPayload,
    "WebhookDelivery": r.WebhookDelivery,
    "WebhookDeliveryDetail": r.WebhookDeliveryDetail,
    "WebhookDeliveryPage": r.WebhookDeliveryPage,
    "EventConnection": p.EventConnection,
    "CampaignDocument": r.CampaignDocument,
}
T = {name: output(model) for name, model in _OUTPUTS.items()}


def fast_unions(graphql_schema) -> None:
    """Resolve a generated union's member from the model instance's class in one lookup. strawberry asks every
    member's `is_type_of` in turn: with some 300 event payload types that cost ~2 ms per page of 100 events."""
    by_class = {model: get_object_definition(out, strict=True).name for model, out in GEN.outputs.items()}
    by_class[Untyped] = "Untyped"
    for named in graphql_schema.type_map.values():
        if (
            getattr(named, "ast_node", None) is None
            and hasattr(named, "resolve_type")
            and type(named).__name__ == "GraphQLUnionType"
            and named.resolve_type is not None
        ):
            named.resolve_type = _resolver(by_class, named.resolve_type)


def _resolver(by_class: dict, fallback):
    def resolve(root, info, union):
        name = by_class.get(type(root))
        return name if name is not None else fallback(root, info, union)

    return resolve
