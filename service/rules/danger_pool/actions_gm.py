"""Moves only the GM may send (spec §5.1 setup, the danger pool, elements, rewards, records)."""

from typing import Literal

from pydantic import Field

from service.rules.danger_pool.fields import Id, Model, Move, Text


class ElementInput(Model):
    text: Text = Field(description="What the element is (A5); GM-only until used.")
    source_character_id: Id | None = Field(None, description="A betrayer character this element is.")


class DangerPoolAssignPlayer(Move):
    """Record which character a player currently controls (spec §3.2); needed for 'per player' rules."""

    type: Literal["assign_player"]
    player_id: Id = Field(description="The player.")
    character_id: Id | None = Field(description="The active character they now control; null: none (A36).")


class DangerPoolCreateActionScene(Move):
    """Open an action scene in setup (§5.1): goal, leader (A26), team, track length (A2), elements."""

    type: Literal["create_action_scene"]
    goal: Text = Field(description="The scene's task.")
    leader_id: Id = Field(description="The scene's leader; must be on the team.")
    team: list[Id] = Field(min_length=1, max_length=20, description="Active characters taking part.")
    progress_track_length: int | None = Field(
        None,
        ge=1,
        le=200,
        description="Base length; default progress_track_length_default. Betray the Team boxes are added.",
    )
    danger: Text | None = Field(None, description="What the danger is (narrative).")
    elements: list[ElementInput] = Field(
        default_factory=list, max_length=30, description="GM-only scene elements (A5)."
    )


class DangerPoolConfigureScene(Move):
    """Change a scene in setup, e.g. a bail-out successor: re-framed goal, track length, team (A27)."""

    type: Literal["configure_scene"]
    goal: Text | None = Field(None, description="New wording of the same goal.")
    leader_id: Id | None = Field(
        None, description="New leader; a bail-out successor keeps its leader unless that character is no longer active."
    )
    team: list[Id] | None = Field(None, min_length=1, max_length=20, description="New team; must include the leader.")
    progress_track_length: int | None = Field(None, ge=1, le=200, description="New base length.")


class DangerPoolAddElement(Move):
    """Add a GM-only element to the running action scene (A5)."""

    type: Literal["add_element"]
    text: Text = Field(description="What the element is.")
    source_character_id: Id | None = Field(None, description="A betrayer character this element is.")


class DangerPoolStartScene(Move):
    """Start the action scene in setup: round 1, no +2 (§5.1, A31)."""

    type: Literal["start_scene"]


class DangerPoolCreatePlanningScene(Move):
    """Open a planning scene, where after-effects are chosen (A33)."""

    type: Literal["create_planning_scene"]
    team: list[Id] | None = Field(
        None, max_length=20, description="Characters present; default every active character."
    )


class DangerPoolEndScene(Move):
    """Close the open scene: a planning scene ends; an action scene ends as closed_by_gm (§4.14)."""

    type: Literal["end_scene"]


class DangerPoolConfirmRoll(Move):
    """Close the element-reroll window of the open roll and let it resolve (§5.2)."""

    type: Literal["confirm_roll"]


class DangerPoolElementReroll(Move):
    """Reroll every danger die of the open roll using an element (§4.11, A13)."""

    type: Literal["element_reroll"]
    element_id: Id = Field(description="The element used.")


class DangerPoolRaiseAlarm(Move):
    """Once per scene: add danger dice (§4.10); the amount is the GM's (A12)."""

    type: Literal["raise_alarm"]
    amount: int = Field(ge=0, le=50, description="Dice added; 0 still uses the alarm (A12).")


class DangerPoolNextRound(Move):
    """After the leader chose to continue, start the next round without raising the alarm (§4.13)."""

    type: Literal["next_round"]


class DangerPoolReviewAftermath(Move):
    """Approve a proposed Take the Hit, or ask the player to change it (§4.15.1, A39)."""

    type: Literal["review_aftermath"]
    character_id: Id = Field(description="The character whose proposal is reviewed.")
    decision: Literal["approve", "request_change"] = Field(description="approve applies it.")
    note: Text | None = Field(None, description="What the GM wants changed.")


class DangerPoolSettleAftermath(Move):
    """When no after-effect option remains, the GM decides and records it (A35)."""

    type: Literal["settle_aftermath"]
    character_id: Id = Field(description="The character whose after-effect is settled.")
    text: Text = Field(description="What the GM decided.")


class DangerPoolRecordTale(Move):
    """A tale was told: cp_per_tale character points (§4.16, A10)."""

    type: Literal["record_tale"]
    character_id: Id = Field(description="The teller.")
    text: Text | None = Field(None, description="The tale, briefly.")


class DangerPoolRecordScar(Move):
    """A normal scar (origin other) is accepted: it counts toward the maximum and gives points (A7)."""

    type: Literal["record_scar"]
    character_id: Id = Field(description="The scarred character.")
    text: Text = Field(description="The scar.")


class DangerPoolGmNote(Move):
    """A private note (planned alarm, threats); never shown to players (§3.4)."""

    type: Literal["gm_note"]
    text: Text = Field(description="The note.")


GM_ACTIONS = (
    DangerPoolAssignPlayer,
    DangerPoolCreateActionScene,
    DangerPoolConfigureScene,
    DangerPoolAddElement,
    DangerPoolStartScene,
    DangerPoolCreatePlanningScene,
    DangerPoolEndScene,
    DangerPoolConfirmRoll,
    DangerPoolElementReroll,
    DangerPoolRaiseAlarm,
    DangerPoolNextRound,
    DangerPoolReviewAftermath,
    DangerPoolSettleAftermath,
    DangerPoolRecordTale,
    DangerPoolRecordScar,
    DangerPoolGmNote,
)
