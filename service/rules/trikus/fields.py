"""Shared field types of the public contract (OpenAPI / GraphQL): one vocabulary for every move and sheet."""

from typing import ClassVar, Literal

from pydantic import Field

# The vocabulary every system shares, re-exported: this system's models take every field type from here.
from service.rules.fields import Id as Id, Label as Label, Model as Model, Move as Move, Sender as Sender
from service.rules.fields import Text as Text

TraitKind = Literal[
    "offensive",
    "defensive",
    "helpful",
    "single_use",
    "battle_meditation",
    "unreliable",
    "black_hole",
    "renewable",
    "sith_artifact",
]
Result = Literal["success", "failure", "draw"]


class OwnMove(Move):
    """A move made for one character: its player, or the GM (who controls every character)."""

    sender: ClassVar[Sender] = "owner"
    character_id: Id = Field(description="The acting character.")


class TraitInput(Model):
    kind: TraitKind = Field(description="One pip of the item (L404–L420).")
    known_to_owner: bool = Field(
        True,
        description="False: a hidden trait the owner discovers in play (L402); "
        "players do not see it until it takes effect.",
    )
    modifier: int | None = Field(
        None,
        ge=-9,
        le=9,
        description="Combat-difficulty modifier, set by the GM: "
        "negative for offensive, positive for defensive "
        "(L398, A43). Required for those two kinds.",
    )
    renew_condition: Text | None = Field(
        None, description="Renewable: what must happen before it can be used again (L418)."
    )


class ItemInput(Model):
    name: Label
    traits: list[TraitInput] = Field(min_length=1, max_length=3, description="One, two or three pips (L402).")
    notes: Text | None = Field(None, description="Illegality, hidden flaw, Sith interest… (L400); narrative.")


class SideInput(Model):
    text: Text = Field(
        description="A Light side (what the character strives for) or a Dark side (what it "
        "would never do, its flaw) (L244)."
    )
    authored_by: Id = Field(
        "self",
        description="'self' for the character's own player, else the id or name of "
        "the player who wrote it (optional rule 1, L256).",
    )
