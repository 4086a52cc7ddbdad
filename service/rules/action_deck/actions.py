"""The discriminated union of every move, and who may send each."""
from __future__ import annotations

from typing import Annotated, Union

from pydantic import Field, TypeAdapter

from service.rules.action_deck.actions_combat import COMBAT_ACTIONS
from service.rules.action_deck.actions_session import SESSION_ACTIONS
from service.rules.action_deck.actions_tests import TEST_ACTIONS

MODELS = SESSION_ACTIONS + COMBAT_ACTIONS + TEST_ACTIONS
Action = Annotated[Union[MODELS], Field(discriminator="type")]  # noqa: UP007 - a runtime tuple of models
ADAPTER: TypeAdapter = TypeAdapter(Action)

ACTION_TYPES: list[str] = [m.model_fields["type"].annotation.__args__[0] for m in MODELS]
ACTION_SENDERS: dict[str, str] = {t: m.sender for t, m in zip(ACTION_TYPES, MODELS)}
