"""The documented shape of a Trikus table as `view()` returns it (spec 3, 5, 8.2), and of a character sheet.

What a reader may not see (spec 8.2): players never see the GM's notes (`gm_notes` is empty), `seq` and `id_salt`;
an item trait its owner has not discovered shows to players as `{"kind": "unknown", "known_to_owner": false}`;
with `hide_dark_counts_from_other_players` the dark-token counts of others' characters are null; under
optional rule 2 the GM sees an unrevealed dark side as `{"hidden": true, "authored_by", "revealed": false}`;
with `boom_visibility: players_must_notice` players' `boom.seen`/`available` list only claimed values.
"""

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from service.rules.awaiting import AwaitingEntry
from service.rules.trikus.constants import Tier
from service.rules.trikus.fields import TraitKind
from service.rules.trikus.options import Options

Result = Literal["success", "failure", "draw", "escaped", "removed", "no_result"]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class TrikusLine(_Model, title="TrikusLine"):
    """One line of dice (spec 3.4): crossed when a test uses it, back at the party reset (L66)."""

    index: int = Field(description="Its position on the sheet.")
    dice: int = Field(description="Its dice (Beginner 1/1/1, Advanced 2/1, Master 3).")
    state: Literal["free", "crossed", "lost"] = Field(description="lost: to a Catastrophe (L332).")
    lost_resets_remaining: int | None = Field(None, description="lost: party resets until it returns.")


class TrikusTokenCounts(_Model, title="TrikusTokenCounts"):
    """Light or dark tokens; a dark count is null for players who may not see it (A38 option)."""

    active: int | None = Field(description="Held now (received − used − forfeited).")
    received_total: int | None = Field(description="Received in all.")
    used_total: int | None = Field(description="Spent in all.")
    forfeited_total: int | None = Field(description="Lost unspent.")


class TrikusSide(_Model, title="TrikusSide"):
    """A light or dark side (L244). Under optional rule 2 an unrevealed dark side shows the GM no text."""

    text: str | None = Field(None, description="The side; absent when hidden.")
    authored_by: str | None = Field(description="'self', or the player who wrote it (optional rule 1).")
    revealed: bool | None = Field(None, description="Dark sides: acted out and known.")
    hidden: bool | None = Field(None, description="Optional rule 2: the GM may not read it yet.")


class TrikusTrait(_Model, title="TrikusTrait"):
    """One pip of an item (L402–L420); an undiscovered one shows players only `unknown`."""

    kind: TraitKind | Literal["unknown"] = Field(description="The trait, or `unknown` to players until it acts.")
    known_to_owner: bool = Field(description="The owner knows it.")
    modifier: int | None = Field(None, description="Offensive (negative) or defensive (positive) modifier.")
    renew_condition: str | None = Field(None, description="Renewable: what must happen before it works again.")


class TrikusItem(_Model, title="TrikusItem"):
    id: str = Field(description="The item's id on this sheet.")
    name: str = Field(description="The item.")
    state: Literal["available", "depleted", "lost"] = Field(description="depleted: a renewable used up.")
    notes: str | None = Field(description="Narrative notes (L400).")
    traits: list[TrikusTrait] = Field(description="Its pips.")


class TrikusSheet(_Model, title="TrikusSheet"):
    """A character as the API returns it (spec 3.4)."""

    id: str | None = Field(
        None, description="The character's id (absent while the sheet is being built, e.g. in a validation reply)."
    )
    name: str = Field(description="The character's name.")
    profession: str | None = Field(description="Flavour only.")
    tier: Tier = Field(description="beginner, advanced or master.")
    status: Literal["active", "dead", "turned_dark"] = Field(description="turned_dark: now the GM's (L300).")
    controller: Literal["player", "gm"] = Field(description="Who acts for it.")
    lines: list[TrikusLine] = Field(description="Its lines of dice.")
    morale_dice: int = Field(description="Morale dice held (L218).")
    light_tokens: TrikusTokenCounts = Field(description="Light-side tokens.")
    dark_tokens: TrikusTokenCounts = Field(description="Dark-side tokens (three active turn it, L300).")
    light_sides: list[TrikusSide] = Field(description="Light sides.")
    dark_sides: list[TrikusSide] = Field(description="Dark sides.")
    sides_pending: bool = Field(description="Promoted: its player must write the new tier's sides (`set_sides`).")
    equipment: list[TrikusItem] = Field(description="Items (advanced rules).")


class TrikusActivityStakes(_Model, title="TrikusActivityStakes"):
    on_success: str | None = Field(description="What a success gives.")
    on_failure: str | None = Field(description="What a failure costs.")
    description: str | None = Field(description="What is being tested.")


class TrikusAnswer(_Model, title="TrikusAnswer"):
    """An invited character's answer: `join` (with its line and extras) or `bad_feeling` (L76–L86)."""

    kind: Literal["join", "bad_feeling"] = Field(description="The answer.")
    line_index: int | None = Field(None, description="join: the line crossed (null: none free).")
    morale: int | None = Field(None, description="join (test): morale dice committed.")
    light: int | None = Field(None, description="join (test): light tokens committed as dice.")
    boost: bool | None = Field(None, description="join (test): boost (+2 dice).")
    item_ids: list[str] | None = Field(None, description="join (test): items used.")
    dice: int | None = Field(None, description="join (test): the pool.")
    allies: int | None = Field(None, description="join (combat): ally dice.")
    line_dice: int | None = Field(None, description="join (combat): the line's dice.")
    description: str | None = Field(None, description="bad_feeling: what the character does instead.")
    intent: str | None = Field(None, description="bad_feeling: what the player hopes for.")


class TrikusDeclared(_Model, title="TrikusDeclared"):
    morale: int = Field(description="Morale dice this round.")
    light: int = Field(description="Light tokens as dice this round.")
    boost: bool = Field(description="Boost this round.")
    item_ids: list[str] = Field(description="Items used this round.")


class TrikusParticipant(_Model, title="TrikusParticipant"):
    """A character taking part once the activity started."""

    line_index: int | None = Field(description="The line crossed.")
    boost: bool = Field(description="Boosted (this test or round).")
    item_ids: list[str] = Field(description="Items used (this test or round).")
    negotiated: bool = Field(description="Lost through an accepted negotiation (spec 4.23).")
    status: Literal["in", "active", "knocked_out", "escaped", "left", "removed"] = Field(
        description="in (a test), active (a combat), or how it left."
    )
    line_dice: int | None = Field(None, description="Combat: the line's dice left.")
    allies: int | None = Field(None, description="Combat: ally dice left.")
    participated: bool | None = Field(None, description="Combat: joined it (the Master rule, A31).")
    boost_used: bool | None = Field(None, description="Combat: boosted in some round.")
    declared: TrikusDeclared | None = Field(None, description="Combat: this round's declaration.")


class TrikusPairState(_Model, title="TrikusPairState"):
    kind: Literal["initial", "tie", "ctrl"] = Field(description="Nobody threw yet, a tie, or one side in control.")
    side: str | None = Field(None, description="ctrl: who is in control.")
    target: int | None = Field(None, description="ctrl: the value to beat.")
    die: int | None = Field(None, description="ctrl: the die that set it.")
    value: int | None = Field(None, description="tie: the tied value.")


class TrikusPair(_Model, title="TrikusPair"):
    a: str = Field(description='Side a: "gm", or the challenger in a PvP test.')
    b: str = Field(description="Side b: a character.")
    state: TrikusPairState = Field(description="Who is in control (spec 4.3).")
    outcome: str = Field(description="open until the pair is decided.")
    winner: str | None = Field(description="The side that won.")
    left: str | None = Field(description="A side that left the pair.")
    final_value: int | None = Field(description="The value that decided it.")
    passed: list[str] = Field(description="Sides that passed a last chance.")


class TrikusContestDie(_Model, title="TrikusContestDie"):
    id: int = Field(description="The die's number in this contest.")
    wave: int = Field(description="The wave it was thrown in.")
    thrower: str = Field(description='"gm" or a character.')
    value: int = Field(description="Its value.")
    renegotiated: bool = Field(description="Re-thrown after a negotiation.")
    proposed: bool | None = Field(None, description="A negotiation was proposed against it.")
    superseded_value: int | None = Field(None, description="Its value before a re-throw.")


class TrikusNegotiation(_Model, title="TrikusNegotiation"):
    proposer: str = Field(description="Who proposed it.")
    responder: str = Field(description='Who answers ("gm" or the opponent).')
    die: int = Field(description="The die to re-throw.")


class TrikusBoomClaim(_Model, title="TrikusBoomClaim"):
    character_id: str = Field(description="Who claimed it.")
    value: int = Field(description="The triple's value.")
    text: str = Field(description="What unexpected thing happens.")


class TrikusBoom(_Model, title="TrikusBoom"):
    """Triples (advanced, L350–L356)."""

    seen: list[int] = Field(description="Values that came up three times.")
    available: list[int] = Field(description="Those not claimed yet.")
    claims: list[TrikusBoomClaim] = Field(description="Claims made.")


class TrikusContest(_Model, title="TrikusContest"):
    """The opposed engine (spec 4.3): pairs thrown in waves, one die per thrower per wave."""

    order: list[str] = Field(
        description='Throw order in a wave: "gm" first, then seat order; a table-mode '
        "request completing a wave carries its faces in this order."
    )
    pairs: list[TrikusPair] = Field(description="One pair per opponent.")
    unthrown: dict[str, int] = Field(description='Dice left to throw, by "gm" or character.')
    dice: list[TrikusContestDie] = Field(description="Dice thrown so far.")
    wave: int = Field(description="The open wave.")
    submitted: list[str] = Field(description="Who has thrown in the open wave (values come when it is complete).")
    stage: Literal["wave", "last_chance", "negotiation_offered", "negotiation_rethrow", "resolved"] = Field(
        description="What the contest waits for."
    )
    last_chance: str | None = Field(description="Who is offered a last chance.")
    negotiation: TrikusNegotiation | None = Field(description="The open negotiation.")
    boom: TrikusBoom = Field(description="Triples.")


class TrikusQueueJob(_Model, title="TrikusQueueJob"):
    kind: Literal["attack", "gm"] = Field(description="A player's attack roll, or the GM's roll at a failing one.")
    roller: str = Field(description="Who rolls.")
    target: str | None = Field(None, description="gm: the player it targets.")


class TrikusDeclaration(_Model, title="TrikusDeclaration"):
    character_id: str = Field(description="Who declared.")
    choice: Literal["attack", "defend"] = Field(description="Attack, or defend a failing ally (L382).")
    target_character_id: str | None = Field(description="defend: whom.")


class TrikusCombatRoll(_Model, title="TrikusCombatRoll"):
    kind: Literal["attack", "gm"] = Field(description="Whose roll.")
    roller: str = Field(description="Who rolled.")
    target_character_id: str | None = Field(description="gm: the player targeted.")
    need: int = Field(description="The combat difficulty to reach.")
    value: int | None = Field(description="The face; null when waived.")
    hit: bool = Field(description="It hit.")
    waived: bool = Field(description="The GM waived it.")


class TrikusLineChoice(_Model, title="TrikusLineChoice"):
    character_id: str = Field(description="Who must choose the line lost to a Catastrophe.")
    candidates: list[int] = Field(description="Lines it may choose.")


class TrikusActivity(_Model, title="TrikusActivity"):
    """The one open test, PvP test or combat (I7). Combat-only fields are absent for tests."""

    id: str = Field(description="The activity's id.")
    kind: Literal["test", "pvp_test", "combat"] = Field(description="What it is.")
    phase: str = Field(
        description="pool_formation | setup | round_pool | contest | boom_review | cancellation | "
        "declarations | attack_rolls | gm_rolls | lost_line_choice | consequences | "
        "no_test (spec 5.2–5.4); `table.awaiting` says who acts in it."
    )
    invited: list[str] = Field(description="Invited characters, seat order (every tie-break in it).")
    answers: dict[str, TrikusAnswer] = Field(description="Answers by character.")
    participants: dict[str, TrikusParticipant] = Field(description="Participants by character.")
    stakes: TrikusActivityStakes = Field(description="What is at stake.")
    contest: TrikusContest | None = Field(description="The running contest.")
    results: dict[str, Result] = Field(description="Results by character.")
    final_values: dict[str, int | None] = Field(description="The deciding value by character.")
    gm_pool: int | None = Field(None, description="The GM's dice (difficulty; in combat, lasting between rounds).")
    combat_difficulty: int | None = Field(None, description="Combat: the difficulty of hits (advanced).")
    powerful_opponent: bool | None = Field(None, description="Combat: against a powerful GM character (L208).")
    round: int | None = Field(None, description="Combat: the round.")
    master_consequence_applied: bool | None = Field(None, description="Combat: the Master rule was applied (A32).")
    catastrophes: dict[str, list[str]] | None = Field(None, description="Catastrophe causes by character, this round.")
    queue: list[TrikusQueueJob | str] | None = Field(
        None, description="Who decides or rolls next (cancellation: character ids; combat: roll jobs)."
    )
    declarations: list[TrikusDeclaration] | None = Field(None, description="Combat: this round's declarations.")
    rolls: list[TrikusCombatRoll] | None = Field(None, description="Combat: this round's difficulty rolls.")
    reviewed: bool | None = Field(None, description="The GM reviewed the round's booms.")
    cancelled: dict[str, Result] | None = Field(None, description="Team test: results changed by cancellation.")
    line_choices: list[TrikusLineChoice] | None = Field(None, description="Lines lost that await a choice.")


class TrikusLastActivity(_Model, title="TrikusLastActivity"):
    activity_id: str = Field(description="The closed activity.")
    kind: Literal["test", "pvp_test", "combat"] = Field(description="What it was.")
    outcome: str = Field(description="How it ended (e.g. resolved, players_win, players_defeated, aborted).")
    results: dict[str, Result] = Field(description="Results by character.")


class TrikusPendingChange(_Model, title="TrikusPendingChange"):
    """A promotion or a new Beginner waiting for the session boundary (A34)."""

    kind: Literal["promote", "new_character"] = Field(description="What changes.")
    at_session_start: bool = Field(description="Waits for `start_session` (else applies when the activity ends).")
    character_id: str | None = Field(None, description="promote: who.")
    from_: Tier | None = Field(None, alias="from", description="promote: the tier now.")
    to: Tier | None = Field(None, description="promote: the new tier.")
    replaces: str | None = Field(None, description="new_character: the character it replaces.")
    tier: Literal["beginner"] | None = Field(None, description="new_character: always beginner.")


class TrikusDarkSidePrompt(_Model, title="TrikusDarkSidePrompt"):
    id: str = Field(description="The prompt.")
    character_id: str = Field(description="Whose dark side the GM invoked.")
    note: str | None = Field(description="The GM's note.")


class TrikusGmNoteRecord(_Model, title="TrikusGmNoteRecord"):
    id: str = Field(description="The note.")
    character_id: str | None = Field(description="The character it is about.")
    text: str = Field(description="The note.")


class TrikusTable(_Model, title="TrikusTable"):
    session_number: int = Field(description="The session (starts at 1).")
    reset_count: int = Field(description="Party-wide resets so far.")
    activity: TrikusActivity | None = Field(description="The open activity.")
    last_activity: TrikusLastActivity | None = Field(description="Summary of the last closed activity.")
    pending_changes: list[TrikusPendingChange] = Field(description="Promotions and new Beginners (A34).")
    dark_side_prompts: list[TrikusDarkSidePrompt] = Field(
        description="Dark tokens spent that await the player's acknowledgement."
    )
    gm_notes: list[TrikusGmNoteRecord] = Field(description="The GM's private notes (empty for players).")
    awaiting: list[AwaitingEntry] = Field(description="Who must move for the activity to go on, and with what.")
    offers: list[AwaitingEntry] = Field(
        default_factory=list,
        description="Every move each party may send now: "
        "what `awaiting` asks and the moves open outside it (nobody is waited for).",
    )
    requests: list[AwaitingEntry] = Field(
        description="Party-level prompts that do not block the activity (acknowledge_dark_side, set_sides)."
    )
    seats: list[str] = Field(description="Characters in the order they joined the table (seat order, spec 3.3).")
    seq: dict[str, int] | None = Field(None, description="GM only: id counters.")
    id_salt: str | None = Field(None, description="GM only: the key of hidden ids.")


class TrikusParty(_Model, title="TrikusParty"):
    """Spec 3.3: the party; a composition other than one per tier is allowed with a warning (L21)."""

    members: list[str] = Field(description="Active characters in seat order.")
    composition: dict[Tier, int] = Field(description="Active characters per tier.")
    composition_ok: bool = Field(description="One Beginner, one Advanced and one Master.")
    exhausted: dict[str, bool] = Field(description="By member: no free line left.")


class TrikusState(_Model, title="TrikusState"):
    """A Trikus table as its reader may see it."""

    options: Options = Field(description="The campaign's options.")
    characters: dict[str, TrikusSheet] = Field(description="Every character, by id.")
    table: TrikusTable = Field(description="The open activity, party counters and whose move it is.")
    party: TrikusParty = Field(description="Members, composition and exhaustion.")
