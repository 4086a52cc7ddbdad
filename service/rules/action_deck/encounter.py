"""Encounters (spec §3.7, §4.11, §4.12, §5.2): start (fresh deck, B46), surprise and Notice, the deal, the end.

Phases: surprise_notice (victims' Notice tests open) → dealing → draw_window → countdown → (end_round)
→ dealing … Turn-level states live in each participant's `turn` record.
"""

from __future__ import annotations

from typing import Any

from service.i18n.message import _
from service.rules.action_deck import bennies, checks, deck, guards, surprise
from service.rules.action_deck.cards import is_joker
from service.rules.move import replaced
from service.rules.action_deck.context import Ctx
from service.rules.action_deck.errors import violation
from service.rules.action_deck.events_model import (
    ActionDeckCardsDealt,
    ActionDeckEncounterEnded,
    ActionDeckEncounterStarted,
    ActionDeckParticipantAdded,
)

NOTICE = "notice"


def new_slot(group: str | None = None) -> dict:
    return {
        "card": None,
        "candidates": [],
        "draws": 0,
        "joker_active": False,
        "joker_awarded": False,
        "on_hold": False,
        "hold_since_round": None,
        "acted": False,
        "can_act": True,
        "turn": None,
        "group": group,
    }


def _enter(ctx: Ctx, cid: str, hidden: bool = False) -> None:
    sheet = ctx.characters[cid]
    if sheet["kind"] == "wild_card" and bennies.is_npc(ctx, cid) and cid not in ctx.table["gm"]["npc_bennies"]:
        bennies.enter_play(ctx, cid, sheet.get("benny_bonus", 0), hidden=hidden)  # "kiedy pojawiają się w grze"


def _validate(ctx: Ctx, a) -> dict[str, str]:
    ids = a.participants
    if len(set(ids)) != len(ids):
        raise violation("duplicate_participant", _("a character is listed twice"), "participants")
    for i, cid in enumerate(ids):
        guards.alive(ctx, cid, f"participants[{i}]")
    member_of: dict[str, str] = {}
    if a.groups and not ctx.options.group_extras_share_card:
        raise violation("option_disabled", _("group_extras_share_card is off: one card per character (B2)"), "groups")
    for gid, members in a.groups.items():
        for m in members:
            if m not in ids or m in member_of or ctx.characters[m]["kind"] != "extra":
                raise violation(
                    "invalid_group",
                    _("a group holds Extras of this encounter, each in one group (B2)"),
                    f"groups.{gid}",
                )
            member_of[m] = gid
    s = a.surprise
    if s is not None:
        att, vic = set(s.attackers), set(s.victims)
        notice = [n.character_id for n in s.notice]
        if not (att | vic) <= set(ids) or att & vic or not set(notice) <= vic or len(set(notice)) != len(notice):
            raise violation(
                "invalid_surprise",
                _("attackers and victims are distinct participants; only victims test Notice"),
                "surprise",
            )
    return member_of


def start_encounter(ctx: Ctx, a) -> None:
    bennies.require_session(ctx)  # Jokers Wild and NPC bennies need an open session (§5.1)
    if ctx.encounter is not None:
        raise violation("encounter_in_progress", _("an encounter is already running; end it first"))
    member_of = _validate(ctx, a)
    hidden = set(surprise.concealable(ctx, list(a.surprise.attackers))) if a.surprise else set()
    enc_id = ctx.next_id("encounter", "e")
    enc: dict[str, Any]
    ctx.table["encounter"] = enc = {
        "id": enc_id,
        "round": 1,
        "phase": "dealing",
        "order": list(a.participants),
        "participants": {cid: new_slot(member_of.get(cid)) for cid in a.participants},
        "groups": {g: list(m) for g, m in a.groups.items()},
        "surprise": None,
        "draw_window_open": False,
        "current_turn": None,
        "turn_stack": [],
        "queued": [],
        "pending_interrupt": None,
        "after_current_action": None,
    }
    started = ActionDeckEncounterStarted(
        encounter_id=enc_id, participants=list(a.participants), groups=enc["groups"], surprise=a.surprise is not None
    )
    ctx.emit(
        "encounter_started",
        started,
        redacted=replaced(
            started,
            participants=surprise.without(list(a.participants), hidden),
            groups=surprise.public_groups(enc["groups"], hidden),
        )
        if hidden
        else None,
    )
    deck.rebuild(ctx, "encounter_start")  # B46
    for cid in a.participants:
        _enter(ctx, cid, hidden=cid in hidden)
    if a.surprise is not None:
        s = a.surprise
        enc["surprise"] = {
            "attackers": list(s.attackers),
            "victims": list(s.victims),
            "notice": [n.character_id for n in s.notice],
            "notice_results": {},
            "concealed": [cid for cid in s.attackers if cid in hidden],
        }
        for n in s.notice:  # victims the GM allows a test roll now; rerollable until the deal (B17: TN 4)
            mods = [{"source": "gm", "value": n.modifier}] if n.modifier else []
            checks.build(
                ctx,
                roller_id=n.character_id,
                trait=NOTICE,
                where={"turn": None, "action_index": None},
                purpose="surprise_notice",
                gm_mods=mods,
            )
        if s.notice:
            enc["phase"] = "surprise_notice"


def add_participant(ctx: Ctx, a) -> None:
    enc = guards.encounter(ctx)
    guards.alive(ctx, a.character_id)
    if a.character_id in enc["participants"]:
        raise violation("already_in_encounter", _("{name} already takes part", name=ctx.name(a.character_id)))
    enc["order"].append(a.character_id)
    enc["participants"][a.character_id] = new_slot()
    ctx.emit(
        "participant_added",
        ActionDeckParticipantAdded(
            character_id=a.character_id,
            from_round=enc["round"] + (0 if enc["phase"] in ("dealing", "surprise_notice") else 1),
        ),
    )
    _enter(ctx, a.character_id)


def _recipients(ctx: Ctx) -> tuple[list[list[str]], list[str]]:
    """One unit per card: a character, or a group of Extras (B2). Holders draw no card (seed 1.2)."""
    enc = ctx.running()
    surprise = enc["surprise"] if enc["round"] == 1 else None
    units, without, seen = [], [], set()
    for cid in enc["order"]:
        slot = enc["participants"][cid]
        if ctx.characters[cid]["eliminated"] or slot["on_hold"]:
            without.append(cid)
            continue
        if surprise and cid in surprise["victims"] and not surprise["notice_results"].get(cid, False):
            slot["can_act"] = False  # "Pozostali nie mogą działać w pierwszej rundzie"
            without.append(cid)
            continue
        group = slot["group"]
        if group is None:
            units.append([cid])
        elif group not in seen:
            seen.add(group)
            units.append(
                [
                    m
                    for m in enc["groups"][group]
                    if not ctx.characters[m]["eliminated"] and not enc["participants"][m]["on_hold"]
                ]
            )
    return units, without


def deal(ctx: Ctx, a) -> None:
    enc = guards.encounter(ctx, "dealing", "surprise_notice")
    units, without = _recipients(ctx)
    deck.validate_draws(ctx, len(units), a.cards, "cards")
    attackers = enc["surprise"]["attackers"] if enc["surprise"] and enc["round"] == 1 else []
    dealt: dict[str, str] = {}
    jokers = []
    for i, members in enumerate(units):
        card = deck.draw(ctx, None if a.cards is None else a.cards[i])
        for m in members:
            enc["participants"][m].update(
                card=card, candidates=[card], joker_active=is_joker(card), joker_awarded=is_joker(card)
            )
            dealt[m] = card
            if m in attackers:  # dealt in case of a Joker, but start on hold (seed 1.2)
                enc["participants"][m].update(on_hold=True, hold_since_round=1)
        if is_joker(card):
            jokers.append(members[0])
    enc["phase"] = "draw_window"
    enc["draw_window_open"] = True
    data = ActionDeckCardsDealt(
        round=enc["round"],
        cards=dealt,
        without_card=without,
        on_hold=[c for c in enc["order"] if enc["participants"][c]["on_hold"]],
    )
    hidden = set(surprise.concealed(enc))
    ctx.emit(
        "cards_dealt",
        data,
        redacted=replaced(
            data,
            cards={c: card for c, card in dealt.items() if c not in hidden},
            on_hold=surprise.without(data.on_hold, hidden),
        )
        if hidden
        else None,
    )
    for cid in jokers:
        bennies.jokers_wild(ctx, cid, hidden=cid in hidden)


def end_encounter(ctx: Ctx, a) -> None:
    enc = guards.encounter(ctx)
    surprise.reveal_all(ctx, "encounter_ended")
    deck.discard_all_in_play(ctx)
    deck.unseal(ctx, "encounter_end")  # the next encounter deals from a fresh shuffle (B46)
    ctx.table["encounter"] = None
    ctx.table["opposed"] = {k: v for k, v in ctx.table["opposed"].items() if v["purpose"] != "interrupt"}
    ctx.emit("encounter_ended", ActionDeckEncounterEnded(encounter_id=enc["id"], rounds=enc["round"]))


def notice_final(ctx: Ctx, test: dict) -> None:
    enc = ctx.encounter
    if enc is not None and enc["surprise"] is not None:
        enc["surprise"]["notice_results"][test["roller_id"]] = bool(test["result"]["success"])


checks.FINAL_HOOKS["surprise_notice"] = notice_final
