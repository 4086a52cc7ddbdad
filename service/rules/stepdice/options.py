"""Per-campaign toggles (spec 3.6). Every optional rule of the seed is one switch here."""

from pydantic import BaseModel, ConfigDict, Field


class StepDiceOptions(BaseModel):
    # strict: the document says boolean, integer or one of the listed values, so `0` for a boolean, `"3"` or
    # `true` for a number is refused (422 naming the option), never coerced into a setting nobody chose.
    model_config = ConfigDict(extra="forbid", strict=True)

    use_grid: bool = Field(
        True,
        description="Validate positions, 5-square moves, melee adjacency and range on a "
        "square grid (seed L5: the board is optional; spec 7-A38).",
    )
    use_talents: bool = Field(
        True, description="Characters have exactly 2 Talents; an accepted Talent is one step easier (seed §2.4)."
    )
    use_elites: bool = Field(True, description="Elite enemies exist (seed L282 lets a table drop them).")
    ranged_range_limit: bool = Field(
        False, description="Ranged attacks over 10 squares are one step harder (seed §5.7)."
    )
    variant_d6_only: bool = Field(
        False, description="Play the d6-only variant: proficiency thresholds instead of die sizes (seed §9, spec 4.15)."
    )
    use_armor_tokens: bool = Field(
        False, description="Protection gives 1 Armor token per scene that may replace a lost Heart (seed §11.1)."
    )
    use_time_pressure_clocks: bool = Field(False, description="GM clocks advanced by failed tests (seed §11.2).")
    downed_damage_kills: bool = Field(True, description="Damage taken while downed kills (seed §7.2 v1, spec 7-A5).")
    exceptional_requires_tn: bool = Field(
        False, description="A maximum face below the TN is a plain failure (spec 7-A6 reading b)."
    )
    max_helpers_per_test: int = Field(
        1, ge=0, le=4, description="Helpers that may step up one test (seed §3.6: usually one)."
    )
    max_talents_per_test: int = Field(
        1, ge=0, le=2, description="Talents that may count for one test (seed §2.4: usually one)."
    )
    allow_retaliation_substitution: bool = Field(
        True,
        description="The GM may replace a retaliation Heart loss with another logical complication (seed §5.6 v1).",
    )
    variant_exceptional_on_6: bool = Field(
        True, description="In the d6-only variant a 6 is an exceptional success (spec 7-A42)."
    )


Options = StepDiceOptions
