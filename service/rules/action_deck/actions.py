"""The discriminated union of every move, and who may send each."""

from __future__ import annotations

from service.rules.actions import action_set
from service.rules.action_deck.actions_combat import COMBAT_ACTIONS
from service.rules.action_deck.actions_session import SESSION_ACTIONS
from service.rules.action_deck.actions_tests import TEST_ACTIONS

MODELS = SESSION_ACTIONS + COMBAT_ACTIONS + TEST_ACTIONS
Action, ADAPTER, ACTION_TYPES, ACTION_SENDERS = action_set(MODELS)
