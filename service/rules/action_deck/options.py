"""Per-campaign settings (spec §3.1): the numbers of the seed and every toggle the spec resolves (§7)."""

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

DieSides = Literal[4, 6, 8, 10, 12]


class ActionDeckOptions(BaseModel):
    # strict: the document says boolean, integer or one of the listed values, so `0` for a boolean, `"3"` or
    # `true` for a number is refused (422 naming the option), never coerced into a setting nobody chose.
    model_config = ConfigDict(extra="forbid", strict=True)

    # --- numbers stated by the seed ------------------------------------------------------------------
    standard_tn: int = Field(4, ge=1, le=30, description="Default target number (seed 1.4).")
    raise_step: int = Field(4, ge=1, le=10, description="Points over the TN per raise (seed 1.4).")
    wild_die: DieSides = Field(6, description="Wild Die size (seed 1.5).")
    joker_bonus: int = Field(2, ge=0, le=10, description="Joker holder's bonus to trait tests and damage that round.")
    multi_action_max: int = Field(3, ge=1, le=6, description="Actions per turn (seed 1.3).")
    multi_action_step: int = Field(-2, ge=-10, le=0, description="Penalty per action beyond the first (seed 1.3).")
    running_die_default: DieSides = Field(6, description="Running die of a new sheet (seed 1.3).")
    running_penalty: int = Field(-2, ge=-10, le=0, description="Penalty to every other test in a turn with a run.")
    unskilled_die: DieSides = Field(4, description="Die of an improvised (unskilled) test (seed 1.4).")
    unskilled_penalty: int = Field(-2, ge=-10, le=0, description="Penalty of an improvised test (seed 1.4).")
    wild_card_wound_capacity: int = Field(3, ge=0, le=10, description="Wounds a Wild Card takes before elimination.")
    bennies_per_player_per_session: int = Field(
        3, ge=0, le=20, description="Bennies each player starts a session with (seed 1.6)."
    )
    npc_wild_card_bennies: int = Field(2, ge=0, le=20, description="Bennies of an NPC Wild Card entering play.")
    benny_power_points: int = Field(5, ge=0, le=50, description="Power points one benny restores (seed 1.6).")
    free_ready_items_per_turn: int = Field(2, ge=0, le=10, description="Items readied or put away as free actions.")
    pace_default: int = Field(6, ge=0, le=60, description="Default Pace (resolution B43, Savage Worlds core).")
    # --- toggles resolving gaps (spec §7) ------------------------------------------------------------
    group_extras_share_card: bool = Field(False, description="B2: deal one card to a GM-defined group of Extras.")
    reshuffle_rule: Literal["after_joker_round", "when_exhausted_only"] = Field(
        "after_joker_round",
        description="B3: rebuild and shuffle the deck after a round with a Joker, or only "
        "refill the draw pile from the discards when it runs out.",
    )
    joker_interrupt_needs_test: bool = Field(
        False, description="B6: a Joker holder must win opposed Athletics to interrupt."
    )
    interrupt_tie_rule: Literal["defender_wins", "simultaneous"] = Field(
        "defender_wins",
        description="B15: the interrupted character wins ties (and the holder needs TN 4), or "
        "both roll freely and a tie lets the holder act after the current action.",
    )
    hold_persistence: Literal["until_used", "next_round_only"] = Field(
        "until_used", description="B12: an unused hold lasts until used, or lapses at the end of the next round."
    )
    extra_card_draws_per_round: int | None = Field(
        None, ge=0, le=54, description="B11: benny-bought extra cards per character per round; null = no limit."
    )
    extra_crit_check: Literal["gm_flag", "always", "never"] = Field(
        "gm_flag", description="B28: when an Extra's natural 1 triggers the d6 critical-failure check."
    )
    extra_natural_one_policy: Literal["evaluate_total", "always_fail"] = Field(
        "always_fail",
        description="B28: an Extra's natural 1 that is no critical failure still fails "
        "(seed: 'inaczej to zwykła porażka'), or is evaluated with modifiers.",
    )
    multi_die_crit_counts_wild_die: bool = Field(
        False, description="B29: the Wild Die counts toward 'more than half the dice'."
    )
    multi_die_extra_needs_d6: bool = Field(
        False, description="B29: an Extra rolling several dice also needs the d6 check for a critical failure."
    )
    jokers_wild_opposition_recipients: Literal["side_wild_cards", "henchmen_only"] = Field(
        "side_wild_cards", description="B9: which NPC Wild Cards get a benny when the opposition is dealt a Joker."
    )
    movement_cost_mode: Literal["max_doubling", "stacking"] = Field(
        "max_doubling", description="B21: several cost-doubling conditions double once, or multiply."
    )
    ace_safety_cap: int = Field(100, ge=1, le=1000, description="Implementation limit: re-rolls of one aced die.")


Options = ActionDeckOptions
