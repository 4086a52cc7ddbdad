"""Whose move it is (spec 5.1, 5.2): `table["awaiting"]` lists who the table waits for and what each may send.

A pending choice of a test comes first: nothing else moves until it is settled. Otherwise a running encounter
decides: in the setup and the enemy phase the GM acts; in the player phase the PC whose turn is open, or,
between turns, every active PC that has not had its turn (free order, seed §5.2). With no encounter running
the GM leads play. A character holding a granted advancement may `advance` too, never blocked: beside its
turn's moves when its turn is open (one entry per party, as in every system), or an entry of its own.

Computed from the state alone (no actor, no dice), so a table stored before `awaiting` existed gets it on view.
"""

from __future__ import annotations

from typing import Any

from service.rules.awaiting import character, gm, merged
from service.rules.stepdice.context import Ctx
from service.rules.stepdice.options import Options

# Settling a pending choice (spec 5.1): the stage names its answer, and who gives it.
PENDING = {
    "choose_benefit": ("character", "choose_benefit"),
    "armor_choice": ("character", "choose_armor"),
    "retaliation_check": ("gm", "resolve_retaliation"),
    "needs_gm_text": ("gm", "record_consequence"),
}
TURN_ACTIONS = ("test", "attack", "cast", "help", "raise", "use_equipment")  # one Action per turn (seed §5.3)
ENEMY_PHASE = ("enemy_move", "enemy_hit", "call_test", "gm_note", "end_enemy_phase", "end_encounter")


def compute(state: dict[str, Any], options: Options) -> list[dict[str, Any]]:
    out = _play(state, options)
    out += [
        character(cid, "advance")
        for cid, sheet in state["characters"].items()
        if sheet.get("pending_advancements", 0) > 0 and sheet["condition"] != "dead"
    ]
    return merged(out)


def refresh(ctx: Ctx) -> None:
    ctx.table["awaiting"] = compute(ctx.state, ctx.options)


def _play(state: dict[str, Any], options: Options) -> list[dict[str, Any]]:
    table = state["table"]
    p = table["pending"]
    if p is not None:
        who, move = PENDING[p["stage"]]
        return [gm(move) if who == "gm" else character(p["character_id"], move)]
    enc = table["encounter"]
    if enc is None or enc["phase"] == "ended":
        return [gm(*_idle(state, options))]
    if enc["phase"] == "setup":
        return [gm(*_setup(state, options))]
    if enc["phase"] == "enemy_phase":
        return [gm(*ENEMY_PHASE)]
    return _player_phase(state, options, enc)


def _player_phase(state: dict[str, Any], options: Options, enc: dict[str, Any]) -> list[dict[str, Any]]:
    cid = enc["turn_open_for"]
    if cid is not None:
        slot = enc["pcs"][cid]
        may = list(TURN_ACTIONS) if slot["action_available"] else []
        if options.use_grid and slot["move_remaining"] > 0:
            may.append("move")
        return [character(cid, *may, "end_turn")]
    waiting = [
        c
        for c in enc["pcs"]
        if c not in enc["pcs_done"] and state["characters"].get(c, {}).get("condition") == "active"
    ]
    if waiting:
        return [character(c, "begin_turn") for c in waiting]
    # Every PC in the fight is down (or none was ever active): only the GM can move the round on.
    return [gm("end_player_phase", "end_encounter")]


def _clocks(state: dict[str, Any], options: Options) -> list[str]:
    if not options.use_time_pressure_clocks or state["table"]["scene"] is None:
        return []
    running = any(c["status"] == "running" for c in state["table"]["clocks"].values())
    return ["create_clock"] + (["advance_clock", "cancel_clock"] if running else [])


def _idle(state: dict[str, Any], options: Options) -> list[str]:
    table = state["table"]
    may = ["test", "auto_success", "harm", "start_scene", "create_encounter", "rest", "grant_advancement", "gm_note"]
    if table["scene"] is not None:
        may.append("end_scene")
    return may + _clocks(state, options)


def _setup(state: dict[str, Any], options: Options) -> list[str]:
    may = ["add_character", "add_enemy", "reveal_enemy"]
    if options.use_grid:
        may.append("set_position")
    return may + ["start_encounter", "end_encounter", "gm_note"] + _clocks(state, options)


# Moves the engine may accept outside what `awaiting` asks (the GM's management and narration, a player's moves
# out of turn), listed in `table.offers` (service.rules.awaiting.offers); each still passes the engine's checks.
OPEN_GM = (
    "harm",
    "grant_advancement",
    "cast",
    "create_clock",
    "discard_advancement",
    "end_encounter",
    "end_player_phase",
    "gm_note",
    "raise",
    "set_position",
)
OPEN_PLAYER = (
    "cast",
    "test",
)
