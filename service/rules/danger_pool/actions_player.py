"""Moves a player may send for a character they control (the GM may send them too)."""

from typing import Literal

from pydantic import Field

from service.rules.danger_pool.fields import Declaration, Id, Label, OwnMove, Text


class DangerPoolDeclareAction(Declaration):
    """The member's action this round: Push or Hold Back, rolled at once against the danger pool (§4.2–§4.6)."""

    type: Literal["declare_action"]
    kind: Literal["push", "hold_back"] = Field(
        description="push: successes mark progress boxes; hold_back: successes remove danger dice (§4.8)."
    )


class DangerPoolPassTurn(OwnMove):
    """Skip this round's action; only with allow_pass (A41)."""

    type: Literal["pass_turn"]


class DangerPoolWaiveFirst(OwnMove):
    """The leader lets the others act before them this round (§4.2, A46)."""

    type: Literal["waive_first"]


class DangerPoolChooseTie(OwnMove):
    """One step of a tie (§4.7): the roll's actor flips a tied danger die or backs down."""

    type: Literal["choose_tie"]
    option: Literal["do_something_stupid", "take_the_hit", "back_down"] = Field(
        description="do_something_stupid: the die becomes 1, +1 danger die; take_the_hit: the die becomes 10, "
        "−1 stamina; back_down: the roll is lost."
    )
    die_index: int | None = Field(
        None,
        ge=0,
        le=200,
        description="Index into the roll's danger_dice of a die showing the tied value; default the first.",
    )


class DangerPoolContinue(OwnMove):
    """At a round's end the leader does not bail out; the next round follows (§4.13)."""

    type: Literal["continue_scene"]


class DangerPoolBailOut(Declaration):
    """At a round's end the leader makes the final roll of a bail-out (§4.13, A23)."""

    type: Literal["bail_out"]


class DangerPoolExtract(OwnMove):
    """After a won bail-out roll the leader names who gets out without complications (§4.13)."""

    type: Literal["extract"]
    extracted_ids: list[Id] = Field(
        default_factory=list,
        max_length=50,
        description="Members still in the scene, at most one per success; may include the leader, may be fewer.",
    )


class DangerPoolChooseAftermath(OwnMove):
    """The after-effect of having lost all stamina, chosen in a planning scene (§4.15)."""

    type: Literal["choose_aftermath"]
    option: Literal["take_the_hit", "set_someone_up", "betray_the_team", "hide_the_pain"] = Field(
        description="take_the_hit: reduce an own ability (GM approves); set_someone_up: reduce another "
        "player's character's ability; betray_the_team: the character becomes a GM element; "
        "hide_the_pain: the character dies at the end of the next scene."
    )
    ability: Label | None = Field(
        None, description="take_the_hit / set_someone_up: the ability (rated ≥ 2) to reduce by 1."
    )
    target_character_id: Id | None = Field(None, description="set_someone_up: the other player's character.")
    description: Text | None = Field(None, description="How it happened; recorded.")
    plan: Text | None = Field(None, description="betray_the_team: the treacherous plan (GM and this player only).")
    exit: Literal["dead", "departed"] | None = Field(
        None, description="hide_the_pain: dies (default) or, where there is no fighting, leaves the story another way."
    )


class DangerPoolDescribe(OwnMove):
    """Narration the server stores without mechanics (DP-E4): the danger, a stamina loss, how a character
    left the scene, a result."""

    type: Literal["describe"]
    topic: Literal["result", "danger", "stamina_loss", "taken_out", "exit", "other"] = Field(
        description="What the text describes."
    )
    text: Text = Field(description="The narration.")


PLAYER_ACTIONS = (
    DangerPoolDeclareAction,
    DangerPoolPassTurn,
    DangerPoolWaiveFirst,
    DangerPoolChooseTie,
    DangerPoolContinue,
    DangerPoolBailOut,
    DangerPoolExtract,
    DangerPoolChooseAftermath,
    DangerPoolDescribe,
)
