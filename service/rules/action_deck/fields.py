"""Shared field types of the public action contract (OpenAPI / GraphQL): one vocabulary for every move."""

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

# The vocabulary every system shares, re-exported: this system's models take every field type from here.
from service.rules.fields import Id as Id, Label as Label, Model as Model, Move as Move, Sender as Sender
from service.rules.fields import Text as Text
from service.rules.strings import trimmed

TraitName = trimmed(40, case="lower")
Card = trimmed(5, min_length=2, case="upper")
PlainDie = Literal["d4", "d6", "d8", "d10", "d12"]
Inches = Annotated[float, Field(ge=0, le=200, multiple_of=0.5)]
BennySource = Literal["auto", "own", "gm_pool"]

# Any: pydantic types a Field by its default (a str); each field's annotation (BennySource) says what it holds.
BENNY_SOURCE: Any = Field(
    "auto",
    description="Who pays: a PC's benny always comes from its player; an NPC Wild Card "
    "pays from its own ('own') or the GM pool ('gm_pool'); 'auto' uses its "
    "own first; Extras pay from the GM pool (seed 1.6).",
)


class ActionDeckModifier(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    source: Label = Field(description="Why, e.g. 'closed door', 'very easy' (seed 1.4: +2 … −6, the GM's call).")
    value: int = Field(ge=-20, le=20)


class ActionDeckDeclaredAction(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    kind: Label = Field(description="What the action is, e.g. 'attack', 'cast', 'ready_item' (recorded only).")
    note: Text | None = None


class ActionDeckSegment(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    inches: Inches = Field(description="Distance in inches (squares); halves allowed.")
    mode: Literal["walk", "climb", "crawl", "swim"] = "walk"
    difficult_terrain: bool = False
