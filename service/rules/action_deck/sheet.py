"""Character sheets (spec §3.5): Wild Card or Extra, side, trait dice, Pace, running die, gear, conditions.

Every combatant, NPCs and Extras included, is a character created through the campaign's character
endpoint (the GM creates NPCs with no player). One sheet shape keeps every move uniform; the engine
cannot add characters itself because the application layer stores sheets in SQL by id.
"""

from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from service.i18n.message import _
from service.rules.action_deck.errors import violation
from service.rules.action_deck.options import Options
from service.rules.strings import trimmed

if TYPE_CHECKING:  # a type checker cannot read a type made by a call; pydantic reads the ones below
    Name = str
    TraitName = str
    TraitDie = str
else:
    Name = trimmed(120)
    TraitName = trimmed(None, pattern=r"^[A-Za-z][A-Za-z0-9_]{0,39}$", case="lower")
    TraitDie = trimmed(None, pattern=r"^[dD](4|6|8|10|12)(\+[1-9])?$", case="lower")
PlainDie = Literal["d4", "d6", "d8", "d10", "d12"]
Kind = Literal["wild_card", "extra"]
Side = Literal["party", "party_ally", "opposition", "neutral"]


class ActionDeckWeapon(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    name: Name
    damage: list[PlainDie] = Field(
        min_length=1,
        max_length=6,
        description="Damage dice, each aces (seed 1.4). The seed defines none: GM data (B36).",
    )
    damage_bonus: int = Field(0, ge=-10, le=20, description="Flat bonus added after rolling.")
    rate_of_fire: int = Field(1, ge=1, le=6, description="Trait dice per attack (seed 1.4 'Wiele kości').")
    raise_bonus: int = Field(
        0,
        ge=0,
        le=20,
        description="Extra damage when the attack had a raise (B36: a GM or campaign input; the seed gives no size).",
    )


class ActionDeckGear(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    name: Name
    at_hand: bool = Field(True, description="Readied as a free action (seed 1.3 'pod ręką', the GM's call).")


class ActionDeckCharacterInput(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    name: Name = Field(description="The character's name.")
    kind: Kind = Field(
        "wild_card",
        description="Wild Card (Wild Die, three wounds) or Extra; the GM's decision "
        "(seed 1.5); player characters default to Wild Card (B34).",
    )
    side: Side = Field(
        "party", description="party, party_ally, opposition or neutral: who gets Jokers Wild bennies (§4.15)."
    )
    attributes: dict[TraitName, TraitDie] = Field(
        default_factory=dict, max_length=12, description="Attribute → die, d4…d12 (d12+N only as d12+1…+9)."
    )
    skills: dict[TraitName, TraitDie] = Field(
        default_factory=dict, max_length=60, description="Skill → die; a missing skill is improvised (d4 −2)."
    )
    pace: int | None = Field(None, ge=0, le=60, description="Inches per turn; default the campaign's pace_default.")
    running_die: PlainDie | None = Field(
        None, description="Default the campaign's running die (B20: Edges such as Fleet-Footed are entered here)."
    )
    edges: list[Name] = Field(default_factory=list, max_length=40)
    hindrances: list[Name] = Field(default_factory=list, max_length=40)
    power_points: int = Field(0, ge=0, le=999)
    weapons: list[ActionDeckWeapon] = Field(default_factory=list, max_length=20)
    gear: list[ActionDeckGear] = Field(default_factory=list, max_length=60)
    benny_bonus: int = Field(
        0,
        ge=0,
        le=10,
        description="Extra bennies an NPC Wild Card gets on entering play from Edges such as Luck (seed 1.6, B40).",
    )
    leader_id: Name | None = Field(
        None,
        description="The NPC this one serves as a henchman (Jokers Wild with "
        "jokers_wild_opposition_recipients = henchmen_only).",
    )


def parse_die(text: str, field: str) -> dict[str, int]:
    sides, _n, bonus = text.removeprefix("d").partition("+")
    if bonus and sides != "12":
        raise violation("invalid_die", _("{text}: only a d12 takes a +N bonus (spec §3.5)", text=text), field)
    return {"sides": int(sides), "bonus": int(bonus or 0)}


def new_character(data: ActionDeckCharacterInput, options: Options) -> dict[str, Any]:
    clash = sorted(set(data.attributes) & set(data.skills))
    if clash:
        raise violation(
            "duplicate_trait", _("{value!r} is both an attribute and a skill", value=clash[0]), f"skills.{clash[0]}"
        )
    names = [w.name.casefold() for w in data.weapons]
    if len(set(names)) != len(names):
        raise violation("duplicate_trait", _("two weapons share a name; damage and attacks name the weapon"), "weapons")
    return {
        "name": data.name,
        "kind": data.kind,
        "side": data.side,
        "attributes": {k: parse_die(v, f"attributes.{k}") for k, v in data.attributes.items()},
        "skills": {k: parse_die(v, f"skills.{k}") for k, v in data.skills.items()},
        "pace": options.pace_default if data.pace is None else data.pace,
        "running_die": int((data.running_die or f"d{options.running_die_default}")[1:]),
        "edges": list(data.edges),
        "hindrances": list(data.hindrances),
        "weapons": [{**w.model_dump(), "damage": [int(d[1:]) for d in w.damage]} for w in data.weapons],
        "gear": [g.model_dump() for g in data.gear],
        "benny_bonus": data.benny_bonus,
        "leader_id": data.leader_id,
        "power_points": data.power_points,
        "wounds": 0,
        "eliminated": False,
        "shaken": False,
        "stunned": False,
        "fatigue": 0,
    }


def trait_die(sheet: dict[str, Any], trait: str) -> dict[str, int] | None:
    return sheet["attributes"].get(trait) or sheet["skills"].get(trait)


def weapon(sheet: dict[str, Any], name: str) -> dict[str, Any]:
    for w in sheet.get("weapons", []):
        if w["name"].casefold() == name.strip().casefold():
            return w
    raise violation("unknown_weapon", _("{name} has no weapon {name_2!r}", name=sheet["name"], name_2=name), "weapon")
