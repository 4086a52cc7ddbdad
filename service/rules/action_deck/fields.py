"""Shared field types of the public action contract (OpenAPI / GraphQL): one vocabulary for every move."""
from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from service.rules.strings import trimmed

Id = trimmed(64)
Text = trimmed(2000)
Label = trimmed(120)
TraitName = trimmed(40, case="lower")
Card = trimmed(5, min_length=2, case="upper")
PlainDie = Literal["d4", "d6", "d8", "d10", "d12"]
Inches = Annotated[float, Field(ge=0, le=200, multiple_of=0.5)]
BennySource = Literal["auto", "own", "gm_pool"]
Sender = Literal["gm", "owner"]

BENNY_SOURCE = Field("auto", description="Who pays: a PC's benny always comes from its player; an NPC Wild Card "
                                         "pays from its own ('own') or the GM pool ('gm_pool'); 'auto' uses its "
                                         "own first; Extras pay from the GM pool (seed 1.6).")


class Move(BaseModel):
    """Base of every action. `sender`: 'gm' = the GM only; 'owner' = the GM or the player controlling the
    character the action names (for test follow-ups: the test's roller; for defend: the defender)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    sender: ClassVar[Sender] = "gm"


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
