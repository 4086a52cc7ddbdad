"""Character creation (spec §3.3) and the small sheet helpers every module uses."""

from typing import Any

from pydantic import Field

from service.i18n.message import _
from service.rules.danger_pool.errors import violation
from service.rules.danger_pool.fields import Label, Model, Text
from service.rules.danger_pool.options import Options

AFTERMATH_OPTIONS = ("take_the_hit", "set_someone_up", "betray_the_team", "hide_the_pain")


class CharacterInput(Model):
    """What a client sends to create a character. Ratings, legends and equipment are free-form because
    the seed does not say how they are gained (A3, A4); stamina and character points are derived."""

    name: Label = Field(description='The character\'s name, e.g. Lucifer "Cyclops" Jones.')
    abilities: dict[Label, int] = Field(
        max_length=50, description='Ability name → rating (≥ 1), e.g. {"Wetwork": 3} (A3).'
    )
    legends: list[Text] = Field(
        default_factory=list, max_length=50, description="Legends, free text; each fitting one adds a die."
    )
    equipment: list[Text] = Field(
        default_factory=list, max_length=50, description="Equipment, free text; one fitting item adds a die."
    )
    stamina_max: int | None = Field(
        None, ge=1, le=100, description="Override of the campaign's stamina_max_default (A1)."
    )


def new_character(data: CharacterInput, options: Options) -> dict[str, Any]:
    if not data.abilities:
        raise violation(
            "abilities_required", _("a character needs at least one ability (§4.4 starts from its rating)"), "abilities"
        )
    seen: set[str] = set()
    for name, rating in data.abilities.items():
        if name.casefold() in seen:
            raise violation("duplicate_ability", _("ability {name!r} is listed twice", name=name), f"abilities.{name}")
        seen.add(name.casefold())
        if not 1 <= rating <= 99:
            raise violation(
                "invalid_ability_rating",
                _("{name} must be rated 1 to 99 (§3.3: each ≥ 1)", name=name),
                f"abilities.{name}",
            )
    stamina = data.stamina_max or options.stamina_max_default
    return {
        "name": data.name,
        "player_id": None,  # set by the GM's assign_player (spec §3.2)
        "abilities": dict(data.abilities),
        "legends": [{"legend_id": f"legend-{i}", "text": t} for i, t in enumerate(data.legends, 1)],
        "equipment": [{"item_id": f"item-{i}", "text": t} for i, t in enumerate(data.equipment, 1)],
        "scars": [],
        "stamina_max": stamina,
        "stamina": stamina,
        "character_points": options.character_points_start,
        "status": "active",
        "pending_aftermath": False,
        "aftermath_proposal": None,  # Take the Hit waits for the GM (A39)
        "aftermath_used": [],  # this character's choices (aftermath_scope = character)
        "doomed_next_scene": False,  # Hide the Pain (§4.15.4)
        "doomed_in_scene_id": None,
        "doomed_exit": None,
        "traitor_plan": None,  # GM and the betrayer only (§4.15.3)
        "former_player_id": None,
    }


def ability(sheet: dict[str, Any], name: str, field: str) -> int:
    if name not in sheet["abilities"]:
        raise violation(
            "unknown_ability", _("{name} has no ability {name_2!r}", name=sheet["name"], name_2=name), field
        )
    return sheet["abilities"][name]


def reducible(sheet: dict[str, Any]) -> list[str]:
    """Abilities an after-effect may reduce: rated 2 or more, so a rating never drops below 1 (§3.3)."""
    return sorted(n for n, r in sheet["abilities"].items() if r >= 2)


def counted_scars(sheet: dict[str, Any]) -> int:
    return sum(1 for s in sheet["scars"] if s["counts_toward_max"])


def add_scar(sheet: dict[str, Any], text: str, origin: str, scene_id: str | None) -> dict[str, Any]:
    """Scars are permanent (§3.3), so a running number is a stable id. Bail-out scars neither count
    toward the maximum nor grant points (source, §4.13)."""
    scar = {
        "scar_id": f"scar-{len(sheet['scars']) + 1}",
        "text": text,
        "origin": origin,
        "counts_toward_max": origin != "bail_out",
        "granted_cp": origin != "bail_out",
        "scene_id": scene_id,
    }
    sheet["scars"].append(scar)
    return scar
