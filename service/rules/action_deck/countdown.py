"""The countdown (seed 1.1–1.2, spec §4.13, §4.17, §4.18): calling cards, declaring or claiming turns,
holding, ending turns and rounds.

Claims (a holder or Joker holder acting between turns) are taken in the order the service receives them:
requests are serialized, so two claims never arrive "at once" (B6's simultaneous case); a holder who wants
to go before a claimant that already started interrupts it instead.
"""

from __future__ import annotations

from service.i18n.message import _, _n
from service.rules.action_deck import deck, draws, guards, surprise, turns
from service.rules.action_deck.cards import is_joker, key
from service.rules.action_deck.context import Ctx
from service.rules.action_deck.errors import violation
from service.rules.action_deck.events_model import (
    ActionDeckCardCalled,
    ActionDeckCharacterRef,
    ActionDeckHoldEvent,
    ActionDeckRoundEnded,
    ActionDeckTurnDeclared,
    ActionDeckTurnEnded,
)


def callable_ids(ctx: Ctx) -> list[str]:
    """Dealt a card (not a Joker: Jokers are outside the countdown), not acted, not holding, able to act."""
    enc = ctx.running()
    out = []
    for cid in enc["order"]:
        slot = enc["participants"][cid]
        if (
            slot["card"]
            and not is_joker(slot["card"])
            and not slot["acted"]
            and not slot["on_hold"]
            and slot["can_act"]
            and not ctx.characters[cid]["eliminated"]
        ):
            out.append(cid)
    return out


def call_next(ctx: Ctx, a) -> None:
    enc = guards.encounter(ctx, *turns.RUNNING_PHASES)
    guards.no_interrupt(ctx)
    if enc["current_turn"] is not None:
        raise violation("turn_in_progress", _("{name}'s turn is still running", name=ctx.name(enc["current_turn"])))
    if not callable_ids(ctx):
        raise violation("no_card_to_call", _("every card has acted or is held; end the round"))
    draws.close_window(ctx)  # B45: the first turn of the round begins; unchosen draws keep the highest
    enc["phase"] = "countdown"
    ids = callable_ids(ctx)
    if not ids:
        return  # the only callable card was traded for a kept Joker: the window closed, nobody is called
    order = enc["order"]
    nxt = max(ids, key=lambda c: (key(enc["participants"][c]["card"]), -order.index(c)))
    ctx.emit(
        "card_called", ActionDeckCardCalled(character_id=nxt, card=enc["participants"][nxt]["card"], round=enc["round"])
    )
    turns.begin(ctx, nxt, "called", "card")


def declare_turn(ctx: Ctx, a) -> None:
    cid = a.character_id
    guards.owner(ctx, cid)
    sheet = guards.alive(ctx, cid)
    enc = guards.encounter(ctx, *turns.RUNNING_PHASES)
    slot = guards.participant(ctx, cid)
    guards.no_interrupt(ctx)
    o = ctx.options
    if len(a.actions) > o.multi_action_max:
        raise violation(
            "too_many_actions",
            _n(
                "at most {multi_action_max} action per turn (seed 1.3)",
                "at most {multi_action_max} actions per turn (seed 1.3)",
                o.multi_action_max,
                multi_action_max=o.multi_action_max,
            ),
            "actions",
        )
    if enc["current_turn"] == cid:
        if slot["turn"]["status"] == "acting":
            raise violation(
                "turn_in_progress", _("this turn's actions are already declared (redeclare only after an interrupt)")
            )
    elif enc["current_turn"] is None:
        if slot["acted"]:
            raise violation("already_acted", _("{name} has acted this round", name=sheet["name"]))
        if not slot["can_act"]:
            raise violation(
                "cannot_act_this_round", _("{name} cannot act this round (surprised, seed 1.2)", name=sheet["name"])
            )
        joker = slot["joker_active"]
        if not (slot["on_hold"] or joker):
            raise violation(
                "not_your_turn",
                _(
                    "{name}'s card has not been called; only a character on hold or "
                    "holding a Joker acts at any moment (seed 1.2)",
                    name=sheet["name"],
                ),
            )
        draws.close_window(ctx)  # B45: a claim at the very start also begins the first turn
        enc["phase"] = "countdown"
        via = "hold" if slot["on_hold"] else "joker"
        slot["on_hold"] = False
        turns.begin(ctx, cid, "claimed", via)
    else:
        hint = _("; a holder may interrupt") if slot["on_hold"] or slot["joker_active"] else ""
        raise violation(
            "not_your_turn", _("{name}'s turn is running{hint}", name=ctx.name(enc["current_turn"]), hint=hint)
        )
    turn = slot["turn"]
    run = None
    if a.run:
        run = ctx.roller.plain(sheet["running_die"], "running_die")  # no ace (seed 1.3)
        turn["ran"], turn["run_roll"] = True, run
        turn["turn_pace"] = sheet["pace"] + run
    n = len(a.actions)
    turn["status"] = "acting"
    turn["declared"] = [{"kind": x.kind, "note": x.note, "taken": False} for x in a.actions]
    turn["multi_action_penalty"] = o.multi_action_step * (n - 1) if n > 1 else 0  # 0, −2, −4 to all of them
    ctx.emit(
        "turn_declared",
        ActionDeckTurnDeclared(
            character_id=cid,
            actions=turn["declared"],
            multi_action_penalty=turn["multi_action_penalty"],
            run_roll=run,
            turn_pace=turn["turn_pace"],
            dice=ctx.roller.take(),
        ),
    )


def hold(ctx: Ctx, a) -> None:
    """Only when the card is called, before any action (B13); or a Joker holder between turns (B7)."""
    cid = a.character_id
    guards.owner(ctx, cid)
    sheet = guards.alive(ctx, cid)
    enc = guards.encounter(ctx, *turns.RUNNING_PHASES)
    slot = guards.participant(ctx, cid)
    guards.no_interrupt(ctx)
    called = enc["current_turn"] == cid and slot["turn"]["status"] == "called"
    joker = enc["current_turn"] is None and slot["joker_active"] and not slot["acted"] and not slot["on_hold"]
    if not (called or joker):
        raise violation("cannot_hold_now", _("a turn is held when its card is called, before any action (B13)"))
    if sheet["shaken"] or sheet["stunned"]:
        raise violation("cannot_hold_while_shaken", _("a Shaken or Stunned character cannot go on hold (seed 1.2)"))
    slot["on_hold"] = True
    slot["hold_since_round"] = enc["round"]
    ctx.emit("hold_declared", ActionDeckHoldEvent(character_id=cid, round=enc["round"]))
    if called:
        slot["turn"] = None
        turns.advance(ctx)


def end_turn(ctx: Ctx, a) -> None:
    cid = a.character_id
    guards.owner(ctx, cid)
    enc = guards.encounter(ctx, *turns.RUNNING_PHASES)
    slot = guards.participant(ctx, cid)
    guards.no_interrupt(ctx)
    if enc["current_turn"] != cid:
        raise violation("not_your_turn", _("it is not {name}'s turn", name=ctx.name(cid)))
    slot["acted"] = True
    slot["turn"] = None
    ctx.emit("turn_ended", ActionDeckTurnEnded(character_id=cid, round=enc["round"]))
    turns.advance(ctx)


def end_round(ctx: Ctx, a) -> None:
    enc = guards.encounter(ctx, *turns.RUNNING_PHASES)
    guards.no_interrupt(ctx)
    if enc["current_turn"] is not None:
        raise violation("turn_in_progress", _("{name}'s turn is still running", name=ctx.name(enc["current_turn"])))
    if enc["queued"] or enc["turn_stack"]:
        raise violation("turn_in_progress", _("a suspended or queued turn still has to run"))
    if callable_ids(ctx):
        raise violation("round_not_finished", _("cards remain to be called this round"))
    for cid in enc["order"]:
        slot = enc["participants"][cid]
        if slot["joker_active"] and not slot["acted"] and not slot["on_hold"] and not ctx.characters[cid]["eliminated"]:
            raise violation(
                "joker_must_act", _("{name} holds a Joker and has not acted: act now or hold (B7)", name=ctx.name(cid))
            )
    surprise.reveal_all(ctx, "surprise_round_over")  # their holds carry over in plain sight
    draws.close_window(ctx)
    deck.discard_all_in_play(ctx)
    lapse_before = enc["round"] if ctx.options.hold_persistence == "next_round_only" else None
    for cid in enc["order"]:
        slot = enc["participants"][cid]
        slot.update(card=None, candidates=[], draws=0, joker_active=False, joker_awarded=False, turn=None, can_act=True)
        if slot["on_hold"] and lapse_before is not None and slot["hold_since_round"] < lapse_before:
            slot["on_hold"] = False  # B12 next_round_only: carried once already
            ctx.emit("hold_lapsed", ActionDeckCharacterRef(character_id=cid))
        slot["acted"] = False
    reshuffle = ctx.deck["joker_dealt_this_round"] and ctx.options.reshuffle_rule == "after_joker_round"
    ctx.emit(
        "round_ended",
        ActionDeckRoundEnded(
            round=enc["round"],
            reshuffle=reshuffle,
            holding=[c for c in enc["order"] if enc["participants"][c]["on_hold"]],
        ),
    )
    if reshuffle:
        deck.rebuild(ctx, "joker_round")  # B3: all 54 back, shuffled before the next deal
    ctx.deck["joker_dealt_this_round"] = False
    enc["round"] += 1
    enc["phase"] = "dealing"
    enc["draw_window_open"] = False
