"""Per-campaign settings (spec §3.1). Every number the seed states and every resolution a table may flip
(spec §7 "Optional-rule toggles summary") is one field here, with the spec's default."""

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class DangerPoolOptions(BaseModel):
    # strict: the document says boolean, integer or one of the listed values, so `0` for a boolean, `"3"` or
    # `true` for a number is refused (422 naming the option), never coerced into a setting nobody chose.
    model_config = ConfigDict(extra="forbid", strict=True)

    die_sides: int = Field(
        10,
        ge=2,
        le=100,
        description="Sides of every die, player and danger (A8). The "
        "'10' rules (ignored danger die, Take the Hit) apply "
        "to the highest face.",
    )
    danger_pool_start: int = Field(2, ge=0, le=50, description="Danger dice at the start of an action scene.")
    danger_pool_start_after_bail_out: int = Field(
        3, ge=0, le=50, description="Danger dice at the start of the scene that follows a bail-out."
    )
    danger_per_new_round: int = Field(
        2, ge=0, le=50, description="Added at the start of every round after the first (A31)."
    )
    danger_per_player_one: int = Field(1, ge=0, le=50, description="Added for each 1 in a player's roll.")
    risk_extra_dice: int = Field(3, ge=0, le=50, description="Dice added by a Risk (character point).")
    character_points_start: int = Field(2, ge=0, le=100, description="Character points of a new character.")
    betrayal_track_boxes: int = Field(
        4, ge=0, le=100, description="Boxes Betray the Team adds to the next action scene's progress track (A36)."
    )
    stamina_max_default: int = Field(3, ge=1, le=100, description="Starting and restored stamina (A1, placeholder).")
    progress_track_length_default: int = Field(
        8, ge=1, le=200, description="Track length when the GM gives none (A2, placeholder)."
    )
    max_scars: int | None = Field(
        None,
        ge=1,
        le=100,
        description="Counted scars at which the server reports the maximum (A6); null = not enforced.",
    )
    scar_penalty_mode: Literal["relevant", "all"] = Field(
        "relevant", description="relevant: 1 die per scar declared as fitting; all: every scar, always (A9)."
    )
    cp_per_tale: int = Field(1, ge=0, le=100, description="Character points for telling a tale (A10).")
    cp_per_accepted_reduction: int = Field(
        1, ge=0, le=100, description="Character points for accepting an ability reduction (A10)."
    )
    cp_per_accepted_scar: int = Field(
        1, ge=0, le=100, description="Character points for accepting a normal scar (A7, A10)."
    )
    set_up_victim_gains_cp: bool = Field(
        True, description="The victim of Set Someone Else Up gains cp_per_accepted_reduction (A11)."
    )
    max_cp_spends_per_roll: int | None = Field(
        1, ge=1, le=20, description="Character points spendable before one roll; null = unlimited (A16)."
    )
    zero_pool_policy: Literal["auto_lose", "roll_one_die"] = Field(
        "auto_lose", description="A pool of 0 or less loses without player dice, or rolls one die (A15)."
    )
    element_rerolls_per_element_per_scene: int | None = Field(
        1,
        ge=1,
        le=20,
        description="How often one element may reroll the danger dice in a scene; null = unlimited (A13).",
    )
    alarm_timing: Literal["round_boundary", "any_time"] = Field(
        "round_boundary",
        description="round_boundary: "
        "only after the leader chose to continue at a "
        "round's end; any_time: whenever a scene runs "
        "(A12).",
    )
    aftermath_scope: Literal["player", "character"] = Field(
        "player", description="Who may not reuse an after-effect option: the player (source) or the character (A34)."
    )
    bail_out_includes_taken_out: bool = Field(
        False, description="Members already out of the scene also get a bail-out scar (A24)."
    )
    allow_pass: bool = Field(False, description="A member may skip their action in a round (A41).")


Options = DangerPoolOptions
