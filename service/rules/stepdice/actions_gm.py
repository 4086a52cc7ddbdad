"""Moves only the GM may send: scenes, encounters, enemies, clocks, rest, grants and rulings."""

from typing import ClassVar, Literal

from pydantic import Field

from service.rules.stepdice.fields import (
    Attribute,
    BaseTn,
    Id,
    Label,
    Move,
    RollFields,
    Sender,
    StepDicePosition,
    Text,
)


class StepDiceCallTest(RollFields):
    """Enemy phase: a PC test to avoid harm (spec 4.8.7). It takes no Action; on failure the GM applies the
    stated consequence, e.g. with `enemy_hit`."""

    sender: ClassVar[Sender] = "gm"
    type: Literal["call_test"]
    attribute: Attribute = Field(description="The attribute the GM chose.")
    base_tn: BaseTn = Field(description="4 easy, 6 normal, 8 hard, 12 heroic.")
    consequence_on_failure: Text | None = Field(None, description="What a failure will cost, as announced.")


class StepDiceAutoSuccess(Move):
    """Record a success without a roll: the outcome is not uncertain or the stakes are not real (seed §3.1)."""

    type: Literal["auto_success"]
    character_id: Id = Field(description="The character who succeeds.")
    intent: Text = Field(description="What succeeds.")
    uses_action: bool = Field(
        False, description="In combat: the declared action still takes the character's Action this turn."
    )


class StepDiceResolveRetaliation(Move):
    """After a failed attack: does the enemy strike back (seed §5.6, spec 4.8.5)."""

    type: Literal["resolve_retaliation"]
    pending_id: Id | None = Field(None, description="The pending choice (its test id); checked when given.")
    could_reach: bool | None = Field(
        None,
        description="Could the enemy realistically reach the attacker; "
        "omitted: the spec's default for the attack (7-A17).",
    )
    substitute_complication: Text | None = Field(
        None, description="Another logical complication instead of the Heart loss (allow_retaliation_substitution)."
    )
    complication: Text | None = Field(
        None,
        description="What else gets worse: required on a natural 1, a "
        "failed spell, or with minion_pressure extra_complication.",
    )


class StepDiceRecordConsequence(Move):
    """The complication of a natural 1, or the minor consequence of a failed spell (seed §3.4, §6.2)."""

    type: Literal["record_consequence"]
    pending_id: Id | None = Field(None, description="The pending choice; checked when given.")
    text: Text = Field(description="The complication or consequence as it happens in the story.")


class StepDiceGmNote(Move):
    """A ruling or narration, e.g. the optional consequence of a plain failure (7-A13) or an enemy action."""

    type: Literal["gm_note"]
    text: Text = Field(description="The note.")
    test_id: Id | None = Field(None, description="The test the note belongs to.")
    visible_to_players: bool = Field(True, description="false keeps the note in the GM's log only.")


class StepDiceHarm(Move):
    """A complication or blow that costs exactly 1 Heart outside the enemy phase (spec 3.5, 4.10)."""

    type: Literal["harm"]
    character_id: Id = Field(description="The character who loses 1 Heart.")
    description: Text | None = Field(None, description="What hurts them.")


class StepDiceStartScene(Move):
    """Start a scene (7-A27): the previous one ends, Armor tokens refresh (§11.1)."""

    type: Literal["start_scene"]
    kind: Literal["narrative", "combat"] = Field("narrative", description="What kind of scene this is.")
    label: Label | None = Field(None, description="A name for the scene.")


class StepDiceEndScene(Move):
    type: Literal["end_scene"]


class StepDiceCreateEncounter(Move):
    """Open a combat encounter in setup (spec 5.2)."""

    type: Literal["create_encounter"]
    label: Label | None = Field(None, description="A name for the fight.")
    new_scene: bool = Field(
        True,
        description="Start a new combat scene for it (7-A27: combat encounters are "
        "scenes); false keeps the current scene and its clocks.",
    )


class StepDiceAddCharacter(Move):
    type: Literal["add_character"]
    character_id: Id = Field(description="A PC joining the encounter.")
    position: StepDicePosition | None = Field(None, description="Where it stands (grid only).")


class StepDiceAddEnemy(Move):
    """An enemy with its TN and Wounds by kind: minion 6/1, elite 8/2, boss 12/3 (seed §5.4–5.5)."""

    type: Literal["add_enemy"]
    enemy_id: Id | None = Field(None, description="Default: generated (e1, e2, …).")
    name: Label = Field(description="What the table calls it.")
    kind: Literal["minion", "elite", "boss"] = Field(
        description="minion TN 6 / 1 hit; elite TN 8 / 2 Wounds (use_elites); boss TN 12 / 3 Wounds."
    )
    tn: BaseTn | None = Field(None, description="Override of the kind's TN, logged as a deviation (7-A22).")
    wounds_max: int | None = Field(None, ge=1, le=20, description="Override of the kind's Wounds, logged (7-A22).")
    position: StepDicePosition | None = Field(None, description="Where it stands (grid only).")
    revealed: bool = Field(False, description="Players see kind and TN (else only after they attack it).")
    wounds_revealed: bool = Field(False, description="Players see the Wounds of an elite or boss.")
    position_revealed: bool = Field(True, description="Players see where it stands.")


class StepDiceRevealEnemy(Move):
    type: Literal["reveal_enemy"]
    enemy_id: Id = Field(description="The enemy to reveal to players.")
    identity: bool = Field(True, description="Reveal kind and TN.")
    wounds: bool = Field(False, description="Reveal Wounds taken and maximum.")
    position: bool = Field(False, description="Reveal the position.")


class StepDiceSetPosition(Move):
    """Place or relocate a combatant without spending movement: setup, crawling (7-A23), GM rulings."""

    type: Literal["set_position"]
    combatant_id: Id = Field(description="A PC or enemy of the encounter.")
    position: StepDicePosition | None = Field(description="The new square, or null to take it off the grid.")


class StepDiceStartEncounter(Move):
    type: Literal["start_encounter"]


class StepDiceEndPlayerPhase(Move):
    """Force the player phase to end; unused help tokens expire (spec 5.2)."""

    type: Literal["end_player_phase"]


class StepDiceEnemyMove(Move):
    type: Literal["enemy_move"]
    enemy_id: Id = Field(description="The active enemy that moves.")
    to: StepDicePosition = Field(description="Where it ends up (not validated, 7-A15).")
    description: Text | None = Field(None, description="How it moves.")


class StepDiceEnemyHit(Move):
    """Enemy phase: an enemy's blow costs the PC 1 Heart unless Armor absorbs it (seed §5.5 v1, 7-A14)."""

    type: Literal["enemy_hit"]
    enemy_id: Id = Field(description="The active enemy that strikes.")
    character_id: Id = Field(description="The PC it hits.")
    description: Text | None = Field(None, description="The blow as narrated.")


class StepDiceEndEnemyPhase(Move):
    type: Literal["end_enemy_phase"]


class StepDiceEndEncounter(Move):
    type: Literal["end_encounter"]
    outcome: Literal["victory", "defeat", "ended_by_gm"] = Field(
        description="The GM's call; the state carries the server's suggestion (7-A47). Retreat or parley: ended_by_gm."
    )


class StepDiceRest(Move):
    """A safe rest after a scene: full Hearts and Mana for every non-dead PC present (seed §7.3)."""

    type: Literal["rest"]
    character_ids: list[Id] | None = Field(None, max_length=50, description="Who rests; default every character.")


class StepDiceCreateClock(Move):
    """A time-pressure clock for the current scene (seed §11.2)."""

    type: Literal["create_clock"]
    label: Label = Field(description="What the clock measures.")
    length: int = Field(3, ge=1, le=20, description="Failures until it triggers (seed §11.2: e.g. 3).")
    consequence: Text = Field(description="What happens when it triggers: alarm, escape, collapse.")
    visible_to_players: bool = Field(False, description="Hidden from players by default (spec 8).")


class StepDiceAdvanceClock(Move):
    type: Literal["advance_clock"]
    clock_id: Id = Field(description="A running clock.")
    by: int = Field(1, ge=1, le=20, description="Steps to add.")
    reason: Text | None = Field(None, description="Why, e.g. a GM complication.")


class StepDiceCancelClock(Move):
    type: Literal["cancel_clock"]
    clock_id: Id = Field(description="A running clock.")


class StepDiceGrantAdvancement(Move):
    """End of an adventure or a milestone: one advancement each (seed §8, 7-A31)."""

    type: Literal["grant_advancement"]
    character_ids: list[Id] = Field(min_length=1, max_length=50, description="Who advances.")
    reason: Literal["adventure_end", "milestone"] = Field("milestone", description="Why (seed §8).")


class StepDiceDiscardAdvancement(Move):
    """Drop a grant when every option is capped (7-A30)."""

    type: Literal["discard_advancement"]
    character_id: Id = Field(description="A character whose every option is capped.")


GM_ACTIONS = (
    StepDiceCallTest,
    StepDiceAutoSuccess,
    StepDiceResolveRetaliation,
    StepDiceRecordConsequence,
    StepDiceGmNote,
    StepDiceHarm,
    StepDiceStartScene,
    StepDiceEndScene,
    StepDiceCreateEncounter,
    StepDiceAddCharacter,
    StepDiceAddEnemy,
    StepDiceRevealEnemy,
    StepDiceSetPosition,
    StepDiceStartEncounter,
    StepDiceEndPlayerPhase,
    StepDiceEnemyMove,
    StepDiceEnemyHit,
    StepDiceEndEnemyPhase,
    StepDiceEndEncounter,
    StepDiceRest,
    StepDiceCreateClock,
    StepDiceAdvanceClock,
    StepDiceCancelClock,
    StepDiceGrantAdvancement,
    StepDiceDiscardAdvancement,
)
