"""Per-campaign toggles (spec 3.11) plus the few settings the spec's resolutions leave to the campaign."""

from typing import Annotated, Literal, Union

from pydantic import BaseModel, ConfigDict, Field

from service.rules.iskra.fields import EtherLevel, Label


class AbilityDef(BaseModel):
    """A catalogue entry the GM adds (7-B1: §2.2 lost most abilities, so the catalogue is data-driven)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    ability_id: Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]{0,40}$")] = Field(description="snake_case id.")
    name: Label = Field(description="Display name.")
    max_level: int = Field(1, ge=1, le=10, description="Levels; each level is bought as a new ability (L281).")
    repeatable: bool = Field(False, description="May be gained several times with distinct params (like Język).")
    glory_required: int = Field(0, ge=0, le=20, description="Glory needed to acquire it (L122).")


class IskraOptions(BaseModel):
    # strict: the document says boolean, integer or one of the listed values, so `0` for a boolean, `"3"` or
    # `true` for a number is refused (422 naming the option), never coerced into a setting nobody chose.
    model_config = ConfigDict(extra="forbid", strict=True)

    reactions_per_round: Union[Annotated[int, Field(ge=0, le=10)], Literal["unlimited"]] = Field(  # noqa: UP007
        1, description="Reactions per participant per round (7-B23)."
    )
    overflow_damage_kills: bool = Field(True, description="Wounds beyond current Health kill (7-B10 reading a).")
    deaths_door_regen_test_can_kill: bool = Field(
        True, description="A failed daily Strength recovery test on Death's Door kills (7-B11)."
    )
    focus_adjust_counts_for_critical: bool = Field(
        True, description="PS ±1 adjustments count toward the critical thresholds (7-B5)."
    )
    focus_adjust_after_roll: bool = Field(True, description="PS ±1 may also be spent after the roll (7-B4).")
    reroll_cost_fp: int = Field(1, ge=0, le=5, description="PS cost of the one reroll per test (7-B3).")
    focus_requires_gm_approval: bool = Field(
        True, description="A player's PS spend waits for the GM to accept its description (L78–L80)."
    )
    focus_refresh: Literal["gm_manual"] = Field("gm_manual", description="How PS come back: only GM restores (7-B7).")
    dodge_timing: Literal["after_hit", "on_declare"] = Field("after_hit", description="When a Dodge is chosen (7-B26).")
    predisposition_stacking: Literal["one_each", "all"] = Field(
        "one_each", description="At most one +2 and one −2 per test (7-B21)."
    )
    xp_per_wound_basis: Literal["health_lost", "wounds_after_focus"] = Field(
        "health_lost", description="What 'each Wound received' counts for XP (7-B15)."
    )
    efficiency_rounding: Literal["ceil", "floor"] = Field(
        "ceil", description="Efficiency halves Resource costs, rounded this way (7-B39)."
    )
    offhand_attacks_per_turn: int = Field(1, ge=0, le=5, description="Ambidexterity off-hand attacks per turn (7-B40).")
    turn_order_repeat: Literal["same_each_round", "rebuild_each_round"] = Field(
        "same_each_round", description="Later rounds reuse round 1's order, or rebuild it (7-B27)."
    )
    glory_modifier_enabled: bool = Field(
        True, description="Glory may be added to influence, intimidation and persuasion tests (L120)."
    )
    carry_predisposition_adjusts_capacity: bool = Field(
        True, description="Carrying Predispositions/Weaknesses change capacity by ±2 (L132)."
    )
    # Settings the spec's resolutions call for but leave unset.
    attribute_point_budget: int | None = Field(
        None, ge=0, le=20, description="Optional cap on the starting attribute sum; no default (7-B2)."
    )
    character_approval_required: bool = Field(
        True, description="A player's character acts only after the GM approves its sheet (7-B2, L86)."
    )
    human_ether_tolerance: EtherLevel = Field(
        "low", description="Highest Ether level a Human tolerates: the source says 'almost no resistance' (7-B34)."
    )
    extra_abilities: list[AbilityDef] = Field(
        default_factory=list, max_length=100, description="Abilities the GM adds to the catalogue (7-B1)."
    )


Options = IskraOptions
