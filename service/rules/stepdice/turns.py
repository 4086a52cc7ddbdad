"""Turn order of a running encounter: all PCs in any order, then all enemies, repeat (seed §5.2, spec 5.2)."""

from __future__ import annotations

from service.i18n.message import _
from service.rules.stepdice import guards
from service.rules.stepdice.actions_gm import StepDiceEndEnemyPhase, StepDiceEndPlayerPhase
from service.rules.stepdice.actions_player import StepDiceBeginTurn, StepDiceEndTurn
from service.rules.stepdice.context import Ctx
from service.rules.stepdice.errors import violation
from service.rules.stepdice.events_model import (
    StepDiceCharacterRound,
    StepDiceHelpTokenEvent,
    StepDicePhaseChanged,
    StepDiceTurnEnded,
)

MOVE_PER_TURN = 5  # §4.2


def begin_turn(ctx: Ctx, a: StepDiceBeginTurn) -> None:
    guards.active(ctx, a.character_id)  # downed PCs are skipped (spec 5.2)
    guards.member(ctx, a.character_id)
    enc = guards.encounter(ctx, "player_phase")
    if enc["turn_open_for"] is not None:
        raise violation(
            "turn_already_open",
            _("{turn_open_for}'s turn is open; one turn at a time", turn_open_for=enc["turn_open_for"]),
        )
    if a.character_id in enc["pcs_done"]:
        raise violation(
            "turn_already_taken",
            _("{character_id} has had its turn this round (seed §5.2)", character_id=a.character_id),
        )
    enc["turn_open_for"] = a.character_id
    ctx.emit("turn_begun", StepDiceCharacterRound(character_id=a.character_id, round=enc["round"]))


def end_turn(ctx: Ctx, a: StepDiceEndTurn) -> None:
    ctx.sheet(a.character_id)
    guards.member(ctx, a.character_id)
    enc = guards.encounter(ctx, "player_phase")
    if enc["turn_open_for"] != a.character_id:
        raise violation("not_your_turn", _("{character_id} has no open turn", character_id=a.character_id))
    close_turn(ctx, a.character_id, "ended")


def close_turn(ctx: Ctx, character_id: str, reason: str) -> None:
    enc = ctx.running()
    enc["turn_open_for"] = None
    if character_id not in enc["pcs_done"]:
        enc["pcs_done"].append(character_id)
    ctx.emit("turn_ended", StepDiceTurnEnded(character_id=character_id, round=enc["round"], reason=reason))
    _maybe_end_player_phase(ctx)


def _maybe_end_player_phase(ctx: Ctx) -> None:
    """After the last active PC's turn the enemies act (spec 5.2)."""
    enc = ctx.running()
    if enc["phase"] != "player_phase" or enc["turn_open_for"] is not None:
        return
    waiting = [
        c for c in enc["pcs"] if c not in enc["pcs_done"] and ctx.characters.get(c, {}).get("condition") == "active"
    ]
    if not waiting:
        to_enemy_phase(ctx, "all_pcs_done")


def on_downed(ctx: Ctx, character_id: str) -> None:
    """A PC downed in its own turn can do nothing more: its turn ends so the round can go on."""
    if not ctx.in_combat:
        return
    enc = ctx.running()
    if character_id not in enc["pcs"] or enc["phase"] != "player_phase":
        return
    if enc["turn_open_for"] == character_id:
        close_turn(ctx, character_id, "downed")
    else:
        _maybe_end_player_phase(ctx)


def on_revived(ctx: Ctx, character_id: str) -> None:
    """7-A24: a PC back on its feet may take its turn if it has not ended one this phase."""
    slot = ctx.slot(character_id)
    if slot is None:
        return
    enc = ctx.running()
    if enc["phase"] != "player_phase" or character_id in enc["pcs_done"]:
        return
    slot["action_available"] = True
    slot["move_remaining"] = MOVE_PER_TURN


def expire_help(ctx: Ctx) -> None:
    """7-A12: unused help tokens expire with the player phase."""
    enc = ctx.running()
    for token in enc["help_tokens"]:
        ctx.emit("help_token_expired", StepDiceHelpTokenEvent(**token))
    enc["help_tokens"] = []


def to_enemy_phase(ctx: Ctx, reason: str) -> None:
    enc = ctx.running()
    expire_help(ctx)
    enc["phase"] = "enemy_phase"
    ctx.emit(
        "phase_changed", StepDicePhaseChanged(from_="player_phase", to="enemy_phase", round=enc["round"], reason=reason)
    )


def start_player_phase(ctx: Ctx, round_: int, came_from: str) -> None:
    enc = ctx.running()
    enc.update(round=round_, phase="player_phase", pcs_done=[], turn_open_for=None)
    for cid, slot in enc["pcs"].items():
        slot["move_remaining"] = MOVE_PER_TURN
        slot["action_available"] = ctx.characters.get(cid, {}).get("condition") == "active"
    ctx.emit("phase_changed", StepDicePhaseChanged(from_=came_from, to="player_phase", round=round_))


def end_player_phase(ctx: Ctx, a: StepDiceEndPlayerPhase) -> None:
    enc = guards.encounter(ctx, "player_phase")
    if enc["turn_open_for"] is not None:
        who = enc["turn_open_for"]
        enc["turn_open_for"] = None
        enc["pcs_done"].append(who)
        ctx.emit("turn_ended", StepDiceTurnEnded(character_id=who, round=enc["round"], reason="forced"))
    to_enemy_phase(ctx, "forced")


def end_enemy_phase(ctx: Ctx, a: StepDiceEndEnemyPhase) -> None:
    enc = guards.encounter(ctx, "enemy_phase")
    start_player_phase(ctx, enc["round"] + 1, "enemy_phase")
