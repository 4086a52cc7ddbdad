"""Moves a player may send for their own character (the GM may send them too)."""

from typing import ClassVar, Literal

from pydantic import Field

from service.rules.stepdice.fields import (
    Attribute,
    BaseTn,
    Cover,
    Id,
    Label,
    Move,
    RollFields,
    Sender,
    StepDicePosition,
    Text,
    Tier,
)


class StepDiceTest(RollFields):
    """An attribute test (seed §3.2): one die of the attribute against the TN."""

    type: Literal["test"]
    attribute: Attribute = Field(description="The attribute the GM chose (S, Z or M).")
    base_tn: BaseTn = Field(description="4 easy, 6 normal, 8 hard, 12 heroic (seed §3.3).")
    helper_ids: list[Id] = Field(
        default_factory=list,
        max_length=4,
        description="Out of combat only: allies whose help steps the die up one size "
        "each (seed §3.6). In combat, help is the `help` action.",
    )
    repeat_justification: Text | None = Field(
        None, description="Why repeating a failed test is allowed (seed §3.7); recorded with the warning."
    )


class StepDiceAttack(RollFields):
    """A melee (S), ranged (Z) or spell (M) attack on an enemy at its TN (seed §5.4, spec 7-A2)."""

    type: Literal["attack"]
    target_enemy_id: Id = Field(description="The enemy attacked.")
    attack_type: Literal["melee", "ranged", "spell"] = Field(
        description="melee: Strength, target on a neighbouring square; ranged: Dexterity; spell: Magic, paying "
        "the tier's Mana (seed §5.4)."
    )
    cover: Cover = Field(
        "none",
        description="The target's cover against a ranged or spell attack: partial is "
        "one step harder, full cannot be hit (seed §4.3).",
    )
    attacker_cover: Cover = Field(
        "none",
        description="The attacker's cover from the target; sets the default "
        "'could reach' answer for retaliation (seed §5.6).",
    )
    minion_pressure: Literal["none", "step", "extra_complication"] = Field(
        "none",
        description="Several minions in melee with the attacker (seed §5.8): one step harder, or a failure "
        "brings an extra complication. The GM picks one.",
    )
    tier: Tier | None = Field(
        None,
        description="Spell attacks: the effect tier setting the Mana cost (default standard, a missile; seed §6.3).",
    )
    mana_cost: int | None = Field(
        None,
        ge=0,
        le=5,
        description="Spell attacks: Mana paid before the roll; default the tier's cost. Other costs are GM-only.",
    )
    tn: BaseTn | None = Field(None, description="Spell attacks, GM-only: a TN other than the target's (7-A18).")


class StepDiceCast(RollFields):
    """Magic that is not an attack (seed §6.2): Mana is paid before the roll and lost on failure."""

    type: Literal["cast"]
    tier: Tier = Field(
        description="trick TN 4 cost 0–1, standard TN 6 cost 1, strong TN 8 cost 2, "
        "great_power TN 12 cost 3 (seed §6.3)."
    )
    mana_cost: int | None = Field(
        None, ge=0, le=5, description="Default: the tier's cost (a trick costs 0). Other costs are GM-only (seed §6.2)."
    )
    tn: BaseTn | None = Field(None, description="GM-only: a TN other than the tier's.")
    helper_ids: list[Id] = Field(
        default_factory=list, max_length=4, description="Out of combat only: helpers stepping the die up (seed §3.6)."
    )
    heal_target_id: Id | None = Field(
        None,
        description="A healing spell: on success this character gains "
        "`heal_amount` Hearts and stands up if downed (7-A32).",
    )
    heal_amount: int = Field(
        2,
        ge=1,
        le=7,
        description="Hearts healed; the strong tier heals 2 (seed §6.3). Other amounts or tiers are GM-only.",
    )
    move_to: StepDicePosition | None = Field(
        None, description="A jump: on success the caster moves here, at most 5 squares away (seed §6.3 standard)."
    )


class StepDiceHelp(Move):
    """In combat, in the helper's turn: spend the Action to give the target a help token (seed §3.6, 7-A12)."""

    sender: ClassVar[Sender] = "owner"
    type: Literal["help"]
    character_id: Id = Field(description="The helper, whose turn is open.")
    target_character_id: Id = Field(description="The ally whose next test this phase is helped.")
    description: Text = Field(description="How the help works: covering, tools, distraction, steadying, advice.")


class StepDiceRaise(Move):
    """Put a downed ally back on their feet with 1 Heart; in combat it takes the Action (seed §7.2)."""

    sender: ClassVar[Sender] = "owner"
    type: Literal["raise"]
    character_id: Id = Field(description="The character who helps the ally up.")
    target_character_id: Id = Field(description="The downed ally.")


class StepDiceUseEquipment(Move):
    """Use a piece of equipment: a permission, never a bonus (seed L80); in combat it takes the Action."""

    sender: ClassVar[Sender] = "owner"
    type: Literal["use_equipment"]
    character_id: Id = Field(description="The character using it.")
    item: Label = Field(description="The item used.")
    description: Text | None = Field(None, description="What it does.")


class StepDiceMove(Move):
    """Move square by square, diagonals count 1, up to 5 per turn, before and/or after the Action (§4.1–4.2)."""

    sender: ClassVar[Sender] = "owner"
    type: Literal["move"]
    character_id: Id = Field(description="The character whose turn is open.")
    path: list[StepDicePosition] = Field(
        min_length=1, max_length=5, description="Each square entered, in order; each adjacent to the last."
    )


class StepDiceBeginTurn(Move):
    """Open this character's turn in the player phase; PCs act in any order (seed §5.2)."""

    sender: ClassVar[Sender] = "owner"
    type: Literal["begin_turn"]
    character_id: Id = Field(description="An active PC of the encounter that has not had its turn this round.")


class StepDiceEndTurn(Move):
    sender: ClassVar[Sender] = "owner"
    type: Literal["end_turn"]
    character_id: Id = Field(description="The character whose turn is open.")


class StepDiceChooseBenefit(Move):
    """After an exceptional success: the one extra benefit (seed §3.4, §5.5, §6.4)."""

    sender: ClassVar[Sender] = "owner"
    type: Literal["choose_benefit"]
    pending_id: Id | None = Field(None, description="The pending choice (its test id); checked when given.")
    option: Literal["extra_wound", "narrative_bonus", "bigger_scale", "refund_mana", "extra_benefit"] = Field(
        description="extra_wound: 2 Wounds on an elite or boss; narrative_bonus: hit plus push, disarm or position; "
        "bigger_scale, refund_mana (1 Mana back), extra_benefit: magic (§6.4); extra_benefit: any test."
    )
    text: Text | None = Field(
        None, description="The benefit as narrated; required except for extra_wound and refund_mana."
    )


class StepDiceChooseArmor(Move):
    """Spend the Armor token instead of losing a Heart, or keep it (seed §11.1, spec 7-A26)."""

    sender: ClassVar[Sender] = "owner"
    type: Literal["choose_armor"]
    pending_id: Id | None = Field(None, description="The pending choice; checked when given.")
    use_armor: bool = Field(
        description="true: the token is spent and no Heart is lost; false: lose the Heart "
        "and keep the token for this scene."
    )


class StepDiceAdvance(Move):
    """Spend one granted advancement on one choice (seed §8, §9.5)."""

    sender: ClassVar[Sender] = "owner"
    type: Literal["advance"]
    character_id: Id = Field(description="The character spending a granted advancement.")
    choice: Literal["step_die", "heart", "mana"] = Field(
        description="step_die: one attribute one size up (d20 max; in the d6-only variant one proficiency level, "
        "master max); heart: +1 Heart (max 7); mana: +1 Mana (max 5)."
    )
    attribute: Attribute | None = Field(None, description="Required for step_die.")


PLAYER_ACTIONS = (
    StepDiceTest,
    StepDiceAttack,
    StepDiceCast,
    StepDiceHelp,
    StepDiceRaise,
    StepDiceUseEquipment,
    StepDiceMove,
    StepDiceBeginTurn,
    StepDiceEndTurn,
    StepDiceChooseBenefit,
    StepDiceChooseArmor,
    StepDiceAdvance,
)
