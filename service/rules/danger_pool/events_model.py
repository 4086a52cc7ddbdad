"""One payload model per event type the Danger Pool engine emits (`EVENT_PAYLOADS[type]`); each validates both
the event's `data` and the players' `redacted` copy (this engine redacts none of its events)."""

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, RootModel

from service.rules.danger_pool.state_model import (
    AftermathOption,
    DangerPoolAftermathProposal,
    DangerPoolEffects,
    DangerPoolElement,
    DangerPoolRoll,
    DangerPoolScar,
    DangerPoolScene,
    DangerPoolTieChoice,
)

SceneId = Annotated[str, Field(description="The scene.")]
RollId = Annotated[str, Field(description="The action roll.")]
CharacterId = Annotated[str, Field(description="The character concerned.")]
Round = Annotated[int, Field(description="The scene's round.")]
PoolSize = Annotated[int, Field(description="Danger dice in the pool now.")]
Added = Annotated[int, Field(description="Danger dice added.")]
Faces = Annotated[list[int], Field(description="Die faces.")]


class _Payload(BaseModel):
    # populate_by_name: engines set `from_`, the wire name stays `from`.
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class DangerPoolDie(_Payload, title="DangerPoolDie"):
    """One die as it was thrown (every die of a move is in exactly one event)."""

    sides: int = Field(description="The die's size (the campaign's `die_sides`).")
    face: int = Field(description="The face that came up.")
    source: Literal["server", "verifiable", "table"] = Field(description="Where it came from.")
    seq: int | None = Field(description="Its position in a verifiable dice session.")
    purpose: str = Field(description="`player` or `danger`.")


class DangerPoolActionRolled(DangerPoolRoll, title="DangerPoolActionRolled"):
    """A declared action was rolled: the roll record as it stands, plus its dice."""

    character_id: CharacterId
    dice: list[DangerPoolDie] = Field(description="Player dice then danger dice.")


class DangerPoolAftermathApplied(_Payload, title="DangerPoolAftermathApplied"):
    """An after-effect took effect (§4.15); the fields present depend on the option."""

    character_id: CharacterId
    option: AftermathOption = Field(description="The after-effect.")
    ability: str | None = Field(None, description="The ability reduced.")
    rating: int | None = Field(None, description="Its new rating.")
    character_points_gained: int | None = Field(None, description="Points the character gained.")
    description: str | None = Field(None, description="The player's explanation.")
    target_character_id: str | None = Field(None, description="Set Someone Up: the victim.")
    victim_character_points_gained: int | None = Field(None, description="Points the victim gained.")
    exit: Literal["dead", "departed"] | None = Field(None, description="Hide the Pain: how the character leaves.")
    character_points_to: list[str] | None = Field(None, description="Betray the Team: who receives the points.")
    track_boxes: int | None = Field(None, description="Betray the Team: boxes added to the next action scene.")
    plan: str | None = Field(None, description="Betray the Team: the betrayer's plan (GM and its player).")


class DangerPoolAftermathChangeRequested(_Payload, title="DangerPoolAftermathChangeRequested"):
    character_id: CharacterId
    note: str | None = Field(description="What the GM wants changed (none given: null).")


class DangerPoolAftermathProposed(DangerPoolAftermathProposal, title="DangerPoolAftermathProposed"):
    """A Take the Hit proposal the GM reviews."""

    character_id: CharacterId


class DangerPoolAftermathSettledByGm(_Payload, title="DangerPoolAftermathSettledByGm"):
    character_id: CharacterId
    text: str = Field(description="How the GM settled it.")


class DangerPoolBailOutResolved(_Payload, title="DangerPoolBailOutResolved"):
    scene_id: SceneId
    outcome: Literal["win", "lose"] = Field(description="The bail-out roll's outcome.")
    extracted: list[str] = Field(description="Members the leader got out.")
    scarred: list[str] = Field(description="Members who took a bail-out scar.")


class DangerPoolBailOutStarted(_Payload, title="DangerPoolBailOutStarted"):
    scene_id: SceneId
    round: Round
    leader_id: str = Field(description="The leader rolling the bail-out.")


class DangerPoolCharacterBetrayedTeam(_Payload, title="DangerPoolCharacterBetrayedTeam"):
    character_id: CharacterId
    former_player_id: str = Field(description="The player it belonged to.")


class DangerPoolCharacterLeft(_Payload, title="DangerPoolCharacterLeft"):
    """A doomed character died or departed at the end of its scene (Hide the Pain)."""

    character_id: CharacterId
    scene_id: SceneId


class DangerPoolCharacterPointsSpent(_Payload, title="DangerPoolCharacterPointsSpent"):
    character_id: CharacterId
    spends: list[Literal["risk", "ignore_pain"]] = Field(description="What the points bought.")
    character_points: int = Field(description="Points left.")


class DangerPoolCharacterTakenOut(_Payload, title="DangerPoolCharacterTakenOut"):
    character_id: CharacterId
    scene_id: SceneId
    pending_aftermath: bool = Field(description="An after-effect is now owed.")


class DangerPoolDangerAdded(_Payload, title="DangerPoolDangerAdded"):
    """Danger dice added: by the alarm, a new round, the player's 1s or Do Something Stupid."""

    scene_id: SceneId
    added: Added
    danger_pool_size: PoolSize
    round: int | None = Field(None, description="A new round: its number.")
    roll_id: str | None = Field(None, description="The roll that added them.")


class DangerPoolDangerInitialized(_Payload, title="DangerPoolDangerInitialized"):
    scene_id: SceneId
    danger_pool_size: PoolSize


class DangerPoolDangerRemovedHoldBack(_Payload, title="DangerPoolDangerRemovedHoldBack"):
    scene_id: SceneId
    roll_id: RollId
    successes: int = Field(description="Successes spent on removing danger.")
    removed: int = Field(description="Danger dice removed.")
    danger_pool_size: PoolSize


class DangerPoolDangerRerolledWithElement(_Payload, title="DangerPoolDangerRerolledWithElement"):
    roll_id: RollId
    element_id: str = Field(description="The element that paid for the reroll (now revealed).")
    element_text: str = Field(description="What the element is.")
    danger_dice: Faces
    danger_max: int = Field(description="The highest counted danger die.")
    player_max: int = Field(description="The highest player die.")
    ignored: list[int] = Field(description="Indices of danger dice showing the top face.")
    tie: bool = Field(description="The maxima are equal.")
    dice: list[DangerPoolDie] = Field(description="The rerolled danger dice.")


class DangerPoolDoomBound(_Payload, title="DangerPoolDoomBound"):
    character_id: CharacterId
    scene_id: SceneId


class DangerPoolElementAdded(_Payload, title="DangerPoolElementAdded"):
    scene_id: SceneId
    element: DangerPoolElement = Field(description="The new element (GM-only event).")


class DangerPoolGmNoteWritten(_Payload, title="DangerPoolGmNoteWritten"):
    text: str = Field(description="The note (GM-only event).")


class DangerPoolRoundMark(_Payload, title="DangerPoolRoundMark"):
    """The leader continued, waived going first, or the round reached its end window."""

    scene_id: SceneId
    round: Round


class DangerPoolMaxScarsReached(_Payload, title="DangerPoolMaxScarsReached"):
    character_id: CharacterId
    counted_scars: int = Field(description="Scars that count toward the maximum.")
    max_scars: int = Field(description="The campaign's maximum.")


class DangerPoolNarration(_Payload, title="DangerPoolNarration"):
    scene_id: SceneId
    character_id: CharacterId
    topic: Literal["danger", "stamina_loss", "taken_out", "exit", "other"] = Field(description="What it explains.")
    text: str = Field(description="The narration.")
    round: int | None = Field(description="The round it was told in.")


class DangerPoolPlayerAssigned(_Payload, title="DangerPoolPlayerAssigned"):
    player_id: str = Field(description="The player.")
    character_id: str | None = Field(description="The character they now control; null: none (A36).")


class DangerPoolProgressMarked(_Payload, title="DangerPoolProgressMarked"):
    scene_id: SceneId
    roll_id: RollId
    marked: int = Field(description="Boxes marked by this roll.")
    progress_marked: int = Field(description="Boxes marked in total.")
    progress_track_length: int = Field(description="Boxes on the track.")


class DangerPoolRollRef(_Payload, title="DangerPoolRollRef"):
    """The GM confirmed a roll, or a scene's end discarded the roll in flight."""

    roll_id: RollId
    scene_id: str | None = Field(None, description="The scene (discarded rolls).")


class DangerPoolRollResolved(_Payload, title="DangerPoolRollResolved"):
    roll_id: RollId
    actor_id: str = Field(description="The acting character.")
    kind: Literal["push", "hold_back", "bail_out"] = Field(description="What was declared.")
    outcome: Literal["win", "lose"] = Field(description="The outcome.")
    successes: int = Field(description="Player dice above the danger maximum.")
    player_max: int = Field(description="The highest player die.")
    danger_max: int = Field(description="The highest counted danger die.")
    player_dice: Faces
    danger_dice: Faces
    ignored: list[int] = Field(description="Indices of danger dice showing the top face.")
    tie_choices: list[DangerPoolTieChoice] = Field(description="The actor's tie choices.")
    effects: DangerPoolEffects = Field(description="What the roll did.")
    state: Literal["resolved", "extraction_pending"] = Field(description="A won bail-out waits for `extract`.")


class DangerPoolRoundStarted(_Payload, title="DangerPoolRoundStarted"):
    scene_id: SceneId
    round: Round
    danger_pool_size: PoolSize
    leader_first_pending: bool = Field(description="The leader acts (or waives) first.")


class DangerPoolScarGained(_Payload, title="DangerPoolScarGained"):
    character_id: CharacterId
    scar: DangerPoolScar = Field(description="The new scar.")
    character_points_gained: int = Field(description="Points it earned.")


class DangerPoolSceneConfigured(_Payload, title="DangerPoolSceneConfigured"):
    """The GM changed the scene during setup: only the fields changed are present."""

    scene_id: SceneId
    progress_track_length: int | None = Field(None, description="The new track length.")
    team: list[str] | None = Field(None, description="The new team.")
    leader_id: str | None = Field(None, description="The new leader.")
    goal: str | None = Field(None, description="The new goal.")


class DangerPoolSceneEnded(_Payload, title="DangerPoolSceneEnded"):
    scene_id: SceneId
    kind: Literal["action", "planning"] = Field(description="The scene's kind.")
    outcome: str = Field(description="completed, bailed_out, all_taken_out, closed_by_gm or ended (planning).")
    stamina_restored: dict[str, int] = Field(description="Character id → stamina restored at the scene's end.")


class DangerPoolSceneStarted(_Payload, title="DangerPoolSceneStarted"):
    scene_id: SceneId
    danger_pool_size: PoolSize
    progress_track_length: int = Field(description="Boxes on the track.")


class DangerPoolStaminaLost(_Payload, title="DangerPoolStaminaLost"):
    character_id: CharacterId
    roll_id: RollId
    tens: int = Field(description="Danger dice showing the top face.")
    stamina: int = Field(description="Stamina left.")


class DangerPoolStaminaRestored(_Payload, title="DangerPoolStaminaRestored"):
    character_id: CharacterId
    reason: str = Field(description="Why (e.g. `ignore_pain`).")
    from_: int = Field(alias="from", description="Stamina before.")
    stamina: int = Field(description="Stamina now.")
    warnings: list[str] = Field(description="Rules the GM should know were bent.")


class DangerPoolTaleTold(_Payload, title="DangerPoolTaleTold"):
    character_id: CharacterId
    text: str = Field(description="The tale.")
    character_points_gained: int = Field(description="Points it earned.")
    character_points: int = Field(description="Points now.")


class DangerPoolTieChoiceMade(_Payload, title="DangerPoolTieChoiceMade"):
    roll_id: RollId
    option: Literal["take_the_hit", "back_down", "do_something_stupid"] = Field(description="The tie option.")
    die_index: int | None = Field(description="The danger die it flips.")
    danger_dice: list[int] | None = Field(None, description="The danger faces after the flip.")
    danger_max: int | None = Field(None, description="The new danger maximum.")
    still_tied: bool | None = Field(None, description="Another choice is needed.")


class DangerPoolTrackExtendedByBetrayal(_Payload, title="DangerPoolTrackExtendedByBetrayal"):
    scene_id: SceneId
    boxes: int = Field(description="Boxes added.")
    progress_track_length: int = Field(description="Boxes on the track now.")


class DangerPoolTurnPassed(_Payload, title="DangerPoolTurnPassed"):
    scene_id: SceneId
    round: Round
    character_id: CharacterId


class DangerPoolSceneCreated(RootModel[DangerPoolScene]):
    """The new scene, as `table.scene` shows it."""

    model_config = ConfigDict(title="DangerPoolSceneCreated")


EVENT_PAYLOADS: dict[str, type[BaseModel]] = {
    "action_rolled": DangerPoolActionRolled,
    "aftermath_applied": DangerPoolAftermathApplied,
    "aftermath_change_requested": DangerPoolAftermathChangeRequested,
    "aftermath_proposed": DangerPoolAftermathProposed,
    "aftermath_settled_by_gm": DangerPoolAftermathSettledByGm,
    "bail_out_resolved": DangerPoolBailOutResolved,
    "bail_out_started": DangerPoolBailOutStarted,
    "character_betrayed_team": DangerPoolCharacterBetrayedTeam,
    "character_dead": DangerPoolCharacterLeft,
    "character_departed": DangerPoolCharacterLeft,
    "character_points_spent": DangerPoolCharacterPointsSpent,
    "character_taken_out": DangerPoolCharacterTakenOut,
    "danger_added_alarm": DangerPoolDangerAdded,
    "danger_added_new_round": DangerPoolDangerAdded,
    "danger_added_player_ones": DangerPoolDangerAdded,
    "danger_added_stupid": DangerPoolDangerAdded,
    "danger_initialized": DangerPoolDangerInitialized,
    "danger_removed_hold_back": DangerPoolDangerRemovedHoldBack,
    "danger_rerolled_with_element": DangerPoolDangerRerolledWithElement,
    "doom_bound": DangerPoolDoomBound,
    "element_added": DangerPoolElementAdded,
    "gm_note": DangerPoolGmNoteWritten,
    "leader_continued": DangerPoolRoundMark,
    "leader_waived_first": DangerPoolRoundMark,
    "max_scars_reached": DangerPoolMaxScarsReached,
    "narration": DangerPoolNarration,
    "player_assigned": DangerPoolPlayerAssigned,
    "progress_marked": DangerPoolProgressMarked,
    "roll_confirmed": DangerPoolRollRef,
    "roll_discarded": DangerPoolRollRef,
    "roll_resolved": DangerPoolRollResolved,
    "round_end_window": DangerPoolRoundMark,
    "round_started": DangerPoolRoundStarted,
    "scar_gained": DangerPoolScarGained,
    "scene_configured": DangerPoolSceneConfigured,
    "scene_created": DangerPoolSceneCreated,
    "scene_ended": DangerPoolSceneEnded,
    "scene_started": DangerPoolSceneStarted,
    "stamina_lost": DangerPoolStaminaLost,
    "stamina_restored": DangerPoolStaminaRestored,
    "tale_told": DangerPoolTaleTold,
    "tie_choice": DangerPoolTieChoiceMade,
    "track_extended_by_betrayal": DangerPoolTrackExtendedByBetrayal,
    "turn_passed": DangerPoolTurnPassed,
}
