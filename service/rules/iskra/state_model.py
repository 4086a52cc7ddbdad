"""The documented shape of an Iskra table as `view()` returns it (spec 3, 8), and of a character sheet.

Players see the same shape with the GM's secrets taken out (spec 8): an NPC's numbers (attributes, Health,
Focus, recovery, XP) are absent from its sheet, a secret test loses its sums (`attribute_value`, `s0`, `s`,
`total`) and shows hidden modifiers as `{"source": "hidden", "value": null}`, others' Ready actions show only
`readied` and `created_round`, unsensed Ether levels are null, `ether_exposure` is empty, `seq` and `id_salt`
are absent, and `derived` drops the location-dependent flags.
"""

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from service.rules.awaiting import AwaitingEntry
from service.rules.iskra.options import IskraOptions


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class IskraTrait(_Model, title="IskraTrait"):
    """A Predisposition or a Weakness (L86)."""

    label: str = Field(description="The trait as agreed with the GM.")
    topic: str | None = Field(description="What tests it covers, when the label alone is unclear.")
    affects_carrying: bool = Field(description="About carrying: capacity ±2 (L132).")


class IskraConcept(_Model, title="IskraConcept"):
    personality: str | None = Field(description="General character (L38).")
    history: str | None = Field(description="Background.")
    connections: str | None = Field(description="Ties to other characters.")


class IskraOwnedAbility(_Model, title="IskraOwnedAbility"):
    ability_id: str = Field(description="Catalogue id.")
    level: int = Field(description="Its level.")
    source: str = Field(description="`species`, `creation` or how it was bought.")
    param: str | None = Field(description="What a repeatable ability is for (e.g. the language).")


class IskraItem(_Model, title="IskraItem"):
    item_id: str = Field(description="The item's id on this sheet.")
    name: str = Field(description="The item.")
    weight: int = Field(description="0 fits in a fist, 1 one hand, 2 two hands (§2.3).")
    carried: bool = Field(description="Carried items count toward the load (L134).")
    wounds: int | None = Field(description="A weapon's Wounds, when the GM set them.")
    protects_from_temperature: bool = Field(description="Protects against extreme temperatures.")


class IskraRecovery(_Model, title="IskraRecovery"):
    """Recovery over game days (spec 4.10)."""

    recovering: bool = Field(description="Regaining Health with a Strength test every few days.")
    next_si_test_due_at: int | None = Field(description="The day the next recovery test is due.")
    safe_rest_since: int | None = Field(description="The day a safe rest began.")
    deaths_door_since: int | None = Field(description="The day the character fell to Death's Door.")
    last_si_test_day: int | None = Field(description="The day of the last recovery test.")


class IskraCharacter(_Model, title="IskraCharacter"):
    """An Iskra character (spec 3.2) as the API returns it; an NPC's numbers are absent for players."""

    id: str | None = Field(None, description="The character's id (absent while the sheet is being built).")
    name: str = Field(description="The character's name.")
    controller: Literal["player", "gm"] = Field(description="`gm` for NPCs.")
    species: str = Field(description="human, elf, dwarf or asrai.")
    attributes: dict[str, int] | None = Field(
        None, description="strength, dexterity, intelligence, charisma (0–5); absent for players on an NPC."
    )
    concept: IskraConcept = Field(description="Personality, history, connections.")
    health: int | None = Field(None, description="Health now (absent for players on an NPC).")
    health_max: int | None = Field(None, description="Maximum Health (absent for players on an NPC).")
    status: Literal["alive", "dead"] = Field(description="Death is final (L66).")
    prone: bool = Field(description="Lying down; `stand_up` costs a Minor action.")
    focus_points: int | None = Field(None, description="Focus Points (PS) now (absent for players on an NPC).")
    focus_max: int | None = Field(None, description="Focus Points maximum (absent for players on an NPC).")
    predispositions: list[IskraTrait] = Field(description="+2 to tests they cover.")
    weaknesses: list[IskraTrait] = Field(description="−2 to tests they cover.")
    xp: int | None = Field(None, description="Unspent experience (absent for players on an NPC).")
    xp_earned_total: int | None = Field(None, description="Experience earned in all (absent for players on an NPC).")
    glory: int = Field(description="Glory (Chwała).")
    abilities: list[IskraOwnedAbility] = Field(description="Abilities and species traits.")
    inventory: list[IskraItem] = Field(description="What the character owns.")
    location_id: str | None = Field(description="Where the character is.")
    approved: bool = Field(description="The GM approved the sheet; until then a player's character cannot act.")
    recovery_enabled: bool = Field(description="Recovery over game days applies.")
    recovery: IskraRecovery | None = Field(None, description="Recovery bookkeeping (absent for players on an NPC).")


class IskraModifier(_Model, title="IskraModifier"):
    """One itemized modifier of a test (spec 4.3)."""

    source: str = Field(
        description="predisposition, weakness, low_health, overloaded, help, glory, light_step, "
        "gm, a GM source text, or `hidden` for players."
    )
    value: int | None = Field(description="The modifier; null when hidden from players.")
    hidden: bool = Field(description="The GM hid it from players.")
    label: str | None = Field(None, description="What players read.")


class IskraHelper(_Model, title="IskraHelper"):
    character_id: str = Field(description="Who helps (+2 once, L165).")
    description: str = Field(description="How.")


class IskraHelpToken(_Model, title="IskraHelpToken"):
    """Help given in combat, spent on the beneficiary's next test (7-B25)."""

    id: str = Field(description="The token's id.")
    helper_id: str = Field(description="Who helped.")
    beneficiary_id: str = Field(description="Whose next test it helps.")
    description: str = Field(description="How.")
    round: int = Field(description="The combat round it was given in.")


class IskraFocusRequest(_Model, title="IskraFocusRequest"):
    """A Focus spend waiting for the GM's approval."""

    use: Literal["adjust", "reroll", "reduce_damage"] = Field(description="What the Focus Points buy.")
    amount: int = Field(description="Points (adjust: the signed change).")
    description: str = Field(description="How the character does it.")
    character_id: str = Field(description="Who spends.")


class IskraAttackRecord(_Model, title="IskraAttackRecord"):
    target_id: str = Field(description="The target participant.")
    target_kind: Literal["character", "hazard"] = Field(description="What the target is.")
    mode: Literal["melee", "ranged"] = Field(description="Attack mode.")
    wounds: int | None = Field(description="The weapon's Wounds (the GM's, 7-B30).")
    item_id: str | None = Field(description="The weapon used.")
    critical_bonus_wounds: int = Field(description="Extra Wounds on a critical success.")
    offhand: bool = Field(description="An off-hand attack (Minor action).")
    dodge_choice: str | None = Field(description="The target's Dodge declared before the roll (on_declare).")


class IskraTest(_Model, title="IskraTest"):
    """A test (spec 4.2) in flight (`table.pending`, or inside a damage's `dodge_test`) or resolved
    (`table.last_test`). A secret test's sums are absent for players."""

    id: str = Field(description="The test's id.")
    kind: Literal["test"] = Field(description="Always `test`.")
    purpose: str = Field(description="general, attack, dodge or recovery.")
    character_id: str = Field(description="Who tests.")
    attribute: str = Field(description="The attribute tested.")
    context: str = Field(description="general, detect, influence, intimidate or persuade.")
    detect_target_id: str | None = Field(description="Detect tests: whom the character looks for.")
    intent: str | None = Field(description="What the character tries.")
    gm_modifiers: list[IskraModifier] = Field(description="The GM's modifiers.")
    predispositions: list[int] = Field(description="Indices of the sheet's predispositions that apply.")
    weaknesses: list[int] = Field(description="Indices of the sheet's weaknesses that apply.")
    helpers: list[IskraHelper] = Field(description="Who helps.")
    help_tokens: list[IskraHelpToken] = Field(description="Combat help spent on this test.")
    glory_used: bool = Field(description="Glory added (influence, intimidate, persuade).")
    extra_modifiers: list[IskraModifier] = Field(description="Modifiers from the situation (e.g. stay standing).")
    adj: int = Field(description="Focus Points adjustment.")
    focus_spent: int = Field(description="Focus Points spent on this test.")
    roll: int | None = Field(description="The d10 that counts.")
    rolls: list[int] = Field(description="Every d10 rolled (a reroll adds one).")
    rerolled: bool = Field(description="Rerolled once (L74).")
    stage: str = Field(description="pre_roll, post_roll, awaiting_gm_approval, dodge_declaration or closed.")
    focus_request: IskraFocusRequest | None = Field(description="A Focus spend waiting for the GM.")
    prev_stage: str | None = Field(description="The stage to return to after the GM's decision.")
    outcome: str | None = Field(description="critical_success, success, failure or critical_failure.")
    attack: IskraAttackRecord | None = Field(description="Attack tests: the attack.")
    damage_id: str | None = Field(description="Dodge tests: the damage dodged.")
    critical_note: str | None = Field(description="The GM's note on a critical result.")
    deaths_door_warning: bool | None = Field(None, description="On Death's Door: a failure kills (7-B47).")
    attribute_value: int | None = Field(None, description="The attribute's value (secret tests: GM only).")
    modifiers: list[IskraModifier] = Field(description="Every modifier that applies, itemized.")
    s0: int | None = Field(None, description="Attribute + modifiers (secret tests: GM only).")
    s: int | None = Field(None, description="s0 + the Focus adjustment (secret tests: GM only).")
    npc: bool = Field(description="An NPC's test.")
    secret: bool = Field(description="Players do not see its sums.")
    total: int | None = Field(None, description="roll + s, once resolved (secret tests: GM only).")


class IskraDamageSource(_Model, title="IskraDamageSource"):
    kind: str = Field(description="attack, hazard, fall or other.")
    attacker_id: str | None = Field(description="The attacker or hazard.")
    test_id: str | None = Field(None, description="The attack test.")
    mode: str | None = Field(None, description="melee or ranged.")
    dodge_choice: str | None = Field(None, description="The Dodge declared with the attack.")
    critical_bonus_wounds: int | None = Field(None, description="Extra Wounds of a critical success.")
    description: str | None = Field(None, description="What happened.")


class IskraDamage(_Model, title="IskraDamage"):
    """Incoming damage waiting for the dodge and Focus decisions (spec 5.2)."""

    id: str = Field(description="The damage's id.")
    kind: Literal["damage"] = Field(description="Always `damage`.")
    target_id: str = Field(description="Who takes it.")
    wounds: int | None = Field(description="Wounds now (after Focus reductions); null until the GM sets them.")
    initial_wounds: int | None = Field(description="Wounds as dealt.")
    source: IskraDamageSource = Field(description="Where it comes from.")
    stage: str = Field(
        description="incoming, wounds_needed, dodge_window, dodge_test, focus_window or awaiting_gm_approval."
    )
    dodge: str | None = Field(description="dodge, dodge_stay_standing or none.")
    dodge_test: IskraTest | None = Field(description="The Dodge test, while it runs.")
    focus_spent: int = Field(description="Focus Points spent reducing it.")
    focus_request: IskraFocusRequest | None = Field(description="A Focus spend waiting for the GM.")
    prev_stage: str | None = Field(description="The stage to return to after the GM's decision.")


class IskraReadyTrigger(_Model, title="IskraReadyTrigger"):
    """A Ready action triggered: its owner uses it or lets it go."""

    kind: Literal["ready"] = Field(description="Always `ready`.")
    id: str = Field(description="The trigger's id.")
    character_id: str = Field(description="Whose Ready action.")
    stage: str = Field(description="`ready_window`.")


class IskraLocation(_Model, title="IskraLocation"):
    id: str = Field(description="The location's id.")
    name: str = Field(description="Its name.")
    is_safe_place: bool = Field(description="Resting here counts as safe (recovery).")
    ether_concentration: str | None = Field(
        None,
        description="low, medium, high or very_high; null for players "
        "until a Human senses it (L207), absent from their "
        "copy of `location_defined`.",
    )
    temperature_extreme: bool = Field(description="Extreme heat or cold.")
    ether_known_by: list[str] = Field(description="Characters who sensed its Ether.")


class IskraSession(_Model, title="IskraSession"):
    number: int = Field(description="Sessions started so far.")
    state: Literal["between_sessions", "in_session"] = Field(description="Whether a session is running.")


class IskraSide(_Model, title="IskraSide"):
    side_id: str = Field(description="The side's id.")
    label: str | None = Field(description="Its name.")
    controller: str = Field(description="`gm` or `players`.")
    participant_ids: list[str] = Field(description="Who fights on it.")


class IskraParticipant(_Model, title="IskraParticipant"):
    id: str = Field(description="Character or hazard id.")
    kind: Literal["character", "hazard"] = Field(description="What it is.")
    side_id: str = Field(description="Its side.")
    removed: bool = Field(description="Left the combat.")
    name: str = Field(description="How players know it.")


class IskraBudget(_Model, title="IskraBudget"):
    """The current turn's actions left (spec 4.12.1)."""

    major: int = Field(description="Major actions left.")
    minor: int = Field(description="Minor actions left.")
    passing: int = Field(description="Passing actions left.")
    offhand_attacks: int = Field(description="Off-hand attacks left.")
    converted: bool = Field(description="The Major became a second Minor.")


class IskraReadyRecord(_Model, title="IskraReadyRecord"):
    """A held Ready action; players see only `readied` and `created_round` of others'."""

    held_type: str | None = Field(None, description="major or minor.")
    held_action: str | None = Field(None, description="What is held.")
    target_id: str | None = Field(None, description="Against whom.")
    item_id: str | None = Field(None, description="With what.")
    description: str | None = Field(None, description="The action.")
    trigger_text: str | None = Field(None, description="When it fires.")
    created_round: int = Field(description="The round it was readied in.")
    readied: bool | None = Field(None, description="Players' copy of another's Ready: one is held.")


class IskraEncounter(_Model, title="IskraEncounter"):
    """Combat (spec 4.12, 5.4)."""

    id: str = Field(description="The combat's id.")
    state: Literal["active", "ended"] = Field(description="Ended combats stay until the next starts.")
    sides: list[IskraSide] = Field(description="Sides in their cyclic order, the initiator's first.")
    initiator_id: str = Field(description="Who started it.")
    participants: dict[str, IskraParticipant] = Field(description="Participant id → record.")
    round: int = Field(description="The round.")
    order: list[str] = Field(description="Turn order this round.")
    current_index: int = Field(description="Index in `order` of whose turn it is (−1 before the first).")
    budget: dict[str, IskraBudget] = Field(description="Participant id → actions left this turn.")
    reactions_left: dict[str, int | str] = Field(description="Participant id → reactions left (or `unlimited`).")
    ready: dict[str, IskraReadyRecord | None] = Field(description="Participant id → held Ready action.")
    help_tokens: list[IskraHelpToken] = Field(description="Help given, not yet spent.")
    suggest_end: bool = Field(description="One side is out: the GM may end the combat.")
    outcome_note: str | None = Field(description="The GM's note on how it ended.")


class IskraExposure(_Model, title="IskraExposure"):
    """A character exposed to more Ether than it tolerates (spec 4.14; GM only)."""

    character_id: str = Field(description="Who.")
    location_id: str = Field(description="Where.")
    level: str = Field(description="The location's Ether level.")
    tolerance: str = Field(description="What the character tolerates.")


class IskraTable(_Model, title="IskraTable"):
    session: IskraSession = Field(description="Session state.")
    day: int = Field(description="The game day.")
    locations: dict[str, IskraLocation] = Field(description="Location id → location.")
    pending: Annotated[IskraTest | IskraDamage | IskraReadyTrigger, Field(discriminator="kind")] | None = Field(
        description="The one open step (a test, incoming damage or a triggered Ready); other moves wait."
    )
    encounter: IskraEncounter | None = Field(description="The combat, if any.")
    last_test: IskraTest | None = Field(description="The test resolved last.")
    adversities: list[str] = Field(description="Adversities already rewarded (once each, 7-B16).")
    ether_exposure: list[IskraExposure] = Field(description="Ether exposure flags (GM only; empty for players).")
    awaiting: list[AwaitingEntry] = Field(description="Who must move for play to go on, and with what.")
    offers: list[AwaitingEntry] = Field(
        default_factory=list,
        description="Every move each party may send now: "
        "what `awaiting` asks and the moves open outside it (nobody is waited for).",
    )
    seq: dict[str, int] | None = Field(None, description="GM only: id counters.")
    id_salt: str | None = Field(None, description="GM only: the key of hidden ids.")


class IskraDerived(_Model, title="IskraDerived"):
    """Values computed from a sheet (spec 4.8–4.14); not stored."""

    deaths_door: bool = Field(description="At Death's Door.")
    health_band: str = Field(description="healthy, wounded, deaths_door or dead.")
    low_health_penalty: int = Field(description="−2 at low Health (L64).")
    carry_capacity: int = Field(description="Carrying capacity.")
    load: int = Field(description="Weight carried.")
    encumbrance: str = Field(description="normal, overloaded or over_limit.")
    overload_penalty: int = Field(description="−2 to physical tests when overloaded.")
    speed_factor: float = Field(description="1, or 0.5 when overloaded.")
    regeneration_blocked: bool | None = Field(None, description="GM only: the location blocks regeneration.")
    ether_sight: bool | None = Field(None, description="GM only: Ether Sight works here.")
    levitation_possible: bool | None = Field(None, description="GM only: Levitation works here.")


class IskraState(_Model, title="IskraState"):
    """An Iskra table as a GM or a player sees it."""

    options: IskraOptions = Field(description="The campaign's settings.")
    characters: dict[str, IskraCharacter] = Field(description="Character id → sheet.")
    table: IskraTable = Field(description="Session, day, combat, the pending step and whose move it is.")
    derived: dict[str, IskraDerived] = Field(
        description="Character id → derived values (characters whose attributes the viewer sees)."
    )
