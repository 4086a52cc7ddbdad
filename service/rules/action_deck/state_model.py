"""The documented shape of an Action Deck table as `view()` returns it (spec §3), and of a character sheet.

Nobody sees the undealt order: the deck shows `draw_pile_count` only. Players also lose the GM's side
(`gm`: pool and NPC bennies), `seq` and `id_salt`; an NPC's sheet shrinks to id, name, side, shaken, stunned
and eliminated; an NPC's or group's test shows only its outcome (id, kind, roller_id, group, purpose, state,
tn, result, opposed_id, role); concealed surprise attackers are left out of the encounter, the deck's cards
in play and `awaiting`.
"""

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from service.rules.action_deck.options import ActionDeckOptions
from service.rules.awaiting import AwaitingEntry


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ActionDeckDie(_Model, title="ActionDeckDie"):
    """A trait die as the sheet holds it: d4…d12, or d12+N."""

    sides: int = Field(description="4, 6, 8, 10 or 12.")
    bonus: int = Field(description="The +N of a d12+N, else 0.")


class ActionDeckWeaponRecord(_Model, title="ActionDeckWeaponRecord"):
    name: str = Field(description="The weapon (attacks and damage name it).")
    damage: list[int] = Field(description="Damage dice, as their sides.")
    damage_bonus: int = Field(description="Flat damage bonus.")
    rate_of_fire: int = Field(description="Trait dice an attack with it may roll.")
    raise_bonus: int = Field(description="Damage added after an attack with a raise.")


class ActionDeckGearRecord(_Model, title="ActionDeckGearRecord"):
    name: str = Field(description="The item.")
    at_hand: bool = Field(description="Readied free (two a turn); otherwise it takes an action.")


class ActionDeckCharacter(_Model, title="ActionDeckCharacter"):
    """A character (spec §3.5) as the API returns it. For players an NPC shows only id, name, side, shaken,
    stunned and eliminated."""

    id: str | None = Field(None, description="The character's id (absent while the sheet is being built).")
    name: str = Field(description="The character's name.")
    kind: Literal["wild_card", "extra"] | None = Field(None, description="Wild Card (Wild Die, three wounds) or Extra.")
    side: Literal["party", "party_ally", "opposition", "neutral"] = Field(
        description="Who gets Jokers Wild bennies (§4.15)."
    )
    attributes: dict[str, ActionDeckDie] | None = Field(None, description="Attribute → die.")
    skills: dict[str, ActionDeckDie] | None = Field(None, description="Skill → die; a missing one is improvised.")
    pace: int | None = Field(None, description="Inches per turn.")
    running_die: int | None = Field(None, description="The running die's sides.")
    edges: list[str] | None = Field(None, description="Edges (recorded; their effects are the GM's, B40).")
    hindrances: list[str] | None = Field(None, description="Hindrances (recorded).")
    weapons: list[ActionDeckWeaponRecord] | None = Field(None, description="Weapons.")
    gear: list[ActionDeckGearRecord] | None = Field(None, description="Gear.")
    benny_bonus: int | None = Field(None, description="Extra bennies an NPC Wild Card gets on entering play.")
    leader_id: str | None = Field(None, description="The NPC this one serves as a henchman.")
    power_points: int | None = Field(None, description="Power points.")
    wounds: int | None = Field(None, description="Wounds (a Wild Card takes three).")
    eliminated: bool = Field(description="Out of the fight.")
    shaken: bool = Field(description="Shaken.")
    stunned: bool = Field(description="Stunned.")
    fatigue: int | None = Field(None, description="Fatigue.")


class ActionDeckPlayer(_Model, title="ActionDeckPlayer"):
    bennies: int = Field(description="The player's bennies (they belong to the player, §3.3).")
    character_ids: list[str] = Field(description="The characters this player controls this session.")


class ActionDeckSession(_Model, title="ActionDeckSession"):
    status: Literal["open", "closed"] = Field(description="Bennies exist only in an open session (§5.1).")
    number: int = Field(description="Sessions opened so far.")
    party_size: int = Field(description="The GM pool's size at the session's start.")


class ActionDeckGmSide(_Model, title="ActionDeckGmSide"):
    """GM only (absent for players)."""

    benny_pool: int = Field(description="The GM's bennies.")
    npc_bennies: dict[str, int] = Field(description="NPC Wild Card id → its own bennies.")


class ActionDeckDeckView(_Model, title="ActionDeckDeckView"):
    """The deck (§3.6) without its order."""

    discard_pile: list[str] = Field(description="Discarded cards, as codes (`AS`, `10H`, `JK-R`).")
    in_play: list[str] = Field(description="Cards dealt and showing (players: concealed attackers' excluded).")
    ordered: bool = Field(description="The service knows the order (server dice); false for a physical deck.")
    joker_dealt_this_round: bool = Field(description="A Joker came up: the deck is reshuffled at the round's end.")
    shuffle_count: int = Field(description="Shuffles so far.")
    draw_pile_count: int = Field(description="Cards left to draw (their order is known to nobody).")


class ActionDeckDeclared(_Model, title="ActionDeckDeclared"):
    kind: str = Field(description="What the action is (attack, move, …).")
    note: str | None = Field(description="The player's note.")
    taken: bool = Field(description="Taken already.")
    done: str | None = Field(None, description="What taking it did.")


class ActionDeckTurn(_Model, title="ActionDeckTurn"):
    """The turn in progress (§3.8, §4.20)."""

    status: Literal["called", "claimed", "acting"] = Field(description="called/claimed: not yet declared.")
    via: str = Field(description="card, joker, hold, interrupt or interrupt_lost.")
    declared: list[ActionDeckDeclared] = Field(description="Up to three actions, declared at the turn's start.")
    multi_action_penalty: int = Field(description="−2 per action beyond the first, to every test of the turn.")
    ran: bool = Field(description="Ran this turn.")
    run_roll: int | None = Field(description="The running die's roll.")
    turn_pace: int = Field(description="Pace + the run roll, in inches.")
    movement_used: float = Field(description="Inches of Pace used.")
    free_items_readied: int = Field(description="Items readied free this turn (two at most).")
    rolled: bool = Field(description="A test of this turn was rolled (no running after that).")
    may_redeclare: bool = Field(description="Interrupted: may declare its remaining actions anew.")


class ActionDeckSlot(_Model, title="ActionDeckSlot"):
    """A participant's round (§3.8)."""

    card: str | None = Field(description="Its Action Card (null: holding over, or a surprised victim).")
    candidates: list[str] = Field(description="Cards to choose from after benny draws.")
    draws: int = Field(description="Extra cards drawn this round.")
    joker_active: bool = Field(description="Holds a Joker this round: acts any time, +2.")
    joker_awarded: bool = Field(description="Jokers Wild already paid for this Joker.")
    on_hold: bool = Field(description="Holding its turn.")
    hold_since_round: int | None = Field(description="The round the hold began.")
    acted: bool = Field(description="Took (or lost) its turn this round.")
    can_act: bool = Field(description="False for surprise victims who failed Notice (round 1).")
    turn: ActionDeckTurn | None = Field(description="Its turn, while it runs.")
    group: str | None = Field(description="The group of Extras sharing its card.")


class ActionDeckSurpriseState(_Model, title="ActionDeckSurpriseState"):
    attackers: list[str] = Field(description="Attackers (players: concealed ones excluded).")
    victims: list[str] = Field(description="Victims: act in round 1 only if they pass Notice.")
    notice: list[str] = Field(description="Victims the GM allowed a Notice test.")
    notice_results: dict[str, bool] = Field(description="Victim → passed Notice.")
    concealed: list[str] | None = Field(None, description="GM only: attackers hidden from players.")


class ActionDeckPendingInterrupt(_Model, title="ActionDeckPendingInterrupt"):
    holder: str = Field(description="Who interrupts.")
    target: str = Field(description="Whose turn is interrupted.")
    opposed_id: str | None = Field(description="The opposed Athletics test deciding it.")


class ActionDeckEncounter(_Model, title="ActionDeckEncounter"):
    """Combat (§3.7, §5.2)."""

    id: str = Field(description="The encounter's id.")
    round: int = Field(description="The round.")
    phase: Literal["surprise_notice", "dealing", "draw_window", "countdown"] = Field(
        description="Encounter phase (§5.2)."
    )
    order: list[str] = Field(description="Participants in the GM's order (breaks ties of shared cards).")
    participants: dict[str, ActionDeckSlot] = Field(description="Participant id → its round.")
    groups: dict[str, list[str]] = Field(description="Group id → Extras sharing one card.")
    surprise: ActionDeckSurpriseState | None = Field(description="The surprise round's setup.")
    draw_window_open: bool = Field(description="Benny card draws are open (until the first turn begins).")
    current_turn: str | None = Field(description="Whose turn is running.")
    turn_stack: list[str] = Field(description="Suspended turns (interrupted).")
    queued: list[str] = Field(description="Holders who lost an interrupt: they act after the current turn.")
    pending_interrupt: ActionDeckPendingInterrupt | None = Field(description="An interrupt being decided.")
    after_current_action: str | None = Field(description="A simultaneous interrupter acting after this action.")


class ActionDeckModifierRecord(_Model, title="ActionDeckModifierRecord"):
    source: str = Field(description="gm, joker, multi_action, running, unskilled, raise, weapon, or the GM's text.")
    value: int = Field(description="The modifier.")


class ActionDeckRollSpec(_Model, title="ActionDeckRollSpec"):
    """How a trait test is rolled (every option and modifier resolved)."""

    sides: int = Field(description="The trait die (or the unskilled d4).")
    die_bonus: int = Field(description="d12+N's N.")
    dice_count: int = Field(description="Trait dice (rate of fire, Frenzy).")
    wild_die: int | None = Field(description="The Wild Die's sides; null for Extras.")
    modifier: int = Field(description="Every modifier summed.")
    tn: int = Field(description="Target number.")
    raise_step: int = Field(description="Points per raise.")
    extra_crit_check: bool = Field(description="An Extra's 1 gets the critical-failure d6.")
    natural_one_fails: bool = Field(description="An Extra's natural 1 always fails.")
    counts_wild_die: bool = Field(description="Several dice: the Wild Die counts toward the majority of 1s.")
    extra_needs_d6: bool = Field(description="Several dice, an Extra: a d6 confirms the critical failure.")


class ActionDeckRolledDie(_Model, title="ActionDeckRolledDie"):
    """One open-ended die: its faces in order (an ace rolls again)."""

    sides: int = Field(description="The die's sides.")
    faces: list[int] = Field(description="Every face rolled, aces first.")
    total: int = Field(description="Their sum.")
    natural_one: bool = Field(description="The first face was a 1.")
    aced: bool = Field(description="It aced at least once.")
    capped: bool = Field(description="The ace chain hit the safety cap.")


class ActionDeckDieResult(_Model, title="ActionDeckDieResult"):
    raw: int = Field(description="The die's total (or the Wild Die's, substituted).")
    total: int = Field(description="With the modifiers.")
    success: bool = Field(description="Reached the TN.")
    raises: int = Field(description="Raises over the TN.")
    from_wild_die: bool = Field(description="The Wild Die replaced this trait die.")


class ActionDeckAttempt(_Model, title="ActionDeckAttempt"):
    """One attempt (the first roll or a reroll): a trait test's dice, or a damage roll's."""

    trait_dice: list[ActionDeckRolledDie] | None = Field(None, description="Trait tests: the trait dice.")
    wild_die: ActionDeckRolledDie | None = Field(None, description="Trait tests: the Wild Die.")
    crit_check_die: int | None = Field(None, description="The d6 confirming an Extra's critical failure.")
    critical_failure: bool | None = Field(None, description="Trait tests: a critical failure.")
    substitution: int | None = Field(None, description="The trait die the Wild Die replaces.")
    results: list[ActionDeckDieResult] | None = Field(None, description="Trait tests: per trait die.")
    successes: int | None = Field(None, description="Trait tests: dice that succeeded.")
    raises: int | None = Field(None, description="Trait tests: raises in all.")
    total: int = Field(description="The best total (damage: the dice plus bonuses).")
    success: bool | None = Field(None, description="Trait tests: any success.")
    dice: list[ActionDeckRolledDie] | None = Field(None, description="Damage rolls: the damage dice.")
    sum: int | None = Field(None, description="Damage rolls: the dice's sum.")


class ActionDeckResult(_Model, title="ActionDeckResult"):
    """The kept attempt's outcome."""

    total: int = Field(description="The total.")
    success: bool | None = Field(None, description="Trait tests: succeeded.")
    successes: int | None = Field(None, description="Trait tests: dice that succeeded.")
    raises: int | None = Field(None, description="Trait tests: raises.")
    critical_failure: bool | None = Field(None, description="Trait tests: a critical failure.")
    results: list[ActionDeckDieResult] | None = Field(None, description="Trait tests: per trait die.")


class ActionDeckSegmentRecord(_Model, title="ActionDeckSegmentRecord"):
    inches: float = Field(description="Length.")
    mode: str = Field(description="walk, climb, crawl or swim.")
    difficult_terrain: bool = Field(description="Through difficult terrain.")


class ActionDeckTestContext(_Model, title="ActionDeckTestContext"):
    """What a jump or hazard test is for."""

    direction: str | None = Field(None, description="Jumps: long or high.")
    run_up: float | None = Field(None, description="Jumps: run-up in inches.")
    distance: float | None = Field(None, description="Jumps: the jump intended.")
    base: float | None = Field(None, description="Jumps: the distance without the test.")
    segments: list[ActionDeckSegmentRecord] | None = Field(None, description="Hazards: the dangerous move.")
    cost: float | None = Field(None, description="Hazards: its Pace cost.")
    consequence: str | None = Field(None, description="Hazards: fall, no_breath or fatigue on a critical failure.")


class ActionDeckTestRecord(_Model, title="ActionDeckTestRecord"):
    """A trait test or damage roll (§3.9): open ones and the last few finished. Players see only the outcome
    fields of an NPC's or a group's test."""

    id: str = Field(description="The test's id.")
    kind: Literal["trait", "damage"] = Field(description="A trait test or a damage roll.")
    roller_id: str = Field(description="Who rolls (a group test: its leader).")
    group: list[str] | None = Field(description="A group test's Extras.")
    purpose: str = Field(description="plain, group, opposed_part, jump, hazard, surprise_notice or damage.")
    state: Literal["rolled", "final", "critical_failure"] = Field(
        description="§5.5: rolled (rerolls open), final, or critical_failure."
    )
    tn: int | None = Field(description="Target number (null for damage).")
    result: ActionDeckResult = Field(description="The result that counts (from the kept attempt).")
    opposed_id: str | None = Field(description="The opposed test it is part of.")
    role: Literal["active", "defender"] | None = Field(description="Its side in the opposed test.")
    trait: str | None = Field(None, description="The trait rolled.")
    unskilled: bool | None = Field(None, description="Improvised (d4 −2).")
    modifiers: list[ActionDeckModifierRecord] | None = Field(None, description="Itemized modifiers.")
    spec: ActionDeckRollSpec | None = Field(None, description="How it is rolled.")
    context: ActionDeckTestContext | None = Field(None, description="What a jump or hazard test is for.")
    weapon: str | None = Field(None, description="The weapon used.")
    attempts: list[ActionDeckAttempt] | None = Field(None, description="Every attempt (rerolls add one).")
    kept: int | None = Field(None, description="Index of the attempt that counts.")
    round: int | None = Field(None, description="The encounter round it was rolled in.")
    critical_failure: bool | None = Field(None, description="The kept attempt is a critical failure.")
    attack_test_id: str | None = Field(None, description="Damage: the attack it follows.")
    bonuses: list[ActionDeckModifierRecord] | None = Field(None, description="Damage: itemized bonuses.")
    bonus_total: int | None = Field(None, description="Damage: their sum.")


class ActionDeckOpposedRecord(_Model, title="ActionDeckOpposedRecord"):
    """An opposed test not yet resolved (§5.6)."""

    id: str = Field(description="The opposed test's id.")
    purpose: Literal["contest", "interrupt"] = Field(description="A contest, or an interrupt's Athletics.")
    active_id: str = Field(description="The active party (rolls first, needs TN 4).")
    trait: str = Field(description="The active party's trait.")
    defender_id: str = Field(description="The defender.")
    defender_trait: str = Field(description="The defender's trait.")
    defender_modifiers: list[ActionDeckModifierRecord] = Field(description="The GM's modifiers for the defender.")
    active_test: str | None = Field(description="The active party's test.")
    defender_test: str | None = Field(description="The defender's test.")
    stage: Literal["active_rolling", "awaiting_defender", "defender_rolling"] = Field(description="§5.6.")
    requires_tn: bool = Field(description="The active party must reach TN 4.")


class ActionDeckTable(_Model, title="ActionDeckTable"):
    players: dict[str, ActionDeckPlayer] = Field(description="Player id → bennies and characters (§3.3).")
    session: ActionDeckSession = Field(description="Session state (§3.2).")
    gm: ActionDeckGmSide | None = Field(None, description="GM only: the GM pool and NPC bennies (§3.4).")
    deck: ActionDeckDeckView = Field(description="The Action Deck without its order.")
    encounter: ActionDeckEncounter | None = Field(description="The combat, if any.")
    tests: dict[str, ActionDeckTestRecord] = Field(description="Test id → open and recent tests.")
    opposed: dict[str, ActionDeckOpposedRecord] = Field(description="Opposed test id → those not yet resolved.")
    soaks_pending: list[str] = Field(description="Characters whose player soaked: the GM rules what it avoided.")
    awaiting: list[AwaitingEntry] = Field(description="Who must move for play to go on, and with what.")
    offers: list[AwaitingEntry] = Field(
        default_factory=list,
        description="Every move each party may send now: "
        "what `awaiting` asks and the moves open outside it (nobody is waited for).",
    )
    seq: dict[str, int] | None = Field(None, description="GM only: id counters.")
    id_salt: str | None = Field(None, description="GM only: the key of hidden ids.")


class ActionDeckState(_Model, title="ActionDeckState"):
    """An Action Deck table as a GM or a player sees it."""

    options: ActionDeckOptions = Field(description="The campaign's settings.")
    characters: dict[str, ActionDeckCharacter] = Field(description="Character id → sheet.")
    table: ActionDeckTable = Field(description="Bennies, the deck, the encounter, tests and whose move it is.")
