"""Shared field types of the public action contract (OpenAPI / GraphQL): one vocabulary for every move."""

from typing import ClassVar, Literal

from pydantic import Field

# The vocabulary every system shares, re-exported: this system's models take every field type from here.
from service.rules.fields import Id as Id, Label as Label, Model as Model, Move as Move, Sender as Sender
from service.rules.fields import Text as Text

CpSpend = Literal["risk", "ignore_pain"]


class OwnMove(Move):
    """A move made for one character: its player, or the GM (who controls every character)."""

    sender: ClassVar[Sender] = "owner"
    character_id: Id = Field(description="The acting character.")


class Declaration(OwnMove):
    """What a player declares before a roll (spec §4.3–§4.5): the pool is built from it, points are spent."""

    approach: Text = Field(description="What the character tries to do; it selects the ability (§4.3).")
    ability: Label = Field(description="The ability the approach uses; must be on the sheet.")
    legends: list[Id] = Field(
        default_factory=list, max_length=50, description="legend_ids of the character's legends that fit: +1 die each."
    )
    equipment: Id | None = Field(
        None, description="item_id of one fitting piece of equipment: +1 die (never more than one)."
    )
    scars: list[Id] = Field(
        default_factory=list,
        max_length=50,
        description="scar_ids of scars that apply: −1 die each (A9). Ignored when "
        "scar_penalty_mode = all (every scar counts).",
    )
    cp_spends: list[CpSpend] = Field(
        default_factory=list,
        max_length=20,
        description="Character points spent before this roll: risk (+3 dice) or "
        "ignore_pain (stamina back to its maximum) (§4.5).",
    )
    risk_proposal: Text | None = Field(
        None, description="The 'effective but very risky' thing a Risk proposes; recorded."
    )
