"""The discriminated union of every move, and who may send each."""

from __future__ import annotations

from service.rules.actions import action_set
from service.rules.stepdice.actions_gm import GM_ACTIONS
from service.rules.stepdice.actions_player import PLAYER_ACTIONS

MODELS = PLAYER_ACTIONS + GM_ACTIONS
# "gm": the GM only. "owner": the GM or the player controlling the character the action names
# (for choose_benefit / choose_armor: the character the pending choice belongs to).
Action, ADAPTER, ACTION_TYPES, ACTION_SENDERS = action_set(MODELS)
