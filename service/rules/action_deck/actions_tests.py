"""Trait tests, opposed and group tests, hazards, damage, and their follow-ups (spec §4.2–§4.9, §5.5, §5.6)."""

from typing import Any, ClassVar, Literal

from pydantic import Field

from service.rules.action_deck.fields import (
    BENNY_SOURCE,
    ActionDeckModifier,
    ActionDeckSegment,
    BennySource,
    Id,
    Label,
    Move,
    PlainDie,
    Sender,
    TraitName,
)

# Any: pydantic types a Field by its default; each field's own annotation says what it holds.
GM_MODS: Any = Field(default_factory=list, max_length=10, description="GM only: situational modifiers (seed 1.4).")


class ActionDeckTraitTest(Move):
    """Roll a trait: the trait die (+ the Wild Die for Wild Cards), aces, raises, critical failures."""

    sender: ClassVar[Sender] = "owner"
    type: Literal["trait_test"]
    character_id: Id
    trait: TraitName = Field(description="Attribute or skill; a skill the sheet lacks is improvised (d4 −2).")
    tn: int | None = Field(None, ge=1, le=30, description="GM only: a TN other than the standard 4 (B25).")
    modifiers: list[ActionDeckModifier] = GM_MODS
    dice_count: int = Field(
        1,
        ge=1,
        le=6,
        description="Several trait dice (RoF, Frenzy); above 1 needs a weapon with that rate of fire, or the GM.",
    )
    weapon: Label | None = Field(None, description="The weapon used (rate of fire; links damage to this attack).")
    action_index: int | None = Field(
        None, ge=0, le=9, description="In the character's own turn: the declared action this test is."
    )
    free_action: bool = Field(
        False,
        description="In the own turn: a test inside a free action (no multi-action "
        "penalty; the running penalty still applies, B19).",
    )
    crit_check: bool = Field(
        False, description="GM only: an Extra's natural 1 must be checked for a critical failure (seed 1.4, B28)."
    )
    no_unskilled: bool = Field(False, description="GM only: this cannot be improvised (seed 1.4).")


class ActionDeckOpposedTest(Move):
    """The active party rolls first (with any rerolls) and needs TN 4; the defender then rolls (seed 1.4)."""

    sender: ClassVar[Sender] = "owner"
    type: Literal["opposed_test"]
    character_id: Id = Field(description="The active party.")
    trait: TraitName
    defender_id: Id
    defender_trait: TraitName
    modifiers: list[ActionDeckModifier] = GM_MODS
    defender_modifiers: list[ActionDeckModifier] = GM_MODS
    action_index: int | None = Field(None, ge=0, le=9)
    free_action: bool = False


class ActionDeckDefend(Move):
    """The defender's roll; it locks the active party's result (§4.7)."""

    sender: ClassVar[Sender] = "owner"
    type: Literal["defend"]
    opposed_id: Id


class ActionDeckGroupTest(Move):
    """One trait die and one Wild Die for a group of similar Extras; the result is everyone's (seed 1.4)."""

    type: Literal["group_test"]
    leader_id: Id = Field(description="Whose trait die is rolled.")
    member_ids: list[Id] = Field(min_length=1, max_length=60)
    trait: TraitName
    tn: int | None = Field(None, ge=1, le=30)
    modifiers: list[ActionDeckModifier] = GM_MODS


class ActionDeckHazardTest(Move):
    """A dangerous move: Athletics; success moves, failure does not, critical failure has a consequence (B22)."""

    type: Literal["hazard_test"]
    character_id: Id
    segments: list[ActionDeckSegment] = Field(min_length=1, max_length=20)
    modifiers: list[ActionDeckModifier] = GM_MODS
    critical_consequence: Literal["fatigue", "fall", "no_breath"] | None = Field(
        None, description="Default from the move: climbing → fall, swimming → no_breath, else fatigue."
    )


class ActionDeckDamageRoll(Move):
    """Damage: weapon dice ace, +2 with a Joker, the weapon's raise bonus after an attack with a raise."""

    sender: ClassVar[Sender] = "owner"
    type: Literal["damage_roll"]
    character_id: Id
    weapon: Label | None = Field(None, description="Whose damage dice to roll; required from players.")
    dice: list[PlainDie] | None = Field(None, max_length=10, description="GM only: dice without a weapon.")
    bonus: int = Field(0, ge=-20, le=40, description="GM only: flat bonus.")
    attack_test_id: Id | None = Field(None, description="The attack; a miss has no damage, a raise adds.")
    hit_index: int = Field(0, ge=0, le=5, description="Which die of a multi-die attack this hit is.")
    raise_bonus: int | None = Field(None, ge=0, le=40, description="GM only: overrides the weapon's raise bonus.")


class ActionDeckReroll(Move):
    """Reroll every die of an open test or damage roll; the better result counts (seed 1.4, 1.6)."""

    sender: ClassVar[Sender] = "owner"
    type: Literal["reroll"]
    test_id: Id
    paid_by: Literal["benny", "ability"] = "benny"
    benny_source: BennySource = BENNY_SOURCE
    ability: Label | None = Field(None, description="GM only, with paid_by=ability: the Edge or ability.")


class ActionDeckAcceptTest(Move):
    """Accept the result (§5.5); also happens on the roller's next unrelated move."""

    sender: ClassVar[Sender] = "owner"
    type: Literal["accept_test"]
    test_id: Id
    keep_attempt: int | None = Field(
        None, ge=0, le=50, description="Several dice: which complete attempt to keep (B30); default the best."
    )


class ActionDeckChooseWildSubstitution(Move):
    """Which trait die the Wild Die replaces, or none (seed 1.5, B27)."""

    sender: ClassVar[Sender] = "owner"
    type: Literal["choose_wild_substitution"]
    test_id: Id
    index: int | None = Field(None, ge=0, le=5, description="Trait die index, or null to ignore the Wild Die.")


TEST_ACTIONS = (
    ActionDeckTraitTest,
    ActionDeckOpposedTest,
    ActionDeckDefend,
    ActionDeckGroupTest,
    ActionDeckHazardTest,
    ActionDeckDamageRoll,
    ActionDeckReroll,
    ActionDeckAcceptTest,
    ActionDeckChooseWildSubstitution,
)
