"""Request bodies shared by REST and GraphQL: one definition, two transports."""

from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from service.dice.types import DiceMode
from service.game.deadlines.settings import TurnDeadlines
from service.i18n import SUPPORTED
from service.rules.registry import SYSTEMS

if TYPE_CHECKING:
    SystemId = str  # the registered systems are known when the code runs, not to a type checker
else:
    SystemId = Literal[tuple(SYSTEMS)]
Language = Literal[SUPPORTED]  # type: ignore[valid-type]

Faces = list[int]
# Names end up in text columns, and PostgreSQL text cannot hold control characters such as NUL.
Name = Annotated[str, StringConstraints(min_length=1, max_length=200, pattern=r"^[^\x00-\x1f\x7f]+$")]
MAX_SEQ = 2**31 - 1


def integral_numbers(value: Any) -> Any:
    """JSON has one number type: `3.0` is the integer 3 (JSON Schema's `integer` admits it too). Request models
    validate strictly, so `true` or `"3"` is never taken for a number; this keeps `3.0` taken for `3`."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {k: integral_numbers(v) for k, v in value.items()}
    if isinstance(value, list):
        return [integral_numbers(v) for v in value]
    return value


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class CampaignCreate(_In):
    name: Name = Field(description="What the table calls this campaign.")
    system: SystemId = Field(description="The rule system the campaign plays.")
    options: dict[str, Any] = Field(
        default_factory=dict,
        description="Per-campaign toggles of the rule system; omitted ones take the spec's default.",
    )
    dice_mode: DiceMode = Field(
        "server",
        description="server: the service rolls; verifiable: commit-reveal rolls anyone can "
        "check after the session closes; table: clients enter physical dice.",
    )
    language: Language = Field(
        "en",
        description="The campaign's default language for messages, event descriptions "
        "and rule terms: en, pl or ru. The GM may change it later.",
    )
    turn_deadlines: TurnDeadlines | None = Field(
        None,
        description="Time limits for players' turns and pending "
        "choices, kept by the server; omitted: no deadlines (the GM may "
        "set them later).",
    )


class PlayerInvite(_In):
    name: Name


class CampaignLanguageUpdate(_In):
    language: Language = Field(description="The campaign's default language: en, pl or ru.")


class PlayerLanguageUpdate(_In):
    language: Language | None = Field(description="The player's own language (en, pl or ru); null: the campaign's.")


class CharacterCreate(_In):
    sheet: dict[str, Any] = Field(
        description="The character sheet as the rule system defines it.",
        json_schema_extra={"x-per-system": "character_input"},
    )
    player_id: str | None = Field(
        None,
        description="GM only: the player who controls the character. A player's own characters are assigned to them.",
    )


class CharacterValidationRequest(_In):
    sheet: dict[str, Any] = Field(
        description="The character sheet to check, as for createCharacter.",
        json_schema_extra={"x-per-system": "character_input"},
    )


class CharacterAssign(_In):
    player_id: str | None = Field(description="The player who will control the character; null unassigns it.")


class ActionRequest(_In):
    system: SystemId | None = Field(
        None,
        description="The campaign's rule system, when the client wants it checked: "
        "a move meant for another system is refused (409 `system_mismatch`).",
    )
    action: dict[str, Any] = Field(
        description="The move, with its `type`; see the rule system's actions.",
        json_schema_extra={"x-per-system": "action"},
    )
    dice: Faces | None = Field(
        None, max_length=100, description="Table mode only: the physical faces, in the order the move rolls them."
    )


class RollRequest(_In):
    expression: str = Field(
        min_length=1, max_length=200, description="A dice expression, e.g. `4d6kh3`, `1d20+5`, `3d10e10`."
    )
    label: Name | None = None
    dice: Faces | None = Field(None, max_length=100, description="Table mode only: the faces, in order.")


class ClientSeed(_In):
    client_seed: Name = Field(description="The table's own contribution to every die of the session.")


class UndoRequest(_In):
    count: int = Field(1, ge=1, le=100, description="How many of the latest moves to undo.")
