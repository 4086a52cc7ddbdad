"""Per-campaign toggles (spec 3.2, 7.0): every advanced and optional rule, and this spec's resolutions."""

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class TrikusOptions(BaseModel):
    # strict: the document says boolean, integer or one of the listed values, so `0` for a boolean, `"3"` or
    # `true` for a number is refused (422 naming the option), never coerced into a setting nobody chose.
    model_config = ConfigDict(extra="forbid", strict=True)

    # Advanced rules (ZASADY ZAAWANSOWANE, L316–L420)
    adv_escape: bool = Field(
        False,
        description="Escape: a player holding an unthrown die may withdraw from a test "
        "and takes a dark-side token (L320–L326).",
    )
    adv_catastrophe_line_loss: bool = Field(
        True,
        description="A Catastrophe also loses a line until the second "
        "party reset after it (L328–L340; on by default, A19).",
    )
    adv_negotiation: bool = Field(
        False,
        description="Negotiation: ask the opponent to re-throw the die that set "
        "the target; losing afterwards is a Catastrophe (L342–L348).",
    )
    adv_boom: bool = Field(
        False,
        description="Boom dice: three equal faces in one test let the first player "
        "who notices take the narration (L352–L358).",
    )
    adv_combat_difficulty: bool = Field(
        False,
        description="Combat difficulty: attackers and the GM roll a d10 "
        "against CD (+2 per defender) instead of automatic "
        "die loss (L362–L392).",
    )
    adv_equipment: bool = Field(
        False,
        description="Equipment traits take effect in tests and rounds (L394–L420); "
        "offensive/defensive modifiers need adv_combat_difficulty.",
    )
    # Optional rules
    opt1_master_dark_sides_by_others: bool = Field(
        False,
        description="Optional rule 1 (L256): a Master writes one of their dark sides, other players the two others.",
    )
    opt2_gm_blind_to_dark_sides: bool = Field(
        False,
        description="Optional rule 2 (L258): the GM does not know the characters' dark sides until one is acted out.",
    )
    # This spec's resolutions (section 7)
    boom_visibility: Literal["players_must_notice", "announce"] = Field(
        "players_must_notice", description="Whether players are told that a triple is on the table (A42)."
    )
    last_chance_prompt: bool = Field(
        True,
        description="Before a player loses a pair for lack of dice while "
        "holding a light token, wait for spend or pass (A13).",
    )
    promotions_apply: Literal["next_session", "immediately"] = Field(
        "next_session", description="When the promotion chain takes effect (A34)."
    )
    team_cancellation_waives_penalties: bool = Field(
        True, description="A cancelled team-test failure triggers no boost penalty or item failure (A10)."
    )
    catastrophe_master_strict: bool = Field(
        False, description="A Master whose line is lost takes no test at all, not even on extras (A18 reading b)."
    )
    hide_dark_counts_from_other_players: bool = Field(
        False, description="Other players do not see a character's active dark-token count (A38 option)."
    )


Options = TrikusOptions
