"""Sessions, bennies, NPCs entering play, wounds and conditions (spec §4.27–§4.30)."""

from typing import ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from service.rules.action_deck.fields import BENNY_SOURCE, BennySource, Id, Move, Sender, Text


class ActionDeckPartyEntry(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    player_id: Id
    character_ids: list[Id] = Field(
        default_factory=list, max_length=10, description="Characters this player controls this session (PC, allies)."
    )


class ActionDeckOpenSession(Move):
    """Each listed player gets 3 bennies; the GM pool gets the party size (seed 1.6)."""

    type: Literal["open_session"]
    players: list[ActionDeckPartyEntry] = Field(max_length=20, description="Who plays this session.")
    party_size: int | None = Field(
        None, ge=0, le=50, description="Default: the listed characters whose side is 'party' (B37a)."
    )


class ActionDeckCloseSession(Move):
    """Every benny is discarded: players', the GM pool, NPC Wild Cards' (seed 1.6, B37)."""

    type: Literal["close_session"]


class ActionDeckAwardBenny(Move):
    """The GM rewards clever ideas, role-play, heroics (seed 1.6)."""

    type: Literal["award_benny"]
    player_ids: list[Id] = Field(min_length=1, max_length=20)
    count: int = Field(1, ge=1, le=10)
    reason: Text | None = None


class ActionDeckEnterPlay(Move):
    """An NPC Wild Card enters play with 2 bennies plus Edge bonuses (seed 1.6)."""

    type: Literal["enter_play"]
    character_id: Id
    edge_bonus: int | None = Field(None, ge=0, le=10, description="Default: the sheet's benny_bonus.")


class ActionDeckLeavePlay(Move):
    """The NPC leaves play; its bennies are discarded (B37c)."""

    type: Literal["leave_play"]
    character_id: Id


class ActionDeckApplyWounds(Move):
    """Wounds the GM rules (the seed does not say how damage becomes wounds, B36)."""

    type: Literal["apply_wounds"]
    character_id: Id
    wounds: int = Field(ge=1, le=10)


class ActionDeckSetCondition(Move):
    """Set conditions the seed references but does not define (§4.30); a holder that becomes Shaken or
    Stunned loses its turn (seed 1.2)."""

    type: Literal["set_condition"]
    character_id: Id
    shaken: bool | None = None
    stunned: bool | None = None
    fatigue: int | None = Field(None, ge=0, le=10)
    wounds: int | None = Field(None, ge=0, le=10)
    power_points: int | None = Field(None, ge=0, le=999)
    eliminated: bool | None = None
    reason: Text | None = None


class ActionDeckUnshake(Move):
    """Spend a benny to recover from Shaken, at any moment (seed 1.6)."""

    sender: ClassVar[Sender] = "owner"
    type: Literal["unshake"]
    character_id: Id
    benny_source: BennySource = BENNY_SOURCE


class ActionDeckSoak(Move):
    """Spend a benny to avoid wounds and Shaken; the result is the GM's (B38: the seed has no soak roll)."""

    sender: ClassVar[Sender] = "owner"
    type: Literal["soak"]
    character_id: Id
    benny_source: BennySource = BENNY_SOURCE
    wounds_avoided: int | None = Field(None, ge=0, le=10, description="GM only: wounds removed.")
    shaken_avoided: bool = Field(False, description="GM only: Shaken removed.")


class ActionDeckRegainPower(Move):
    """One benny = 5 power points at once (seed 1.6)."""

    sender: ClassVar[Sender] = "owner"
    type: Literal["regain_power"]
    character_id: Id
    benny_source: BennySource = BENNY_SOURCE


SESSION_ACTIONS = (
    ActionDeckOpenSession,
    ActionDeckCloseSession,
    ActionDeckAwardBenny,
    ActionDeckEnterPlay,
    ActionDeckLeavePlay,
    ActionDeckApplyWounds,
    ActionDeckSetCondition,
    ActionDeckUnshake,
    ActionDeckSoak,
    ActionDeckRegainPower,
)
