"""What every rule system provides, and what it may raise.

A rule system is data plus pure moves: `apply(state, action, actor, dice)` returns the next
state and the events that describe the change. No I/O, no clock, no randomness of its own:
every die comes from the injected `DiceSource`.
"""

from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, TypeVar

from pydantic import BaseModel

from service.dice.types import DiceSource
from service.i18n.message import _

Role = Literal["gm", "player"]
Visibility = Literal["all", "gm", "sealed"]


@dataclass(frozen=True)
class Actor:
    """Who is asking: a GM, or a player bound to some characters."""

    role: Role
    player_id: str | None = None
    character_ids: frozenset[str] = frozenset()

    @property
    def is_gm(self) -> bool:
        return self.role == "gm"

    def controls(self, character_id: str) -> bool:
        return self.is_gm or character_id in self.character_ids


@dataclass
class Event:
    """One change, as the log, the API and webhooks will all show it.

    `visibility="gm"` keeps the event out of every player's view; `redacted` (when given)
    is what players see instead of `data`. `visibility="sealed"` shows everyone, the GM included,
    only `redacted`: the full `data` is kept for a later reveal (and for a closed session's proof).
    """

    type: str
    data: dict[str, Any] = field(default_factory=dict)
    visibility: Visibility = "all"
    redacted: dict[str, Any] | None = None

    def seen_by(self, actor: "Actor") -> dict[str, Any] | None:
        """The event's data as this actor may see it; None when it is GM-only. The one place this is decided:
        the event log, the API responses and the engines' own tests all ask here."""
        return seen_by(self.visibility, self.data, self.redacted, actor.is_gm)


def seen_by(
    visibility: str, data: dict[str, Any], redacted: dict[str, Any] | None, is_gm: bool
) -> dict[str, Any] | None:
    if visibility == "sealed":
        return redacted if redacted is not None else {}
    if is_gm:
        return data
    if visibility == "gm":
        return None
    return redacted if redacted is not None else data


class RuleViolation(Exception):
    """A move the rules do not allow. Becomes a 4xx problem with a stable `code`.

    status 409: the move conflicts with the current state (wrong phase, no Mana, not your turn);
    status 422: the move itself is malformed for the rules (a d20 cannot be helped up, bad field);
    status 403: the actor may not make this move: `gm_only` (a GM move or GM field sent by a player),
    `not_your_character` (a player acting for someone else's character), `character_not_yours` (a character
    the rules handed to the GM).
    """

    def __init__(self, code: str, detail: str, *, field: str | None = None, status: int = 409) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.field = field
        self.status = status


def gm_only(detail: str, *, field: str | None = None) -> RuleViolation:
    """A player sent a move, or set a field, that only the GM may send or set."""
    return RuleViolation("gm_only", detail, field=field, status=403)


def not_your_character(detail: str, *, field: str | None = None) -> RuleViolation:
    """A player acted or decided for a character they are not bound to."""
    return RuleViolation("not_your_character", detail, field=field, status=403)


def not_yours(name: str, why: str, *, field: str = "character_id") -> RuleViolation:
    """The rules took this character out of its player's hands (a betrayer, a character turned to the dark
    side): the player is still bound to it in the records, but may no longer act or speak for it."""
    return RuleViolation(
        "character_not_yours",
        _("{name} {why}; only the GM acts for it now", name=name, why=why),
        field=field,
        status=403,
    )


M = TypeVar("M", bound=BaseModel)


def coerce(model: type[M], value: BaseModel | dict[str, Any]) -> M:
    """`value` as `model`: the protocol takes options and character inputs as any model or a dict of one."""
    if isinstance(value, model):
        return value
    return model.model_validate(value if isinstance(value, dict) else value.model_dump())


class RuleSystem(Protocol):
    """The contract the application layer relies on; one implementation per rule system."""

    id: str
    name: str

    # Read-only here (a property), so a system may name its own subclass: a plain attribute of a protocol is
    # invariant, and StepDiceOptions would not be a type[BaseModel] member.
    @property
    def Options(self) -> type[BaseModel]:  # noqa: N802 - the per-campaign toggles with the spec's defaults
        ...

    @property
    def CharacterInput(self) -> type[BaseModel]:  # noqa: N802 - what a client sends to create a character
        ...

    Action: Any  # a pydantic discriminated union of every move (on "type")
    action_types: list[str]

    def new_character(self, data: BaseModel, options: BaseModel) -> dict[str, Any]:
        """Validate a sheet and return the full character with derived starting values."""
        ...

    def initial_state(self, options: BaseModel) -> dict[str, Any]:
        """The campaign's table state before anything happened (no characters)."""
        ...

    def apply(
        self, state: dict[str, Any], action: BaseModel, actor: Actor, dice: DiceSource
    ) -> tuple[dict[str, Any], list[Event]]:
        """One move; every system's is `service.rules.driver.apply` over the move table in its `engine.py`."""
        ...

    def view(self, state: dict[str, Any], actor: Actor) -> dict[str, Any]:
        """The state as this actor may see it: GM-only information removed for players."""
        ...

    # Optional: `session_close_blocker(table) -> RuleViolation | None`, why a verifiable dice session may not
    # close now (revealing its seed would reveal something the rules still hide, e.g. a deck being dealt).
