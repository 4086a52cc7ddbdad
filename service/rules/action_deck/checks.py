"""Trait tests as records that live between requests (spec §3.9, §5.5): roll, reroll, substitute, accept.

A test stays `rolled` while its roller may still reroll; it becomes `final` on accept, on the roller's next
unrelated move (apply.auto_accept) or when its opposed defender rolls. A critical failure is the other terminal
state, `critical_failure` (§5.5), from the roll that produced it on: no reroll, no accept.
Effects that depend on the kept result (jump, hazard, Notice, opposed tests) run from FINAL_HOOKS.
"""

from collections.abc import Callable
from dataclasses import asdict
from typing import Any

from pydantic import BaseModel

from service.i18n.message import _
from service.rules.action_deck import bennies, guards, turns
from service.rules.action_deck.context import Ctx
from service.rules.action_deck.errors import violation
from service.rules.action_deck.sheet import trait_die
from service.rules.action_deck.traits import RollSpec, better, evaluate, roll_attempt, roll_damage
from service.rules.action_deck.events_model import ActionDeckTestFinal, ActionDeckTestRolled

FINAL_HOOKS: dict[str, Callable[[Ctx, dict[str, Any]], None]] = {}  # purpose -> effect; filled by modules
KEEP_FINISHED = 20
TERMINAL = ("final", "critical_failure")


def build(
    ctx: Ctx,
    *,
    roller_id: str,
    trait: str,
    where: dict[str, Any],
    purpose: str = "plain",
    tn: int | None = None,
    gm_mods: list | None = None,
    crit_flag: bool = False,
    no_unskilled: bool = False,
    dice_count: int = 1,
    group: list[str] | None = None,
    context: dict | None = None,
    opposed: tuple[str, str] | None = None,
    weapon: str | None = None,
) -> dict[str, Any]:
    """Validate, assemble the modifiers (§4.2), roll one attempt, store and announce the test."""
    o = ctx.options
    sheet = ctx.sheet(roller_id)
    die = trait_die(sheet, trait)
    if die is None and no_unskilled:
        raise violation(
            "unskilled_not_allowed",
            _(
                "{name} lacks {trait} and the GM rules it cannot be improvised (seed 1.4)",
                name=sheet["name"],
                trait=trait,
            ),
            "trait",
        )
    mods = [m if isinstance(m, dict) else m.model_dump() for m in (gm_mods or [])]
    slot = ctx.slot(roller_id)
    if slot is not None and slot["joker_active"]:
        mods.append({"source": "joker", "value": o.joker_bonus})  # B8: every test in the Joker's round
    turn = where.get("turn") or turns.running_turn_of(ctx, roller_id)
    if where.get("action_index") is not None and turn is not None and turn["multi_action_penalty"]:
        mods.append({"source": "multi_action", "value": turn["multi_action_penalty"]})  # §4.20
    if turn is not None and turn["ran"]:
        mods.append({"source": "running", "value": o.running_penalty})  # B19: every other test that turn
    if die is None:
        mods.append({"source": "unskilled", "value": o.unskilled_penalty})  # §4.5
    wild = o.wild_die if (sheet["kind"] == "wild_card" or group) else None
    spec = RollSpec(
        sides=die["sides"] if die else o.unskilled_die,
        die_bonus=die["bonus"] if die else 0,
        dice_count=dice_count,
        wild_die=wild,
        modifier=sum(m["value"] for m in mods),
        tn=o.standard_tn if tn is None else tn,
        raise_step=o.raise_step,
        extra_crit_check=o.extra_crit_check == "always" or (o.extra_crit_check == "gm_flag" and crit_flag),
        natural_one_fails=o.extra_natural_one_policy == "always_fail",
        counts_wild_die=o.multi_die_crit_counts_wild_die,
        extra_needs_d6=o.multi_die_extra_needs_d6,
    )
    test_id = ctx.next_id("test", "t")
    with ctx.roller.hidden(secret(ctx, roller_id, group)):
        attempt = roll_attempt(ctx.roller, spec, f"trait_test:{trait}")
    test = {
        "id": test_id,
        "kind": "trait",
        "roller_id": roller_id,
        "group": group,
        "trait": trait,
        "unskilled": die is None,
        "tn": spec.tn,
        "modifiers": mods,
        "spec": asdict(spec),
        "purpose": purpose,
        "context": context or {},
        "weapon": weapon,
        "attempts": [attempt],
        "kept": 0,
        "state": "critical_failure" if attempt["critical_failure"] else "rolled",
        "opposed_id": opposed[0] if opposed else None,
        "role": opposed[1] if opposed else None,
        "round": ctx.encounter["round"] if ctx.encounter else None,
    }
    summarize(test)
    ctx.table["tests"][test_id] = test
    dice = ctx.roller.take()
    if turn is not None:
        turn["rolled"] = True
    announce(ctx, "trait_test_rolled", ActionDeckTestRolled, test, dice)
    if where.get("action_index") is not None:
        turns.mark_taken(ctx, roller_id, where["turn"], where["action_index"], f"{trait} test {test_id}")
    if attempt["critical_failure"]:
        finalize(ctx, test, "critical_failure")  # §5.5: terminal, no rerolls
    return test


def summarize(test: dict[str, Any]) -> None:
    kept = test["attempts"][test["kept"]]
    if test["kind"] == "damage":
        test["result"] = {"total": kept["total"]}
        return
    test["critical_failure"] = kept["critical_failure"]
    test["result"] = {k: kept[k] for k in ("success", "successes", "raises", "total", "critical_failure")}
    test["result"]["results"] = kept["results"]


def public(ctx: Ctx, test: dict[str, Any]) -> dict[str, Any]:
    """What players see of an NPC's test: the outcome, not the dice or the trait die (§8)."""
    keys = ("id", "kind", "roller_id", "group", "purpose", "state", "tn", "result", "opposed_id", "role")
    return {k: test.get(k) for k in keys}


def secret(ctx: Ctx, roller_id: str, group: list[str] | None) -> bool:
    """§8 'NPC trait dice': an NPC's test (or a group test, the GM's Extras) shows players its outcome only;
    its dice, in its events and in the dice log, are the GM's."""
    return group is not None or bennies.is_npc(ctx, roller_id)


def announce(
    ctx: Ctx, type_: str, model: type[BaseModel], test: dict[str, Any], dice: list[dict], **extra: Any
) -> None:
    """An event carrying the test and its dice (`model` has `test` and `dice` fields); players see a secret
    test's public copy without its dice."""
    hidden = secret(ctx, test["roller_id"], test["group"])
    ctx.emit(
        type_, model(test=test, dice=dice, **extra), redacted=model(test=public(ctx, test), **extra) if hidden else None
    )


def get(ctx: Ctx, test_id: str) -> dict[str, Any]:
    test = ctx.table["tests"].get(test_id)
    if test is None:
        raise violation("unknown_test", _("no test {test_id!r}", test_id=test_id), "test_id")
    return test


def authorize(ctx: Ctx, test: dict[str, Any]) -> None:
    if test["group"] is not None:
        guards.gm(ctx, _("group tests belong to the GM"), "test_id")
    else:
        guards.owner(ctx, test["roller_id"], "test_id")


def finalize(ctx: Ctx, test: dict[str, Any], reason: str) -> None:
    test["state"] = "critical_failure" if test.get("critical_failure") else "final"
    ctx.emit(
        "test_final",
        ActionDeckTestFinal(test_id=test["id"], roller_id=test["roller_id"], reason=reason, result=test["result"]),
    )
    hook = FINAL_HOOKS.get(test["purpose"])
    if hook is not None:
        hook(ctx, test)
    if test["opposed_id"] is not None:
        FINAL_HOOKS["opposed"](ctx, test)
    pending = ctx.table["opposed"]  # an active result an opposed test still needs is kept
    finished = [t for t in ctx.table["tests"].values() if t["state"] in TERMINAL and t["opposed_id"] not in pending]
    for old in finished[:-KEEP_FINISHED]:
        del ctx.table["tests"][old["id"]]


def finalize_open(ctx: Ctx, roller_ids: set[str] | None = None) -> None:
    for test in list(ctx.table["tests"].values()):
        if test["state"] == "rolled" and (roller_ids is None or test["roller_id"] in roller_ids):
            finalize(ctx, test, "auto_accepted")


def reroll(ctx: Ctx, a) -> None:
    test = get(ctx, a.test_id)
    authorize(ctx, test)
    if test.get("critical_failure"):
        raise violation(
            "critical_failure_cannot_be_rerolled",
            _("a critical failure cannot be rerolled, not even with bennies (seed 1.4)"),
            "test_id",
        )
    if test["role"] == "active" and test["state"] in TERMINAL:
        raise violation(
            "opposed_roll_locked",
            _(
                "the defender has rolled (or the result was "
                "accepted): the active party spends bennies before "
                "that (seed 1.4)"
            ),
            "test_id",
        )
    if test["state"] != "rolled":
        raise violation("test_not_open", _("test {id} is already final", id=test["id"]), "test_id")
    if a.paid_by == "ability":
        guards.gm(ctx, _("the GM confirms a reroll from an Edge or ability"), "paid_by")
        payer = {"ability": a.ability or "ability"}
    else:
        payer = bennies.spend(
            ctx,
            test["roller_id"],
            a.benny_source,
            "reroll_damage" if test["kind"] == "damage" else "reroll_trait",
            group=test["group"] is not None,
        )
    hidden = ctx.roller.hidden(secret(ctx, test["roller_id"], test["group"]))
    if test["kind"] == "damage":
        with hidden:
            new = roll_damage(ctx.roller, [d["sides"] for d in test["attempts"][0]["dice"]])
        new["total"] = new["sum"] + test["bonus_total"]
        test["attempts"].append(new)
        if new["total"] > test["attempts"][test["kept"]]["total"]:
            test["kept"] = len(test["attempts"]) - 1
    else:
        with hidden:
            new = roll_attempt(ctx.roller, RollSpec(**test["spec"]), f"trait_test:{test['trait']}")
        test["attempts"].append(new)
        if new["critical_failure"] or better(test["attempts"][test["kept"]], new):
            test["kept"] = len(test["attempts"]) - 1  # a critical reroll "made it worse" (seed 1.4)
    summarize(test)
    if test["critical_failure"]:
        test["state"] = "critical_failure"
    announce(ctx, "test_rerolled", ActionDeckTestRolled, test, ctx.roller.take(), paid_by=payer)
    if test.get("critical_failure"):
        finalize(ctx, test, "critical_failure")


def accept(ctx: Ctx, a) -> None:
    test = get(ctx, a.test_id)
    authorize(ctx, test)
    if test["state"] != "rolled":
        raise violation("test_not_open", _("test {id} is already final", id=test["id"]), "test_id")
    if a.keep_attempt is not None:
        attempts = test["attempts"]
        if (
            test["kind"] != "trait"
            or test["spec"]["dice_count"] == 1
            or a.keep_attempt >= len(attempts)
            or attempts[a.keep_attempt]["critical_failure"]
        ):
            raise violation(
                "invalid_attempt", _("choose one complete attempt of a several-dice test (B30)"), "keep_attempt"
            )
        test["kept"] = a.keep_attempt
        summarize(test)
    finalize(ctx, test, "accepted")


def substitute(ctx: Ctx, a) -> None:
    test = get(ctx, a.test_id)
    authorize(ctx, test)
    if test["state"] != "rolled":
        raise violation("test_not_open", _("test {id} is already final", id=test["id"]), "test_id")
    spec = RollSpec(**test["spec"])
    if test["kind"] != "trait" or spec.wild_die is None or (a.index is not None and a.index >= spec.dice_count):
        raise violation(
            "invalid_substitution",
            _("the Wild Die may replace one of this test's trait dice, or none (seed 1.5)"),
            "index",
        )
    attempt = test["attempts"][test["kept"]]
    attempt["substitution"] = a.index
    evaluate(spec, attempt)
    summarize(test)
    announce(ctx, "wild_die_substituted", ActionDeckTestRolled, test, [], index=a.index)
