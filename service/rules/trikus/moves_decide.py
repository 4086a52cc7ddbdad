"""Decisions inside and after a contest: negotiation, boom, team-test cancellation, team-combat
declarations, the GM's waived roll, and the lost-line choice (spec 4.5, 4.9, 4.10, 4.17–4.19)."""

from __future__ import annotations

from typing import Any

from service.i18n.message import _
from service.rules.base import gm_only
from service.rules.trikus import activity, boom, combat_round, lines, negotiation, opposed
from service.rules.move import replaced
from service.rules.trikus.context import Ctx
from service.rules.trikus.events_model import TrikusBoomReviewed
from service.rules.trikus.errors import violation


def propose_negotiation(ctx: Ctx, a: Any) -> None:
    activity.active_sheet(ctx, a.character_id)
    act = activity.require(ctx, "contest")
    p = negotiation.check_propose(ctx, act, a.character_id)
    negotiation.propose(ctx, act, a.character_id, p)


def answer_negotiation(ctx: Ctx, a: Any) -> None:
    act = activity.require(ctx)
    c = act.get("contest")
    if act["phase"] != "contest" or c is None or c["stage"] != "negotiation_offered":
        raise violation("no_negotiation_proposed", _("nobody proposed a negotiation that awaits an answer"))
    responder = c["negotiation"]["responder"]
    if responder == "gm":
        if not ctx.actor.is_gm:
            raise gm_only(_("the GM answers a negotiation proposed against his die"))
    elif a.character_id != responder:
        raise violation(
            "not_your_turn", _("{responder} answers this negotiation (spec 4.23)", responder=responder), "character_id"
        )
    negotiation.answer(ctx, act, a.accept)


def claim_boom(ctx: Ctx, a: Any) -> None:
    if not ctx.options.adv_boom:
        raise violation("option_disabled", _("boom dice are an advanced rule (adv_boom is off)"))
    activity.active_sheet(ctx, a.character_id)
    act = activity.require(ctx, "contest", "boom_review")
    b = act["contest"]["boom"]
    if a.value in {cl["value"] for cl in b["claims"]}:
        raise violation("boom_already_claimed", _("the {value}s were already claimed (A42)", value=a.value), "value")
    if a.value not in b["available"]:
        raise violation(
            "no_such_boom", _("three {value}s are not on the table in this test (L356)", value=a.value), "value"
        )
    boom.claim(ctx, act, a.character_id, a.value, a.text)


def boom_review(ctx: Ctx, a: Any) -> None:
    """L356: no player noticed, so the GM may turn the result upside down (A42)."""
    act = activity.require(ctx, "boom_review")
    if a.overrides and not boom.unclaimed(act):
        raise violation(
            "no_unclaimed_boom", _("results may be overturned only after an unnoticed boom (L356)"), "overrides"
        )
    for cid in a.overrides:
        if act["results"].get(cid) not in ("success", "failure", "draw"):
            raise violation("not_a_result", _("{cid} has no result in this test to overturn", cid=cid), "overrides")
    changed = {cid: {"from": act["results"][cid], "to": r} for cid, r in a.overrides.items()}
    act["results"].update(a.overrides)
    act["reviewed"] = True
    data = TrikusBoomReviewed(activity_id=act["id"], unclaimed=boom.unclaimed(act), overrides=changed)
    # Whether a triple went unnoticed stays the GM's knowledge unless booms are announced (A42).
    ctx.emit("boom_reviewed", data, redacted=None if boom.announce(ctx) else replaced(data, unclaimed=None))


def _head(act: dict[str, Any], cid: str) -> None:
    if not act["queue"] or act["queue"][0] != cid:
        nxt = act["queue"][0] if act["queue"] else "nobody"
        raise violation("not_your_turn", _("{nxt} decides next (highest result first, A10/A25)", nxt=nxt))


def keep_success(ctx: Ctx, a: Any) -> None:
    act = activity.require(ctx, "cancellation")
    _head(act, a.character_id)
    opposed.keep(ctx, act, a.character_id)


def give_up_success(ctx: Ctx, a: Any) -> None:
    act = activity.require(ctx, "cancellation")
    _head(act, a.character_id)
    opposed.check_target(act, a.target_character_id)
    opposed.give_up(ctx, act, a.character_id, a.target_character_id)


def attack(ctx: Ctx, a: Any) -> None:
    act = activity.require(ctx, "declarations")
    _head(act, a.character_id)
    act["queue"].pop(0)
    combat_round.record(ctx, act, a.character_id, "attack", None)


def defend(ctx: Ctx, a: Any) -> None:
    act = activity.require(ctx, "declarations")
    _head(act, a.character_id)
    combat_round.check_defend_target(act, a.target_character_id)
    act["queue"].pop(0)
    combat_round.record(ctx, act, a.character_id, "defend", a.target_character_id)


def waive_roll(ctx: Ctx, a: Any) -> None:
    act = activity.require(ctx, "gm_rolls")
    job = act["queue"][0]
    if job.get("target") != a.target_character_id:
        raise violation(
            "not_a_roll_target",
            _("the GM's next roll is against {target}", target=job.get("target")),
            "target_character_id",
        )
    combat_round.roll_next(ctx, act, waive=True)


def choose_lost_line(ctx: Ctx, a: Any) -> None:
    act = activity.require(ctx, "lost_line_choice")
    entry = next((e for e in act["line_choices"] if e["character_id"] == a.character_id), None)
    if entry is None:
        raise violation("not_your_turn", _("{character_id} has no lost line to choose", character_id=a.character_id))
    if a.line_index not in entry["candidates"]:
        raise violation(
            "not_a_candidate_line",
            _("choose one of lines {candidates} (A17)", candidates=entry["candidates"]),
            "line_index",
        )
    act["line_choices"].remove(entry)
    lines.lose(ctx, a.character_id, a.line_index)


HANDLERS = {
    "propose_negotiation": propose_negotiation,
    "answer_negotiation": answer_negotiation,
    "claim_boom": claim_boom,
    "boom_review": boom_review,
    "keep_success": keep_success,
    "give_up_success": give_up_success,
    "attack": attack,
    "defend": defend,
    "waive_roll": waive_roll,
    "choose_lost_line": choose_lost_line,
}
