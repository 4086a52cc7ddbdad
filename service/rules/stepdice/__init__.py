"""Step Dice (`stepdice`): one die per test stepping d6→d20 against TN 4/6/8/12 (seed 001, spec stepdice.md)."""

from service.rules.stepdice.engine import StepDiceSystem

SYSTEM = StepDiceSystem()

__all__ = ["SYSTEM", "StepDiceSystem"]
