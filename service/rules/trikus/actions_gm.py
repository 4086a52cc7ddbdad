"""Moves only the GM may send (spec 5, 5.1.2, 5.6)."""

from typing import Literal

from pydantic import Field

from service.rules.trikus.constants import MAX_GM_POOL
from service.rules.trikus.fields import Id, ItemInput, Move, Result, Text


class Stakes(Move):
    stakes_success: Text | None = Field(None, description="What a success brings (L92); recorded.")
    stakes_failure: Text | None = Field(None, description="What a failure costs (L92); recorded.")
    description: Text | None = Field(None, description="What is being tested; recorded.")


class OpenTest(Stakes):
    """Open a test: one player, or a team test with several (L138–L170). Seat order = list order."""

    type: Literal["open_test"]
    character_ids: list[Id] = Field(
        min_length=1, max_length=12, description="Invited characters, in seat order (used for every tie-break)."
    )
    gm_pool: int = Field(
        ge=1,
        le=MAX_GM_POOL,
        description="Difficulty = the GM's dice: 1 simple, 2 hard, 3 very hard, 4+ hardest (L94–L96).",
    )


class OpenPvpTest(Stakes):
    """A one-on-one test between two player characters (L112 'or players among themselves'; spec 4.23)."""

    type: Literal["open_pvp_test"]
    challenger_id: Id = Field(description="The character who starts the conflict (side a).")
    opponent_id: Id = Field(description="The other character (side b).")


class OpenCombat(Stakes):
    """Open a combat or team combat (L174–L216)."""

    type: Literal["open_combat"]
    character_ids: list[Id] = Field(min_length=1, max_length=12, description="Invited characters, seat order.")
    gm_pool: int = Field(
        ge=1, le=MAX_GM_POOL, description="One die per GM fighter or ally (L180, L184); lasts between rounds."
    )
    powerful_opponent: bool = Field(
        False,
        description="A fight against a powerful GM character, e.g. a Sith "
        "Lord: losing a last die costs the party its Master "
        "(L208–L214, A30).",
    )
    combat_difficulty: int | None = Field(
        None, ge=1, le=10, description="adv_combat_difficulty only: CD set from the conditions; default 3 (L368)."
    )


class Start(Move):
    """Start the open activity once every invited character has joined or opted out (spec 5.2, 5.4)."""

    type: Literal["start"]


class Auto(Move):
    """Throw every die nobody has a decision about (waves, negotiation re-throws, CD rolls without
    waiving) until someone must decide something or the activity ends."""

    type: Literal["auto"]


class BoomReview(Move):
    """After a test or round with an unclaimed boom, turn results upside down, or not (L356, A42)."""

    type: Literal["boom_review"]
    overrides: dict[Id, Result] = Field(
        default_factory=dict, description="character id -> new result; empty = no override."
    )


class WaiveRoll(Move):
    """Combat difficulty: the GM chooses not to roll against one failing player (A26)."""

    type: Literal["waive_roll"]
    target_character_id: Id = Field(description="The failing player the GM does not roll against.")


class AwardLightToken(Move):
    """A light-side token for play true to a Light side, never for passing tests (L264)."""

    type: Literal["award_light_token"]
    character_id: Id = Field(description="The character rewarded.")
    reason: Text = Field(description="The deed, tied to one of its light sides.")


class SpendDarkToken(Move):
    """Spend one of a character's dark tokens: the player must act out a dark side (L286)."""

    type: Literal["spend_dark_token"]
    character_id: Id = Field(description="The character whose token the GM spends.")
    note: Text | None = Field(None, description="What the GM asks for; recorded.")


class ForceReset(Move):
    """A party-wide reset outside the rule, e.g. at a campaign start or for absent players (A15); logged."""

    type: Literal["force_reset"]
    reason: Text = Field(description="Why the lines come back outside the rule.")


class StartSession(Move):
    """A new session: pending promotions and new Beginners take effect (L25, L302, A34)."""

    type: Literal["start_session"]


class AbortActivity(Move):
    """Administrative: close the open activity without further rules effects (spec 5.0); logged."""

    type: Literal["abort_activity"]
    reason: Text = Field(description="Why the activity is closed.")


class GiveItem(Move):
    """A new piece of equipment for a character (L394–L420)."""

    type: Literal["give_item"]
    character_id: Id = Field(description="The new owner.")
    item: ItemInput = Field(description="The item and its 1–3 traits.")


class RenewItem(Move):
    """A renewable item's condition is met: depleted -> available (L418, A43)."""

    type: Literal["renew_item"]
    character_id: Id = Field(description="The owner.")
    item_id: Id = Field(description="The depleted renewable item.")


class RevealTrait(Move):
    """The owner discovers a hidden trait outside play (L402)."""

    type: Literal["reveal_trait"]
    character_id: Id = Field(description="The owner.")
    item_id: Id = Field(description="The item.")
    trait_index: int = Field(ge=0, le=2, description="The pip discovered.")


class AdjustCombat(Move):
    """Administrative, between rounds: GM reinforcements or a character brought in on the GM's side
    (A22, A36), or a change of the powerful-opponent flag (A30); logged."""

    type: Literal["adjust_combat"]
    gm_pool_delta: int = Field(
        0, ge=-MAX_GM_POOL, le=MAX_GM_POOL, description="Dice added to (or taken from) the GM's combat pool."
    )
    powerful_opponent: bool | None = Field(None, description="New value of the flag; null leaves it.")
    reason: Text = Field(description="Why; recorded.")


class GmNote(Move):
    """A private GM note, e.g. a planned use of a dark token or hidden plot; players never see it (8.2)."""

    type: Literal["gm_note"]
    text: Text = Field(description="The note.")
    character_id: Id | None = Field(None, description="The character it concerns, if any.")


GM_ACTIONS = (
    OpenTest,
    OpenPvpTest,
    OpenCombat,
    Start,
    Auto,
    BoomReview,
    WaiveRoll,
    AwardLightToken,
    SpendDarkToken,
    ForceReset,
    StartSession,
    AbortActivity,
    AdjustCombat,
    GmNote,
    GiveItem,
    RenewItem,
    RevealTrait,
)
