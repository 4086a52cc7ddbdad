"""Static game data: species traits (§2.1, spec 3.3), surviving abilities (§2.2, spec 3.4), Ether scale."""

from __future__ import annotations

from typing import Any

from service.rules.iskra.options import Options

ATTRIBUTES = ("strength", "dexterity", "intelligence", "charisma")
ETHER_LEVELS = ("none", "low", "medium", "high", "very_high")  # 7-B34: the top label is inferred
SOCIAL_CONTEXTS = frozenset({"influence", "intimidate", "persuade"})  # L120
PHYSICAL = frozenset({"strength", "dexterity"})  # L134: the overload penalty hits Si and Zr tests

HEALTH_MAX = 5  # L64 "zawsze wynosi 5"
FOCUS_START = 5  # L73, resolution 7-B8
ATTR_MIN, ATTR_MAX = 0, 5  # L54
MAX_PREDISPOSITIONS = 3  # L86
CREATION_PICKS = 2  # L128, L281
VERSATILITY_PICKS = 2  # L205
COST_ABILITY, COST_FOCUS, COST_ATTRIBUTE = 10, 15, 20  # L100–L103
XP_ADVERSITY = 3  # L95

# Species traits come automatically and never use creation picks (spec 4.10.3).
SPECIES_TRAITS: dict[str, tuple[str, ...]] = {
    "human": ("versatility", "ether_sense"),
    "elf": ("keen_senses", "ether_resistance"),
    "dwarf": ("blind", "ether_sight", "ether_resistance"),
    "asrai": ("temperature_sensitivity", "gills", "levitation", "ether_resistance"),
}
# Highest tolerated Ether level; None = the campaign's human_ether_tolerance (7-B34).
ETHER_TOLERANCE: dict[str, str | None] = {"human": None, "elf": "medium", "dwarf": "very_high", "asrai": "high"}
TRAIT_IDS = frozenset(t for traits in SPECIES_TRAITS.values() for t in traits)

# The four abilities that survive in the table of §2.2 (L290–L293).
BASE_ABILITIES: dict[str, dict[str, Any]] = {
    "efficiency": {"name": "Efektywność", "max_level": 1, "repeatable": False, "glory_required": 0},
    "language": {"name": "Język", "max_level": 1, "repeatable": True, "glory_required": 0},
    "light_step": {"name": "Lekki Krok", "max_level": 1, "repeatable": False, "glory_required": 0},
    "ambidexterity": {"name": "Oburęczność", "max_level": 1, "repeatable": False, "glory_required": 0},
}


def abilities(options: Options) -> dict[str, dict[str, Any]]:
    out = dict(BASE_ABILITIES)
    for a in options.extra_abilities:
        out[a.ability_id] = {
            "name": a.name,
            "max_level": a.max_level,
            "repeatable": a.repeatable,
            "glory_required": a.glory_required,
        }
    return out


def ether_index(level: str) -> int:
    return ETHER_LEVELS.index(level)


def tolerance(species: str, options: Options) -> str:
    return ETHER_TOLERANCE.get(species) or options.human_ether_tolerance
