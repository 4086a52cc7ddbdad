"""Whose move it is (spec 5.0): `awaiting` lists who must act for the open activity to go on and
what they may send; `requests` lists non-blocking asks (dark-side acknowledgements, new sides).
Both use the shared entry shape of service.rules.awaiting."""

from __future__ import annotations

from typing import Any

from service.rules import awaiting as shared
from service.rules.trikus import combat, contest
from service.rules.trikus.context import Ctx

IDLE = ["open_test", "open_pvp_test", "open_combat", "start_session", "force_reset"]


def _entry(who: str, *may: str) -> dict[str, Any]:
    """`who` as the activity records it: "gm" or a character id."""
    return shared.gm(*may) if who == "gm" else shared.character(who, *may)


def party(entry: dict[str, Any]) -> str:
    """The entry's party as the activity records it: "gm" or a character id."""
    return entry["character_id"] or "gm"


def _contest_thrower(ctx: Ctx, act: dict[str, Any], who: str) -> dict[str, Any]:
    if who == "gm":
        return _entry("gm", "throw", "auto")
    may = ["throw"]
    if ctx.options.adv_escape:
        may.append("escape")
    if ctx.characters[who]["light_tokens"]["active"] > 0:
        may.append("spend_light_die")
    c = act["contest"]
    p = contest.pair_in(c, who)
    if (
        ctx.options.adv_negotiation
        and not c["submitted"]
        and p["state"]["kind"] == "ctrl"
        and p["state"]["side"] != who
        and not contest.die(c, p["state"]["die"]).get("proposed")
    ):
        may.append("propose_negotiation")
    return _entry(who, *may)


def _contest(ctx: Ctx, act: dict[str, Any]) -> list[dict[str, Any]]:
    c = act["contest"]
    stage = c["stage"]
    if stage == "last_chance":
        return [_entry(c["last_chance"], "spend_light_die", "pass_last_chance")]
    if stage in ("negotiation_offered", "negotiation_rethrow"):
        who = c["negotiation"]["responder"]
        if stage == "negotiation_offered":
            return [_entry(who, "answer_negotiation")]
        return [_entry(who, "throw", "auto") if who == "gm" else _entry(who, "throw")]
    return [_contest_thrower(ctx, act, w) for w in contest.required(c) if w not in c["submitted"]]


def activity_awaiting(ctx: Ctx, act: dict[str, Any]) -> list[dict[str, Any]]:
    ph = act["phase"]
    if ph in ("pool_formation", "setup"):
        out = [_entry(c, "join", "bad_feeling") for c in act["invited"] if c not in act["answers"]]
        return out or [_entry("gm", "start")]
    if ph == "round_pool":
        extra = ("escape",) if ctx.options.adv_escape else ()
        return [
            _entry(c, "declare_round", *extra) for c in combat.active(act) if act["participants"][c]["declared"] is None
        ]
    if ph == "contest":
        return _contest(ctx, act)
    if ph == "boom_review":
        return [_entry("gm", "boom_review")]
    if ph == "cancellation":
        return [_entry(act["queue"][0], "keep_success", "give_up_success")]
    if ph == "declarations":
        return [_entry(act["queue"][0], "attack", "defend")]
    if ph == "attack_rolls":
        return [_entry(act["queue"][0]["roller"], "throw")]
    if ph == "gm_rolls":
        return [_entry("gm", "throw", "waive_roll", "auto")]
    if ph == "lost_line_choice":
        return [_entry(e["character_id"], "choose_lost_line") for e in act["line_choices"]]
    return []


def compute(ctx: Ctx) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    act = ctx.activity
    awaiting = activity_awaiting(ctx, act) if act is not None else [_entry("gm", *IDLE)]
    requests = [_entry(p["character_id"], "acknowledge_dark_side") for p in ctx.table["dark_side_prompts"]]
    requests += [_entry(cid, "set_sides") for cid in ctx.active_ids() if ctx.characters[cid]["sides_pending"]]
    return shared.merged(awaiting), requests


def refresh(ctx: Ctx) -> None:
    ctx.table["awaiting"], ctx.table["requests"] = compute(ctx)


# Moves the engine may accept outside what `awaiting` asks (the GM's management and narration, a player's moves
# out of turn), listed in `table.offers` (service.rules.awaiting.offers); each still passes the engine's checks.
OPEN_GM = (
    "abort_activity",
    "adjust_combat",
    "auto",
    "award_light_token",
    "give_item",
    "gm_note",
    "narrate",
    "renew_item",
    "reveal_trait",
    "spend_dark_token",
)
OPEN_PLAYER = (
    "acknowledge_dark_side",
    "boost",
    "claim_boom",
    "commit_morale",
    "light_token_fact",
    "set_sides",
    "spend_light_die",
)
