"""Iskra (`iskra`): d10 + attribute + modifiers ≥ 10, Death's Door, Focus Points (seed 003, spec iskra.md)."""

from service.rules.iskra.engine import IskraSystem

SYSTEM = IskraSystem()

__all__ = ["SYSTEM", "IskraSystem"]
