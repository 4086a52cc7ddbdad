"""Character creation (seed §2, spec 3.2): role → starting dice, 5 Hearts, 3 Mana, 2 Talents, gear."""

from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from service.i18n.message import _, _n
from service.rules.stepdice.errors import violation
from service.rules.stepdice.ladder import PROFICIENCY_FOR_DIE
from service.rules.stepdice.options import Options
from service.rules.strings import trimmed

Role = Literal["warrior", "rogue", "mage"]
if TYPE_CHECKING:
    Tag = str  # a type checker cannot read a type made by a call; pydantic reads the one below
else:
    Tag = trimmed(80)

STARTING_DICE: dict[str, dict[str, str]] = {  # §2.2, L52–L54
    "warrior": {"strength": "d10", "dexterity": "d6", "magic": "d6"},
    "rogue": {"strength": "d6", "dexterity": "d10", "magic": "d6"},
    "mage": {"strength": "d6", "dexterity": "d6", "magic": "d10"},
}
HEARTS_START, HEARTS_CAP = 5, 7  # §2.3, §8
MANA_START, MANA_CAP = 3, 5  # §6.1, §8
TALENT_COUNT, ITEM_COUNT = 2, 3  # §2.4 "2 krótkie hasła", §2.5 "3 rzeczy"


class StepDiceEquipment(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    weapon: str = Field(max_length=120, description="The one weapon or combat tool (seed §2.5).")
    protection: Tag | None = Field(
        None, description="Optional protection; it gives Armor tokens only with `use_armor_tokens` (seed §11.1)."
    )
    items: list[Tag] = Field(
        max_length=10,
        description="Exactly 3 useful adventure items. Equipment is a permission, never a numeric bonus (seed L80).",
    )


class StepDiceCharacterInput(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    name: Tag = Field(description="The character's name.")
    role: Role = Field(description="warrior, rogue or mage; sets only the starting dice (seed §2.1).")
    talents: list[Tag] = Field(
        default_factory=list,
        max_length=6,
        description="Exactly 2 short free-text Talents when `use_talents` is on, else none.",
    )
    equipment: StepDiceEquipment


def new_character(data: StepDiceCharacterInput, options: Options) -> dict[str, Any]:
    eq = data.equipment
    if not eq.weapon.strip():
        raise violation("weapon_required", _("a character starts with one weapon or combat tool"), "equipment.weapon")
    if len(eq.items) != ITEM_COUNT:
        raise violation(
            "wrong_item_count",
            _n(
                "a character starts with exactly {item_count} item, got {count}",
                "a character starts with exactly {item_count} items, got {count}",
                ITEM_COUNT,
                item_count=ITEM_COUNT,
                count=len(eq.items),
            ),
            "equipment.items",
        )
    if options.use_talents:
        if len(data.talents) != TALENT_COUNT:
            raise violation(
                "wrong_talent_count",
                _n(
                    "a character has exactly {talent_count} Talent, got {count}",
                    "a character has exactly {talent_count} Talents, got {count}",
                    TALENT_COUNT,
                    talent_count=TALENT_COUNT,
                    count=len(data.talents),
                ),
                "talents",
            )
        if len({t.casefold() for t in data.talents}) != len(data.talents):
            raise violation("duplicate_talent", _("the two Talents must differ"), "talents")
    elif data.talents:
        raise violation("option_disabled", _("this campaign plays without Talents (use_talents is off)"), "talents")
    dice = dict(STARTING_DICE[data.role])
    return {
        "name": data.name,
        "role": data.role,
        "dice": dice,
        "proficiency": ({a: PROFICIENCY_FOR_DIE[d] for a, d in dice.items()} if options.variant_d6_only else None),
        "hearts": HEARTS_START,
        "hearts_max": HEARTS_START,
        "mana": MANA_START,
        "mana_max": MANA_START,
        "talents": list(data.talents),
        "equipment": {"weapon": eq.weapon.strip(), "protection": eq.protection, "items": list(eq.items)},
        "armor_token_available": eq.protection is not None,
        "condition": "active",
        "pending_advancements": 0,
    }


def proficiency(sheet: dict[str, Any], attribute: str) -> str:
    """A sheet made before the variant was switched on derives its level from its die (7-A41)."""
    levels = sheet.get("proficiency") or {}
    return levels.get(attribute) or PROFICIENCY_FOR_DIE[sheet["dice"][attribute]]
