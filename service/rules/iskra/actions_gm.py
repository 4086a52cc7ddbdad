"""Moves only the GM may send: tests, damage, combat setup, time, sessions, awards, world and sheets."""

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from service.rules.iskra.fields import (
    Attribute,
    EtherLevel,
    Helper,
    Id,
    Label,
    Modifier,
    Move,
    TestContext,
    Text,
)
from service.rules.iskra.sheet import Concept, Trait


class IskraOpenTest(Move):
    """Call for a test: d10 + attribute + modifiers ≥ 10 (L22–L26, spec 4.2 build_test)."""

    type: Literal["open_test"]
    character_id: Id = Field(description="Who tests (PC or NPC, L22).")
    attribute: Attribute = Field(description="The attribute used.")
    modifiers: list[Modifier] = Field(default_factory=list, max_length=10, description="Situational (7-B31).")
    predispositions: list[int] = Field(
        default_factory=list,
        max_length=3,
        description="Indexes of Predispositions whose topic this test is (L84, L88).",
    )
    weaknesses: list[int] = Field(default_factory=list, max_length=10, description="Indexes of Weaknesses that apply.")
    context: TestContext = Field(
        "general", description="influence/intimidate/persuade allow Glory; detect applies Light Step."
    )
    detect_target_id: Id | None = Field(None, description="For detect: the character being detected (L292).")
    helpers: list[Helper] = Field(default_factory=list, max_length=10, description="Out of combat only (spec 4.7).")
    intent: Text | None = Field(None, description="What is attempted.")
    action_cost: Literal["major", "minor", "passing", "none"] = Field(
        "major", description="In combat: the tester's action spent (spec 4.12.3: a Major by default)."
    )


class IskraAdjustTest(Move):
    """Settle topics and modifiers before the roll (spec 5.1 built)."""

    type: Literal["adjust_test"]
    test_id: Id | None = Field(None, description="The open test; checked when given.")
    add_modifiers: list[Modifier] = Field(default_factory=list, max_length=10, description="Added modifiers.")
    predispositions: list[int] | None = Field(None, max_length=3, description="Replaces the applied indexes.")
    weaknesses: list[int] | None = Field(None, max_length=10, description="Replaces the applied indexes.")
    wounds: int | None = Field(None, ge=0, le=20, description="Attack tests: the weapon's Wounds.")
    critical_bonus_wounds: int | None = Field(
        None, ge=0, le=5, description="Attack tests: extra Wounds on a critical success."
    )


class IskraApproveFocus(Move):
    type: Literal["approve_focus"]


class IskraRejectFocus(Move):
    """L80: refuse a PS description; the player may propose another."""

    type: Literal["reject_focus"]
    reason: Text | None = Field(None, description="Why it does not fit the world.")


class IskraCriticalNote(Move):
    """Record a critical's optional effect on the last resolved test (L30–L32, 7-B33)."""

    type: Literal["critical_note"]
    test_id: Id | None = Field(None, description="The last resolved test; checked when given.")
    text: Text = Field(description="E.g. 'attacker exposed'.")


class IskraSetWounds(Move):
    type: Literal["set_wounds"]
    damage_id: Id | None = Field(None, description="The damage waiting for its Wounds.")
    wounds: int = Field(ge=0, le=20, description="Wounds of the weapon used (7-B30).")


class IskraDealDamage(Move):
    """Wounds from a fall, hazard or other source (spec 4.8)."""

    type: Literal["deal_damage"]
    character_id: Id = Field(description="The target.")
    wounds: int = Field(ge=0, le=20, description="Incoming Wounds before Dodge and PS.")
    source: Literal["attack", "fall", "hazard", "other"] = Field("other", description="attack opens a Dodge window.")
    attacker_id: Id | None = Field(None, description="For attack.")
    description: Text | None = Field(None, description="What hurts.")


class Side(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    side_id: Id = Field(description="Side id, e.g. A.")
    label: Label | None = Field(None, description="Display name.")
    controller: Literal["player", "gm"] = Field("gm", description="Who orders this side's participants.")
    participant_ids: list[Id] = Field(max_length=50, description="In acting order (7-B27).")


class Hazard(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    participant_id: Id = Field(description="Id used in a side's participant_ids.")
    name: Label = Field(description="E.g. 'collapsing ceiling' (L149).")


class IskraStartCombat(Move):
    type: Literal["start_combat"]
    sides: list[Side] = Field(max_length=10, description="Cyclic side order; the initiator's side goes first.")
    initiator_id: Id = Field(description="Whose action made the GM declare combat (L155).")
    hazards: list[Hazard] = Field(default_factory=list, max_length=20, description="Non-character participants.")


class IskraJoinCombat(Move):
    type: Literal["join_combat"]
    participant_id: Id = Field(description="The joiner.")
    side_id: Id = Field(description="Their side.")
    kind: Literal["character", "hazard"] = Field("character", description="What joins.")
    name: Label | None = Field(None, description="Hazard name.")


class IskraRemoveParticipant(Move):
    type: Literal["remove_participant"]
    participant_id: Id = Field(description="Who leaves the combat.")


class IskraEndCombat(Move):
    type: Literal["end_combat"]
    outcome_note: Text | None = Field(None, description="How it ended (7-B28).")


class IskraTriggerReady(Move):
    type: Literal["trigger_ready"]
    character_id: Id = Field(description="Whose Ready condition is met now.")


class IskraStartSession(Move):
    type: Literal["start_session"]


class IskraEndSession(Move):
    type: Literal["end_session"]
    roleplay_awards: list[Id] = Field(default_factory=list, max_length=20, description="+1 XP each (L98).")


class IskraAwardAdversity(Move):
    type: Literal["award_adversity"]
    adversity: Label = Field(description="The difficult adversity overcome; rewarded once (7-B16).")
    character_ids: list[Id] = Field(min_length=1, max_length=20, description="Everyone who took part: +3 XP.")


class IskraAwardGlory(Move):
    type: Literal["award_glory"]
    character_id: Id = Field(description="Who earned it.")
    amount: int = Field(1, ge=1, le=5, description="Glory points (7-B20).")
    deed: Text = Field(description="The incredibly hard deed (L108).")


class IskraAdvanceTime(Move):
    type: Literal["advance_time"]
    days: int = Field(ge=1, le=365, description="Game days; stops early on a day a recovery test falls due.")


class IskraRestStart(Move):
    type: Literal["rest_start"]
    character_id: Id = Field(description="Starts uninterrupted rest in a Safe Place (L68).")


class IskraRestInterrupted(Move):
    type: Literal["rest_interrupted"]
    character_id: Id = Field(description="Whose rest was broken.")


class IskraRestoreFocus(Move):
    type: Literal["restore_focus"]
    character_id: Id = Field(description="Who regains PS (7-B7).")
    amount: int = Field(ge=1, le=20, description="Up to focus_max.")
    reason: Text | None = Field(None, description="Why.")


class IskraRestoreHealth(Move):
    type: Literal["restore_health"]
    character_id: Id = Field(description="Who regains Health by another means (L68).")
    amount: int = Field(ge=1, le=20, description="Up to the maximum.")
    reason: Label = Field("other", description="The ability or item.")


class IskraDefineLocation(Move):
    type: Literal["define_location"]
    location_id: Id = Field(description="Created or replaced.")
    name: Label = Field(description="Display name.")
    is_safe_place: bool = Field(False, description="Bezpieczne Miejsce (L68).")
    ether_concentration: EtherLevel = Field("low", description="GM-only (spec 8).")
    temperature_extreme: bool = Field(False, description="Very high or low temperature (7-B36).")


class IskraSetLocation(Move):
    type: Literal["set_location"]
    character_ids: list[Id] = Field(min_length=1, max_length=50, description="Who moves.")
    location_id: Id = Field(description="Where to.")


class IskraRevealEther(Move):
    type: Literal["reveal_ether"]
    location_id: Id = Field(description="The location sensed.")
    character_id: Id = Field(description="A Human using Zmysł Eteru (L207).")


class IskraApproveCharacter(Move):
    type: Literal["approve_character"]
    character_id: Id = Field(description="The sheet approved (7-B2).")


class IskraEditCharacter(Move):
    type: Literal["edit_character"]
    character_id: Id = Field(description="The sheet edited.")
    attributes: dict[Attribute, int] | None = Field(None, description="Attributes to set, 0–5.")
    predispositions: list[Trait] | None = Field(None, max_length=10, description="Replaces the list (7-B21).")
    weaknesses: list[Trait] | None = Field(None, max_length=10, description="Replaces the list (7-B21).")
    health_max: int | None = Field(None, ge=1, le=50, description="NPC only (7-B48).")
    recovery_enabled: bool | None = Field(None, description="NPC only: daily recovery tests (7-B29).")
    concept: Concept | None = Field(None, description="Replaces the concept.")


class IskraGmNote(Move):
    type: Literal["gm_note"]
    text: Text = Field(description="The note.")
    visible_to_players: bool = Field(True, description="false: GM log only.")


GM_ACTIONS = (
    IskraOpenTest,
    IskraAdjustTest,
    IskraApproveFocus,
    IskraRejectFocus,
    IskraCriticalNote,
    IskraSetWounds,
    IskraDealDamage,
    IskraStartCombat,
    IskraJoinCombat,
    IskraRemoveParticipant,
    IskraEndCombat,
    IskraTriggerReady,
    IskraStartSession,
    IskraEndSession,
    IskraAwardAdversity,
    IskraAwardGlory,
    IskraAdvanceTime,
    IskraRestStart,
    IskraRestInterrupted,
    IskraRestoreFocus,
    IskraRestoreHealth,
    IskraDefineLocation,
    IskraSetLocation,
    IskraRevealEther,
    IskraApproveCharacter,
    IskraEditCharacter,
    IskraGmNote,
)
