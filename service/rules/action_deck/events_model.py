"""One payload model per event type the Action Deck engine emits (`EVENT_PAYLOADS[type]`); each validates both
the event's `data` and the players' `redacted` copy (what the GM's side holds, an NPC's dice and a sealed
deck order are left out of it: those fields are optional here)."""

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from service.rules.action_deck.state_model import (
    ActionDeckDeclared,
    ActionDeckResult,
    ActionDeckSegmentRecord,
    ActionDeckTestRecord,
)

CharacterId = Annotated[str, Field(description="The character concerned.")]
Round = Annotated[int, Field(description="The encounter round.")]
Card = Annotated[str, Field(description="A card code (`AS`, `10H`, `JK-R`).")]
Bennies = Annotated[dict[str, int], Field(description="Player id → bennies now.")]
TestPayload = Annotated[
    ActionDeckTestRecord, Field(description="The test as it stands (players: an NPC's or group's outcome only).")
]


class _Payload(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ActionDeckLoggedDie(_Payload, title="ActionDeckLoggedDie"):
    """One die as it was thrown (every die of a move is in exactly one event)."""

    sides: int = Field(description="The die's size.")
    face: int = Field(description="The face that came up.")
    source: Literal["server", "verifiable", "table"] = Field(description="Where it came from.")
    seq: int | None = Field(description="Its position in a verifiable dice session.")
    purpose: str = Field(description="What it was rolled for (trait_test:<trait>, running_die, deck_shuffle:N…).")


Dice = Annotated[list[ActionDeckLoggedDie], Field(description="The dice this move rolled.")]


class ActionDeckActionTaken(_Payload, title="ActionDeckActionTaken"):
    character_id: CharacterId
    action_index: int = Field(description="The declared action taken.")
    what: str = Field(description="What it was.")


class ActionDeckBenniesAwarded(_Payload, title="ActionDeckBenniesAwarded"):
    player_ids: list[str] = Field(description="Who was rewarded.")
    count: int = Field(description="Bennies each.")
    reason: str | None = Field(description="Why.")
    bennies: Bennies


class ActionDeckBennySpent(_Payload, title="ActionDeckBennySpent"):
    """A benny spent: a player's (with what is left), or the GM side's (players see only that it was)."""

    character_id: CharacterId
    use: str = Field(description="reroll_trait, reroll_damage, unshake, soak, draw_card or regain_power.")
    player_id: str | None = Field(None, description="The paying player.")
    bennies: int | None = Field(None, description="Bennies left to the payer (GM side: GM only).")
    paid_by: Literal["gm"] | None = Field(None, description="The GM side paid.")
    npc_id: str | None = Field(None, description="GM only: the NPC Wild Card that paid from its own.")
    gm_pool: bool | None = Field(None, description="GM only: paid from the GM pool.")


class ActionDeckCardCalled(_Payload, title="ActionDeckCardCalled"):
    character_id: CharacterId
    card: Card
    round: Round


class ActionDeckCardKept(_Payload, title="ActionDeckCardKept"):
    character_id: CharacterId
    card: Card
    reason: Literal["chosen", "default_highest"] = Field(description="Chosen, or the highest when the window closed.")


class ActionDeckCardsDealt(_Payload, title="ActionDeckCardsDealt"):
    round: Round
    cards: dict[str, str] = Field(description="Character id → card (players: concealed attackers' left out).")
    without_card: list[str] = Field(description="Participants dealt nothing (holding, surprised, eliminated).")
    on_hold: list[str] = Field(description="Participants on hold (players: concealed attackers left out).")


class ActionDeckCharacterRef(_Payload, title="ActionDeckCharacterRef"):
    """A character eliminated, unshaken, or its hold lapsed."""

    character_id: CharacterId


class ActionDeckConditionSet(_Payload, title="ActionDeckConditionSet"):
    """Only the conditions changed are present (players see an NPC's shaken, stunned, eliminated only)."""

    character_id: CharacterId
    shaken: bool | None = Field(None, description="Shaken.")
    stunned: bool | None = Field(None, description="Stunned.")
    fatigue: int | None = Field(None, description="Fatigue.")
    wounds: int | None = Field(None, description="Wounds.")
    power_points: int | None = Field(None, description="Power points.")
    eliminated: bool | None = Field(None, description="Out of the fight.")
    reason: str | None = Field(None, description="The GM's reason.")


class ActionDeckDamageRolled(_Payload, title="ActionDeckDamageRolled"):
    test: TestPayload
    dice: list[ActionDeckLoggedDie] | None = Field(None, description="The damage dice (players: not an NPC's).")


class ActionDeckDeckShuffled(_Payload, title="ActionDeckDeckShuffled"):
    """A shuffle, or (deck_order / dice_unsealed) its order: sealed until dealing from it is over (§8)."""

    reason: str = Field(description="encounter_start, joker_round or draw_pile_empty.")
    cards: int = Field(description="Cards shuffled.")
    shuffle_count: int = Field(description="Shuffles so far.")
    seal: str | None = Field(None, description="The sealed dice's purpose (`deck_shuffle:N`).")
    starting_order: list[str] | None = Field(None, description="The cards before shuffling (sealed).")
    order: list[str] | None = Field(None, description="The order after shuffling (sealed; null for a table deck).")
    dice: list[ActionDeckLoggedDie] | None = Field(None, description="The shuffle's dice (sealed).")
    why: str | None = Field(None, description="dice_unsealed: why the order may be shown now.")
    shuffle_dice: list[ActionDeckLoggedDie] | None = Field(None, description="dice_unsealed: the shuffle's dice.")


class ActionDeckRoundRef(_Payload, title="ActionDeckRoundRef"):
    round: Round


class ActionDeckEncounterEnded(_Payload, title="ActionDeckEncounterEnded"):
    encounter_id: str = Field(description="The encounter.")
    rounds: int = Field(description="Rounds fought.")


class ActionDeckEncounterStarted(_Payload, title="ActionDeckEncounterStarted"):
    encounter_id: str = Field(description="The encounter.")
    participants: list[str] = Field(description="Participants (players: concealed attackers left out).")
    groups: dict[str, list[str]] = Field(description="Group id → Extras sharing a card.")
    surprise: bool = Field(description="It opens with a surprise round.")


class ActionDeckExtraCardDrawn(_Payload, title="ActionDeckExtraCardDrawn"):
    character_id: CharacterId
    card: Card
    candidates: list[str] = Field(description="The cards to choose from now.")
    paid_by: dict[str, str] | Literal["gm"] = Field(description="`{player_id}` or `gm`.")


class ActionDeckGmBenniesDiscarded(_Payload, title="ActionDeckGmBenniesDiscarded"):
    benny_pool: int = Field(description="GM pool bennies discarded (GM only).")
    npc_bennies: dict[str, int] = Field(description="NPC id → bennies discarded.")


class ActionDeckGmPoolSet(_Payload, title="ActionDeckGmPoolSet"):
    benny_pool: int = Field(description="The GM pool at the session's start (GM only).")


class ActionDeckHazardCriticalFailure(_Payload, title="ActionDeckHazardCriticalFailure"):
    character_id: CharacterId
    consequence: str = Field(description="fall, no_breath or fatigue.")
    fatigue: int = Field(description="Fatigue now.")


class ActionDeckHazardFailed(_Payload, title="ActionDeckHazardFailed"):
    character_id: CharacterId
    test_id: str = Field(description="The hazard test.")
    moved: bool = Field(description="Always false: the move did not happen.")


class ActionDeckHoldEvent(_Payload, title="ActionDeckHoldEvent"):
    """A hold declared, or lost to Shaken/Stunned."""

    character_id: CharacterId
    round: Round


class ActionDeckInterruptDeclared(_Payload, title="ActionDeckInterruptDeclared"):
    holder: str = Field(description="Who interrupts.")
    target: str = Field(description="Whose turn.")
    test: bool = Field(description="An opposed Athletics test decides it.")
    reason: str | None = Field(None, description="`joker`: a Joker holder needs no test.")


class ActionDeckInterruptResolved(_Payload, title="ActionDeckInterruptResolved"):
    holder: str = Field(description="Who interrupted.")
    target: str = Field(description="Whose turn.")
    outcome: Literal["holder_first", "target_first", "simultaneous"] = Field(description="Who acts first.")


class ActionDeckItemReadied(_Payload, title="ActionDeckItemReadied"):
    character_id: CharacterId
    item: str = Field(description="The item.")
    put_away: bool = Field(description="Put away rather than readied.")
    free: bool = Field(description="A free action (else a declared action).")
    at_hand: bool = Field(description="The item was at hand.")


class ActionDeckJokersWild(_Payload, title="ActionDeckJokersWild"):
    """A Joker dealt: the party's players, or the opposition's Wild Cards, gain a benny."""

    character_id: CharacterId
    side: str = Field(description="The Joker holder's side.")
    bennies: dict[str, int] | None = Field(None, description="Party: player id → bennies now.")
    npc_recipients: list[str] | None = Field(None, description="GM only: the NPCs who gained one.")
    gm_pool: int | None = Field(None, description="GM only: the GM pool now.")
    npc_bennies: dict[str, int] | None = Field(None, description="GM only: NPC id → bennies now.")


class ActionDeckJumped(_Payload, title="ActionDeckJumped"):
    character_id: CharacterId
    direction: Literal["long", "high"] = Field(description="The jump.")
    distance: float = Field(description="Inches jumped.")
    test_id: str | None = Field(description="The Athletics test, if any.")


class ActionDeckMoved(_Payload, title="ActionDeckMoved"):
    character_id: CharacterId
    cost: float = Field(description="Inches of Pace used.")
    segments: list[ActionDeckSegmentRecord] | None = Field(None, description="The move.")
    movement_used: float | None = Field(description="Inches used this turn (null outside a turn).")
    turn_pace: int | None = Field(description="The turn's Pace (null outside a turn).")
    jump: bool | None = Field(None, description="The move was a jump.")
    hazard_test: str | None = Field(None, description="The hazard test that allowed it.")


class ActionDeckNpcEnteredPlay(_Payload, title="ActionDeckNpcEnteredPlay"):
    character_id: CharacterId
    bennies: int | None = Field(None, description="GM only: its bennies.")


class ActionDeckNpcLeftPlay(_Payload, title="ActionDeckNpcLeftPlay"):
    character_id: CharacterId
    discarded: int | None = Field(None, description="GM only: bennies discarded.")


class ActionDeckOpposedAwaitingDefender(_Payload, title="ActionDeckOpposedAwaitingDefender"):
    opposed_id: str = Field(description="The opposed test.")
    defender_id: str = Field(description="Who must defend.")
    active_total: int = Field(description="The active party's locked total.")


class ActionDeckOpposedResolved(_Payload, title="ActionDeckOpposedResolved"):
    opposed_id: str = Field(description="The opposed test.")
    purpose: Literal["contest", "interrupt"] = Field(description="What it decided.")
    active_test: str = Field(description="The active party's test.")
    defender_test: str | None = Field(description="The defender's test (none when the active party failed).")
    winner: Literal["active", "defender", "tie"] = Field(description="Who won.")
    winner_id: str | None = Field(description="The winner's id (null for a tie).")
    raises: int = Field(description="Raises, counted from the loser's result.")
    active_total: int = Field(description="The active party's total.")
    defender_total: int | None = Field(description="The defender's total.")
    active_failed: bool = Field(description="The active party missed TN 4; the defender did not roll.")


class ActionDeckOpposedTestStarted(_Payload, title="ActionDeckOpposedTestStarted"):
    id: str = Field(description="The opposed test.")
    purpose: Literal["contest", "interrupt"] = Field(description="What it decides.")
    active_id: str = Field(description="The active party.")
    trait: str = Field(description="Its trait.")
    defender_id: str = Field(description="The defender.")
    defender_trait: str = Field(description="Its trait.")
    requires_tn: bool = Field(description="The active party must reach TN 4.")


class ActionDeckParticipantAdded(_Payload, title="ActionDeckParticipantAdded"):
    character_id: CharacterId
    from_round: int = Field(description="The first round it is dealt in.")


class ActionDeckPowerRegained(_Payload, title="ActionDeckPowerRegained"):
    character_id: CharacterId
    power_points: int = Field(description="Power points now.")


class ActionDeckRan(_Payload, title="ActionDeckRan"):
    character_id: CharacterId
    run_roll: int = Field(description="The running die (no ace).")
    turn_pace: int = Field(description="The turn's Pace now.")
    dice: Dice


class ActionDeckRanOutsideCombat(_Payload, title="ActionDeckRanOutsideCombat"):
    """AD-E3: running outside combat, no die rolled."""

    character_id: CharacterId
    pace: int = Field(description="The sheet's Pace.")
    running_die: int = Field(description="The running die's sides.")
    vigor_die: int = Field(description="The Vigor die's sides.")
    inches_per_turn: int = Field(description="2 × (Pace + the running die's top face).")
    minutes: float = Field(description="Half the Vigor die, in minutes.")


class ActionDeckRoundEnded(_Payload, title="ActionDeckRoundEnded"):
    round: Round
    reshuffle: bool = Field(description="A Joker came up: the deck is rebuilt and shuffled.")
    holding: list[str] = Field(description="Holds carried into the next round.")


class ActionDeckSessionClosed(_Payload, title="ActionDeckSessionClosed"):
    session: int = Field(description="The session.")
    discarded: dict[str, int] = Field(description="Player id → bennies discarded.")


class ActionDeckSessionOpened(_Payload, title="ActionDeckSessionOpened"):
    session: int = Field(description="The session.")
    party_size: int = Field(description="The GM pool's size.")
    bennies: Bennies


class ActionDeckSoaked(_Payload, title="ActionDeckSoaked"):
    character_id: CharacterId
    wounds_avoided: int = Field(description="Wounds removed (the GM's ruling).")
    shaken_avoided: bool = Field(description="Shaken removed (the GM's ruling).")
    result_pending: bool = Field(description="A player soaked: the GM still rules what it avoided.")


class ActionDeckSurpriseAttackerRevealed(_Payload, title="ActionDeckSurpriseAttackerRevealed"):
    character_id: CharacterId
    reason: str = Field(description="acted, eliminated, surprise_round_over or encounter_ended.")
    card: str | None = Field(description="Its card.")
    on_hold: bool = Field(description="Still on hold.")
    joker_active: bool = Field(description="Holds a Joker.")
    group: str | None = Field(description="Its group.")


class ActionDeckTestFinal(_Payload, title="ActionDeckTestFinal"):
    test_id: str = Field(description="The test.")
    roller_id: str = Field(description="Who rolled.")
    reason: str = Field(description="accepted, auto_accepted, defender_rolls or critical_failure.")
    result: ActionDeckResult = Field(description="The result that counts.")


class ActionDeckTestRolled(_Payload, title="ActionDeckTestRolled"):
    """A trait test rolled, rerolled, or its Wild Die substituted."""

    test: TestPayload
    dice: list[ActionDeckLoggedDie] | None = Field(None, description="The dice (players: not an NPC's).")
    paid_by: dict[str, str | bool] | None = Field(
        None, description="Rerolls: `{player_id}`, `{npc_id}`, `{gm_pool: true}` or `{ability}`."
    )
    index: int | None = Field(None, description="Substitutions: the trait die the Wild Die replaces.")


class ActionDeckTurnDeclared(_Payload, title="ActionDeckTurnDeclared"):
    character_id: CharacterId
    actions: list[ActionDeckDeclared] = Field(description="The declared actions.")
    multi_action_penalty: int = Field(description="The turn's multi-action penalty.")
    run_roll: int | None = Field(description="The running die, when running was declared.")
    turn_pace: int = Field(description="The turn's Pace.")
    dice: Dice


class ActionDeckTurnEnded(_Payload, title="ActionDeckTurnEnded"):
    character_id: CharacterId
    round: Round


class ActionDeckTurnRedeclared(_Payload, title="ActionDeckTurnRedeclared"):
    character_id: CharacterId
    actions: list[ActionDeckDeclared] = Field(description="Taken and new actions.")
    multi_action_penalty: int = Field(description="The penalty (never lower than before).")


class ActionDeckTurnResumed(_Payload, title="ActionDeckTurnResumed"):
    character_id: CharacterId
    may_redeclare: bool = Field(description="It may declare its remaining actions anew.")


class ActionDeckTurnStarted(_Payload, title="ActionDeckTurnStarted"):
    character_id: CharacterId
    round: Round
    via: str = Field(description="card, joker, hold, interrupt or interrupt_lost.")


class ActionDeckTurnSuspended(_Payload, title="ActionDeckTurnSuspended"):
    character_id: CharacterId
    by: str = Field(description="Who interrupted.")


class ActionDeckWoundsApplied(_Payload, title="ActionDeckWoundsApplied"):
    character_id: CharacterId
    wounds: int | None = Field(None, description="Wounds dealt (players: not an NPC's).")
    total: int | None = Field(None, description="Wounds now (players: not an NPC's).")


EVENT_PAYLOADS: dict[str, type[BaseModel]] = {
    "action_taken": ActionDeckActionTaken,
    "bennies_awarded": ActionDeckBenniesAwarded,
    "benny_spent": ActionDeckBennySpent,
    "card_called": ActionDeckCardCalled,
    "card_kept": ActionDeckCardKept,
    "cards_dealt": ActionDeckCardsDealt,
    "character_eliminated": ActionDeckCharacterRef,
    "condition_set": ActionDeckConditionSet,
    "damage_rolled": ActionDeckDamageRolled,
    "deck_order": ActionDeckDeckShuffled,
    "deck_shuffled": ActionDeckDeckShuffled,
    "dice_unsealed": ActionDeckDeckShuffled,
    "draw_window_closed": ActionDeckRoundRef,
    "encounter_ended": ActionDeckEncounterEnded,
    "encounter_started": ActionDeckEncounterStarted,
    "extra_card_drawn": ActionDeckExtraCardDrawn,
    "gm_bennies_discarded": ActionDeckGmBenniesDiscarded,
    "gm_pool_set": ActionDeckGmPoolSet,
    "hazard_critical_failure": ActionDeckHazardCriticalFailure,
    "hazard_failed": ActionDeckHazardFailed,
    "hold_declared": ActionDeckHoldEvent,
    "hold_lapsed": ActionDeckCharacterRef,
    "hold_lost": ActionDeckHoldEvent,
    "interrupt_declared": ActionDeckInterruptDeclared,
    "interrupt_resolved": ActionDeckInterruptResolved,
    "item_readied": ActionDeckItemReadied,
    "jokers_wild": ActionDeckJokersWild,
    "jumped": ActionDeckJumped,
    "moved": ActionDeckMoved,
    "npc_entered_play": ActionDeckNpcEnteredPlay,
    "npc_left_play": ActionDeckNpcLeftPlay,
    "opposed_awaiting_defender": ActionDeckOpposedAwaitingDefender,
    "opposed_resolved": ActionDeckOpposedResolved,
    "opposed_test_started": ActionDeckOpposedTestStarted,
    "participant_added": ActionDeckParticipantAdded,
    "power_regained": ActionDeckPowerRegained,
    "ran": ActionDeckRan,
    "ran_outside_combat": ActionDeckRanOutsideCombat,
    "round_ended": ActionDeckRoundEnded,
    "session_closed": ActionDeckSessionClosed,
    "session_opened": ActionDeckSessionOpened,
    "soaked": ActionDeckSoaked,
    "surprise_attacker_revealed": ActionDeckSurpriseAttackerRevealed,
    "test_final": ActionDeckTestFinal,
    "test_rerolled": ActionDeckTestRolled,
    "trait_test_rolled": ActionDeckTestRolled,
    "turn_declared": ActionDeckTurnDeclared,
    "turn_ended": ActionDeckTurnEnded,
    "turn_redeclared": ActionDeckTurnRedeclared,
    "turn_resumed": ActionDeckTurnResumed,
    "turn_started": ActionDeckTurnStarted,
    "turn_suspended": ActionDeckTurnSuspended,
    "unshaken": ActionDeckCharacterRef,
    "wild_die_substituted": ActionDeckTestRolled,
    "wounds_applied": ActionDeckWoundsApplied,
}
