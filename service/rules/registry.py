"""The rule systems this service can run, by id."""

from __future__ import annotations

from service.rules.action_deck import SYSTEM as ACTION_DECK
from service.rules.base import RuleSystem
from service.rules.danger_pool import SYSTEM as DANGER_POOL
from service.rules.iskra import SYSTEM as ISKRA
from service.rules.stepdice import SYSTEM as STEPDICE
from service.rules.trikus import SYSTEM as TRIKUS

SYSTEMS: dict[str, RuleSystem] = {s.id: s for s in (STEPDICE, TRIKUS, DANGER_POOL, ISKRA, ACTION_DECK)}
