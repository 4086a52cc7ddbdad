"""One payload model per event type the Iskra engine emits (`EVENT_PAYLOADS[type]`); each validates both the
event's `data` and the players' `redacted` copy (an NPC's numbers and a secret test's sums are left out of it:
those fields are optional here)."""

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from service.rules.iskra.state_model import (
    IskraConcept,
    IskraExposure,
    IskraFocusRequest,
    IskraHelpToken,
    IskraItem,
    IskraLocation,
    IskraOwnedAbility,
    IskraParticipant,
    IskraSide,
    IskraTest,
    IskraTrait,
)

EncounterId = Annotated[str, Field(description="The combat.")]
ParticipantId = Annotated[str, Field(description="The participant (character or hazard).")]
CharacterId = Annotated[str, Field(description="The character concerned.")]
Round = Annotated[int, Field(description="The combat round.")]
TestPayload = Annotated[IskraTest, Field(description="The test as it stands (players: its public copy).")]


class _Payload(BaseModel):
    # populate_by_name: engines set `from_`, the wire name stays `from`.
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class IskraDie(_Payload, title="IskraDie"):
    """One die as it was thrown (every die of a move is in exactly one event)."""

    sides: int = Field(description="10.")
    face: int = Field(description="The face that came up.")
    source: Literal["server", "verifiable", "table"] = Field(description="Where it came from.")
    seq: int | None = Field(description="Its position in a verifiable dice session.")
    purpose: str = Field(description="`<test purpose>:<attribute>`.")


class IskraActionSpent(_Payload, title="IskraActionSpent"):
    encounter_id: EncounterId
    participant_id: ParticipantId
    kind: Literal["major", "minor", "passing"] = Field(description="The action used.")
    round: Round


class IskraAdversityOvercome(_Payload, title="IskraAdversityOvercome"):
    adversity: str = Field(description="The adversity (rewarded once, 7-B16).")
    character_ids: list[str] = Field(description="Who gains experience.")
    xp_each: int = Field(description="Experience each gained.")


class IskraCharacterRef(_Payload, title="IskraCharacterRef"):
    """The GM approved a sheet, or a character stood up."""

    character_id: CharacterId


class IskraCharacterDied(_Payload, title="IskraCharacterDied"):
    character_id: CharacterId
    cause: str = Field(description="failed_test_on_deaths_door, damage_on_deaths_door or wounds_beyond_health.")
    test_id: str | None = Field(None, description="The failed test.")


class IskraSheetChanges(_Payload, title="IskraSheetChanges"):
    """The sheet fields a GM edit changed, with their new values."""

    attributes: dict[str, int] | None = Field(None, description="The attributes now.")
    predispositions: list[IskraTrait] | None = Field(None, description="The new list.")
    weaknesses: list[IskraTrait] | None = Field(None, description="The new list.")
    concept: IskraConcept | None = Field(None, description="The new concept.")
    health_max: int | None = Field(None, description="An NPC's new Health maximum.")
    recovery_enabled: bool | None = Field(None, description="An NPC's recovery switch.")
    health: int | None = Field(None, description="Health, when the new maximum lowered it.")


class IskraCharacterEdited(_Payload, title="IskraCharacterEdited"):
    character_id: CharacterId
    changes: IskraSheetChanges = Field(description="What changed (an NPC's edit is GM-only).")


class IskraCharactersMoved(_Payload, title="IskraCharactersMoved"):
    character_ids: list[str] = Field(description="Who moved.")
    location_id: str = Field(description="Where to.")


class IskraCombatEndSuggested(_Payload, title="IskraCombatEndSuggested"):
    encounter_id: EncounterId
    sides_without_living: list[str] = Field(description="Sides with nobody left standing.")


class IskraCombatEnded(_Payload, title="IskraCombatEnded"):
    encounter_id: EncounterId
    round: Round
    outcome_note: str | None = Field(description="The GM's note.")


class IskraCombatStarted(_Payload, title="IskraCombatStarted"):
    encounter_id: EncounterId
    sides: list[IskraSide] = Field(description="Sides in their cyclic order.")
    initiator_id: str = Field(description="Who started it.")
    order: list[str] = Field(description="Turn order of the first round.")
    participants: dict[str, IskraParticipant] = Field(description="Participant id → record.")


class IskraCriticalNoted(_Payload, title="IskraCriticalNoted"):
    test_id: str = Field(description="The test.")
    outcome: str = Field(description="Its critical outcome.")
    text: str = Field(description="The GM's note (7-B33).")


class IskraDamageSourceSeen(_Payload, title="IskraDamageSourceSeen"):
    """Where damage came from; once applied, also how it was reduced."""

    kind: str = Field(description="attack, hazard, fall or other.")
    attacker_id: str | None = Field(description="The attacker or hazard.")
    test_id: str | None = Field(None, description="The attack test.")
    mode: str | None = Field(None, description="melee or ranged.")
    dodge_choice: str | None = Field(None, description="The Dodge declared with the attack.")
    critical_bonus_wounds: int | None = Field(None, description="Extra Wounds of a critical success.")
    description: str | None = Field(None, description="What happened.")
    damage_id: str | None = Field(None, description="The damage record.")
    initial_wounds: int | None = Field(None, description="Wounds as dealt.")
    focus_spent: int | None = Field(None, description="Focus Points spent reducing them.")


class IskraDamageApplied(_Payload, title="IskraDamageApplied"):
    character_id: CharacterId
    wounds: int = Field(description="Wounds taken.")
    source: IskraDamageSourceSeen = Field(description="Where they came from.")
    health_lost: int | None = Field(None, description="Health lost (absent for players on an NPC).")
    health: int | None = Field(None, description="Health left (absent for players on an NPC).")
    xp_gained: int = Field(description="Experience gained from the wounds.")
    deaths_door: bool | None = Field(None, description="Fell to Death's Door (absent for players on an NPC).")


class IskraDamageIncoming(_Payload, title="IskraDamageIncoming"):
    damage_id: str = Field(description="The damage record (`table.pending`).")
    target_id: str = Field(description="Who takes it.")
    wounds: int | None = Field(description="Wounds; null until the GM sets them.")
    source: IskraDamageSourceSeen = Field(description="Where it comes from.")


class IskraDamageResolved(_Payload, title="IskraDamageResolved"):
    damage_id: str = Field(description="The damage record.")
    target_id: str = Field(description="Its target.")
    moot: bool = Field(description="Nothing left to apply (the target died or it was dodged).")


class IskraDodgeDeclared(_Payload, title="IskraDodgeDeclared"):
    choice: Literal["dodge", "dodge_stay_standing", "none"] = Field(description="The Dodge chosen.")
    damage_id: str | None = Field(None, description="The damage dodged (after_hit timing).")
    character_id: str | None = Field(None, description="Who dodges (after_hit timing).")
    test: IskraTest | None = Field(None, description="The attack test (on_declare timing).")


class IskraEtherExposureChanged(_Payload, title="IskraEtherExposureChanged"):
    exposed: list[IskraExposure] = Field(description="Characters over their Ether tolerance (GM only).")


class IskraEtherSensed(_Payload, title="IskraEtherSensed"):
    location_id: str = Field(description="Where.")
    character_id: CharacterId
    ether_concentration: str | None = Field(None, description="The level sensed (absent for other players).")


class IskraFellProne(_Payload, title="IskraFellProne"):
    character_id: CharacterId
    cause: str = Field(description="Why (e.g. a Dodge without staying standing).")


class IskraFocusDecision(IskraFocusRequest, title="IskraFocusDecision"):
    """A Focus spend requested of, approved or rejected by the GM."""

    id: str = Field(description="The test or damage it is for.")
    reason: str | None = Field(None, description="Why the GM rejected it.")


class IskraFocusRestored(_Payload, title="IskraFocusRestored"):
    character_id: CharacterId
    reason: str | None = Field(description="Why.")
    amount: int = Field(description="Points restored.")
    focus_points: int | None = Field(None, description="Points now (absent for players on an NPC).")


class IskraFocusSpent(_Payload, title="IskraFocusSpent"):
    character_id: CharacterId
    use: Literal["adjust", "reroll", "reduce_damage"] = Field(description="What the points bought.")
    amount: int = Field(description="Points (adjust: the signed change).")
    description: str = Field(description="How.")
    test_id: str | None = Field(None, description="The test.")
    focus_points: int | None = Field(None, description="Points left (absent for players on an NPC).")
    damage_id: str | None = Field(None, description="The damage reduced.")
    wounds: int | None = Field(None, description="Wounds left.")


class IskraGloryAwarded(_Payload, title="IskraGloryAwarded"):
    character_id: CharacterId
    amount: int = Field(description="Glory gained.")
    deed: str = Field(description="What earned it.")
    glory: int = Field(description="Glory now.")


class IskraGloryUsed(_Payload, title="IskraGloryUsed"):
    test: TestPayload
    glory: int = Field(description="The Glory added.")


class IskraGmNoteWritten(_Payload, title="IskraGmNoteWritten"):
    text: str = Field(description="The note.")


class IskraHazardHit(_Payload, title="IskraHazardHit"):
    participant_id: ParticipantId
    test_id: str = Field(description="The attack test.")
    wounds: int | None = Field(description="Wounds dealt to the hazard.")


class IskraHealthRegained(_Payload, title="IskraHealthRegained"):
    character_id: CharacterId
    amount: int | None = Field(None, description="Health regained (absent for players on an NPC).")
    health: int | None = Field(None, description="Health now (absent for players on an NPC).")
    cause: str = Field(description="strength_test, safe_rest or other.")
    deaths_door_ended: bool | None = Field(None, description="Left Death's Door (absent for players on an NPC).")


class IskraHelpAttached(_Payload, title="IskraHelpAttached"):
    test: TestPayload
    helper_id: str = Field(description="Who helps.")


class IskraHelpGiven(IskraHelpToken, title="IskraHelpGiven"):
    encounter_id: EncounterId


class IskraLoad(_Payload, title="IskraLoad"):
    character_id: CharacterId
    load: int = Field(description="Weight carried now.")
    encumbrance: str = Field(description="normal, overloaded or over_limit.")


class IskraItemChanged(IskraLoad, title="IskraItemChanged"):
    """An item added or dropped (with the item), or its carried flag set (with its id)."""

    item: IskraItem | None = Field(None, description="The item.")
    item_id: str | None = Field(None, description="The item's id.")


class IskraItemTransferred(_Payload, title="IskraItemTransferred"):
    from_: IskraLoad = Field(alias="from", description="The giver's load after.")
    to: IskraLoad = Field(description="The receiver's load after.")
    item: IskraItem = Field(description="The item as the receiver holds it.")
    old_item_id: str = Field(description="Its id on the giver's sheet.")


class IskraLocationDefined(_Payload, title="IskraLocationDefined"):
    location: IskraLocation = Field(description="The location (players: Ether level null unless sensed).")


class IskraMajorConverted(_Payload, title="IskraMajorConverted"):
    encounter_id: EncounterId
    participant_id: ParticipantId
    minor_left: int = Field(description="Minor actions left.")


class IskraMinorActionTaken(_Payload, title="IskraMinorActionTaken"):
    character_id: CharacterId
    kind: str = Field(description="interact, draw_item or use_item.")
    item_id: str | None = Field(description="The item.")
    description: str = Field(description="What the character does.")
    consumed: bool = Field(description="The item was used up.")


class IskraParticipantJoined(_Payload, title="IskraParticipantJoined"):
    encounter_id: EncounterId
    participant_id: ParticipantId
    side_id: str = Field(description="Its side.")
    kind: Literal["character", "hazard"] = Field(description="What it is.")
    order: list[str] = Field(description="The turn order now.")


class IskraParticipantRef(_Payload, title="IskraParticipantRef"):
    """A participant removed from combat, or declining its triggered Ready action."""

    encounter_id: EncounterId
    participant_id: ParticipantId


class IskraPassingActionTaken(_Payload, title="IskraPassingActionTaken"):
    character_id: CharacterId
    description: str = Field(description="What the character does.")


class IskraReactionSpent(_Payload, title="IskraReactionSpent"):
    encounter_id: EncounterId
    participant_id: ParticipantId
    for_: str = Field(alias="for", description="dodge or ready.")
    reactions_left: int | str = Field(description="Reactions left, or `unlimited`.")


class IskraReadyEvent(_Payload, title="IskraReadyEvent"):
    """A Ready action set, triggered or used; players see only `created_round` of another's when it is set."""

    encounter_id: EncounterId
    participant_id: ParticipantId
    held_type: str | None = Field(None, description="major or minor.")
    held_action: str | None = Field(None, description="What is held.")
    target_id: str | None = Field(None, description="Against whom.")
    item_id: str | None = Field(None, description="With what.")
    description: str | None = Field(None, description="The action.")
    trigger_text: str | None = Field(None, description="When it fires.")
    created_round: int = Field(description="The round it was readied in.")


class IskraRecoveryFailed(_Payload, title="IskraRecoveryFailed"):
    character_id: CharacterId
    test_id: str = Field(description="The recovery test.")
    next_due: int = Field(description="The day of the next test.")


class IskraRegenerationBlocked(_Payload, title="IskraRegenerationBlocked"):
    character_id: CharacterId
    what: str = Field(description="What was not regained (health, focus).")
    cause: str = Field(description="Why (the location).")


class IskraResourcesUsed(_Payload, title="IskraResourcesUsed"):
    character_id: CharacterId
    base_cost: int = Field(description="Resources before Efficiency.")
    cost: int = Field(description="Resources used.")
    description: str = Field(description="What for.")


class IskraRest(_Payload, title="IskraRest"):
    """A safe rest started or was interrupted."""

    character_id: CharacterId
    day: int = Field(description="The game day.")
    location_id: str | None = Field(None, description="Where the rest began.")


class IskraRoundEnded(_Payload, title="IskraRoundEnded"):
    encounter_id: EncounterId
    round: Round


class IskraRoundStarted(_Payload, title="IskraRoundStarted"):
    encounter_id: EncounterId
    round: Round
    order: list[str] = Field(description="The round's turn order.")


class IskraSessionEnded(_Payload, title="IskraSessionEnded"):
    number: int = Field(description="The session.")
    roleplay_awards: list[str] = Field(description="Characters rewarded for role-play.")


class IskraSessionStarted(_Payload, title="IskraSessionStarted"):
    number: int = Field(description="The session.")


class IskraTestEvent(_Payload, title="IskraTestEvent"):
    """A test opened or adjusted."""

    test: TestPayload


class IskraTestThrown(_Payload, title="IskraTestThrown"):
    """A test rolled or rerolled: its stage is `post_roll`."""

    test: TestPayload
    dice: list[IskraDie] = Field(description="The d10.")
    roll: int = Field(description="Its face.")


class IskraTestResolved(_Payload, title="IskraTestResolved"):
    test: TestPayload
    outcome: str = Field(description="critical_success, success, failure or critical_failure.")


class IskraTimeAdvanced(_Payload, title="IskraTimeAdvanced"):
    from_day: int = Field(description="The day before.")
    day: int = Field(description="The day now.")
    requested_days: int = Field(description="Days the GM advanced.")
    recovery_tests_due: list[str] = Field(description="Characters who owe a recovery test now.")


class IskraTurnEnded(_Payload, title="IskraTurnEnded"):
    encounter_id: EncounterId
    round: Round
    participant_id: ParticipantId


class IskraTurnStarted(IskraTurnEnded, title="IskraTurnStarted"):
    expired_ready: bool = Field(description="The participant's unused Ready action lapsed.")
    expired_help_tokens: list[str] = Field(description="Help tokens it gave that lapsed.")


class IskraWoundsSet(_Payload, title="IskraWoundsSet"):
    damage_id: str = Field(description="The damage record.")
    wounds: int = Field(description="The Wounds the GM set.")


class IskraXpSpent(_Payload, title="IskraXpSpent"):
    character_id: CharacterId
    purchase: str = Field(description="attribute, ability or focus_max.")
    cost: int = Field(description="Experience spent.")
    xp: int = Field(description="Experience left.")
    ability: IskraOwnedAbility | None = Field(description="The ability bought.")
    attribute: str | None = Field(description="The attribute raised.")
    focus_max: int = Field(description="Focus maximum now.")
    attributes: dict[str, int] = Field(description="The attributes now.")


EVENT_PAYLOADS: dict[str, type[BaseModel]] = {
    "action_spent": IskraActionSpent,
    "adversity_overcome": IskraAdversityOvercome,
    "character_approved": IskraCharacterRef,
    "character_died": IskraCharacterDied,
    "character_edited": IskraCharacterEdited,
    "characters_moved": IskraCharactersMoved,
    "combat_end_suggested": IskraCombatEndSuggested,
    "combat_ended": IskraCombatEnded,
    "combat_started": IskraCombatStarted,
    "critical_noted": IskraCriticalNoted,
    "damage_applied": IskraDamageApplied,
    "damage_incoming": IskraDamageIncoming,
    "damage_resolved": IskraDamageResolved,
    "dodge_declared": IskraDodgeDeclared,
    "ether_exposure_changed": IskraEtherExposureChanged,
    "ether_sensed": IskraEtherSensed,
    "fell_prone": IskraFellProne,
    "focus_approved": IskraFocusDecision,
    "focus_rejected": IskraFocusDecision,
    "focus_requested": IskraFocusDecision,
    "focus_restored": IskraFocusRestored,
    "focus_spent": IskraFocusSpent,
    "glory_awarded": IskraGloryAwarded,
    "glory_used": IskraGloryUsed,
    "gm_note": IskraGmNoteWritten,
    "hazard_hit": IskraHazardHit,
    "health_regained": IskraHealthRegained,
    "help_attached": IskraHelpAttached,
    "help_given": IskraHelpGiven,
    "item_added": IskraItemChanged,
    "item_carried": IskraItemChanged,
    "item_dropped": IskraItemChanged,
    "item_set_down": IskraItemChanged,
    "item_transferred": IskraItemTransferred,
    "location_defined": IskraLocationDefined,
    "major_converted": IskraMajorConverted,
    "minor_action": IskraMinorActionTaken,
    "participant_joined": IskraParticipantJoined,
    "participant_removed": IskraParticipantRef,
    "passing_action": IskraPassingActionTaken,
    "reaction_spent": IskraReactionSpent,
    "ready_declined": IskraParticipantRef,
    "ready_set": IskraReadyEvent,
    "ready_triggered": IskraReadyEvent,
    "ready_used": IskraReadyEvent,
    "recovery_failed": IskraRecoveryFailed,
    "regeneration_blocked": IskraRegenerationBlocked,
    "resources_used": IskraResourcesUsed,
    "rest_interrupted": IskraRest,
    "rest_started": IskraRest,
    "round_ended": IskraRoundEnded,
    "round_started": IskraRoundStarted,
    "session_ended": IskraSessionEnded,
    "session_started": IskraSessionStarted,
    "stood_up": IskraCharacterRef,
    "test_adjusted": IskraTestEvent,
    "test_opened": IskraTestEvent,
    "test_rerolled": IskraTestThrown,
    "test_resolved": IskraTestResolved,
    "test_rolled": IskraTestThrown,
    "time_advanced": IskraTimeAdvanced,
    "turn_ended": IskraTurnEnded,
    "turn_started": IskraTurnStarted,
    "wounds_set": IskraWoundsSet,
    "xp_spent": IskraXpSpent,
}
