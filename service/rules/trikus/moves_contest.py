"""Moves inside a running contest: throws, auto, light dice, last chance, escape, and the pool
additions that are only legal before the test (spec 4.2, 4.3, 4.13, 4.14, 4.16)."""

from __future__ import annotations

from typing import Any

from service.i18n.message import _, _n
from service.rules.base import gm_only
from service.rules.trikus import activity, combat, combat_round, contest, fate, flow, negotiation
from service.rules.trikus.constants import BOOST_DICE
from service.rules.trikus.context import Ctx
from service.rules.trikus.errors import violation
from service.rules.trikus.events_model import TrikusCharacterInActivity, TrikusLightDieSpent, TrikusPoolChanged


def _blocked(c: dict[str, Any]) -> None:
    if c["stage"] in ("negotiation_offered", "negotiation_rethrow"):
        raise violation("negotiation_pending", _("a negotiation must be answered and re-thrown first"))


def throw(ctx: Ctx, a: Any) -> None:
    who = a.character_id or "gm"
    if who == "gm" and not ctx.actor.is_gm:
        raise gm_only(_("only the GM throws the GM's dice"), field="character_id")
    if who != "gm":
        activity.active_sheet(ctx, who)
    act = activity.require(ctx, "contest", "attack_rolls", "gm_rolls")
    if act["phase"] != "contest":
        job = act["queue"][0]
        if job["roller"] != who:
            raise violation(
                "not_your_turn", _("the next combat-difficulty roll is {roller}'s (L374)", roller=job["roller"])
            )
        if a.target_character_id is not None and job.get("target") != a.target_character_id:
            raise violation(
                "not_a_roll_target",
                _("the GM's next roll is against {target}", target=job.get("target")),
                "target_character_id",
            )
        combat_round.roll_next(ctx, act)
        return
    if a.target_character_id is not None:
        raise violation(
            "field_not_applicable",
            _("target_character_id is for the GM's combat-difficulty rolls"),
            "target_character_id",
        )
    c = act["contest"]
    if c["stage"] == "negotiation_rethrow":
        if who != c["negotiation"]["responder"]:
            raise violation("not_your_turn", _("the negotiated die is re-thrown by its owner (L346)"))
        negotiation.rethrow(ctx, act)
        return
    _blocked(c)
    if c["stage"] == "last_chance":
        raise violation(
            "last_chance_pending",
            _("{last_chance} must spend a light token or pass first", last_chance=c["last_chance"]),
        )
    if who in c["submitted"]:
        raise violation("already_thrown", _("one die per thrower per wave (L112)"))
    if who not in contest.required(c):
        raise violation(
            "not_your_turn",
            _(
                "only the side below the target throws; the side in control waits (L112). Waiting for: {required}",
                required=", ".join(contest.required(c)),
            ),
        )
    contest.submit(ctx, act, who)


def _auto_step(ctx: Ctx, act: dict[str, Any]) -> bool:
    if act["phase"] in ("attack_rolls", "gm_rolls") and act["queue"]:
        combat_round.roll_next(ctx, act)
        return True
    if act["phase"] != "contest":
        return False
    c = act["contest"]
    if c["stage"] == "negotiation_rethrow":
        negotiation.rethrow(ctx, act)
        return True
    if c["stage"] != "wave":
        return False
    for who in [w for w in contest.required(c) if w not in c["submitted"]]:
        contest.submit(ctx, act, who)
    return True


def auto(ctx: Ctx, a: Any) -> None:
    """Throw for everyone until a decision is pending (last chance, negotiation answer, boom review,
    cancellation, declarations, round pools, a lost-line choice) or the activity ends."""
    act = activity.require(ctx)
    if not _auto_step(ctx, act):
        raise violation("nothing_to_auto", _("phase {phase} waits for a decision, not a throw", phase=act["phase"]))
    flow.proceed(ctx)
    while ctx.activity is act and _auto_step(ctx, act):
        flow.proceed(ctx)


def _not_setup(act: dict[str, Any]) -> None:
    if act["phase"] == "setup":
        raise violation("wrong_phase", _("in combat, extras are declared for each round (L180, spec 4.8)"))


def _pool_answer(ctx: Ctx, act: dict[str, Any], cid: str) -> dict[str, Any]:
    """The pool being formed: a test's join answer, or this round's declaration."""
    if act["phase"] == "pool_formation":
        ans = act["answers"].get(cid)
        if ans is None or ans["kind"] != "join":
            raise violation("wrong_phase", _("join the test first, then add to the pool"))
        return ans
    part = activity.participant(act, cid)
    if part["status"] != "active" or part["declared"] is None:
        raise violation("wrong_phase", _("declare_round first, then add to the pool"))
    return part["declared"]


def _grow(pool: dict[str, Any], dice: int) -> None:
    """A test's join answer carries its pool size; a round declaration is summed when the round starts."""
    if "dice" in pool:
        pool["dice"] += dice


def boost(ctx: Ctx, a: Any) -> None:
    sheet = activity.active_sheet(ctx, a.character_id)
    act = activity.require(ctx)
    _not_setup(act)
    if act["phase"] not in ("pool_formation", "round_pool"):
        raise violation(
            "boost_only_before_test", _("boost is chosen while forming the pool, never during the test (L230)")
        )
    pool = _pool_answer(ctx, act, a.character_id)
    used = act["phase"] == "round_pool" and act["participants"][a.character_id]["boost_used"]
    if pool["boost"] or used:
        raise violation("boost_already_used", _("boost is used once per test, once per combat (L230, A21)"))
    pool["boost"] = True
    _grow(pool, BOOST_DICE)
    ctx.emit(
        "pool_changed",
        TrikusPoolChanged(activity_id=act["id"], character_id=a.character_id, boost=True, name=sheet["name"]),
    )


def commit_morale(ctx: Ctx, a: Any) -> None:
    sheet = activity.active_sheet(ctx, a.character_id)
    act = activity.require(ctx)
    _not_setup(act)
    if act["phase"] not in ("pool_formation", "round_pool"):
        raise violation(
            "morale_only_before_test",
            _("morale dice are committed while forming the pool (L106, A13); a light token can still be spent now"),
        )
    pool = _pool_answer(ctx, act, a.character_id)
    if pool["morale"] + a.count > sheet["morale_dice"]:
        raise violation(
            "insufficient_morale",
            _n(
                "{name} holds {morale_dice} morale die",
                "{name} holds {morale_dice} morale dice",
                sheet["morale_dice"],
                name=sheet["name"],
                morale_dice=sheet["morale_dice"],
            ),
            "count",
        )
    pool["morale"] += a.count
    _grow(pool, a.count)
    ctx.emit(
        "pool_changed", TrikusPoolChanged(activity_id=act["id"], character_id=a.character_id, morale=pool["morale"])
    )


def spend_light_die(ctx: Ctx, a: Any) -> None:
    """L280: at any moment of the test, including the last chance before losing (A13)."""
    cid = a.character_id
    sheet = activity.active_sheet(ctx, cid)
    act = activity.require(ctx, "pool_formation", "round_pool", "contest")
    if act["phase"] != "contest":
        pool = _pool_answer(ctx, act, cid)
        if pool["light"] + a.count > sheet["light_tokens"]["active"]:
            raise violation(
                "insufficient_light_tokens",
                _n(
                    "{name} holds {active} light token",
                    "{name} holds {active} light tokens",
                    sheet["light_tokens"]["active"],
                    name=sheet["name"],
                    active=sheet["light_tokens"]["active"],
                ),
                "count",
            )
        pool["light"] += a.count
        _grow(pool, a.count)
        ctx.emit("pool_changed", TrikusPoolChanged(activity_id=act["id"], character_id=cid, light=pool["light"]))
        return
    c = act["contest"]
    _blocked(c)
    p = contest.pair_of(c, cid)
    if p is None or p["outcome"] != "open":
        raise violation("pair_not_open", _("{name} has no open contest to add a die to", name=sheet["name"]))
    if a.count > sheet["light_tokens"]["active"]:
        raise violation(
            "insufficient_light_tokens",
            _n(
                "{name} holds {active} light token",
                "{name} holds {active} light tokens",
                sheet["light_tokens"]["active"],
                name=sheet["name"],
                active=sheet["light_tokens"]["active"],
            ),
            "count",
        )
    tok = sheet["light_tokens"]
    tok["active"] -= a.count
    tok["used_total"] += a.count
    c["unthrown"][cid] += a.count
    ctx.emit(
        "light_die_spent",
        TrikusLightDieSpent(
            activity_id=act["id"],
            character_id=cid,
            count=a.count,
            unthrown=c["unthrown"][cid],
            light_tokens_left=tok["active"],
        ),
    )


def pass_last_chance(ctx: Ctx, a: Any) -> None:
    act = activity.require(ctx, "contest")
    c = act["contest"]
    if c["stage"] != "last_chance" or c["last_chance"] != a.character_id:
        raise violation("no_last_chance", _("no last-chance prompt is waiting for this character"))
    contest.pair_in(c, a.character_id)["passed"].append(a.character_id)
    ctx.emit("last_chance_passed", TrikusCharacterInActivity(activity_id=act["id"], character_id=a.character_id))


def escape(ctx: Ctx, a: Any) -> None:
    """L324: any moment, while holding an unthrown die; not a failure; a dark token (spec 4.16)."""
    if not ctx.options.adv_escape:
        raise violation("option_disabled", _("escape is an advanced rule (adv_escape is off)"))
    cid = a.character_id
    activity.active_sheet(ctx, cid)
    act = activity.require(ctx, "round_pool", "contest")
    part = activity.participant(act, cid)
    if act["phase"] == "round_pool":
        if part["status"] != "active":
            raise violation("pair_not_open", _("{cid} is {status} in this combat", cid=cid, status=part["status"]))
        dec = part["declared"] or {}
        held = combat.persistent(part) + dec.get("morale", 0) + dec.get("light", 0) + 2 * dec.get("boost", False)
        if held < 1:
            raise violation("no_unthrown_die", _("escape needs at least one unthrown die (L324)"))
        part["status"] = "escaped"
    else:
        c = act["contest"]
        _blocked(c)
        if c["unthrown"].get(cid, 0) < 1:
            raise violation(
                "no_unthrown_die",
                _("escape needs at least one unthrown die; a die submitted in this wave counts as thrown (L324)"),
            )
        p = contest.pair_of(c, cid)
        if p is None or p["outcome"] != "open":
            raise violation("pair_not_open", _("{cid} has no open contest to escape from", cid=cid))
        contest.leave(c, cid, "escaped")
        part["status"] = "escaped"
    ctx.emit("escaped", TrikusCharacterInActivity(activity_id=act["id"], character_id=cid))
    fate.add_dark_token(ctx, cid, "escape")


HANDLERS = {
    "throw": throw,
    "auto": auto,
    "boost": boost,
    "commit_morale": commit_morale,
    "spend_light_die": spend_light_die,
    "pass_last_chance": pass_last_chance,
    "escape": escape,
}
