"""The documented shape of a Step Dice table as `view()` returns it (spec 3, 5, 8), and of a character sheet.

Players see the same shape with the GM's secrets taken out (spec 8): an enemy shows only its id, name, state and
`revealed` until the GM reveals more (kind and TN once revealed, Wounds of an elite or boss only when revealed,
position only when `position_revealed`), clocks the GM keeps hidden are absent, a pending choice has no
`planned_complication`, and `seq` and `id_salt` are absent.
"""

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from service.rules.awaiting import AwaitingEntry
from service.rules.stepdice.fields import StepDicePosition
from service.rules.stepdice.options import StepDiceOptions

Die = Literal["d6", "d8", "d10", "d12", "d20"]
Attribute = Literal["strength", "dexterity", "magic"]
Proficiency = Literal["unskilled", "novice", "trained", "master"]
EnemyKind = Literal["minion", "elite", "boss"]
Outcome = Literal["failure_complication", "failure", "success", "exceptional_success"]
EncounterOutcome = Literal["victory", "defeat", "ended_by_gm"]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class StepDiceDice(_Model, title="StepDiceDice"):
    """The die of each attribute (seed §2.2); advancement steps one up (§8)."""

    strength: Die = Field(description="Strength (S).")
    dexterity: Die = Field(description="Dexterity (Z).")
    magic: Die = Field(description="Magic (M).")


class StepDiceProficiencies(_Model, title="StepDiceProficiencies"):
    """The d6-only variant's level of each attribute (seed §9)."""

    strength: Proficiency = Field(description="Strength.")
    dexterity: Proficiency = Field(description="Dexterity.")
    magic: Proficiency = Field(description="Magic.")


class StepDiceSheetEquipment(_Model, title="StepDiceSheetEquipment"):
    weapon: str = Field(description="The one weapon or combat tool (seed §2.5).")
    protection: str | None = Field(description="Protection, if any; Armor tokens come from it (seed §11.1).")
    items: list[str] = Field(description="The adventure items (seed §2.5).")


class StepDiceSheet(_Model, title="StepDiceSheet"):
    """A character as the API returns it (spec 3.2). Players see every sheet whole: nothing on it is secret."""

    id: str | None = Field(
        None, description="The character's id (absent while the sheet is being built, e.g. in a validation reply)."
    )
    name: str = Field(description="The character's name.")
    role: Literal["warrior", "rogue", "mage"] = Field(description="Set only the starting dice (seed §2.1).")
    dice: StepDiceDice = Field(description="Die size per attribute.")
    proficiency: StepDiceProficiencies | None = Field(description="Levels in the d6-only variant; null otherwise.")
    hearts: int = Field(description="Hearts left; 0 means downed (seed §7).")
    hearts_max: int = Field(description="Maximum Hearts (5, up to 7 by advancement).")
    mana: int = Field(description="Mana left (seed §6.1).")
    mana_max: int = Field(description="Maximum Mana (3, up to 5 by advancement).")
    talents: list[str] = Field(description="The two Talents (empty without `use_talents`).")
    equipment: StepDiceSheetEquipment = Field(description="Weapon, protection and items.")
    armor_token_available: bool = Field(description="An Armor token is left for this scene (seed §11.1).")
    condition: Literal["active", "downed", "dead"] = Field(description="Spec 5.3.")
    pending_advancements: int = Field(description="Granted advancements not yet spent with `advance` (seed §8).")


class StepDiceScene(_Model, title="StepDiceScene"):
    id: str = Field(description="The scene's id.")
    kind: Literal["narrative", "combat"] = Field(description="A combat encounter opens a combat scene (7-A27).")
    label: str | None = Field(description="The GM's name for it.")


class StepDiceEncounterPc(_Model, title="StepDiceEncounterPc"):
    """A PC's per-round record in the encounter (seed §5.3)."""

    position: StepDicePosition | None = Field(description="Where it stands (with `use_grid`); null when unknown.")
    move_remaining: int = Field(description="Squares it may still move this turn (5 a turn).")
    action_available: bool = Field(description="Its one Action of the round is unspent.")


class StepDiceDeviation(_Model, title="StepDiceDeviation"):
    """A core value the GM overrode for this enemy (7-A22)."""

    field: Literal["tn", "wounds_max"] = Field(description="Which value.")
    default: int = Field(description="The value for its kind.")
    value: int = Field(description="The value the GM set.")


class StepDiceEnemy(_Model, title="StepDiceEnemy"):
    """An enemy (spec 3.3). The GM sees every field; players see only what is revealed (see module doc)."""

    id: str = Field(description="The enemy's id.")
    name: str = Field(description="Its name.")
    state: Literal["active", "defeated"] = Field(description="Spec 5.4.")
    revealed: bool = Field(description="Its kind and TN are known to players.")
    kind: EnemyKind | None = Field(None, description="Absent for players until revealed.")
    tn: int | None = Field(None, description="The TN to hit it; absent for players until revealed.")
    wounds_max: int | None = Field(
        None, description="Wounds it takes; for players only a revealed minion's, or when `wounds_revealed`."
    )
    wounds_taken: int | None = Field(None, description="Wounds it has taken; shown to players as `wounds_max`.")
    position: StepDicePosition | None = Field(
        None, description="Its square; absent for players unless `position_revealed`."
    )
    wounds_revealed: bool | None = Field(None, description="GM only: players see its Wounds.")
    position_revealed: bool | None = Field(None, description="GM only: players see its position.")
    deviations: list[StepDiceDeviation] | None = Field(None, description="GM only: overridden core values.")


class StepDiceHelpToken(_Model, title="StepDiceHelpToken"):
    """Help given in a turn, spent by the target's next test this player phase (seed §3.6, 7-A12)."""

    helper_id: str = Field(description="Who helped.")
    target_character_id: str = Field(description="Who is helped.")
    description: str = Field(description="How.")
    created_round: int = Field(description="The round it was given.")
    mode: Literal["die_step", "threshold_minus_1"] = Field(
        description="One die step up, or the d6 variant's threshold −1 (§9.3)."
    )


class StepDiceEncounter(_Model, title="StepDiceEncounter"):
    """A combat encounter (spec 5.2): setup, then player phase and enemy phase by rounds, then ended."""

    id: str = Field(description="The encounter's id.")
    scene_id: str = Field(description="Its combat scene.")
    label: str | None = Field(description="The GM's name for it.")
    round: int = Field(description="The round; 0 in setup.")
    phase: Literal["setup", "player_phase", "enemy_phase", "ended"] = Field(description="Spec 5.2.")
    pcs: dict[str, StepDiceEncounterPc] = Field(description="PCs in the fight, by character id (join order).")
    enemies: dict[str, StepDiceEnemy] = Field(description="Enemies by id.")
    turn_open_for: str | None = Field(description="The PC whose turn is open; null between turns.")
    pcs_done: list[str] = Field(description="PCs whose turn has ended this round.")
    help_tokens: list[StepDiceHelpToken] = Field(description="Unspent help of this player phase.")
    outcome: EncounterOutcome | None = Field(description="How the GM ended it.")
    suggested_outcome: Literal["victory", "defeat"] | None = Field(description="The server's suggestion (4.8.8).")


class StepDiceClock(_Model, title="StepDiceClock"):
    """A time-pressure clock of the current scene (seed §11.2); players see only visible ones."""

    id: str = Field(description="The clock's id (a keyed hash, so hidden clocks cannot be counted).")
    scene_id: str = Field(description="Its scene.")
    label: str = Field(description="What it measures.")
    length: int = Field(description="Failures until it triggers.")
    value: int = Field(description="Failures so far.")
    status: Literal["running", "triggered", "cancelled"] = Field(description="Spec 5.5.")
    consequence: str = Field(description="What happens when it triggers.")
    visible_to_players: bool = Field(description="Players see it.")


class StepDicePendingAttack(_Model, title="StepDicePendingAttack"):
    target_enemy_id: str = Field(description="The enemy attacked.")
    target_kind: EnemyKind = Field(description="Its kind (sets the benefits, §5.5).")
    attack_type: Literal["melee", "ranged", "spell"] = Field(description="How.")
    minion_pressure: Literal["none", "step", "extra_complication"] = Field(description="Several minions (§5.8).")
    could_reach_default: bool | None = Field(
        description="Whether the enemy could retaliate, by cover; null when the GM must say (§5.6)."
    )


class StepDicePendingCast(_Model, title="StepDicePendingCast"):
    tier: Literal["trick", "standard", "strong", "great_power"] = Field(description="The effect tier (§6.3).")
    mana_paid: int = Field(description="Mana spent on it.")
    heal_target_id: str | None = Field(None, description="Who it heals.")
    heal_amount: int | None = Field(None, description="Hearts it heals.")
    move_to: StepDicePosition | None = Field(None, description="Where it moves the caster.")


class StepDicePending(_Model, title="StepDicePending"):
    """The one in-flight choice of a test (spec 5.1); every other move waits until it is settled. Which fields
    are present depends on `stage` and on what caused it (a test, or a hit for `armor_choice`)."""

    id: str = Field(description="The choice's id (the test's, or the hit's).")
    stage: Literal["choose_benefit", "retaliation_check", "armor_choice", "needs_gm_text"] = Field(
        description="Who answers: the PC (choose_benefit, armor_choice) or the GM."
    )
    character_id: str = Field(description="The PC concerned.")
    test_id: str | None = Field(None, description="The test that led here.")
    kind: Literal["test", "attack", "cast", "call_test"] | None = Field(None, description="The test's kind.")
    outcome: Outcome | None = Field(None, description="The test's outcome.")
    natural_one: bool | None = Field(None, description="The die showed 1.")
    encounter_id: str | None = Field(None, description="The encounter it happened in.")
    planned_complication: str | None = Field(None, description="GM only: the complication the GM noted.")
    attack: StepDicePendingAttack | None = Field(None, description="The attack, when it was one.")
    cast: StepDicePendingCast | None = Field(None, description="The spell, when it was one.")
    benefit_options: list[str] | None = Field(None, description="choose_benefit: the options to choose from.")
    text_required: Literal["complication", "consequence"] | None = Field(
        None, description="needs_gm_text: what the GM must write."
    )
    cause: Literal["retaliation", "enemy_hit", "complication"] | None = Field(
        None, description="armor_choice: why a Heart would be lost."
    )
    hit_id: str | None = Field(None, description="armor_choice: the hit.")
    enemy_id: str | None = Field(None, description="armor_choice: the enemy that hit.")
    description: str | None = Field(None, description="armor_choice: the GM's description of the hit.")


class StepDiceFailedTest(_Model, title="StepDiceFailedTest"):
    """A failed test of this scene, for the repeated-test warning (seed §3.7)."""

    scene_id: str | None = Field(description="Its scene.")
    character_id: str = Field(description="Who failed it.")
    attribute: Attribute = Field(description="The attribute.")
    base_tn: int = Field(description="The base TN.")
    steps: list[tuple[str, int]] = Field(description="Its steps as [source (casefolded), delta], sorted.")


class StepDiceTable(_Model, title="StepDiceTable"):
    scene: StepDiceScene | None = Field(description="The current scene; null before the first.")
    encounter: StepDiceEncounter | None = Field(description="The last combat encounter; null before the first.")
    clocks: dict[str, StepDiceClock] = Field(description="Time-pressure clocks by id (players: the visible ones).")
    pending: StepDicePending | None = Field(description="The choice every other move waits for, if any.")
    awaiting: list[AwaitingEntry] = Field(description="Whose move it is and what each may send (after every move).")
    offers: list[AwaitingEntry] = Field(
        default_factory=list,
        description="Every move each party may send now: "
        "what `awaiting` asks and the moves open outside it (nobody is waited for).",
    )
    failed_tests: list[StepDiceFailedTest] = Field(description="Failed tests of this scene (§3.7 warning).")
    seq: dict[str, int] | None = Field(None, description="GM only: id counters.")
    id_salt: str | None = Field(None, description="GM only: the key of hidden ids.")


class StepDiceState(_Model, title="StepDiceState"):
    """A Step Dice table as its reader may see it."""

    options: StepDiceOptions = Field(description="The campaign's options.")
    characters: dict[str, StepDiceSheet] = Field(description="Every character, by id.")
    table: StepDiceTable = Field(description="Scene, encounter, clocks, the pending choice and whose move it is.")
