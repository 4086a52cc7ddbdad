"""One description template per event type (service/i18n/describe.py formats them). Placeholders name keys of
the event's data; the catalogue test checks that every event type the code emits has one."""
from __future__ import annotations

from service.i18n.message import N_

FALLBACK = N_("Event {type}")

DESCRIPTIONS: dict[str, str] = {
    # The application's own events.
    "campaign_created": N_("Campaign “{name}” created ({system}, dice: {dice_mode})"),
    "campaign_language_changed": N_("The campaign's language is now {language}"),
    "player_invited": N_("Player {name} invited"),
    "character_created": N_("Character {name} created"),
    "character_assigned": N_("A character was assigned to a player"),
    "dice_rolled": N_("Dice rolled for {purpose}: {dice}"),
    "expression_rolled": N_("Rolled {expression}: {total}"),
    "dice_session_opened": N_("Dice session {number} opened"),
    "dice_session_closed": N_("Dice session {number} closed; its seed is revealed"),
    "dice_session_client_seed": N_("The table's seed for dice session {number} was set"),
    "undone": N_("Moves undone: the table is back at version {back_to_version}"),
    "campaign_finished": N_("The campaign is finished"),
}
