"""Encounters, the deck, the countdown, holds, interrupts and the turn (spec §4.10–§4.26, §5.2)."""

from typing import ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from service.rules.action_deck.fields import (
    BENNY_SOURCE,
    ActionDeckDeclaredAction,
    ActionDeckSegment,
    BennySource,
    Card,
    Id,
    Inches,
    Label,
    Move,
    Sender,
    Text,
)


class ActionDeckNoticeGrant(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    character_id: Id = Field(description="A surprise victim the GM lets test Notice (seed 1.2).")
    modifier: int = Field(0, ge=-20, le=20, description="The GM's modifier for the circumstances.")


class ActionDeckSurprise(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    attackers: list[Id] = Field(min_length=1, max_length=60, description="Dealt cards, but start on hold.")
    victims: list[Id] = Field(min_length=1, max_length=60, description="Act in round 1 only if they pass Notice.")
    notice: list[ActionDeckNoticeGrant] = Field(
        default_factory=list,
        max_length=60,
        description="Victims allowed a Notice test; the rest cannot act in round 1 (B17).",
    )


class ActionDeckStartEncounter(Move):
    """Open combat: the deck is rebuilt and shuffled (B46); NPC Wild Cards enter play; surprise victims allowed
    a test roll Notice now (rerollable until the deal)."""

    type: Literal["start_encounter"]
    participants: list[Id] = Field(
        min_length=1, max_length=60, description="In the GM's order; it breaks ties only between shared group cards."
    )
    groups: dict[Id, list[Id]] = Field(
        default_factory=dict, description="group_extras_share_card only: Extras acting on one card."
    )
    surprise: ActionDeckSurprise | None = None


class ActionDeckAddParticipant(Move):
    """A latecomer joins; it is dealt in from the next deal."""

    type: Literal["add_participant"]
    character_id: Id


class ActionDeckDeal(Move):
    """Deal the round's Action Cards (§4.11, §4.12)."""

    type: Literal["deal"]
    cards: list[Card] | None = Field(
        None, max_length=60, description="Table mode only: the cards physically drawn, in the participants' order."
    )


class ActionDeckDrawExtraCard(Move):
    """Spend a benny for another card before the first turn of the round (seed 1.6)."""

    sender: ClassVar[Sender] = "owner"
    type: Literal["draw_extra_card"]
    character_id: Id
    benny_source: BennySource = BENNY_SOURCE
    card: Card | None = Field(None, description="Table mode only: the card physically drawn.")


class ActionDeckKeepCard(Move):
    """Choose which of the held cards to act on; the others are discarded (§4.14)."""

    sender: ClassVar[Sender] = "owner"
    type: Literal["keep_card"]
    character_id: Id
    card: Card


class ActionDeckCallNext(Move):
    """Call the highest card still to act (§4.13); closes the extra-card window."""

    type: Literal["call_next"]


class ActionDeckDeclareTurn(Move):
    """Take the turn: when called, or from hold / with a Joker when no turn is running (a claim). All actions
    are declared now, before the first roll (seed 1.3)."""

    sender: ClassVar[Sender] = "owner"
    type: Literal["declare_turn"]
    character_id: Id
    actions: list[ActionDeckDeclaredAction] = Field(
        default_factory=list,
        max_length=10,
        description="Up to 3; −2 per action beyond the first to all of them. Free actions are not listed.",
    )
    run: bool = Field(False, description="Run this turn: + running die to Pace, −2 to every other test.")


class ActionDeckHold(Move):
    """Hold the called turn (or a Joker holder's) to act later (seed 1.2)."""

    sender: ClassVar[Sender] = "owner"
    type: Literal["hold"]
    character_id: Id


class ActionDeckInterrupt(Move):
    """A holder (or Joker holder) interrupts the running turn: opposed Athletics (seed 1.2)."""

    sender: ClassVar[Sender] = "owner"
    type: Literal["interrupt"]
    character_id: Id


class ActionDeckRedeclare(Move):
    """After being interrupted: declare the remaining actions anew (seed 1.2, B16)."""

    sender: ClassVar[Sender] = "owner"
    type: Literal["redeclare"]
    character_id: Id
    actions: list[ActionDeckDeclaredAction] = Field(default_factory=list, max_length=10)


class ActionDeckTakeAction(Move):
    """Take a declared action that needs no roll (a roll names its action with action_index)."""

    sender: ClassVar[Sender] = "owner"
    type: Literal["take_action"]
    character_id: Id
    action_index: int = Field(ge=0, le=9)
    description: Text | None = None


class ActionDeckEndTurn(Move):
    """End the running turn (a called character may pass without declaring); the next suspended or queued
    turn, if any, starts."""

    sender: ClassVar[Sender] = "owner"
    type: Literal["end_turn"]
    character_id: Id


class ActionDeckEndRound(Move):
    """Discard the round's cards; reshuffle after a Joker round (B3); holds carry over (seed 1.2)."""

    type: Literal["end_round"]


class ActionDeckEndEncounter(Move):
    """End combat: the cards in play go to the discard pile; the next encounter rebuilds the deck (B46)."""

    type: Literal["end_encounter"]


class ActionDeckMove(Move):
    """Move within the turn's Pace; climbing, crawling, swimming, difficult terrain cost 2" per inch (seed 1.3)."""

    sender: ClassVar[Sender] = "owner"
    type: Literal["move"]
    character_id: Id
    segments: list[ActionDeckSegment] = Field(min_length=1, max_length=20)


class ActionDeckRun(Move):
    """Run (a free action, once per turn) before the turn's first roll (B19). Outside combat: run at twice
    (Pace + the running die's top face) per turn for half the Vigor die in minutes (seed 1.3)."""

    sender: ClassVar[Sender] = "owner"
    type: Literal["run"]
    character_id: Id


class ActionDeckJump(Move):
    """Jump 1" long / 0.5" high, doubled with a 2" run-up; an Athletics action adds more (seed 1.3)."""

    sender: ClassVar[Sender] = "owner"
    type: Literal["jump"]
    character_id: Id
    direction: Literal["long", "high"] = "long"
    run_up: Inches = 0
    distance: Inches | None = Field(None, description="The jump intended; default the longest possible.")
    athletics_action_index: int | None = Field(
        None, ge=0, le=9, description="Use this declared action for an Athletics test to jump further."
    )


class ActionDeckReadyItem(Move):
    """Ready or put away an item: two at hand are free each turn, others take an action (seed 1.3)."""

    sender: ClassVar[Sender] = "owner"
    type: Literal["ready_item"]
    character_id: Id
    item: Label
    put_away: bool = False
    at_hand: bool | None = Field(None, description="GM only: overrides the sheet (unknown items are not at hand).")
    action_index: int | None = Field(None, ge=0, le=9, description="Use this declared action for it.")


COMBAT_ACTIONS = (
    ActionDeckStartEncounter,
    ActionDeckAddParticipant,
    ActionDeckDeal,
    ActionDeckDrawExtraCard,
    ActionDeckKeepCard,
    ActionDeckCallNext,
    ActionDeckDeclareTurn,
    ActionDeckHold,
    ActionDeckInterrupt,
    ActionDeckRedeclare,
    ActionDeckTakeAction,
    ActionDeckEndTurn,
    ActionDeckEndRound,
    ActionDeckEndEncounter,
    ActionDeckMove,
    ActionDeckRun,
    ActionDeckJump,
    ActionDeckReadyItem,
)
