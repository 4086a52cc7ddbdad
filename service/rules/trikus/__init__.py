"""Trikus (spec rules/trikus.md): d10 opposed tests thrown one die at a time, lines by tier,
party-wide exhaustion, team tests and combat, morale, boost, light and dark tokens, promotions.

`SYSTEM` is what the application layer registers; every move goes through `SYSTEM.apply` (engine.py).
"""

from service.rules.trikus.engine import TrikusSystem

SYSTEM = TrikusSystem()

__all__ = ["SYSTEM", "TrikusSystem"]
