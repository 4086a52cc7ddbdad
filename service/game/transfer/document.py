"""The campaign document's one schema: what `GET …/export` returns and `POST /v1/campaigns/import` takes.

Every field is typed and bounded, and the cross-references hold (unique ids and numbers, characters of
listed players), so a document that does not conform is a 422 naming the field before anything is read
further, let alone written. What the document claims about play (sheets, dice, events) is not believed
here: service/game/transfer/replay.py checks it against the engine.
"""

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, TypeAdapter, ValidationError

from service.dice.types import DiceMode
from service.game.deadlines.settings import TurnDeadlines
from service.game.webhooks.egress import MAX_URL
from service.game.errors import GameError, from_validation, invalid
from service.game.inputs import Language, Name, SystemId
from service.game.webhooks.endpoints import MAX_WEBHOOKS, EventType, Text, View
from service.i18n.message import _, _n

FORMAT = "rulekeeper-campaign/1"

# Ids are the service's own UUIDs: nothing else, so remapping them on import cannot touch anything else.
Id = Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")]
Hex64 = Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{64}$")]
Stamp = Annotated[str, StringConstraints(max_length=40, pattern=r"^[0-9T:.+\-Z ]*$")]
Purpose = Annotated[str, StringConstraints(max_length=200)]
Count = Annotated[int, Field(ge=0, le=2**31 - 1)]
Positive = Annotated[int, Field(ge=1, le=2**31 - 1)]


class _Doc(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class ImportedFrom(_Doc):
    """Where an imported campaign came from, and from which version on this server rolled its dice."""

    from_campaign: Id | None = Field(None, description="The campaign's id where it was exported.")
    exported_at: Stamp | None = Field(None, description="When the document was exported.")
    imported_at: Stamp = Field(description="When this server imported it.")
    first_server_version: Positive = Field(
        description="The first table version whose dice this server rolled; every earlier move, its dice and "
        "events came from the document (replayed and checked here, but not rolled here)."
    )


class DocCampaign(_Doc):
    id: Id
    name: Name
    system: SystemId
    options: dict[str, Any] = Field(description="The rule system's options; checked against the system's model.")
    dice_mode: DiceMode
    status: Literal["active", "finished"]
    language: Language = "en"
    created_at: Stamp | None = None
    imported: ImportedFrom | None = Field(None, description="Set when this campaign was itself imported.")


class DocPlayer(_Doc):
    id: Id
    name: Name
    language: Language | None = None


class DocCharacter(_Doc):
    id: Id
    name: Name
    player_id: Id | None = None


class DocActor(_Doc):
    role: Literal["gm", "player"]
    player_id: Id | None = None
    character_ids: list[Id] = Field(default_factory=list, max_length=1000)


class DocDie(_Doc):
    sides: Positive
    face: Positive
    source: DiceMode
    seq: Count | None = None
    purpose: Purpose = ""


class DocMove(_Doc):
    version: Positive
    kind: Literal["action", "character", "undo"]
    body: dict[str, Any] = Field(
        description="action: `{action}`; character: `{character_id, sheet}`; undo: `{target, undone}`."
    )
    actor: DocActor
    dice: list[DocDie] = Field(max_length=10_000)
    first_seq: Count
    last_seq: Count
    created_at: Stamp | None = None


class DocEvent(_Doc):
    seq: Positive
    type: EventType
    data: dict[str, Any]
    redacted: dict[str, Any] | None = None
    visibility: Literal["all", "gm", "sealed"] = "all"
    # "clock": what the turn clock did (a warning, an expiry, the default move for an absent player).
    actor_role: Literal["gm", "player", "clock"] = "gm"
    actor_player_id: Id | None = None
    created_at: Stamp | None = None


class DocDiceSession(_Doc):
    number: Positive
    commitment: Hex64
    client_seed: Annotated[str, StringConstraints(max_length=200, pattern=r"^[^\x00-\x1f\x7f]*$")] = ""
    counter: Count = 0
    status: Literal["open", "closed", "unrevealed", "unverifiable"]
    seed: Hex64 | None = Field(None, description="A closed session's revealed seed; null for any other.")
    opened_at: Stamp | None = None
    closed_at: Stamp | None = None


class DocFinal(_Doc):
    version: Count
    state_sha256: Hex64


class DocDeadlines(_Doc):
    settings: TurnDeadlines
    paused: bool = False


class DocWebhook(_Doc):
    """A webhook without its secret: an import registers it paused, with a secret of its own."""

    url: str = Field(max_length=MAX_URL)
    event_types: list[EventType] = Field(default_factory=list, max_length=100)
    view: View = "players"
    status: Literal["active", "paused"] = "active"
    description: Text = ""


class CampaignDocument(_Doc):
    """What `GET …/export` returns and `POST /v1/campaigns/import` takes."""

    @classmethod
    def checked(cls, data: Any) -> "CampaignDocument":
        """Validated as `model_validate` would, the long lists a slice at a time: validation holds the
        interpreter for as long as one call runs, and a document's moves and events are most of it."""
        if not isinstance(data, dict) or not all(isinstance(data.get(k), list) for k in _SLICED):
            return cls.model_validate(data)
        head = cls.model_validate({**data, **{k: [] for k in _SLICED}})
        return head.model_copy(update={k: _sliced(adapter, data[k], k) for k, adapter in _SLICED.items()})

    format: Literal["rulekeeper-campaign/1"] = Field(description="The document's format and version.")
    exported_at: Stamp | None = Field(None, description="When the document was exported.")
    campaign: DocCampaign
    players: list[DocPlayer] = Field(max_length=1000)
    characters: list[DocCharacter] = Field(max_length=5000)
    initial_state: dict[str, Any] = Field(
        description="The table at version 0. An import builds it again from the "
        "campaign's options and refuses a document whose differs."
    )
    moves: list[DocMove] = Field(
        description="The move log. The deployment caps how many one import may hold (RULEKEEPER_IMPORT_MAX_MOVES)."
    )
    events: list[DocEvent]
    dice_sessions: list[DocDiceSession] = Field(max_length=10_000)
    final: DocFinal = Field(
        description="`version` and `state_sha256` of the table the moves arrive at; an import "
        "computes them itself and refuses a document that says otherwise."
    )
    deadlines: DocDeadlines | None = Field(None, description="The turn deadline settings; null: none kept.")
    webhooks: list[DocWebhook] = Field(
        default_factory=list, max_length=MAX_WEBHOOKS, description="The webhooks, without their secrets."
    )


_SLICED: dict[str, TypeAdapter[Any]] = {"moves": TypeAdapter(list[DocMove]), "events": TypeAdapter(list[DocEvent])}
SLICE = 250


def _sliced(adapter: TypeAdapter, items: list[Any], name: str) -> list[Any]:
    out: list[Any] = []
    for start in range(0, len(items), SLICE):
        try:
            out.extend(adapter.validate_python(items[start : start + SLICE]))
        except ValidationError as exc:
            raise from_validation(exc, name, shift=start) from None
    return out


def check_references(doc: CampaignDocument) -> None:
    """What one field's type cannot say: unique ids and numbers, references to listed players and characters.
    A 422 naming the first field at fault (dotted, as a validation error names it)."""
    ids: dict[str, str] = {doc.campaign.id: "campaign.id"}
    named: tuple[tuple[str, list[Any]], ...] = (("players", doc.players), ("characters", doc.characters))
    for where, items in named:
        for i, item in enumerate(items):
            if item.id in ids:
                raise _bad(f"{where}.{i}.id", _("{value} appears twice in the document", value=item.id))
            ids[item.id] = f"{where}.{i}.id"
    _unique([e.seq for e in doc.events], "events", "seq")
    _unique([d.number for d in doc.dice_sessions], "dice_sessions", "number")
    players = {p.id for p in doc.players}
    characters = {c.id for c in doc.characters}
    for i, c in enumerate(doc.characters):
        if c.player_id is not None and c.player_id not in players:
            raise _bad(f"characters.{i}.player_id", _("not one of the document's players"))
    for i, m in enumerate(doc.moves):
        if m.version != i + 1:
            raise _bad(
                f"moves.{i}.version", _("moves are numbered 1, 2, 3, …; move {i} is {version}", i=i, version=m.version)
            )
        if m.actor.player_id is not None and m.actor.player_id not in players:
            raise _bad(f"moves.{i}.actor.player_id", _("not one of the document's players"))
        if not set(m.actor.character_ids) <= characters:
            raise _bad(f"moves.{i}.actor.character_ids", _("not the document's characters"))
    for i, e in enumerate(doc.events):
        if e.actor_player_id is not None and e.actor_player_id not in players:
            raise _bad(f"events.{i}.actor_player_id", _("not one of the document's players"))
    if doc.final.version != len(doc.moves):
        raise _bad(
            "final.version",
            _n(
                "the document holds {count} move, so the final version is {count}",
                "the document holds {count} moves, so the final version is {count}",
                len(doc.moves),
                count=len(doc.moves),
            ),
        )


def _bad(field: str, detail) -> GameError:
    return invalid("import_invalid", _("{field}: {message}", field=field, message=detail), field)


def _unique(values: list[Any], where: str, name: str) -> None:
    seen: set[Any] = set()
    for i, v in enumerate(values):
        if v in seen:
            raise _bad(f"{where}.{i}.{name}", _("{value} appears twice in the document", value=v))
        seen.add(v)
