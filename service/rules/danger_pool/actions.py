"""The discriminated union of every move, and who may send each."""
from __future__ import annotations

from typing import Annotated, Union

from pydantic import Field, TypeAdapter

from service.rules.danger_pool.actions_gm import GM_ACTIONS
from service.rules.danger_pool.actions_player import PLAYER_ACTIONS

MODELS = PLAYER_ACTIONS + GM_ACTIONS
Action = Annotated[Union[MODELS], Field(discriminator="type")]  # noqa: UP007 - a runtime tuple of models
ADAPTER: TypeAdapter = TypeAdapter(Action)

ACTION_TYPES: list[str] = [m.model_fields["type"].annotation.__args__[0] for m in MODELS]
# "gm": the GM only. "owner": the GM or the player controlling `character_id`.
ACTION_SENDERS: dict[str, str] = {t: m.sender for t, m in zip(ACTION_TYPES, MODELS)}
