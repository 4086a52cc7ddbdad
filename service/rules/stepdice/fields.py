"""Shared field types of the public action contract (OpenAPI / GraphQL): one vocabulary for every move."""

from typing import ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

# The vocabulary every system shares, re-exported: this system's models take every field type from here.
from service.rules.fields import Id as Id, Label as Label, Model as Model, Move as Move, Sender as Sender
from service.rules.fields import Text as Text

Attribute = Literal["strength", "dexterity", "magic"]
BaseTn = Literal[4, 6, 8, 12]
Tier = Literal["trick", "standard", "strong", "great_power"]
Cover = Literal["none", "partial", "full"]


class StepDicePosition(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    x: int = Field(ge=-10_000, le=10_000, description="Grid column (one square = one unit).")
    y: int = Field(ge=-10_000, le=10_000, description="Grid row.")


class StepDiceStep(BaseModel):
    """One difficulty step: the TN moves along 4/6/8/12 by index (seed §3.5)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    source: Label = Field(description="Why the step applies, e.g. 'darkness', 'preparation', 'extreme'.")
    delta: Literal[-2, -1, 1, 2] = Field(description="+1 worse conditions, −1 better, ±2 'extremely' (seed §3.5).")


class RollFields(Move):
    """What the GM declares for one test (spec 4.2 inputs, 4.16 checklist), in one request."""

    sender: ClassVar[Sender] = "owner"

    character_id: Id = Field(description="The acting character.")
    intent: Text | None = Field(None, description="What the player wants to achieve (seed §3.2 step 1).")
    steps: list[StepDiceStep] = Field(
        default_factory=list, max_length=8, description="Situational difficulty steps; all are summed (spec 7-A8)."
    )
    talents: list[Label] = Field(
        default_factory=list,
        max_length=2,
        description="Talents of the character the GM accepts as really helping; each is "
        "one step easier, at most `max_talents_per_test` (seed §2.4).",
    )
    on_near_certain: Literal["roll", "skip_roll"] = Field(
        "roll",
        description="If the steps take the TN below 4: roll anyway (only a 1 fails) or succeed without a "
        "roll. skip_roll is GM-only and never applies when only a Talent made it near certain.",
    )
    on_near_impossible: Literal["roll", "refuse"] = Field(
        "roll",
        description="If the steps take the TN above 12: roll anyway (only the maximum face succeeds) or "
        "refuse the test, consuming nothing (seed §3.5, spec 7-A7).",
    )
    use_help_token: bool = Field(
        True,
        description="In combat: spend the help tokens allies gave this character on this test (seed §3.6, spec 7-A12).",
    )
    advance_clocks: bool = Field(
        True,
        description="A failure advances running time-pressure clocks of the scene; "
        "false (GM-only) excludes this test (spec 7-A46).",
    )
    planned_complication: Text | None = Field(
        None, description="GM-only note, hidden from players, of the complication planned for a failure."
    )
