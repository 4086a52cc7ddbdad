"""Every event an engine emits is one of its system's payload models (`EVENT_PAYLOADS`, what the contracts are
generated from), read off the source: each emission site names its event type and builds its payload model, and the
model must be the one the contract gives that type. The move context checks the same at run time (see
`MoveContext.emit`); this test also covers the sites no worked example reaches."""

from __future__ import annotations

import ast
import importlib
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from pydantic import ValidationError

from service.rules.base import Actor
from service.rules.move import MoveContext, payload_data, replaced, without
from service.rules.registry import SYSTEMS

RULES = Path(__file__).resolve().parents[2] / "service" / "rules"

# The emitting calls: where the event type is and where its payload (a model built in place, or the model class a
# helper builds) is, by position; Iskra's `throw` always builds the model of a thrown test (its type is checked).
EMITTERS: dict[str, tuple[int, int | None]] = {
    "emit": (0, 1),
    "emit_sheet": (0, 2),
    "emit_test": (1, 2),
    "announce": (1, 2),
    "throw": (2, None),
}


@dataclass
class Site:
    where: str
    types: re.Pattern[str] | None  # None: the type is a variable, checked where the helper is called
    literal: bool  # the type is spelt out (else part of it is computed at run time)
    model: str | None  # None: the helper builds the model itself


def _type_pattern(node: ast.expr) -> re.Pattern[str] | None:
    """The event types an expression can name: a literal, either branch of a conditional, or a name built at run
    time from a literal part (`f"character_{status}"`, `"item_" + state`)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return re.compile(re.escape(node.value))
    if isinstance(node, ast.IfExp):
        a, b = _type_pattern(node.body), _type_pattern(node.orelse)
        return re.compile(f"{a.pattern}|{b.pattern}") if a and b else None
    if isinstance(node, ast.JoinedStr):
        return re.compile(
            "".join(re.escape(v.value) if isinstance(v, ast.Constant) else "[a-z_]+" for v in node.values)
        )
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _type_pattern(node.left), _type_pattern(node.right)
        return (
            re.compile((left.pattern if left else "[a-z_]+") + (right.pattern if right else "[a-z_]+"))
            if left or right
            else None
        )
    return None


def _model_name(node: ast.expr, local: dict[str, list[ast.expr]], depth: int = 0) -> str | None:
    """The model class a payload expression builds: `Model(...)`, a helper's model argument, a local variable
    assigned one, or players' copy derived from one (`without(payload, ...)`, `replaced(payload, ...)`)."""
    if depth > 5:
        return None
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        if node.func.id in ("without", "replaced") and node.args:
            return _model_name(node.args[0], local, depth + 1)
        return node.func.id
    if isinstance(node, ast.Name):
        built = [v for v in local.get(node.id, []) if isinstance(v, ast.Call)]
        return _model_name(built[0], local, depth + 1) if built else node.id
    return None


def _locals(function: ast.FunctionDef) -> dict[str, list[ast.expr]]:
    out: dict[str, list[ast.expr]] = {}
    for n in ast.walk(function):
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name):
            out.setdefault(n.targets[0].id, []).append(n.value)
    return out


def sites(system_id: str) -> list[Site]:
    found = []
    for path in sorted((RULES / system_id).glob("*.py")):
        for function in ast.walk(ast.parse(path.read_text())):
            if not isinstance(function, ast.FunctionDef):
                continue
            local = _locals(function)
            # A helper's own emission passes its caller's payload through: the callers are the sites.
            params = {a.arg for a in function.args.args + function.args.kwonlyargs}
            for node in ast.walk(function):
                if not isinstance(node, ast.Call):
                    continue
                name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
                if name not in EMITTERS or (name == "emit" and not isinstance(node.func, ast.Attribute)):
                    continue
                at_type, at_payload = EMITTERS[name]
                if len(node.args) <= max(at_type, at_payload or 0):
                    continue  # another function of that name
                model = None if at_payload is None else _model_name(node.args[at_payload], local)
                if model in params:
                    continue  # a helper passing its caller's payload on
                where = f"{path.name}:{node.lineno}"
                types = node.args[at_type]
                found.append(Site(where, _type_pattern(types), _is_literal(types), model))
                redacted = next((k.value for k in node.keywords if k.arg == "redacted"), None)
                branches = (redacted.body, redacted.orelse) if isinstance(redacted, ast.IfExp) else (redacted,)
                for branch in branches:
                    if branch is not None and not (isinstance(branch, ast.Constant) and branch.value is None):
                        found.append(
                            Site(
                                where + " (players' copy)",
                                _type_pattern(types),
                                _is_literal(types),
                                _model_name(branch, local),
                            )
                        )
    return found


def _is_literal(node: ast.expr) -> bool:
    if isinstance(node, ast.IfExp):
        return _is_literal(node.body) and _is_literal(node.orelse)
    return isinstance(node, ast.Constant)


@pytest.mark.parametrize("system_id", sorted(SYSTEMS))
def test_every_emission_site_builds_the_payload_model_of_its_event_type(system_id):
    payloads = importlib.import_module(f"service.rules.{system_id}.events_model").EVENT_PAYLOADS
    found = sites(system_id)
    assert len(found) > 20, "the scan found the system's emission sites"
    for site in found:
        if site.types is None:
            continue
        named = [t for t in payloads if site.types.fullmatch(t)]
        assert named, f"{system_id} {site.where} emits {site.types.pattern!r}, which has no payload model"
        models = {payloads[t].__name__ for t in named}
        if site.model is None:
            continue
        if site.literal:
            assert models == {site.model}, f"{system_id} {site.where}: {site.model} for {named} ({models})"
        else:  # a computed name: the model must be the one of some type it can produce
            assert site.model in models, f"{system_id} {site.where}: {site.model} for {named} ({models})"


@pytest.mark.parametrize("system_id", sorted(SYSTEMS))
def test_no_emission_site_passes_a_dict(system_id):
    payloads = importlib.import_module(f"service.rules.{system_id}.events_model").EVENT_PAYLOADS
    models = {m.__name__ for m in payloads.values()}
    loose = [f"{s.where} ({s.model})" for s in sites(system_id) if s.model is not None and s.model not in models]
    assert loose == [], f"{system_id} emits untyped payloads at {loose}"


def _stepdice_move() -> MoveContext:
    from service.rules.stepdice.context import Ctx

    return Ctx({"options": {}, "table": {}, "characters": {}}, Actor(role="gm"), None)


def test_the_move_context_takes_only_the_payload_model_of_the_event_type():
    from service.rules.stepdice.events_model import StepDiceAutoSuccessRecorded, StepDiceGmNoteEvent

    ctx = _stepdice_move()
    ctx.emit("gm_note", StepDiceGmNoteEvent(text="the door creaks", test_id=None))
    assert [(e.type, e.data) for e in ctx.events] == [("gm_note", {"text": "the door creaks", "test_id": None})]
    with pytest.raises(TypeError, match="gm_notes"):
        ctx.emit("gm_notes", StepDiceGmNoteEvent(text="a misspelt type", test_id=None))
    with pytest.raises(TypeError, match="StepDiceGmNoteEvent"):
        ctx.emit("gm_note", StepDiceAutoSuccessRecorded(character_id="pc", intent=None, outcome="success"))
    with pytest.raises(TypeError):
        ctx.emit("gm_note", {"text": "an untyped payload", "test_id": None})  # type: ignore[arg-type]
    assert len(ctx.events) == 1


def test_a_missing_or_misspelt_field_fails_where_the_event_is_built():
    from service.rules.stepdice.events_model import StepDiceGmNoteEvent

    with pytest.raises(ValidationError):
        StepDiceGmNoteEvent(text="no test_id")  # type: ignore[call-arg]
    with pytest.raises(ValidationError):
        StepDiceGmNoteEvent(txt="typo", test_id=None)  # type: ignore[call-arg]


def test_an_event_carries_the_fields_its_site_set_under_their_wire_names():
    from service.rules.stepdice.events_model import StepDiceMoved

    moved = StepDiceMoved(character_id="pc", from_=None, to={"x": 1, "y": 2}, move_remaining=3)
    assert payload_data(moved) == {"character_id": "pc", "from": None, "to": {"x": 1, "y": 2}, "move_remaining": 3}


def test_players_copy_leaves_out_what_it_hides_and_nothing_required():
    from service.rules.stepdice.events_model import StepDiceEnemyWounded, StepDiceSceneEnded

    hit = StepDiceEnemyWounded(enemy_id="e1", test_id="t1", wounds=2, wounds_taken=2, wounds_max=3, overflow=0)
    assert payload_data(without(hit, "wounds", "wounds_taken")) == {
        "enemy_id": "e1",
        "test_id": "t1",
        "wounds_max": 3,
        "overflow": 0,
    }
    assert payload_data(hit)["wounds"] == 2, "the GM's copy keeps them"
    with pytest.raises(TypeError, match="required"):
        without(hit, "enemy_id")
    ended = StepDiceSceneEnded(scene_id="s1", clocks_closed=["c1", "c2"])
    assert payload_data(replaced(ended, clocks_closed=["c1"])) == {"scene_id": "s1", "clocks_closed": ["c1"]}
    with pytest.raises(ValidationError):
        replaced(ended, clocks_closed="c1")
