"""The rule systems this service can run, by id."""
from __future__ import annotations

from service.rules.base import RuleSystem
from service.rules.stepdice import SYSTEM as STEPDICE

SYSTEMS: dict[str, RuleSystem] = {STEPDICE.id: STEPDICE}
