"""The documented shape of a Danger Pool table as `view()` returns it (spec §3), and of a character sheet.

Players see the same shape with the GM's secrets taken out: unrevealed elements are missing from
`scene.elements`, `gm_notes` is empty, `seq` and `id_salt` are absent, and a betrayer's `traitor_plan` is null
except to its own player.
"""

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from service.rules.awaiting import AwaitingEntry, AwaitingMove
from service.rules.danger_pool.options import DangerPoolOptions

Status = Literal["active", "traitor_npc", "dead", "departed"]
AftermathOption = Literal["take_the_hit", "set_someone_up", "hide_the_pain", "betray_the_team"]


class DangerPoolLegend(BaseModel):
    model_config = ConfigDict(extra="forbid", title="DangerPoolLegend")

    legend_id: str = Field(description="Stable id, named in `declare_action.legends`.")
    text: str = Field(description="The legend as written; each fitting legend adds one die (§4.3).")


class DangerPoolItem(BaseModel):
    model_config = ConfigDict(extra="forbid", title="DangerPoolItem")

    item_id: str = Field(description="Stable id, named in `declare_action.equipment`.")
    text: str = Field(description="The item; any fitting equipment adds one die, never more (§4.3).")


class DangerPoolScar(BaseModel):
    model_config = ConfigDict(extra="forbid", title="DangerPoolScar")

    scar_id: str = Field(description="Stable id, named in `declare_action.scars`.")
    text: str = Field(description="What the scar is.")
    origin: Literal["bail_out", "other"] = Field(description="`bail_out` scars come from a bail-out roll (§4.13).")
    counts_toward_max: bool = Field(description="False for bail-out scars (they never end a career, §4.17).")
    granted_cp: bool = Field(description="Whether taking it earned character points (never for bail-out scars).")
    scene_id: str | None = Field(description="The scene it was taken in.")


class DangerPoolAftermathProposal(BaseModel):
    model_config = ConfigDict(extra="forbid", title="DangerPoolAftermathProposal")

    option: AftermathOption = Field(description="The after-effect the player proposed (§4.15).")
    ability: str = Field(description="The ability to reduce (Take the Hit).")
    description: str | None = Field(description="How the player explains the loss.")
    state: Literal["proposed", "change_requested"] = Field(
        description="`proposed`: the GM reviews it (`review_aftermath`)."
    )
    note: str | None = Field(description="The GM's note when asking for a change.")


class DangerPoolCharacter(BaseModel):
    """A Danger Pool character (spec §3.3) as the API returns it."""

    model_config = ConfigDict(extra="forbid", title="DangerPoolCharacter")

    id: str | None = Field(None, description="The character's id (absent while the sheet is being built).")
    name: str = Field(description="The character's name.")
    player_id: str | None = Field(description="The player bound by `assign_player`; null for a betrayer NPC.")
    abilities: dict[str, int] = Field(description="Ability name → rating (≥ 1); the rating is the base pool.")
    legends: list[DangerPoolLegend] = Field(description="Legends; each fitting one adds a die.")
    equipment: list[DangerPoolItem] = Field(description="Equipment; any fitting item adds one die.")
    scars: list[DangerPoolScar] = Field(description="Scars; each applied one removes a die (§4.17).")
    stamina_max: int = Field(description="The value stamina is restored to.")
    stamina: int = Field(description="0..stamina_max; reaching 0 takes the character out of the scene.")
    character_points: int = Field(description="Spent on Risk and Ignore the Pain (§4.5); never negative.")
    status: Status = Field(description="Only `active` characters take part in scenes.")
    pending_aftermath: bool = Field(description="Lost all stamina: an after-effect must be chosen (§4.15).")
    aftermath_proposal: DangerPoolAftermathProposal | None = Field(description="A proposal waiting for the GM.")
    aftermath_used: list[AftermathOption] = Field(description="After-effects this character already used.")
    doomed_next_scene: bool = Field(description="Hide the Pain: dies at the end of its next scene.")
    doomed_in_scene_id: str | None = Field(description="The scene Hide the Pain is bound to.")
    doomed_exit: Literal["dead", "departed"] | None = Field(description="How the doomed character leaves.")
    traitor_plan: str | None = Field(description="A betrayer's plan: GM and its own player only (§4.15.3).")
    former_player_id: str | None = Field(description="The player a betrayer belonged to.")


class DangerPoolElement(BaseModel):
    model_config = ConfigDict(extra="forbid", title="DangerPoolElement")

    element_id: str = Field(description="A keyed hash: players cannot count the GM's hidden elements.")
    text: str = Field(description="What the element is.")
    source_character_id: str | None = Field(description="The betrayer this element is, if any.")
    rerolls_used: int = Field(description="Danger rerolls this element paid for in this scene.")
    revealed: bool = Field(description="Used once, so players see it.")


class DangerPoolNote(BaseModel):
    model_config = ConfigDict(extra="forbid", title="DangerPoolNote")

    character_id: str = Field(description="Who narrated.")
    topic: Literal["danger", "stamina_loss", "taken_out", "exit", "other"] = Field(description="What it explains.")
    text: str = Field(description="The narration.")
    round: int | None = Field(description="The round it was told in.")


class DangerPoolTieChoice(BaseModel):
    model_config = ConfigDict(extra="forbid", title="DangerPoolTieChoice")

    option: Literal["take_the_hit", "back_down", "do_something_stupid"] = Field(description="The tie option.")
    die_index: int | None = Field(description="The danger die it flips, if any.")


class DangerPoolEffects(BaseModel):
    model_config = ConfigDict(extra="forbid", title="DangerPoolEffects")

    danger_added_player_ones: int = Field(description="Danger dice added by the player's 1s (§4.8).")
    danger_added_stupid: int = Field(description="Danger dice added by Do Something Stupid.")
    danger_removed_hold_back: int = Field(description="Danger dice removed by a winning Hold Back.")
    progress_delta: int = Field(description="Progress boxes marked.")
    stamina_delta: int = Field(description="Stamina lost (negative) by the actor.")


class DangerPoolRoll(BaseModel):
    """An action roll (spec §3.6): open in `scene.roll`, the last one resolved in `scene.last_roll`."""

    model_config = ConfigDict(extra="forbid", title="DangerPoolRoll")

    roll_id: str = Field(description="The roll's id.")
    scene_id: str = Field(description="The scene it belongs to.")
    round: int = Field(description="The round it was declared in.")
    actor_id: str = Field(description="The acting character.")
    kind: Literal["push", "hold_back", "bail_out"] = Field(description="What the actor declared.")
    approach: str = Field(description="How the actor goes about it.")
    risk_proposal: str | None = Field(description="The risky extra a Risk spend buys dice with.")
    ability_key: str = Field(description="The ability rolled.")
    ability_rating: int = Field(description="Its rating when rolled.")
    legends_applied: list[str] = Field(description="Legend ids that added dice.")
    equipment_applied: str | None = Field(description="The item id that added a die.")
    scars_applied: list[str] = Field(description="Scar ids that removed dice.")
    cp_spends: list[Literal["risk", "ignore_pain"]] = Field(description="Character points spent on this roll.")
    pool_size: int = Field(description="Player dice rolled.")
    zero_pool: bool = Field(description="The pool came to zero (`zero_pool_policy`).")
    player_dice: list[int] = Field(description="The player's faces.")
    danger_dice_rolls: list[list[int]] = Field(description="Every danger roll in order, element rerolls included.")
    danger_dice: list[int] = Field(description="The danger faces now (after tie flips).")
    tie_choices: list[DangerPoolTieChoice] = Field(description="The actor's tie choices so far.")
    stupid_adds: int = Field(description="Danger dice Do Something Stupid will add.")
    outcome: Literal["win", "lose"] | None = Field(description="Null until the roll resolves.")
    successes: int = Field(description="Player dice above the danger maximum.")
    effects: DangerPoolEffects | None = Field(description="What the roll did; null until it resolves.")
    state: Literal["rolled", "confirmed", "tie_pending", "extraction_pending", "resolved"] = Field(
        description="Roll state machine (§5.2)."
    )
    danger_max: int = Field(description="The highest counted danger die.")
    player_max: int = Field(description="The highest player die.")
    ignored: list[int] = Field(description="Indices of danger dice showing the top face (not counted).")
    tie: bool = Field(description="Player and danger maxima are equal.")
    extracted: list[str] | None = Field(None, description="Bail-out: the team members the leader got out.")


class DangerPoolActionScene(BaseModel):
    """An action scene (spec §3.5): a goal, a progress track, the danger pool, rounds and rolls."""

    model_config = ConfigDict(extra="forbid", title="DangerPoolActionScene")

    id: str = Field(description="The scene's id.")
    kind: Literal["action"] = Field(description="An action scene.")
    team: list[str] = Field(description="The characters taking part.")
    phase: Literal["setup", "round_open", "roll_open", "round_end_window", "bail_out_roll", "ended"] = Field(
        description="Scene state machine (§5.1)."
    )
    outcome: Literal["completed", "bailed_out", "all_taken_out", "closed_by_gm"] | None = Field(
        description="How it ended; null while it runs."
    )
    notes: list[DangerPoolNote] = Field(description="Narration recorded in this scene.")
    goal: str = Field(description="What the team is after.")
    danger: str | None = Field(description="The danger the GM described.")
    leader_id: str = Field(description="The leader: goes first, may bail out.")
    participation: dict[str, Literal["in_scene", "taken_out"]] = Field(
        description="Member → in_scene | taken_out (permanent for the scene)."
    )
    predecessor_scene_id: str | None = Field(description="The scene this one follows after a bail-out.")
    progress_track_base: int = Field(description="Track length before Betray the Team boxes.")
    betrayal_boxes: int = Field(description="Boxes added by Betray the Team (A36).")
    progress_track_length: int = Field(description="Boxes to mark to complete the goal.")
    progress_marked: int = Field(description="Boxes marked so far.")
    danger_pool_size: int = Field(description="Danger dice the GM rolls against each action.")
    round: int = Field(description="The current round (0 before the start).")
    acted_this_round: list[str] = Field(description="Members who acted this round.")
    passed_this_round: list[str] = Field(description="Members who passed this round (`allow_pass`).")
    leader_first_pending: bool = Field(description="Only the leader may act (or waive) now.")
    leader_decision: Literal["continue", "bail_out"] | None = Field(description="The leader's call at the round's end.")
    alarm_used: bool = Field(description="The GM raised the alarm (once per scene).")
    alarm_amount: int | None = Field(description="Danger dice the alarm added.")
    roll: DangerPoolRoll | None = Field(description="The roll in flight.")
    last_roll: DangerPoolRoll | None = Field(description="The roll resolved last.")
    elements: list[DangerPoolElement] = Field(description="The GM's elements; players see revealed ones only.")


class DangerPoolPlanningScene(BaseModel):
    """A planning scene: where owed after-effects are chosen (§4.15)."""

    model_config = ConfigDict(extra="forbid", title="DangerPoolPlanningScene")

    id: str = Field(description="The scene's id.")
    kind: Literal["planning"] = Field(description="A planning scene.")
    team: list[str] = Field(description="The characters taking part.")
    phase: Literal["open", "ended"] = Field(description="Open until the GM ends it.")
    outcome: str | None = Field(description="`ended` once over.")
    notes: list[DangerPoolNote] = Field(description="Narration recorded in this scene.")


DangerPoolScene = Annotated[DangerPoolActionScene | DangerPoolPlanningScene, Field(discriminator="kind")]


class DangerPoolPlayer(BaseModel):
    model_config = ConfigDict(extra="forbid", title="DangerPoolPlayer")

    character_id: str | None = Field(description="The character this player controls now.")
    aftermath_used: list[AftermathOption] = Field(description="After-effects this player used (once each).")


class DangerPoolRequest(BaseModel):
    """A non-blocking ask: an after-effect owed, to be chosen in the next planning scene."""

    model_config = ConfigDict(extra="forbid", title="DangerPoolRequest")

    who: Literal["character"] = Field(description="Always a character's player.")
    character_id: str = Field(description="The character that owes an after-effect.")
    may: list[str] = Field(description="The move that answers it (`choose_aftermath`).")
    when: Literal["next_planning_scene"] = Field(description="When it can be answered.")
    moves: list[AwaitingMove] | None = Field(
        None,
        description="`may` with each move's REST `type` and GraphQL "
        "`ActionInput` field (added by the service to every "
        "table it sends).",
    )


class DangerPoolTable(BaseModel):
    model_config = ConfigDict(extra="forbid", title="DangerPoolTable")

    scene: DangerPoolScene | None = Field(description="The one open scene.")
    last_scene: DangerPoolScene | None = Field(description="The scene that ended last, as it ended.")
    players: dict[str, DangerPoolPlayer] = Field(description="Player id → roster entry (spec §3.2).")
    pending_track_boxes: int = Field(description="Betray the Team boxes for the next action scene (A36).")
    traitor_elements: list[str] = Field(description="Betrayers, added as elements to every later action scene.")
    gm_notes: list[str] = Field(description="GM-only notes (empty for players).")
    awaiting: list[AwaitingEntry] = Field(description="Who must move for play to go on, and with what.")
    offers: list[AwaitingEntry] = Field(
        default_factory=list,
        description="Every move each party may send now: "
        "what `awaiting` asks and the moves open outside it (nobody is waited for).",
    )
    requests: list[DangerPoolRequest] = Field(description="After-effects owed for the next planning scene.")
    seq: dict[str, int] | None = Field(None, description="GM only: id counters.")
    id_salt: str | None = Field(None, description="GM only: the key of hidden element ids.")


class DangerPoolState(BaseModel):
    """A Danger Pool table as a GM or a player sees it."""

    model_config = ConfigDict(extra="forbid", title="DangerPoolState")

    options: DangerPoolOptions = Field(description="The campaign's settings.")
    characters: dict[str, DangerPoolCharacter] = Field(description="Character id → sheet.")
    table: DangerPoolTable = Field(description="Scenes, roster and whose move it is.")
