"""Moves made for one character: by its player, or by the GM (who controls every character)."""

from typing import ClassVar, Literal

from pydantic import Field

from service.rules.trikus.fields import Id, Move, OwnMove, Sender, SideInput, Text


class Extras(OwnMove):
    morale: int = Field(0, ge=0, le=99, description="Morale dice committed, +1d10 each (L222); spent now.")
    light: int = Field(0, ge=0, le=99, description="Light tokens spent as dice, +1d10 each (L266–L270).")
    boost: bool = Field(False, description="+2d10; a failure brings a dark token and a Catastrophe (L230–L234).")
    item_ids: list[Id] = Field(default_factory=list, max_length=10, description="Items used (adv_equipment).")


class Join(Extras):
    """Join the open test (line + extras) or combat (line + allies; extras come per round)."""

    type: Literal["join"]
    line_index: int | None = Field(
        None, ge=0, le=2, description="The free line crossed (L60); null only when no line is free (A12)."
    )
    allies: int = Field(0, ge=0, le=20, description="Combat only: +1d10 per ally, kept between rounds (L180).")


class BadFeeling(OwnMove):
    """ "I have a bad feeling about this": sit the test out; the GM decides the effect (L76–L86)."""

    type: Literal["bad_feeling"]
    description: Text = Field(description="What the character does.")
    intent: Text = Field(description="What the character wants to achieve.")


class DeclareRound(Extras):
    """A combat round's pool: line and ally dice plus this round's extras (L180, spec 4.8 step 1)."""

    type: Literal["declare_round"]


class Boost(OwnMove):
    """Add boost to a pool that is still being formed; never during a test (L230)."""

    type: Literal["boost"]


class CommitMorale(OwnMove):
    """Add morale dice to a pool that is still being formed; never during a test (A13)."""

    type: Literal["commit_morale"]
    count: int = Field(1, ge=1, le=99, description="Morale dice added to the pool being formed.")


class SpendLightDie(OwnMove):
    """Spend light tokens as extra dice at any moment of a test (L280)."""

    type: Literal["spend_light_die"]
    count: int = Field(1, ge=1, le=99, description="Light tokens spent, one die each (L268).")


class PassLastChance(OwnMove):
    """Decline to spend a light token before losing the pair for lack of dice (A13)."""

    type: Literal["pass_last_chance"]


class Throw(Move):
    """Throw one die: a wave throw, a negotiation re-throw, or a combat-difficulty roll. Without
    character_id it is the GM's die."""

    sender: ClassVar[Sender] = "any"
    type: Literal["throw"]
    character_id: Id | None = Field(None, description="The throwing character; null for the GM.")
    target_character_id: Id | None = Field(
        None, description="GM combat-difficulty roll: the failing player it is against (checked when given)."
    )


class Escape(OwnMove):
    """Withdraw from the test while holding an unthrown die; a dark token follows (L324)."""

    type: Literal["escape"]


class ProposeNegotiation(OwnMove):
    """Ask the opponent to re-throw the die that set your target (L346)."""

    type: Literal["propose_negotiation"]


class AnswerNegotiation(Move):
    """Accept or refuse a proposed negotiation: the GM, or in PvP the opponent (spec 4.18)."""

    sender: ClassVar[Sender] = "any"
    type: Literal["answer_negotiation"]
    accept: bool = Field(description="True: the die is re-thrown and its new face is the target (L346).")
    character_id: Id | None = Field(None, description="PvP only: the answering character.")


class ClaimBoom(OwnMove):
    """Three equal faces on the table: stop the test and narrate the surprise (L356)."""

    type: Literal["claim_boom"]
    value: int = Field(ge=1, le=10, description="The face shown by three dice of this test or round.")
    text: Text = Field(description="The narration the claimer takes over with.")


class KeepSuccess(OwnMove):
    """Team test: keep your success (L170)."""

    type: Literal["keep_success"]


class GiveUpSuccess(OwnMove):
    """Team test: give up your success to cancel a companion's failure (L152)."""

    type: Literal["give_up_success"]
    target_character_id: Id = Field(description="The failing companion whose failure is cancelled.")


class Attack(OwnMove):
    """Team combat: use your round success to take a die from the GM (L192)."""

    type: Literal["attack"]


class Defend(OwnMove):
    """Team combat: use your round success to protect a failing companion (L192)."""

    type: Literal["defend"]
    target_character_id: Id = Field(description="The failing companion protected this round.")


class ChooseLostLine(OwnMove):
    """A Catastrophe with more than one candidate line: the player picks it (A17)."""

    type: Literal["choose_lost_line"]
    line_index: int = Field(ge=0, le=2, description="One of the candidate lines offered (A17).")


class LightTokenFact(OwnMove):
    """Spend a light token to state a helpful fact (L272); recorded, no dice."""

    type: Literal["light_token_fact"]
    text: Text = Field(description="The fact the player states (L272).")


class AcknowledgeDarkSide(OwnMove):
    """After the GM spent a dark token: which dark side the character acts out (L286, A37)."""

    type: Literal["acknowledge_dark_side"]
    side_index: int = Field(ge=0, le=2, description="Which of the character's dark sides was acted out.")
    text: Text | None = Field(None, description="How it was played.")


class SetSides(OwnMove):
    """After a promotion: the sides for the new tier (L246; optional rule 1 for a new Master)."""

    type: Literal["set_sides"]
    light_sides: list[SideInput] = Field(max_length=3, description="The new tier's light sides (L248–L252).")
    dark_sides: list[SideInput] = Field(max_length=3, description="The new tier's dark sides (L248–L252).")


class Narrate(Move):
    """Narration that goes with a throw or a scene (L112); recorded only."""

    sender: ClassVar[Sender] = "any"
    type: Literal["narrate"]
    text: Text = Field(description="What happens.")
    character_id: Id | None = Field(None, description="The character narrating, if any.")


PLAYER_ACTIONS = (
    Join,
    BadFeeling,
    DeclareRound,
    Boost,
    CommitMorale,
    SpendLightDie,
    PassLastChance,
    Throw,
    Escape,
    ProposeNegotiation,
    AnswerNegotiation,
    ClaimBoom,
    KeepSuccess,
    GiveUpSuccess,
    Attack,
    Defend,
    ChooseLostLine,
    LightTokenFact,
    AcknowledgeDarkSide,
    SetSides,
    Narrate,
)
