"""The discriminated union of every move, and who may send each."""

from __future__ import annotations

from service.rules.actions import action_set
from service.rules.trikus.actions_gm import GM_ACTIONS
from service.rules.trikus.actions_player import PLAYER_ACTIONS

MODELS = PLAYER_ACTIONS + GM_ACTIONS
# "gm": the GM only. "owner": the GM or the player controlling `character_id`.
# "any": checked per move (a throw without character_id is the GM's; narrate is open to all).
Action, ADAPTER, ACTION_TYPES, ACTION_SENDERS = action_set(MODELS)
