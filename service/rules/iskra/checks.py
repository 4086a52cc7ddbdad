"""Building a test (spec 4.2 build_test, 4.3 modifier catalogue) and opening it as the pending step."""

from typing import Any

from pydantic import BaseModel

from service.i18n.message import _, _n
from service.rules.iskra import derived
from service.rules.iskra.catalogue import PHYSICAL
from service.rules.iskra.context import Ctx
from service.rules.iskra.events_model import IskraTestEvent
from service.rules.iskra.errors import violation

SECRET_KEYS = ("attribute_value", "s0", "s", "total")
HIDDEN = {"source": "hidden", "value": None, "label": "hidden", "hidden": True}


def _mod(source: str, value: int, label: str | None = None, hidden: bool = False) -> dict[str, Any]:
    return {"source": source, "value": value, "label": label or source, "hidden": hidden}


def modifiers(ctx: Ctx, t: dict[str, Any]) -> list[dict[str, Any]]:
    """Every modifier of spec 4.3 that applies to this test, itemized (recomputed until the roll)."""
    sheet = ctx.characters[t["character_id"]]
    out = [_mod("gm", m["value"], m["source"], m["hidden"]) for m in t["gm_modifiers"]]
    each = ctx.options.predisposition_stacking == "all"  # 7-B21: one +2 and one −2 unless stacking is on
    for key, source, sign in (("predispositions", "predisposition", 2), ("weaknesses", "weakness", -2)):
        for n, idx in enumerate(t[key]):
            if each or n == 0:
                out.append(_mod(source, sign, sheet[key][idx]["label"]))
    if derived.low_health(sheet):
        out.append(_mod("low_health", -2))  # L64, also at 0 (7-B13)
    if t["attribute"] in PHYSICAL and derived.encumbrance(sheet, ctx.options) == "overloaded":
        out.append(_mod("overloaded", -2))  # L134
    if t["helpers"] or t["help_tokens"]:
        out.append(_mod("help", 2))  # L165: once, however many helpers
    if t["glory_used"]:
        out.append(_mod("glory", sheet["glory"]))  # L120
    target = ctx.characters.get(t["detect_target_id"] or "")
    if t["context"] == "detect" and target is not None and derived.has_ability(target, "light_step"):
        out.append(_mod("light_step", -2))  # L292, 7-B42
    out.extend(t["extra_modifiers"])
    return out


def recompute(ctx: Ctx, t: dict[str, Any]) -> None:
    sheet = ctx.characters[t["character_id"]]
    t["attribute_value"] = sheet["attributes"][t["attribute"]]
    t["modifiers"] = modifiers(ctx, t)
    t["s0"] = t["attribute_value"] + sum(m["value"] for m in t["modifiers"])
    t["s"] = t["s0"] + t["adj"]
    t["npc"] = sheet["controller"] == "gm"  # spec 8: NPC attribute values are GM-only
    t["secret"] = t["npc"] or any(m["hidden"] for m in t["modifiers"])


def check_trait_indices(sheet: dict[str, Any], key: str, indices: list[int]) -> None:
    for i in indices:
        if not 0 <= i < len(sheet[key]):
            raise violation(
                "unknown_predisposition",
                _n(
                    "{key}[{i}] does not exist on this sheet ({count} entry)",
                    "{key}[{i}] does not exist on this sheet ({count} entries)",
                    len(sheet[key]),
                    key=key,
                    i=i,
                    count=len(sheet[key]),
                ),
                key,
            )


def build(
    ctx: Ctx,
    cid: str,
    attribute: str,
    purpose: str,
    *,
    context: str = "general",
    detect_target_id: str | None = None,
    gm_modifiers: list[dict[str, Any]] | None = None,
    predispositions: list[int] | None = None,
    weaknesses: list[int] | None = None,
    helpers: list[dict[str, Any]] | None = None,
    extra: list[dict[str, Any]] | None = None,
    intent: str | None = None,
) -> dict[str, Any]:
    sheet = ctx.characters[cid]
    check_trait_indices(sheet, "predispositions", predispositions or [])
    check_trait_indices(sheet, "weaknesses", weaknesses or [])
    if detect_target_id is not None:
        ctx.sheet(detect_target_id, "detect_target_id")
    t = {
        "id": ctx.next_id("test", "t"),
        "kind": "test",
        "purpose": purpose,
        "character_id": cid,
        "attribute": attribute,
        "context": context,
        "detect_target_id": detect_target_id,
        "intent": intent,
        "gm_modifiers": gm_modifiers or [],
        "predispositions": sorted(set(predispositions or [])),
        "weaknesses": sorted(set(weaknesses or [])),
        "helpers": helpers or [],
        "help_tokens": [],
        "glory_used": False,
        "extra_modifiers": extra or [],
        "adj": 0,
        "focus_spent": 0,
        "roll": None,
        "rolls": [],
        "rerolled": False,
        "stage": "pre_roll",
        "focus_request": None,
        "prev_stage": None,
        "outcome": None,
        "attack": None,
        "damage_id": None,
        "critical_note": None,
        # 7-B47: acting on Death's Door is allowed, but a failure kills; clients warn before the roll.
        "deaths_door_warning": derived.deaths_door(sheet),
    }
    enc = ctx.encounter
    if enc is not None and ctx.participant(cid) is not None:
        # spec 4.7 / 7-B25: a help token given to this character is spent on its next test.
        t["help_tokens"] = [h for h in enc["help_tokens"] if h["beneficiary_id"] == cid]
        enc["help_tokens"] = [h for h in enc["help_tokens"] if h["beneficiary_id"] != cid]
    recompute(ctx, t)
    return t


def public(t: dict[str, Any]) -> dict[str, Any]:
    """What players see of a test (spec 8): NPC numbers and hidden GM modifiers are GM-only."""
    if not t.get("secret"):
        return t
    npc = t.get("npc", False)
    out = {k: v for k, v in t.items() if k not in SECRET_KEYS and not (npc and k == "deaths_door_warning")}
    out["modifiers"] = [HIDDEN if npc or m["hidden"] else m for m in t["modifiers"]]
    out["gm_modifiers"] = [HIDDEN if npc or m["hidden"] else m for m in t["gm_modifiers"]]
    return out


def emit_test(ctx: Ctx, type_: str, model: type[BaseModel], t: dict[str, Any], **extra: Any) -> None:
    """An event carrying the test as it stands (`model` has a `test` field); players see a secret test's public
    copy."""
    ctx.emit(type_, model(test=t, **extra), redacted=model(test=public(t), **extra) if t.get("secret") else None)


def open_test(ctx: Ctx, t: dict[str, Any]) -> None:
    """The test becomes the pending step; a Dodge test nests inside its damage (spec 5.2)."""
    p = ctx.table["pending"]
    if p is not None and p["kind"] == "damage":
        p["dodge_test"] = t
        t["damage_id"] = p["id"]
    else:
        ctx.table["pending"] = t
    emit_test(ctx, "test_opened", IskraTestEvent, t)


def active(ctx: Ctx, test_id: str | None = None) -> dict[str, Any]:
    """The test waiting for input: the pending test, or the Dodge test inside the pending damage."""
    p = ctx.table["pending"]
    t = p if p is not None and p["kind"] == "test" else (p or {}).get("dodge_test")
    if t is None or (test_id is not None and test_id != t["id"]):
        raise violation(
            "no_pending_test",
            (_("no open test {test_id}", test_id=test_id) if test_id else _("no open test")),
            "test_id",
        )
    return t


def stage(t: dict[str, Any], *stages: str) -> None:
    if t["stage"] not in stages:
        raise violation(
            "wrong_stage",
            _(
                "test {id} is in {stage}; this needs {stages} (spec 5.1)",
                id=t["id"],
                stage=t["stage"],
                stages=" or ".join(stages),
            ),
            "type",
        )
