"""Character creation (spec 4.15, 3.2): species traits, attributes 0–5, Predispositions/Weaknesses, picks."""

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from service.i18n.message import _, _n
from service.rules.iskra import abilities
from service.rules.iskra.catalogue import (
    ATTR_MAX,
    ATTR_MIN,
    ATTRIBUTES,
    CREATION_PICKS,
    FOCUS_START,
    HEALTH_MAX,
    MAX_PREDISPOSITIONS,
    SPECIES_TRAITS,
    VERSATILITY_PICKS,
)
from service.rules.iskra.derived import encumbrance
from service.rules.iskra.errors import violation
from service.rules.iskra.fields import Id, Label, Species, Text
from service.rules.iskra.options import Options


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class Attributes(Strict):
    # Loose bounds here so the rule (0–5, L54) answers with its own code, attribute_out_of_range.
    strength: int = Field(ge=-100, le=100, description="Siła (Si): lifting, climbing, melee, endurance. 0–5.")
    dexterity: int = Field(ge=-100, le=100, description="Zręczność (Zr): balance, dodging, ranged attacks. 0–5.")
    intelligence: int = Field(ge=-100, le=100, description="Inteligencja (Int): knowledge, sensing lies. 0–5.")
    charisma: int = Field(ge=-100, le=100, description="Charyzma (Cha): persuasion, mental endurance. 0–5.")


class Trait(Strict):
    """A Predisposition or Weakness: free text agreed with the GM (L86)."""

    label: Label = Field(description="E.g. 'Skradanie się', 'Publiczne Przemówienia'.")
    topic: Label | None = Field(None, description="What tests it covers, when the label alone is unclear.")
    affects_carrying: bool = Field(False, description="It is about carrying: capacity ±2 (L132).")


class Concept(Strict):
    personality: Text | None = Field(None, description="General character (L38).")
    history: Text | None = Field(None, description="Background.")
    connections: Text | None = Field(None, description="Ties to other PCs.")


class AbilityPick(Strict):
    ability_id: Id = Field(description="Catalogue id, e.g. language, light_step.")
    level: int = Field(1, ge=1, le=10, description="2 = the second level of an ability picked with the other pick.")
    param: Label | None = Field(None, description="For repeatable abilities: what it is for (e.g. the language).")


class ItemIn(Strict):
    name: Label = Field(description="The item.")
    weight: int = Field(ge=0, le=100, description="Waga: 0 fits in a fist, 1 one hand, 2 two hands (§2.3).")
    carried: bool = Field(True, description="Carried items count toward the load (L134).")


class IskraCharacterInput(Strict):
    name: Label = Field(description="The character's name.")
    controller: Literal["player", "gm"] = Field("player", description="gm for NPCs (7-B29).")
    species: Species = Field(description="human, elf, dwarf or asrai (§2.1); grants its traits.")
    attributes: Attributes
    predispositions: list[Trait] = Field(default_factory=list, max_length=10, description="1–3 (L84–L86).")
    weaknesses: list[Trait] = Field(
        default_factory=list, max_length=10, description="At least one per Predisposition (L86)."
    )
    abilities: list[AbilityPick] = Field(
        default_factory=list, max_length=10, description="2 picks, 4 for Humans (L128, L205, L281)."
    )
    concept: Concept = Field(default_factory=Concept, description="Narrative concept (L38).")
    inventory: list[ItemIn] = Field(
        default_factory=list, max_length=50, description="Items with Weight only (§2.4 is missing)."
    )
    location_id: Id | None = Field(None, description="Where the character is (spec 3.7).")


def _check_traits(data: IskraCharacterInput) -> None:
    p, w = len(data.predispositions), len(data.weaknesses)
    if p < 1:
        raise violation(
            "predisposition_required", _("a character starts with at least one Predisposition (L84)"), "predispositions"
        )
    if p > MAX_PREDISPOSITIONS:
        raise violation(
            "too_many_predispositions",
            _n(
                "at most {max_predispositions} Predisposition (L86)",
                "at most {max_predispositions} Predispositions (L86)",
                MAX_PREDISPOSITIONS,
                max_predispositions=MAX_PREDISPOSITIONS,
            ),
            "predispositions",
        )
    if w < max(1, p):
        raise violation(
            "weakness_per_predisposition",
            _n(
                "{p} Predisposition needs at least {p} Weakness: one, plus one per extra Predisposition (L84–L86)",
                "{p} Predispositions need at least {p} Weaknesses: one, plus one per extra Predisposition (L84–L86)",
                p,
                p=p,
            ),
            "weaknesses",
        )


def _check_attributes(data: IskraCharacterInput, options: Options) -> dict[str, int]:
    attrs = data.attributes.model_dump()
    for name in ATTRIBUTES:
        if not ATTR_MIN <= attrs[name] <= ATTR_MAX:
            raise violation(
                "attribute_out_of_range",
                _("{name} must be {attr_min}–{attr_max} (L54)", name=name, attr_min=ATTR_MIN, attr_max=ATTR_MAX),
                f"attributes.{name}",
            )
    budget = options.attribute_point_budget
    if budget is not None and sum(attrs.values()) > budget:
        raise violation(
            "attribute_budget_exceeded",
            _n(
                "this campaign allows {budget} attribute point in total (7-B2), got {sum}",
                "this campaign allows {budget} attribute points in total (7-B2), got {sum}",
                budget,
                budget=budget,
                sum=sum(attrs.values()),
            ),
            "attributes",
        )
    return attrs


def _abilities(data: IskraCharacterInput, options: Options) -> list[dict[str, Any]]:
    owned = [{"ability_id": t, "level": 1, "source": "species", "param": None} for t in SPECIES_TRAITS[data.species]]
    picks = CREATION_PICKS + (VERSATILITY_PICKS if data.species == "human" else 0)  # Wszechstronność, L205
    if len(data.abilities) != picks:
        # Outside the _n call: babel's extractor loses a plural message that has another marked call inside it.
        versatility = _(", L205") if data.species == "human" else ""
        raise violation(
            "wrong_ability_pick_count",
            _n(
                "a {species} picks exactly {picks} ability (L128{value}), got {count}",
                "a {species} picks exactly {picks} abilities (L128{value}), got {count}",
                picks,
                species=data.species,
                picks=picks,
                value=versatility,
                count=len(data.abilities),
            ),
            "abilities",
        )
    # Lower levels first, so "one ability and its second level" (L281) works in either order.
    for i, pick in sorted(enumerate(data.abilities), key=lambda x: x[1].level):
        owned.append(
            abilities.acquire(options, owned, pick.ability_id, pick.level, pick.param, 0, "creation", f"abilities[{i}]")
        )
    return owned


def new_character(data: IskraCharacterInput, options: Options) -> dict[str, Any]:
    attrs = _check_attributes(data, options)
    _check_traits(data)
    owned = _abilities(data, options)
    inventory = [
        {
            "item_id": f"i{n}",
            "name": it.name,
            "weight": it.weight,
            "carried": it.carried,
            "wounds": None,
            "protects_from_temperature": False,
        }
        for n, it in enumerate(data.inventory, 1)
    ]
    sheet: dict[str, Any] = {
        "name": data.name,
        "controller": data.controller,
        "species": data.species,
        "attributes": attrs,
        "concept": data.concept.model_dump(),
        "health": HEALTH_MAX,
        "health_max": HEALTH_MAX,
        "status": "alive",
        "prone": False,
        "focus_points": FOCUS_START,
        "focus_max": FOCUS_START,
        "predispositions": [t.model_dump() for t in data.predispositions],
        "weaknesses": [t.model_dump() for t in data.weaknesses],
        "xp": 0,
        "xp_earned_total": 0,
        "glory": 0,
        "abilities": owned,
        "inventory": inventory,
        "location_id": data.location_id,
        "approved": False,
        "recovery_enabled": True,
        "recovery": {
            "recovering": False,
            "next_si_test_due_at": None,
            "safe_rest_since": None,
            "deaths_door_since": None,
            "last_si_test_day": None,
        },
    }
    if encumbrance(sheet, options) == "over_limit":
        raise violation(
            "over_carry_limit", _("the starting items weigh more than twice the carrying capacity (L134)"), "inventory"
        )
    return sheet
