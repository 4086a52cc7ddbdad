"""One payload model per event type the Trikus engine emits (`EVENT_PAYLOADS[type]`); each validates both the
event's `data` and the players' `redacted` copy (spec 8.2: a redacted copy leaves out dark-token counts others
may not see, unnoticed booms and undiscovered item traits, so those fields are optional or nullable here)."""

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from service.rules.trikus.constants import Tier
from service.rules.trikus.state_model import (
    Result,
    TrikusActivityStakes,
    TrikusItem,
    TrikusPairState,
    TrikusPendingChange,
    TrikusSide,
    TrikusTrait,
)

ActivityId = Annotated[str, Field(description="The activity.")]


class _Payload(BaseModel):
    # populate_by_name: engines set `from_`, the wire name stays `from`.
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class TrikusDie(_Payload, title="TrikusDie"):
    """One d10 as it was thrown (every die of a move is in exactly one event)."""

    sides: int = Field(description="10.")
    face: int = Field(description="The face (the 0 face is 10).")
    source: Literal["server", "verifiable", "table"] = Field(description="Where it came from.")
    seq: int | None = Field(description="Its position in a verifiable dice session.")
    purpose: str = Field(description="What it was thrown for.")


class TrikusActivityAborted(_Payload, title="TrikusActivityAborted"):
    activity_id: ActivityId
    phase: str = Field(description="The phase it was in.")
    reason: str | None = Field(description="The GM's reason.")


class TrikusActivityClosed(_Payload, title="TrikusActivityClosed"):
    activity_id: ActivityId
    kind: Literal["test", "pvp_test", "combat"] = Field(description="What it was.")
    outcome: str = Field(description="How it ended.")
    results: dict[str, Result] = Field(description="Results by character.")


class TrikusActivityOpened(_Payload, title="TrikusActivityOpened"):
    activity_id: ActivityId
    kind: Literal["test", "pvp_test", "combat"] = Field(description="What it is.")
    invited: list[str] = Field(description="Invited characters, seat order.")
    stakes: TrikusActivityStakes = Field(description="What is at stake.")
    gm_pool: int | None = Field(None, description="The GM's dice.")
    combat_difficulty: int | None = Field(None, description="Combat: the difficulty of hits.")
    powerful_opponent: bool | None = Field(None, description="Combat: against a powerful GM character.")
    round: int | None = Field(None, description="Combat: 0.")
    master_consequence_applied: bool | None = Field(None, description="Combat: false.")


class TrikusBadFeelingAnswered(_Payload, title="TrikusBadFeelingAnswered"):
    activity_id: ActivityId
    character_id: str = Field(description="Who stays out (L76–L86).")
    description: str = Field(description="What the character does instead.")
    intent: str = Field(description="What the player hopes for.")


class TrikusBattleMeditation(_Payload, title="TrikusBattleMeditation"):
    character_id: str = Field(description="Who used the item.")
    item_id: str = Field(description="The item.")
    beneficiaries: list[str] = Field(description="Who gained a morale die.")


class TrikusBoomAvailable(_Payload, title="TrikusBoomAvailable"):
    activity_id: ActivityId
    value: int = Field(description="A value that came up three times.")


class TrikusBoomClaimed(_Payload, title="TrikusBoomClaimed"):
    activity_id: ActivityId
    character_id: str = Field(description="Who claimed it.")
    value: int = Field(description="The triple's value.")
    narration: str = Field(description="What unexpected thing happens.")


class TrikusResultChange(_Payload, title="TrikusResultChange"):
    from_: Result = Field(alias="from", description="The result before.")
    to: Result = Field(description="The result now.")


class TrikusBoomReviewed(_Payload, title="TrikusBoomReviewed"):
    activity_id: ActivityId
    unclaimed: list[int] | None = Field(description="Booms nobody claimed; null for players who must notice them.")
    overrides: dict[str, TrikusResultChange] = Field(description="Results the GM changed, by character.")


class TrikusCatastrophe(_Payload, title="TrikusCatastrophe"):
    activity_id: ActivityId
    character_id: str = Field(description="Who suffers it.")
    cause: str = Field(description="e.g. boost_failure, knocked_out.")
    line_loss: bool = Field(description="A line is lost (advanced).")
    note: str = Field(description="What the GM does now.")


class TrikusCharacterFate(_Payload, title="TrikusCharacterFate"):
    """A character died or turned to the dark side."""

    character_id: str = Field(description="The character.")
    tier: Tier = Field(description="Its tier.")
    reason: str = Field(description="e.g. sacrifice, black_hole, absent_from_powerful_fight, dark_tokens.")


class TrikusCharacterPromoted(_Payload, title="TrikusCharacterPromoted"):
    character_id: str = Field(description="Who.")
    from_: Tier = Field(alias="from", description="The tier before.")
    to: Tier = Field(description="The new tier.")


class TrikusCombatAdjusted(_Payload, title="TrikusCombatAdjusted"):
    activity_id: ActivityId
    gm_pool_delta: int = Field(description="Dice added to (or taken from) the GM's pool.")
    gm_pool: int = Field(description="The GM's pool now.")
    powerful_opponent: bool = Field(description="Against a powerful GM character.")
    reason: str | None = Field(description="Why.")


class TrikusCombatDeclaration(_Payload, title="TrikusCombatDeclaration"):
    activity_id: ActivityId
    round: int = Field(description="The round.")
    character_id: str = Field(description="Who declared.")
    choice: Literal["attack", "defend"] = Field(description="The choice.")
    target_character_id: str | None = Field(description="defend: whom.")
    automatic: bool = Field(description="Made by the server (the only choice left).")


class TrikusCombatRollMade(_Payload, title="TrikusCombatRollMade"):
    """A combat-difficulty roll (advanced, L362–L392), or the GM waiving one."""

    activity_id: ActivityId
    round: int = Field(description="The round.")
    kind: Literal["attack", "gm"] = Field(description="Whose roll.")
    roller: str = Field(description="Who rolled.")
    target_character_id: str | None = Field(description="gm: the player targeted.")
    need: int = Field(description="The difficulty.")
    value: int | None = Field(description="The face; null when waived.")
    hit: bool = Field(description="It hit.")
    waived: bool = Field(description="Waived by the GM.")
    dice: list[TrikusDie] | None = Field(None, description="The die thrown.")


class TrikusCombatEnded(_Payload, title="TrikusCombatEnded"):
    activity_id: ActivityId
    outcome: str = Field(description="players_win, players_defeated or withdrawn.")
    rounds: int = Field(description="Rounds fought.")
    gm_pool: int = Field(description="The GM's dice left.")


class TrikusPools(_Payload, title="TrikusPools"):
    """A combat or round starting, or a test starting: who takes part and with how many dice."""

    activity_id: ActivityId
    gm_pool: int | None = Field(description="The GM's dice (null in a PvP test).")
    pools: dict[str, int] = Field(description="Dice by character.")
    participants: list[str] | None = Field(None, description="Who takes part.")
    round: int | None = Field(None, description="Combat: the round.")


class TrikusContestResolved(_Payload, title="TrikusContestResolved"):
    activity_id: ActivityId
    round: int | None = Field(description="Combat: the round; null in a test.")
    results: dict[str, Result] = Field(description="Results by character.")
    final_values: dict[str, int | None] = Field(description="The deciding value by character.")


class TrikusDarkSideAcknowledged(_Payload, title="TrikusDarkSideAcknowledged"):
    prompt_id: str = Field(description="The prompt answered.")
    character_id: str = Field(description="Whose dark side.")
    side_index: int = Field(description="Which dark side was acted out.")
    side: str = Field(description="Its text.")
    text: str | None = Field(description="How it was acted out.")


class TrikusDarkTokenAdded(_Payload, title="TrikusDarkTokenAdded"):
    character_id: str = Field(description="Who received it (GM-only when counts are hidden).")
    source: str = Field(description="e.g. boost_failure, sith_artifact.")
    active: int = Field(description="Active dark tokens now.")
    received_total: int = Field(description="Received in all.")


class TrikusDarkTokenSpent(_Payload, title="TrikusDarkTokenSpent"):
    id: str = Field(description="The acknowledgement prompt it opens.")
    character_id: str = Field(description="Whose token the GM spent.")
    note: str | None = Field(description="The GM's note.")
    active: int | None = Field(None, description="Active dark tokens now (absent for players when hidden).")
    used_total: int | None = Field(None, description="Spent in all (absent for players when hidden).")


class TrikusCharacterInActivity(_Payload, title="TrikusCharacterInActivity"):
    """A character escaped, kept a success, or was offered or passed a last chance."""

    activity_id: ActivityId
    character_id: str = Field(description="The character.")


class TrikusExtrasCommitted(_Payload, title="TrikusExtrasCommitted"):
    activity_id: ActivityId
    character_id: str = Field(description="Who.")
    morale: int = Field(description="Morale dice spent.")
    light: int = Field(description="Light tokens spent as dice.")
    boost: bool = Field(description="Boosted.")
    morale_dice_left: int = Field(description="Morale dice left.")
    light_tokens_left: int = Field(description="Light tokens left.")


class TrikusGmNoteAdded(_Payload, title="TrikusGmNoteAdded"):
    id: str = Field(description="The note (GM-only).")
    character_id: str | None = Field(description="The character it is about.")
    text: str = Field(description="The note.")


class TrikusItemChanged(_Payload, title="TrikusItemChanged"):
    """An item depleted, lost, renewed or back (equipment, A43)."""

    character_id: str = Field(description="The owner.")
    item_id: str = Field(description="The item.")
    reason: str | None = Field(None, description="Why (e.g. single_use, black_hole).")


class TrikusItemGiven(_Payload, title="TrikusItemGiven"):
    character_id: str = Field(description="Who received it.")
    item: TrikusItem = Field(description="The item (players: undiscovered traits as unknown).")


class TrikusJoined(_Payload, title="TrikusJoined"):
    activity_id: ActivityId
    character_id: str = Field(description="Who joined.")
    line_index: int | None = Field(description="The line to cross.")
    morale: int | None = Field(None, description="Test: morale dice.")
    light: int | None = Field(None, description="Test: light tokens as dice.")
    boost: bool | None = Field(None, description="Test: boost.")
    item_ids: list[str] | None = Field(None, description="Test: items.")
    pool: int | None = Field(None, description="Test: the pool.")
    line_dice: int | None = Field(None, description="Combat: the line's dice.")
    allies: int | None = Field(None, description="Combat: ally dice.")


class TrikusKnockedOut(_Payload, title="TrikusKnockedOut"):
    activity_id: ActivityId
    round: int = Field(description="The round.")
    character_id: str = Field(description="Who lost the last die.")


class TrikusLightDieSpent(_Payload, title="TrikusLightDieSpent"):
    activity_id: ActivityId
    character_id: str = Field(description="Who.")
    count: int = Field(description="Tokens spent.")
    unthrown: int = Field(description="Dice left to throw.")
    light_tokens_left: int = Field(description="Light tokens left.")


class TrikusLightToken(_Payload, title="TrikusLightToken"):
    """A light token awarded by the GM, or spent on a fact (L236–L240)."""

    character_id: str = Field(description="Who.")
    active: int = Field(description="Light tokens now.")
    reason: str | None = Field(None, description="awarded: why.")
    text: str | None = Field(None, description="fact: the fact established.")


class TrikusLineCrossed(_Payload, title="TrikusLineCrossed"):
    character_id: str = Field(description="Whose line.")
    line_index: int = Field(description="The line.")
    line_dice: int = Field(description="Its dice.")


class TrikusLineLost(_Payload, title="TrikusLineLost"):
    character_id: str = Field(description="Whose line.")
    line_index: int = Field(description="The line.")
    returns_after_resets: int = Field(description="Party resets until it returns.")


class TrikusLostLineChoiceNeeded(_Payload, title="TrikusLostLineChoiceNeeded"):
    activity_id: ActivityId
    character_id: str = Field(description="Who must choose.")
    candidates: list[int] = Field(description="Lines to choose from.")


class TrikusMasterConsequence(_Payload, title="TrikusMasterConsequence"):
    activity_id: ActivityId
    victim: str = Field(description="Who was knocked out.")
    master: str | None = Field(description="The Master who pays: the first active Master in seat order.")
    masters: list[str] = Field(description="Every active Master, seat order.")
    warnings: list[Literal["party_not_one_per_tier"]] = Field(description="The party is not one per tier.")


class TrikusMoraleChanged(_Payload, title="TrikusMoraleChanged"):
    character_id: str = Field(description="Who.")
    morale_dice: int = Field(description="Morale dice now.")
    reason: str = Field(description="The result that changed it, or its source.")


class TrikusNarration(_Payload, title="TrikusNarration"):
    character_id: str | None = Field(description="The character it is about.")
    by: Literal["gm", "player"] = Field(description="Who narrated.")
    activity_id: str | None = Field(description="The open activity.")
    text: str = Field(description="The narration.")


class TrikusNegotiationAnswered(_Payload, title="TrikusNegotiationAnswered"):
    activity_id: ActivityId
    proposer: str = Field(description="Who proposed.")
    responder: str = Field(description="Who answered.")
    accept: bool = Field(description="Accepted.")


class TrikusNegotiationProposed(_Payload, title="TrikusNegotiationProposed"):
    activity_id: ActivityId
    character_id: str = Field(description="Who proposes.")
    responder: str = Field(description="Who answers.")
    die_id: int = Field(description="The die to re-throw.")
    value: int = Field(description="Its value.")


class TrikusNegotiationRethrown(_Payload, title="TrikusNegotiationRethrown"):
    activity_id: ActivityId
    proposer: str = Field(description="Who proposed.")
    die_id: int = Field(description="The die.")
    old_value: int = Field(description="Its value before.")
    value: int = Field(description="Its new value.")
    dice: list[TrikusDie] = Field(description="The die thrown.")
    pair_state: TrikusPairState = Field(description="The pair now.")


class TrikusNewBeginnerDue(_Payload, title="TrikusNewBeginnerDue"):
    replaces: str = Field(description="The character lost.")
    tier: Literal["beginner"] = Field(description="Always beginner (L300).")


class TrikusPairResolved(_Payload, title="TrikusPairResolved"):
    activity_id: ActivityId
    a: str = Field(description="Side a.")
    b: str = Field(description="Side b.")
    outcome: str = Field(description="How the pair ended.")
    winner: str | None = Field(description="The side that won.")
    final_value: int | None = Field(description="The deciding value.")


class TrikusParticipantLeft(_Payload, title="TrikusParticipantLeft"):
    activity_id: ActivityId
    character_id: str = Field(description="Who left.")
    reason: str = Field(description="Why.")


class TrikusPartyReset(_Payload, title="TrikusPartyReset"):
    reset_count: int = Field(description="Resets so far.")
    forced: bool = Field(description="Forced by the GM.")
    reason: str | None = Field(description="Why.")
    lines_before: dict[str, list[str]] = Field(description="Line states before, by character.")
    lines_after: dict[str, list[str]] = Field(description="Line states after, by character.")


class TrikusPoolChanged(_Payload, title="TrikusPoolChanged"):
    activity_id: ActivityId
    character_id: str = Field(description="Whose pool.")
    morale: int | None = Field(None, description="Morale dice committed now.")
    light: int | None = Field(None, description="Light tokens committed now.")
    boost: bool | None = Field(None, description="Boost added.")
    name: str | None = Field(None, description="The character's name.")


class TrikusRoundDeclared(_Payload, title="TrikusRoundDeclared"):
    activity_id: ActivityId
    round: int = Field(description="The round.")
    character_id: str = Field(description="Who.")
    morale: int = Field(description="Morale dice.")
    light: int = Field(description="Light tokens as dice.")
    boost: bool = Field(description="Boost.")
    item_ids: list[str] = Field(description="Items.")
    pool: int = Field(description="The round's pool.")


class TrikusRoundHits(_Payload, title="TrikusRoundHits"):
    activity_id: ActivityId
    round: int = Field(description="The round.")
    gm_dice_lost: int = Field(description="Dice the GM lost.")
    gm_pool: int = Field(description="The GM's dice now.")
    players_hit: dict[str, Literal["ally", "line_die", "nothing_left"]] = Field(
        description="By character hit: the die it lost (an ally is a dead ally, L180), or nothing left (A22)."
    )
    pools: dict[str, int] = Field(description="Dice left by character.")


class TrikusSessionStarted(_Payload, title="TrikusSessionStarted"):
    session_number: int = Field(description="The new session.")


class TrikusSidesSet(_Payload, title="TrikusSidesSet"):
    character_id: str = Field(description="Who.")
    light_sides: list[TrikusSide] = Field(description="Light sides.")
    dark_sides: list[TrikusSide] = Field(description="Dark sides (hidden from the GM under optional rule 2).")


class TrikusSuccessGivenUp(_Payload, title="TrikusSuccessGivenUp"):
    activity_id: ActivityId
    character_id: str = Field(description="Who gave it up.")
    cancels: str = Field(description="Whose failure it cancels.")


class TrikusSuccessionQueued(_Payload, title="TrikusSuccessionQueued"):
    lost: str = Field(description="The character lost.")
    lost_tier: Tier = Field(description="Its tier.")
    pending_changes: list[TrikusPendingChange] = Field(description="Promotions and new Beginners queued.")
    composition_standard: bool = Field(description="The party was one per tier (else the GM confirms).")


class TrikusTestResolved(_Payload, title="TrikusTestResolved"):
    activity_id: ActivityId
    results: dict[str, Result] = Field(description="Results by character.")
    final_values: dict[str, int | None] = Field(description="The deciding value by character.")
    cancelled: dict[str, Result] = Field(description="Results changed by cancellation.")


class TrikusThrowEvent(_Payload, title="TrikusThrowEvent"):
    """A throw submitted to the open wave (no value yet), or withdrawn when its pair ended."""

    activity_id: ActivityId
    wave: int = Field(description="The wave.")
    thrower: str = Field(description='"gm" or a character.')
    waiting_for: list[str] | None = Field(None, description="submitted: who still has to throw in this wave.")


class TrikusTraitRevealed(_Payload, title="TrikusTraitRevealed"):
    character_id: str = Field(description="The owner.")
    item_id: str = Field(description="The item.")
    trait: TrikusTrait = Field(description="The trait, now known.")


class TrikusWaveThrow(_Payload, title="TrikusWaveThrow"):
    thrower: str = Field(description='"gm" or a character.')
    value: int = Field(description="The face.")
    die_id: int = Field(description="The die's number in the contest.")


class TrikusWavePair(_Payload, title="TrikusWavePair"):
    a: str = Field(description="Side a.")
    b: str = Field(description="Side b.")
    state: TrikusPairState = Field(description="The pair after the wave.")


class TrikusWaveRevealed(_Payload, title="TrikusWaveRevealed"):
    activity_id: ActivityId
    wave: int = Field(description="The wave.")
    dice: list[TrikusDie] = Field(description="Its dice: the GM's first, then seat order.")
    throws: list[TrikusWaveThrow] = Field(description="Who threw what.")
    pairs: list[TrikusWavePair] = Field(description="The pairs after it.")
    unthrown: dict[str, int] = Field(description="Dice left, by thrower.")


EVENT_PAYLOADS: dict[str, type[BaseModel]] = {
    "activity_aborted": TrikusActivityAborted,
    "activity_closed": TrikusActivityClosed,
    "activity_opened": TrikusActivityOpened,
    "bad_feeling": TrikusBadFeelingAnswered,
    "battle_meditation": TrikusBattleMeditation,
    "boom_available": TrikusBoomAvailable,
    "boom_claimed": TrikusBoomClaimed,
    "boom_reviewed": TrikusBoomReviewed,
    "catastrophe": TrikusCatastrophe,
    "character_died": TrikusCharacterFate,
    "character_promoted": TrikusCharacterPromoted,
    "character_turned_dark": TrikusCharacterFate,
    "combat_adjusted": TrikusCombatAdjusted,
    "combat_declaration": TrikusCombatDeclaration,
    "combat_difficulty_roll": TrikusCombatRollMade,
    "combat_ended": TrikusCombatEnded,
    "combat_started": TrikusPools,
    "contest_resolved": TrikusContestResolved,
    "dark_side_acknowledged": TrikusDarkSideAcknowledged,
    "dark_token_added": TrikusDarkTokenAdded,
    "dark_token_spent": TrikusDarkTokenSpent,
    "escaped": TrikusCharacterInActivity,
    "extras_committed": TrikusExtrasCommitted,
    "gm_note": TrikusGmNoteAdded,
    "item_depleted": TrikusItemChanged,
    "item_given": TrikusItemGiven,
    "item_lost": TrikusItemChanged,
    "item_renewed": TrikusItemChanged,
    "joined": TrikusJoined,
    "knocked_out": TrikusKnockedOut,
    "last_chance_offered": TrikusCharacterInActivity,
    "last_chance_passed": TrikusCharacterInActivity,
    "light_die_spent": TrikusLightDieSpent,
    "light_token_awarded": TrikusLightToken,
    "light_token_fact": TrikusLightToken,
    "line_crossed": TrikusLineCrossed,
    "line_lost": TrikusLineLost,
    "lost_line_choice_needed": TrikusLostLineChoiceNeeded,
    "master_consequence": TrikusMasterConsequence,
    "morale_changed": TrikusMoraleChanged,
    "narration": TrikusNarration,
    "negotiation_answered": TrikusNegotiationAnswered,
    "negotiation_proposed": TrikusNegotiationProposed,
    "negotiation_rethrown": TrikusNegotiationRethrown,
    "new_beginner_due": TrikusNewBeginnerDue,
    "pair_resolved": TrikusPairResolved,
    "participant_left": TrikusParticipantLeft,
    "party_reset": TrikusPartyReset,
    "pool_changed": TrikusPoolChanged,
    "roll_waived": TrikusCombatRollMade,
    "round_contest_started": TrikusPools,
    "round_declared": TrikusRoundDeclared,
    "round_hits": TrikusRoundHits,
    "round_started": TrikusPools,
    "session_started": TrikusSessionStarted,
    "sides_set": TrikusSidesSet,
    "success_given_up": TrikusSuccessGivenUp,
    "success_kept": TrikusCharacterInActivity,
    "succession_queued": TrikusSuccessionQueued,
    "test_resolved": TrikusTestResolved,
    "test_started": TrikusPools,
    "throw_submitted": TrikusThrowEvent,
    "throw_withdrawn": TrikusThrowEvent,
    "trait_revealed": TrikusTraitRevealed,
    "wave_revealed": TrikusWaveRevealed,
}
