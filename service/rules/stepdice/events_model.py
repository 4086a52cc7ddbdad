"""One payload model per event type the Step Dice engine emits (`EVENT_PAYLOADS[type]`); each validates both the
event's `data` and the players' `redacted` copy (what spec 8 keeps from players, e.g. an unrevealed enemy's TN
and Wounds or the GM's planned complication, is optional here)."""

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from service.rules.stepdice.state_model import (
    Attribute,
    Die,
    EncounterOutcome,
    EnemyKind,
    Outcome,
    Proficiency,
    StepDiceDeviation,
    StepDiceHelpToken,
    StepDicePending,
    StepDicePosition,
)

HeartCause = Literal["retaliation", "enemy_hit", "complication"]


class _Payload(BaseModel):
    # populate_by_name: engines set `from_`, the wire name stays `from`.
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class StepDiceDie(_Payload, title="StepDiceDie"):
    """One die as it was thrown (every die of a move is in exactly one event)."""

    sides: int = Field(description="6, 8, 10, 12 or 20.")
    face: int = Field(description="The face that came up.")
    source: Literal["server", "verifiable", "table"] = Field(description="Where it came from.")
    seq: int | None = Field(description="Its position in a verifiable dice session.")
    purpose: str = Field(description="`<kind>:<attribute>`.")


class StepDiceStepRecord(_Payload, title="StepDiceStepRecord"):
    source: str = Field(description="Why the step applies (declared, or cover, range, minion pressure).")
    delta: int = Field(description="+ harder, − easier.")


class StepDiceRepeatWarning(_Payload, title="StepDiceRepeatWarning"):
    """§3.7: the same test failed earlier in this scene; the server warns and never refuses."""

    code: Literal["repeated_test"] = Field(description="The warning.")
    justification: str | None = Field(description="Why the player says the situation changed.")
    detail: str = Field(description="A sentence for people.")


class StepDiceTestRecord(_Payload, title="StepDiceTestRecord"):
    """A test as the GM settled it (spec 4.16) and, when rolled, its result. Kind-specific fields are present for
    their kind; with the target's TN unknown to players, their copy of a refusal lacks the TN and band."""

    test_id: str = Field(description="The test's id.")
    kind: Literal["test", "attack", "cast", "call_test"] = Field(description="What was tested.")
    character_id: str = Field(description="Who tested.")
    attribute: Attribute = Field(description="The attribute.")
    intent: str | None = Field(description="What the player wanted.")
    base_tn: int | None = Field(None, description="The base TN (4/6/8/12).")
    steps: list[StepDiceStepRecord] = Field(description="Every step that applied.")
    talents: list[str] = Field(description="Talents that counted.")
    helper_ids: list[str] = Field(description="Who helped (by hand or help token).")
    die: Die = Field(description="The die thrown, after help.")
    base_die: Die | None = Field(None, description="The attribute's die before help (not in the d6 variant).")
    faces: int = Field(description="Its faces.")
    band: Literal["normal", "near_certain", "near_impossible"] | None = Field(None, description="Spec 4.3.")
    tn: int | None = Field(None, description="The TN after steps; null outside the normal band.")
    net_steps: int | None = Field(None, description="Steps summed, Talents counted.")
    band_without_talent: Literal["normal", "near_certain", "near_impossible"] | None = Field(
        None, description="The band had no Talent counted (a Talent never gives an automatic success)."
    )
    proficiency: Proficiency | None = Field(None, description="d6 variant: the attribute's level.")
    raw_threshold: int | None = Field(None, description="d6 variant: the threshold before clamping.")
    threshold: int | None = Field(None, description="d6 variant: the threshold to roll.")
    warning: StepDiceRepeatWarning | None = Field(None, description="test: the repeated-test warning (§3.7).")
    target_enemy_id: str | None = Field(None, description="attack: the enemy.")
    attack_type: Literal["melee", "ranged", "spell"] | None = Field(None, description="attack: how.")
    cover: Literal["none", "partial", "full"] | None = Field(None, description="attack: the target's cover.")
    minion_pressure: Literal["none", "step", "extra_complication"] | None = Field(None, description="attack.")
    tier: Literal["trick", "standard", "strong", "great_power"] | None = Field(None, description="A spell's tier.")
    mana_cost: int | None = Field(None, description="Mana the spell costs.")
    heal_target_id: str | None = Field(None, description="cast: who it heals.")
    move_to: StepDicePosition | None = Field(None, description="cast: where it moves the caster.")
    consequence_on_failure: str | None = Field(None, description="call_test: what a failure brings.")
    encounter_id: str | None = Field(None, description="In combat: the encounter.")
    round: int | None = Field(None, description="In combat: the round.")
    phase: Literal["player_phase", "enemy_phase"] | None = Field(None, description="In combat: the phase.")
    reason: Literal["near_impossible"] | None = Field(None, description="test_refused: why.")
    skip_roll_denied: Literal["talent_never_auto_success"] | None = Field(
        None, description="The GM asked to skip the roll, but only a Talent made it near-certain (§2.4)."
    )
    roll: int | None = Field(None, description="The face rolled; null when the roll was skipped.")
    dice: list[StepDiceDie] | None = Field(None, description="The die thrown (none when skipped).")
    skipped_roll: bool | None = Field(None, description="A near-certain success without a roll.")
    outcome: Outcome | None = Field(None, description="The result (spec 4.2).")
    clock_ids_advanced: list[str] | None = Field(
        None, description="Clocks the failure advanced (players: the visible ones)."
    )
    planned_complication: str | None = Field(None, description="GM only: the complication the GM noted.")


class StepDiceCharacterRound(_Payload, title="StepDiceCharacterRound"):
    character_id: str = Field(description="The PC.")
    round: int = Field(description="The round.")


class StepDiceTurnEnded(_Payload, title="StepDiceTurnEnded"):
    character_id: str = Field(description="The PC.")
    round: int = Field(description="The round.")
    reason: Literal["ended", "downed", "forced"] = Field(
        description="end_turn, the PC went down, or the GM ended the player phase."
    )


class StepDiceAdvancementChosen(_Payload, title="StepDiceAdvancementChosen"):
    character_id: str = Field(description="The PC.")
    choice: Literal["step_die", "heart", "mana"] = Field(description="What was improved (§8).")
    attribute: Attribute | None = Field(description="step_die: the attribute.")
    from_: str | int = Field(alias="from", description="The die, level or maximum before.")
    to: str | int = Field(description="After.")
    pending_advancements: int = Field(description="Advancements still to spend.")


class StepDiceAdvancementCount(_Payload, title="StepDiceAdvancementCount"):
    character_id: str = Field(description="The PC.")
    pending_advancements: int = Field(description="Advancements still to spend.")


class StepDiceAdvancementGranted(_Payload, title="StepDiceAdvancementGranted"):
    character_id: str = Field(description="The PC.")
    reason: str | None = Field(description="The milestone.")
    pending_advancements: int = Field(description="Advancements to spend.")


class StepDiceArmorRefreshed(_Payload, title="StepDiceArmorRefreshed"):
    character_ids: list[str] = Field(description="Who got their Armor token back.")
    scene_id: str = Field(description="The new scene.")


class StepDiceHeartEvent(_Payload, title="StepDiceHeartEvent"):
    """A Heart loss absorbed by Armor, a PC downed or killed, or damage ignored while downed, with its origin."""

    character_id: str = Field(description="The PC.")
    cause: HeartCause = Field(description="What cost the Heart.")
    test_id: str | None = Field(None, description="The failed test.")
    enemy_id: str | None = Field(None, description="The enemy.")
    hit_id: str | None = Field(None, description="The hit.")
    description: str | None = Field(None, description="The GM's description.")


class StepDiceHeartsLost(StepDiceHeartEvent, title="StepDiceHeartsLost"):
    amount: int = Field(description="Always 1 (spec 4.10).")
    hearts: int = Field(description="Hearts now.")
    hearts_max: int = Field(description="Maximum Hearts.")


class StepDiceHeartsGained(_Payload, title="StepDiceHeartsGained"):
    character_id: str = Field(description="The PC.")
    cause: Literal["advancement", "heal", "raised"] = Field(description="Why.")
    amount: int = Field(description="Hearts gained (capped at the maximum).")
    hearts: int = Field(description="Hearts now.")
    hearts_max: int = Field(description="Maximum Hearts.")
    stood_up: bool = Field(description="A downed PC is back on its feet.")
    test_id: str | None = Field(None, description="The healing spell.")
    description: str | None = Field(None, description="Who raised the PC.")


class StepDiceAutoSuccessRecorded(_Payload, title="StepDiceAutoSuccessRecorded"):
    character_id: str = Field(description="The PC.")
    intent: str | None = Field(description="What succeeded without a roll.")
    outcome: Literal["success"] = Field(description="Always success.")


class StepDiceBenefitChosen(_Payload, title="StepDiceBenefitChosen"):
    test_id: str = Field(description="The exceptional test.")
    character_id: str = Field(description="The PC.")
    option: str = Field(description="The benefit (one of the pending choice's `benefit_options`).")
    text: str | None = Field(description="What it is, in words.")


class StepDiceClockEvent(_Payload, title="StepDiceClockEvent"):
    """A clock created, advanced, triggered or cancelled (GM-only while the clock is hidden)."""

    clock_id: str = Field(description="The clock.")
    scene_id: str | None = Field(None, description="created: its scene.")
    label: str | None = Field(None, description="created, triggered: what it measures.")
    length: int | None = Field(None, description="Failures until it triggers.")
    value: int | None = Field(None, description="Its value now.")
    status: Literal["running"] | None = Field(None, description="created: running.")
    consequence: str | None = Field(None, description="created, triggered: what happens.")
    visible_to_players: bool | None = Field(None, description="created: players see it.")
    by: int | None = Field(None, description="advanced: by how much.")
    test_id: str | None = Field(None, description="advanced: the failed test.")
    reason: str | None = Field(None, description="advanced by the GM: why.")


class StepDiceConsequenceRecorded(_Payload, title="StepDiceConsequenceRecorded"):
    test_id: str = Field(description="The test.")
    character_id: str = Field(description="The PC.")
    kind: Literal["complication", "consequence"] = Field(
        description="A natural 1's complication, or a failed spell's consequence."
    )
    text: str = Field(description="The GM's words.")


class StepDiceCharacterJoined(_Payload, title="StepDiceCharacterJoined"):
    character_id: str = Field(description="The PC.")
    encounter_id: str = Field(description="The encounter.")
    position: StepDicePosition | None = Field(description="Where it stands.")


class StepDiceEncounterCreated(_Payload, title="StepDiceEncounterCreated"):
    encounter_id: str = Field(description="The encounter.")
    scene_id: str = Field(description="Its combat scene.")
    label: str | None = Field(description="The GM's name for it.")


class StepDiceEncounterEnded(_Payload, title="StepDiceEncounterEnded"):
    encounter_id: str = Field(description="The encounter.")
    outcome: EncounterOutcome = Field(description="The GM's call.")
    round: int = Field(description="The last round.")
    suggested_outcome: Literal["victory", "defeat"] | None = Field(description="The server's suggestion.")


class StepDiceEncounterRef(_Payload, title="StepDiceEncounterRef"):
    encounter_id: str = Field(description="The encounter.")


class StepDiceEnemyRecord(_Payload, title="StepDiceEnemyRecord"):
    """An enemy added or revealed; players' copy of `enemy_added` holds only what they may know (spec 8)."""

    enemy_id: str = Field(description="The enemy.")
    id: str = Field(description="The same id.")
    name: str = Field(description="Its name.")
    state: Literal["active", "defeated"] = Field(description="Spec 5.4.")
    revealed: bool = Field(description="Kind and TN known to players.")
    kind: EnemyKind | None = Field(None, description="Its kind.")
    tn: int | None = Field(None, description="Its TN.")
    wounds_max: int | None = Field(None, description="Wounds it takes.")
    wounds_taken: int | None = Field(None, description="Wounds taken.")
    position: StepDicePosition | None = Field(None, description="Its square.")
    wounds_revealed: bool | None = Field(None, description="GM only.")
    position_revealed: bool | None = Field(None, description="GM only.")
    deviations: list[StepDiceDeviation] | None = Field(None, description="GM only: overridden core values.")
    test_id: str | None = Field(None, description="revealed: the attack that revealed it.")


class StepDiceEnemyDefeated(_Payload, title="StepDiceEnemyDefeated"):
    enemy_id: str = Field(description="The enemy.")
    test_id: str = Field(description="The test that hit it.")


class StepDiceEnemyWounded(_Payload, title="StepDiceEnemyWounded"):
    """Players' copy of a hit on an elite or boss with unrevealed Wounds has only the ids."""

    enemy_id: str = Field(description="The enemy.")
    test_id: str = Field(description="The hit.")
    wounds: int | None = Field(None, description="Wounds dealt.")
    wounds_taken: int | None = Field(None, description="Wounds taken now.")
    wounds_max: int | None = Field(None, description="Wounds it takes.")
    overflow: int | None = Field(None, description="Wounds beyond the maximum (discarded, 7-A51).")


class StepDiceEnemyHitEvent(_Payload, title="StepDiceEnemyHitEvent"):
    hit_id: str = Field(description="The hit.")
    enemy_id: str = Field(description="Who hit.")
    character_id: str = Field(description="Who was hit.")
    description: str | None = Field(description="The GM's description.")


class StepDiceEnemyMoved(_Payload, title="StepDiceEnemyMoved"):
    enemy_id: str = Field(description="The enemy (GM-only while its position is hidden).")
    from_: StepDicePosition | None = Field(alias="from", description="Where it was.")
    to: StepDicePosition = Field(description="Where it is.")
    description: str | None = Field(description="The GM's description.")


class StepDiceEquipmentUsed(_Payload, title="StepDiceEquipmentUsed"):
    character_id: str = Field(description="The PC.")
    item: str = Field(description="The item.")
    description: str | None = Field(description="What it is used for.")


class StepDiceGmNoteEvent(_Payload, title="StepDiceGmNoteEvent"):
    text: str = Field(description="The note (GM-only unless shown to players).")
    test_id: str | None = Field(description="The test it is about.")


class StepDiceHelpTokenEvent(StepDiceHelpToken, title="StepDiceHelpTokenEvent"):
    """Help given, spent (with the test) or expired at the end of the player phase."""

    model_config = ConfigDict(extra="forbid")

    test_id: str | None = Field(None, description="consumed: the test it helped.")


class StepDiceManaChange(_Payload, title="StepDiceManaChange"):
    character_id: str = Field(description="The PC.")
    amount: int = Field(description="Mana spent, refunded or gained.")
    mana: int = Field(description="Mana now.")
    mana_max: int = Field(description="Maximum Mana.")
    test_id: str | None = Field(None, description="The spell.")
    cause: Literal["advancement"] | None = Field(None, description="gained: why.")


class StepDiceMoved(_Payload, title="StepDiceMoved"):
    character_id: str = Field(description="The PC.")
    from_: StepDicePosition | None = Field(alias="from", description="Where it was.")
    to: StepDicePosition = Field(description="Where it is.")
    path: list[StepDicePosition] | None = Field(None, description="A move: the squares walked.")
    squares: int | None = Field(None, description="A move: how many.")
    via: Literal["spell"] | None = Field(None, description="Moved by a spell.")
    test_id: str | None = Field(None, description="The spell.")
    move_remaining: int = Field(description="Squares left this turn.")


class StepDiceOutcomeSuggested(_Payload, title="StepDiceOutcomeSuggested"):
    encounter_id: str = Field(description="The encounter.")
    suggested_outcome: Literal["victory", "defeat"] | None = Field(description="The suggestion; null withdraws it.")


class StepDicePhaseChanged(_Payload, title="StepDicePhaseChanged"):
    from_: Literal["setup", "player_phase", "enemy_phase"] = Field(alias="from", description="The phase before.")
    to: Literal["player_phase", "enemy_phase"] = Field(description="The phase now.")
    round: int = Field(description="The round.")
    reason: Literal["all_pcs_done", "forced"] | None = Field(None, description="Why the player phase ended.")


class StepDicePositionSet(_Payload, title="StepDicePositionSet"):
    combatant_id: str = Field(description="The PC or enemy (GM-only for an enemy with a hidden position).")
    position: StepDicePosition | None = Field(description="Its square.")


class StepDiceRestored(_Payload, title="StepDiceRestored"):
    character_id: str = Field(description="The PC.")
    hearts: int = Field(description="Hearts now (the maximum).")
    mana: int = Field(description="Mana now (the maximum).")


class StepDiceRestTaken(_Payload, title="StepDiceRestTaken"):
    restored: list[StepDiceRestored] = Field(description="Who rested.")
    skipped_dead: list[str] = Field(description="Dead PCs, who do not.")


class StepDiceRetaliationResolved(_Payload, title="StepDiceRetaliationResolved"):
    test_id: str = Field(description="The failed attack.")
    character_id: str = Field(description="The attacker.")
    enemy_id: str = Field(description="The enemy attacked.")
    could_reach: bool = Field(description="The enemy could reach the attacker (§5.6).")
    substitute_complication: str | None = Field(description="A complication instead of the Heart.")
    complication: str | None = Field(description="A natural 1's complication, or a spell's consequence.")
    heart_lost: bool = Field(description="The attacker loses a Heart (or chooses Armor).")


class StepDiceSceneEnded(_Payload, title="StepDiceSceneEnded"):
    scene_id: str = Field(description="The scene.")
    clocks_closed: list[str] = Field(description="Its clocks, now gone (players: the visible ones).")


class StepDiceSceneStarted(_Payload, title="StepDiceSceneStarted"):
    scene_id: str = Field(description="The scene.")
    kind: Literal["narrative", "combat"] = Field(description="Its kind.")
    label: str | None = Field(description="The GM's name for it.")


class StepDiceArmorTokenSpent(_Payload, title="StepDiceArmorTokenSpent"):
    character_id: str = Field(description="The PC.")
    cause: HeartCause = Field(description="The Heart loss it absorbed.")
    test_id: str | None = Field(None, description="The failed test.")
    enemy_id: str | None = Field(None, description="The enemy.")
    hit_id: str | None = Field(None, description="The hit.")


class StepDiceChoicePending(StepDicePending, title="StepDiceChoicePending"):
    """The choice that now blocks the table (`table.pending`); players' copy lacks `planned_complication`."""

    model_config = ConfigDict(extra="forbid")


EVENT_PAYLOADS: dict[str, type[BaseModel]] = {
    "action_spent": StepDiceCharacterRound,
    "advancement_chosen": StepDiceAdvancementChosen,
    "advancement_discarded": StepDiceAdvancementCount,
    "advancement_granted": StepDiceAdvancementGranted,
    "armor_refreshed": StepDiceArmorRefreshed,
    "armor_token_spent": StepDiceArmorTokenSpent,
    "auto_success_recorded": StepDiceAutoSuccessRecorded,
    "benefit_chosen": StepDiceBenefitChosen,
    "character_died": StepDiceHeartEvent,
    "character_downed": StepDiceHeartEvent,
    "character_joined": StepDiceCharacterJoined,
    "character_raised": StepDiceHeartsGained,
    "choice_pending": StepDiceChoicePending,
    "clock_advanced": StepDiceClockEvent,
    "clock_cancelled": StepDiceClockEvent,
    "clock_created": StepDiceClockEvent,
    "clock_triggered": StepDiceClockEvent,
    "consequence_recorded": StepDiceConsequenceRecorded,
    "downed_damage_ignored": StepDiceHeartEvent,
    "encounter_created": StepDiceEncounterCreated,
    "encounter_ended": StepDiceEncounterEnded,
    "encounter_started": StepDiceEncounterRef,
    "enemy_added": StepDiceEnemyRecord,
    "enemy_defeated": StepDiceEnemyDefeated,
    "enemy_hit": StepDiceEnemyHitEvent,
    "enemy_moved": StepDiceEnemyMoved,
    "enemy_revealed": StepDiceEnemyRecord,
    "enemy_wounded": StepDiceEnemyWounded,
    "equipment_used": StepDiceEquipmentUsed,
    "gm_note": StepDiceGmNoteEvent,
    "hearts_gained": StepDiceHeartsGained,
    "hearts_lost": StepDiceHeartsLost,
    "help_given": StepDiceHelpTokenEvent,
    "help_token_consumed": StepDiceHelpTokenEvent,
    "help_token_expired": StepDiceHelpTokenEvent,
    "mana_gained": StepDiceManaChange,
    "mana_refunded": StepDiceManaChange,
    "mana_spent": StepDiceManaChange,
    "moved": StepDiceMoved,
    "outcome_suggested": StepDiceOutcomeSuggested,
    "phase_changed": StepDicePhaseChanged,
    "position_set": StepDicePositionSet,
    "rest_taken": StepDiceRestTaken,
    "retaliation_resolved": StepDiceRetaliationResolved,
    "scene_ended": StepDiceSceneEnded,
    "scene_started": StepDiceSceneStarted,
    "test_refused": StepDiceTestRecord,
    "test_resolved": StepDiceTestRecord,
    "turn_begun": StepDiceCharacterRound,
    "turn_ended": StepDiceTurnEnded,
}
