"""What every engine's move context shares: a private deep copy of the state, the actor, the dice and
the events so far. Each rule system subclasses it with its own options, table defaults and helpers."""

import hashlib
import hmac
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Generic, TypeVar, cast

from pydantic import BaseModel

from service.dice.types import DiceSource
from service.i18n.message import _
from service.rules.base import Actor, Event, RuleViolation, Visibility
from service.rules.jsoncopy import json_copy


ID_SALT = "id_salt"
# Table keys no player ever sees: the id counters and the salt of the hidden ids (see secret_id).
ID_SECRETS = ("seq", ID_SALT)


def secret_token(salt: str, kind: str, n: int) -> str:
    return hmac.new(salt.encode(), f"{kind}:{n}".encode(), hashlib.sha256).hexdigest()[:16]


def hide_id_secrets(table: dict[str, Any]) -> dict[str, Any]:
    """A player's view of the table drops the counters (which count hidden things) and the salt."""
    for key in ID_SECRETS:
        table.pop(key, None)
    return table


def with_id_salt(table: dict[str, Any], salt: str) -> dict[str, Any]:
    """The application layer's half of secret_id: every table it loads gets a salt once, kept from then on."""
    if not table.get(ID_SALT):
        table[ID_SALT] = salt
    return table


P = TypeVar("P", bound=BaseModel)
T = TypeVar("T")
# A system's Options model: each context is a MoveContext[its Options], so `ctx.options.<toggle>` is checked.
OptionsT = TypeVar("OptionsT", bound=BaseModel)


def guaranteed(value: T | None, what: str) -> T:
    """Something a move's guards already made sure of (an encounter, a contest's pair, the dice of a move that throws
    some). Reaching here without it is a bug in the engine, not the player's error: it fails saying what was missing."""
    if value is None:
        raise RuntimeError(f"{what} is missing where the rules guarantee it")
    return value


def payload_data(payload: BaseModel) -> dict[str, Any]:
    """An event's payload as it leaves the engine for the log, the API and webhooks: the fields the emission site
    set, under their wire names (`from`). The dump builds new containers, so the event never aliases the state."""
    return payload.model_dump(by_alias=True, exclude_unset=True)


def without(payload: P, *fields: str) -> P:
    """A copy of the payload with `fields` left out: players' copy of an event that hides part of it (the models
    give every field a copy may lack a default)."""
    defaults = {}
    for name in fields:
        info = type(payload).model_fields[name]
        if info.is_required():
            raise TypeError(f"{type(payload).__name__}.{name} is required; no copy may leave it out")
        defaults[name] = info.get_default(call_default_factory=True)
    copy = payload.model_copy(update=defaults)
    copy.__pydantic_fields_set__.difference_update(fields)
    return copy


def replaced(payload: P, **changes: Any) -> P:
    """A copy of the payload with some fields changed, validated like the original (players' copy of an event that
    shows less of a field, e.g. only the visible clocks)."""
    return type(payload).model_validate({**payload.model_dump(by_alias=True, exclude_unset=True), **changes})


class MoveContext(Generic[OptionsT]):
    Options: ClassVar[type[BaseModel]]
    # The system's own factory, so "unknown_character" carries the status its closed code set gives it.
    violation: ClassVar[Callable[..., RuleViolation]]
    # The system's payload model per event type (its events_model.EVENT_PAYLOADS): what its contracts describe.
    payloads: ClassVar[Mapping[str, type[BaseModel]]]

    @staticmethod
    def initial_table() -> dict[str, Any]:
        return {"seq": {}}

    def __init__(self, state: dict[str, Any], actor: Actor, dice: DiceSource | None) -> None:
        # Purity: the caller's state is never touched; every change lands in this copy.
        self.state = json_copy(state)
        self.state.setdefault("characters", {})
        # Options is OptionsT's own class (a ClassVar cannot name a type variable).
        self.options: OptionsT = cast(OptionsT, self.Options.model_validate(self.state.get("options") or {}))
        table = self.state.get("table") or {}
        for key, value in self.initial_table().items():
            table.setdefault(key, value)
        self.state["table"] = table
        self.actor = actor
        self.dice = dice
        self.events: list[Event] = []

    def thrown(self) -> DiceSource:
        """The injected dice, for a move that throws some. A context built without them (for offers, a view, the
        first table) throws none."""
        return guaranteed(self.dice, "the dice of a move that throws some")

    @property
    def table(self) -> dict[str, Any]:
        return self.state["table"]

    @property
    def characters(self) -> dict[str, dict[str, Any]]:
        return self.state["characters"]

    def emit(
        self,
        type_: str,
        data: BaseModel,
        *,
        gm_only: bool = False,
        redacted: BaseModel | None = None,
        sealed: bool = False,
    ) -> None:
        """`data` (and players' copy, `redacted`) is the event type's payload model, built at the emission site so a
        missing or misspelt field fails there. `sealed`: nobody, the GM included, sees more than `redacted` until a
        later event reveals `data`."""
        visibility: Visibility = "sealed" if sealed else "gm" if gm_only else "all"
        self.events.append(
            Event(
                type_,
                self._payload(type_, data),
                visibility=visibility,
                redacted=None if redacted is None else self._payload(type_, redacted),
            )
        )

    def _payload(self, type_: str, payload: BaseModel) -> dict[str, Any]:
        expected = self.payloads.get(type_)
        if type(payload) is not expected:
            raise TypeError(
                f"event {type_!r} carries a {type(payload).__name__}, but its payload model is "
                f"{expected.__name__ if expected else 'missing'}"
            )
        return payload_data(payload)

    def next_id(self, kind: str, prefix: str) -> str:
        """A sequential id, for things every player sees anyway (scenes, tests): a gap tells nothing."""
        seq = self.table["seq"]
        seq[kind] = seq.get(kind, 0) + 1
        return f"{prefix}{seq[kind]}"

    def secret_id(self, kind: str, prefix: str) -> str:
        """An id for something that may be hidden from players (a clock, an element, a GM note): a keyed hash
        of the counter, so neither a gap nor a guess reveals how many hidden ones exist. Pure: the key is the
        table's own salt, which the application layer supplies (see `with_id_salt`)."""
        salt = self.table.get(ID_SALT)
        if not salt:
            raise RuntimeError("this table has no id salt; the application layer adds one when it loads a table")
        seq = self.table["seq"]
        seq[kind] = seq.get(kind, 0) + 1
        return prefix + secret_token(salt, kind, seq[kind])

    def sheet(self, character_id: str, field: str = "character_id") -> dict[str, Any]:
        sheet = self.characters.get(character_id)
        if sheet is None:
            raise type(self).violation(
                "unknown_character",
                _("no character {character_id!r} in this campaign", character_id=character_id),
                field,
            )
        return sheet
