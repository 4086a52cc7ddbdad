"""Shared field types of the public action contract: one vocabulary for every Iskra move (spec 2 glossary)."""

from typing import ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

# The vocabulary every system shares, re-exported: this system's models take every field type from here.
from service.rules.fields import Id as Id, Label as Label, Model as Model, Move as Move, Sender as Sender
from service.rules.fields import Text as Text

Attribute = Literal["strength", "dexterity", "intelligence", "charisma"]
Species = Literal["human", "elf", "dwarf", "asrai"]
EtherLevel = Literal["none", "low", "medium", "high", "very_high"]
Distance = Literal["reach", "near", "not_far", "far"]
# spec 4.2 context.kind: glory applies to the three social kinds (L120); detect drives Light Step (L292).
TestContext = Literal["general", "influence", "intimidate", "persuade", "detect", "lift"]


class OwnerMove(Move):
    sender: ClassVar[Sender] = "owner"


class Modifier(BaseModel):
    """One GM situational modifier (spec 4.3 first row, 7-B31): a signed number and its reason."""

    model_config = ConfigDict(extra="forbid", strict=True)

    source: Label = Field(description="Why it applies: an ability, a hindrance, the situation.")
    value: int = Field(ge=-20, le=20, description="Signed modifier added to the test.")
    hidden: bool = Field(
        False,
        description="GM-only: players see that a hidden modifier exists, not its value "
        "(spec 8 'hidden situational modifiers').",
    )


class Helper(BaseModel):
    """A helper attached to an out-of-combat test (spec 4.7): the Help action needs a description (L165)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    character_id: Id = Field(description="The helping character.")
    description: Text = Field(description="How they help.")
