"""Moves a player may send for their own character (the GM may send them too)."""

from typing import Literal

from pydantic import Field, field_validator

from service.rules.iskra.fields import Attribute, Distance, Id, Label, OwnerMove, Text

TestId = Field(None, description="The open test; checked when given (there is only one).")
DamageId = Field(None, description="The pending damage; checked when given.")


class IskraRoll(OwnerMove):
    """Throw the d10 of the open test (spec 4.2 phase B)."""

    type: Literal["roll"]
    test_id: Id | None = TestId


class IskraAcceptTest(OwnerMove):
    """Finalize the open test (spec 4.2 phase D); before the roll only when S ≥ 9 or S < 0."""

    type: Literal["accept_test"]
    test_id: Id | None = TestId


class IskraReroll(OwnerMove):
    """Spend PS to throw the test again, once per test; the second result binds (L74, 7-B3)."""

    type: Literal["reroll"]
    test_id: Id | None = TestId
    description: Text = Field(description="How it happens in the story (L78).")


class IskraFocusAdjust(OwnerMove):
    """Spend |amount| PS to add or subtract that much on one's own test (L75, 7-B4, 7-B6)."""

    type: Literal["focus_adjust"]
    test_id: Id | None = TestId
    amount: int = Field(
        ge=-10, le=10, description="Signed, not 0: +2 costs 2 PS and adds 2.", json_schema_extra={"not": {"const": 0}}
    )
    description: Text = Field(description="How it happens in the story (L78).")

    @field_validator("amount")
    @classmethod
    def _nonzero(cls, v: int) -> int:
        if v == 0:
            raise ValueError("spend at least 1 PS")
        return v


class IskraUseGlory(OwnerMove):
    """Add Glory to an influence, intimidation or persuasion test (L120)."""

    type: Literal["use_glory"]
    test_id: Id | None = TestId


class IskraDodge(OwnerMove):
    """The target's Dodge decision (L181): none, dodge (falls prone), or dodge_stay_standing (−2)."""

    type: Literal["dodge"]
    damage_id: Id | None = DamageId
    choice: Literal["none", "dodge", "dodge_stay_standing"] = Field(description="The Reaction chosen.")


class IskraReduceDamage(OwnerMove):
    """Spend PS to take 1 Wound less each, down to zero (L76)."""

    type: Literal["reduce_damage"]
    damage_id: Id | None = DamageId
    amount: int = Field(ge=1, le=20, description="PS to spend = Wounds avoided.")
    description: Text = Field(description="How it happens in the story (L78).")


class IskraAcceptDamage(OwnerMove):
    """Take the incoming Wounds as they stand (spec 5.2 focus_window → applied)."""

    type: Literal["accept_damage"]
    damage_id: Id | None = DamageId


class IskraAttack(OwnerMove):
    """Melee (Strength) or ranged (Dexterity) attack; success deals the weapon's Wounds (L163–L164)."""

    type: Literal["attack"]
    character_id: Id = Field(description="The attacker.")
    target_id: Id = Field(description="A character, or a hazard participant of the combat.")
    mode: Literal["melee", "ranged"] = Field(description="melee: Test Si at reach; ranged: Test Zr.")
    item_id: Id | None = Field(None, description="The weapon used; its GM-set Wounds apply.")
    wounds: int | None = Field(None, ge=0, le=20, description="GM-only: the Wounds dealt when no item says.")
    critical_bonus_wounds: int = Field(
        0, ge=0, le=5, description="GM-only: extra Wounds on a critical success (L30, 7-B33)."
    )
    offhand: bool = Field(False, description="Off-hand attack as a Minor Action (Oburęczność, L293).")
    distance: Distance = Field("reach", description="Distance category to the target (§2.3).")
    intent: Text | None = Field(None, description="What the attacker does.")


class IskraHelp(OwnerMove):
    """Help another's test, +2 once however many help (L165): in combat a Major giving a token."""

    type: Literal["help"]
    character_id: Id = Field(description="The helper.")
    beneficiary_id: Id = Field(description="The character whose test is helped.")
    description: Text = Field(description="How they help (required by L165).")


class IskraStandUp(OwnerMove):
    """Get up from prone; a Major Action in combat (L166)."""

    type: Literal["stand_up"]
    character_id: Id = Field(description="The prone character.")


class IskraReady(OwnerMove):
    """Hold a Major or Minor Action until a condition is met (L167); costs the Major."""

    type: Literal["ready"]
    character_id: Id = Field(description="The readying character, in their turn.")
    held_action: Literal["melee_attack", "ranged_attack", "help", "use_item", "draw_item", "interact", "other"] = Field(
        description="The action held back."
    )
    held_type: Literal["major", "minor"] = Field("major", description="Only for held_action other.")
    target_id: Id | None = Field(None, description="The target of an attack or the beneficiary of help.")
    item_id: Id | None = Field(None, description="The weapon or item to use.")
    description: Text = Field(description="What will be done.")
    trigger_text: Text = Field(description="The condition, e.g. 'if he approaches me' (GM-only until it fires).")


class IskraUseReady(OwnerMove):
    """After the GM triggers a Ready: act now as a Reaction, or not (L170 'może, nie musi')."""

    type: Literal["use_ready"]
    character_id: Id = Field(description="The readied character.")
    execute: bool = Field(description="true: do the held action, spending a Reaction.")


class IskraConvertMajor(OwnerMove):
    """Give up this turn's Major Action for a second Minor (L141)."""

    type: Literal["convert_major"]
    character_id: Id = Field(description="The character whose turn it is.")


class IskraMinorAction(OwnerMove):
    """Use, draw or interact (L171–L175)."""

    type: Literal["minor_action"]
    character_id: Id = Field(description="The acting character.")
    kind: Literal["use_item", "draw_item", "interact"] = Field(description="Which Minor Action.")
    item_id: Id | None = Field(None, description="The item involved.")
    consume: bool = Field(False, description="The item is used up (e.g. a drunk bottle).")
    description: Text = Field(description="What happens.")


class IskraPassingAction(OwnerMove):
    """Something done alongside other actions: running, speaking (L143)."""

    type: Literal["passing_action"]
    character_id: Id = Field(description="The acting character.")
    description: Text = Field(description="What happens.")


class IskraEndTurn(OwnerMove):
    type: Literal["end_turn"]
    participant_id: Id = Field(description="The participant whose turn ends (hazards: GM only).")


class IskraRecoveryTest(OwnerMove):
    """Today's Strength test to regain 1 Health outside a Safe Place (L68)."""

    type: Literal["recovery_test"]
    character_id: Id = Field(description="The recovering character.")


class IskraBuy(OwnerMove):
    """Spend XP between sessions (L100–L103)."""

    type: Literal["buy"]
    character_id: Id = Field(description="The buyer.")
    purchase: Literal["ability", "focus_max", "attribute"] = Field(description="10, 15 or 20 XP.")
    ability_id: Id | None = Field(None, description="For ability.")
    level: int = Field(1, ge=1, le=10, description="For ability: the level bought (in order, 7-B19).")
    param: Label | None = Field(None, description="For repeatable abilities, e.g. the language.")
    attribute: Attribute | None = Field(None, description="For attribute.")


class IskraAddItem(OwnerMove):
    type: Literal["add_item"]
    character_id: Id = Field(description="Who gets it.")
    name: Label = Field(description="The item.")
    weight: int = Field(ge=0, le=100, description="Waga (§2.3); above 2 only as the GM rules.")
    carried: bool = Field(True, description="Carried items count toward the load.")
    wounds: int | None = Field(None, ge=0, le=20, description="GM-only: Wounds the weapon deals (7-B30).")
    protects_from_temperature: bool = Field(False, description="GM-only: negates Asrai Wrażliwość (L259).")


class IskraSetCarried(OwnerMove):
    type: Literal["set_carried"]
    character_id: Id = Field(description="The owner.")
    item_id: Id = Field(description="The item.")
    carried: bool = Field(description="Pick it up (true) or set it aside (false).")


class IskraDropItem(OwnerMove):
    type: Literal["drop_item"]
    character_id: Id = Field(description="The owner.")
    item_id: Id = Field(description="The item, removed from the sheet.")


class IskraTransferItem(OwnerMove):
    type: Literal["transfer_item"]
    character_id: Id = Field(description="The giver.")
    item_id: Id = Field(description="The item.")
    to_character_id: Id = Field(description="The receiver, who must be able to carry it (L134).")


class IskraUseResources(OwnerMove):
    """Record an activity that costs Resources; Efficiency halves it (L290)."""

    type: Literal["use_resources"]
    character_id: Id = Field(description="The acting character.")
    base_cost: int = Field(ge=0, le=1000, description="The cost without Efficiency.")
    description: Text = Field(description="The activity.")


PLAYER_ACTIONS = (
    IskraRoll,
    IskraAcceptTest,
    IskraReroll,
    IskraFocusAdjust,
    IskraUseGlory,
    IskraDodge,
    IskraReduceDamage,
    IskraAcceptDamage,
    IskraAttack,
    IskraHelp,
    IskraStandUp,
    IskraReady,
    IskraUseReady,
    IskraConvertMajor,
    IskraMinorAction,
    IskraPassingAction,
    IskraEndTurn,
    IskraRecoveryTest,
    IskraBuy,
    IskraAddItem,
    IskraSetCarried,
    IskraDropItem,
    IskraTransferItem,
    IskraUseResources,
)
