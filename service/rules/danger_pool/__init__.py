"""Danger Pool (spec rules/danger_pool.md, seed 002): action scenes with a progress track, player d10 pools
against the GM's danger pool, Push / Hold Back / Bail Out, ties, stamina, character points, after-effects.

`SYSTEM` is what the application layer registers; every move goes through `SYSTEM.apply` (engine.py).
"""

from service.rules.danger_pool.engine import DangerPoolSystem

SYSTEM = DangerPoolSystem()

__all__ = ["SYSTEM", "DangerPoolSystem"]
