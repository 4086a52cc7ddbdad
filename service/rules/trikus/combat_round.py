"""The end of a combat round: declarations, combat-difficulty rolls, hits, knock-outs, end check
(L188–L216, L362–L392; spec 4.8 steps 3–10, 4.9, 4.10)."""

from __future__ import annotations

from typing import Any

from service.i18n.message import _
from service.rules.trikus import consequences, equipment, fate
from service.rules.trikus.combat import active, begin_round, persistent
from service.rules.trikus.constants import DEFENSE_BONUS_PER_DEFENDER
from service.rules.trikus.context import Ctx
from service.rules.trikus.errors import violation
from service.rules.trikus.events_model import (
    TrikusCombatDeclaration,
    TrikusCombatRollMade,
    TrikusKnockedOut,
    TrikusRoundHits,
)


def failing(act: dict[str, Any]) -> list[str]:
    """Failing players who can be defended and rolled against: negotiation failures lose a die
    automatically (L346, A40)."""
    return [
        c for c in act["invited"] if act["results"].get(c) == "failure" and not act["participants"][c]["negotiated"]
    ]


def init_declarations(ctx: Ctx, act: dict[str, Any]) -> None:
    """Spec 4.9: successful players in descending final value, ties by seat order (A25); when nobody can
    be defended every success is an automatic attack (single combat, L184)."""
    seat = act["invited"]
    wins = sorted(
        (c for c in seat if act["results"].get(c) == "success"),
        key=lambda c: (-(act["final_values"].get(c) or 0), seat.index(c)),
    )
    if failing(act):
        act["queue"] = wins
        return
    act["queue"] = []
    for cid in wins:
        record(ctx, act, cid, "attack", None, automatic=True)


def record(
    ctx: Ctx, act: dict[str, Any], cid: str, choice: str, target: str | None, *, automatic: bool = False
) -> None:
    act["declarations"].append({"character_id": cid, "choice": choice, "target_character_id": target})
    ctx.emit(
        "combat_declaration",
        TrikusCombatDeclaration(
            activity_id=act["id"],
            round=act["round"],
            character_id=cid,
            choice=choice,
            target_character_id=target,
            automatic=automatic,
        ),
    )


def check_defend_target(act: dict[str, Any], target: str) -> None:
    if act["results"].get(target) == "failure" and act["participants"][target]["negotiated"]:
        raise violation(
            "cannot_defend_negotiation_failure",
            _("a failure after a negotiation loses its die automatically and cannot be protected (L346)"),
            "target_character_id",
        )
    if target not in failing(act):
        raise violation(
            "not_a_failing_player", _("{target} did not fail this round (L192)", target=target), "target_character_id"
        )


def defenders(act: dict[str, Any], target: str) -> list[str]:
    return [
        d["character_id"] for d in act["declarations"] if d["choice"] == "defend" and d["target_character_id"] == target
    ]


def init_rolls(act: dict[str, Any]) -> None:
    """L370, L374: attackers roll first in declaration order, then the GM against each failing player."""
    act["queue"] = [
        {"kind": "attack", "roller": d["character_id"]} for d in act["declarations"] if d["choice"] == "attack"
    ]
    act["queue"] += [{"kind": "gm", "roller": "gm", "target": f} for f in failing(act)]


def roll_next(ctx: Ctx, act: dict[str, Any], *, waive: bool = False) -> None:
    """One combat-difficulty roll: d10 >= CD + modifiers (L370, L382, L398). Not a pool die: no boom,
    no morale, no light tokens (L370, A29). Targets are not clamped (A29)."""
    job = act["queue"].pop(0)
    cd = act["combat_difficulty"]
    if job["kind"] == "attack":
        part = act["participants"][job["roller"]]
        need = cd + equipment.modifier(ctx, job["roller"], part["item_ids"], "offensive")
        entry = {"kind": "attack", "roller": job["roller"], "target_character_id": None}
    else:
        f = job["target"]
        helpers = defenders(act, f)
        need = (
            cd
            + DEFENSE_BONUS_PER_DEFENDER * len(helpers)
            + sum(equipment.modifier(ctx, c, act["participants"][c]["item_ids"], "defensive") for c in [f, *helpers])
        )
        entry = {"kind": "gm", "roller": "gm", "target_character_id": f}
    entry["need"] = need
    if waive:
        entry.update(value=None, hit=False, waived=True)
        ctx.emit("roll_waived", TrikusCombatRollMade(activity_id=act["id"], round=act["round"], **entry))
    else:
        d = ctx.roll(f"{act['id']} round {act['round']} combat difficulty: {entry['roller']}")
        entry.update(value=d.face, hit=d.face >= need, waived=False)
        ctx.emit(
            "combat_difficulty_roll",
            TrikusCombatRollMade(activity_id=act["id"], round=act["round"], **entry, dice=[d.to_dict()]),
        )
    act["rolls"].append(entry)


def apply_round(ctx: Ctx, act: dict[str, Any]) -> None:
    """Spec 4.8 steps 5–9: all hits together (A27), allies die first (A23), then consequences,
    knock-outs with a Catastrophe (L196), the Master's fate in a powerful fight (L212)."""
    res = act["results"]
    hits: dict[str, int] = {}
    if ctx.options.adv_combat_difficulty:
        gm_hits = sum(1 for r in act["rolls"] if r["kind"] == "attack" and r["hit"])
        for r in act["rolls"]:
            if r["kind"] == "gm" and r["hit"]:
                hits[r["target_character_id"]] = 1
    else:
        gm_hits = sum(1 for d in act["declarations"] if d["choice"] == "attack")
        hits.update({f: 1 for f in failing(act) if not defenders(act, f)})  # one defender suffices (A25)
    for cid in act["invited"]:
        if res.get(cid) == "failure" and act["participants"][cid]["negotiated"]:
            hits[cid] = 1  # automatic, undefendable (L346)
    act["gm_pool"] = max(0, act["gm_pool"] - gm_hits)
    lost = {}
    for cid in hits:
        part = act["participants"][cid]
        if part["allies"] > 0:
            part["allies"] -= 1
            lost[cid] = "ally"  # each lost ally die is a dead ally (L180)
        elif part["line_dice"] > 0:
            part["line_dice"] -= 1
            lost[cid] = "line_die"
        else:
            lost[cid] = "nothing_left"  # pool already 0 (A22)
    ctx.emit(
        "round_hits",
        TrikusRoundHits(
            activity_id=act["id"],
            round=act["round"],
            gm_dice_lost=gm_hits,
            gm_pool=act["gm_pool"],
            players_hit=lost,
            pools={c: persistent(act["participants"][c]) for c in act["participants"]},
        ),
    )
    for cid in act["invited"]:
        if cid in res:
            consequences.apply(ctx, act, cid, res[cid])
    for cid in act["invited"]:
        part = act["participants"].get(cid)
        if cid in hits and part["status"] == "active" and persistent(part) == 0:
            part["status"] = "knocked_out"
            ctx.emit("knocked_out", TrikusKnockedOut(activity_id=act["id"], round=act["round"], character_id=cid))
            consequences.catastrophe(ctx, act, cid, "last_die")  # L196, L442
            if act["powerful_opponent"]:
                fate.master_consequence(ctx, act, cid)


def end_check(ctx: Ctx, act: dict[str, Any]) -> str | None:
    """A28: the GM out of dice ends it first (A27); then nobody left fighting; else the next round."""
    parts = act["participants"].values()
    if act["gm_pool"] <= 0:
        return "players_win"
    if not active(act):
        return "players_defeated" if any(p["status"] == "knocked_out" for p in parts) else "withdrawn"
    begin_round(ctx, act)
    return None
