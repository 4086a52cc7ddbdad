"""Reply shapes, shared by both transports: the OpenAPI document's responses and the GraphQL object types are
made from them (the application layer returns plain dicts of these shapes)."""

from typing import Any, Literal

from pydantic import BaseModel, Field

from service.api.systemmodels import per_system
from service.game.deadlines.settings import TurnDeadlines
from service.game.inputs import SystemId
from service.game.transfer.document import CampaignDocument, ImportedFrom  # noqa: F401  (the export's shape)

Json = dict[str, Any]


class Campaign(BaseModel):
    id: str
    name: str
    system: SystemId
    options: Json = Field(
        description="The rule system's options, every one with its value.", json_schema_extra=per_system("options")
    )
    dice_mode: Literal["server", "verifiable", "table"]
    last_seq: int = Field(description="Sequence number of the campaign's latest event.")
    version: int = Field(description="The table's version: the number of the latest move in the move log.")
    status: Literal["active", "finished"] = Field(description="A finished campaign is read-only.")
    language: Literal["en", "pl", "ru"] = Field(
        description="The default language of replies (see docs/frontend.md, Languages)."
    )
    created_at: str
    imported: ImportedFrom | None = Field(
        None,
        description="Set on a campaign imported from a document, for everyone at the table: the moves, dice "
        "and events before `first_server_version` came from the document (replayed and checked, not "
        "rolled here); null: played here from the start.",
    )


class Player(BaseModel):
    id: str
    name: str
    language: Literal["en", "pl", "ru"] | None = Field(description="The player's own language; null: the campaign's.")


class You(BaseModel):
    role: Literal["gm", "player"]
    player_id: str | None
    character_ids: list[str]


class CampaignDetail(Campaign):
    players: list[Player]
    you: You


class CampaignCreated(BaseModel):
    campaign: Campaign
    gm_token: str = Field(description="The GM's bearer token. Shown once; only its hash is stored.")


class PlayerCreated(BaseModel):
    player: Player
    token: str = Field(description="The player's bearer token. Shown once; only its hash is stored.")


class Character(BaseModel):
    id: str
    name: str
    player_id: str | None
    sheet: Json = Field(
        description="The character as the rule system keeps it, as you may see it.",
        json_schema_extra=per_system("sheet"),
    )
    version: int


class CharacterList(BaseModel):
    items: list[Character]


class CharacterValidation(BaseModel):
    valid: bool
    sheet: Json = Field(
        description="The completed sheet: the character createCharacter would make.",
        json_schema_extra=per_system("sheet"),
    )


class Die(BaseModel):
    sides: int
    face: int
    source: Literal["server", "verifiable", "table"]
    seq: int | None = Field(None, description="Position in the verifiable dice session; null in other modes.")
    purpose: str


class SetAgain(BaseModel):
    what: Literal["tokens", "webhook_secret", "deadlines"]
    id: str | None = Field(description="The webhook's id, for `webhook_secret`.")
    detail: str


class CampaignImported(CampaignCreated):
    players: list[PlayerCreated] = Field(description="The imported players with new tokens (shown once).")
    to_set_again: list[SetAgain] = Field(
        description="What the document could not carry and the GM sets again: "
        "tokens, webhook secrets (webhooks arrive paused), deadlines "
        "(they arrive paused)."
    )


class EventActor(BaseModel):
    role: Literal["gm", "player", "clock"] = Field(
        description="Who made it: the GM, a player, or the clock (turn deadlines: a warning, an expiry, and the "
        "move the rules make for an absent player when its deadline runs out)."
    )
    player_id: str | None = Field(description="The player, when `role` is `player`; null otherwise.")


class LogEvent(BaseModel):
    seq: int
    type: str
    description: str = Field(
        description="What happened, in words, in the reply's language (the `type` and `data` "
        "are the same in every language)."
    )
    data: Json = Field(
        description="The event's payload as you may see it; its shape follows `type` and the campaign's rule system.",
        json_schema_extra=per_system("event_data"),
    )
    actor: EventActor
    created_at: str | None


class EventPage(BaseModel):
    items: list[LogEvent]
    next_after: int = Field(description="Pass as `after` to read on.")
    has_more: bool


class WebhookPayload(BaseModel):
    """The body of every webhook delivery: one event, in the shape of the REST event log."""

    type: str = Field(description="The event's type, as in the log (e.g. `dice_rolled`).")
    timestamp: str | None = Field(description="When the event was appended.")
    campaign_id: str
    data: LogEvent = Field(description="The event as the webhook's view sees it (`gm` or `players`).")


class Webhook(BaseModel):
    id: str
    url: str
    event_types: list[str] = Field(description="Event types delivered; empty: every type.")
    view: Literal["gm", "players"] = Field(
        description="players: no GM-only event and redacted data, as a player sees the log; gm: as the GM sees it."
    )
    status: Literal["active", "paused", "disabled"] = Field(
        description="disabled: the service stopped sending after RULEKEEPER_WEBHOOKS_DISABLE_AFTER_TIMEOUTS attempts "
        "in a row got no answer (a `webhook_disabled` event told the GM); pending deliveries wait, as "
        "when paused, until the GM sets it `active` again."
    )
    description: str
    previous_secret_expires_at: str | None = Field(
        description="After a rotation that kept the previous secret: until then every delivery also carries a "
        "signature made with it."
    )
    timeouts_in_row: int = Field(description="Attempts in a row that got no answer in time; any answer resets it.")
    retry_at: str | None = Field(
        description="While the endpoint is backed off after a timeout: nothing is sent to it before then."
    )
    created_at: str
    updated_at: str


class WebhookCreated(Webhook):
    secret: str = Field(
        description="The signing secret (`whsec_…`) for any Standard Webhooks library. Shown only "
        "here (at registration and rotation)."
    )


class WebhookList(BaseModel):
    items: list[Webhook]


class WebhookDelivery(BaseModel):
    id: str = Field(description="The `webhook-id` header: the same on every attempt, for de-duplication.")
    webhook_id: str
    seq: int = Field(description="The event's sequence number in the campaign's log.")
    event_type: str
    status: Literal["pending", "delivered", "failed"] = Field(
        description="pending: waiting for its turn, its next attempt, or in flight; failed: every attempt failed."
    )
    attempts: int = Field(description="Failed attempts since it was (re)scheduled.")
    next_attempt_at: str | None
    last_attempt_at: str | None
    last_response_code: int | None = Field(description="The receiver's HTTP status; null when none came back.")
    last_duration_ms: int | None
    last_error: str | None
    delivered_at: str | None
    created_at: str


class WebhookAttempt(BaseModel):
    started_at: str
    duration_ms: int
    response_code: int | None
    error: str | None


class WebhookDeliveryDetail(WebhookDelivery):
    payload: WebhookPayload = Field(description="The body every attempt sends.")
    attempt_log: list[WebhookAttempt]


class WebhookDeliveryPage(BaseModel):
    items: list[WebhookDelivery] = Field(description="Newest first.")
    next_before: int | None = Field(description="Pass as `before` to read on.")
    has_more: bool


class TableState(BaseModel):
    version: int = Field(description="The table's version; also the ETag.")
    system: SystemId = Field(description="The campaign's rule system: the shape of `state`.")
    state: Json = Field(description="The table as you may see it.", json_schema_extra=per_system("state"))


class ActionResult(BaseModel):
    version: int
    system: SystemId = Field(description="The campaign's rule system: the shape of `state`.")
    events: list[LogEvent]
    state: Json = Field(
        description="The table after the move, as you may see it.", json_schema_extra=per_system("state")
    )


class RollResult(BaseModel):
    expression: str
    label: str | None
    total: int
    text: str
    tree: Json
    dice: list[Die]
    events: list[LogEvent]


class DiceSession(BaseModel):
    number: int
    status: Literal["open", "closed", "unverifiable", "unrevealed"] = Field(
        description="unverifiable: imported from a server that had not closed it, so its seed stayed there and "
        "nobody can check its dice (`unrevealed` on campaigns imported before this was named)."
    )
    commitment: str = Field(description="SHA-256 of the seed, published before the first die.")
    client_seed: str
    rolls: int
    seed: str | None = Field(description="Revealed when the session is closed.")
    opened_at: str
    closed_at: str | None


class DiceSessionList(BaseModel):
    items: list[DiceSession]


class DiceSessionClosed(BaseModel):
    closed: DiceSession
    opened: DiceSession


class VerificationRoll(BaseModel):
    seq: int
    sides: int
    face: int
    event_seq: int


class VerificationMismatch(BaseModel):
    """A logged die whose face is not the one the revealed seed gives."""

    seq: int
    sides: int
    face: int = Field(description="The face the log has.")
    expected: int = Field(description="The face the seed gives.")


class VerificationReport(BaseModel):
    ok: bool
    commitment_ok: bool
    mismatches: list[VerificationMismatch]
    gaps: list[int] = Field(description="Sequence numbers the session used that no logged die carries.")
    count: int
    duplicates: list[int] = Field(description="Sequence numbers carried by more than one die (a hidden reroll).")
    gaps_truncated: bool
    session_rolls: int = Field(description="How many dice the session's counter says were thrown.")


class Verification(BaseModel):
    number: int
    seed: str
    commitment: str
    client_seed: str
    rolls: list[VerificationRoll]
    algorithm: str
    report: VerificationReport


class SystemSummary(BaseModel):
    id: SystemId
    name: str = Field(description="The system's name in the reply's language.")
    options: Json = Field(description="Every toggle with its default.", json_schema_extra=per_system("options"))
    actions: list[str]
    option_labels: dict[str, str] = Field(
        description="Each option's name in the reply's language, in the rulebook's own terms."
    )
    action_labels: dict[str, str] = Field(
        description="Each action type's name in the reply's language, in the rulebook's own terms."
    )


class SystemList(BaseModel):
    items: list[SystemSummary]


class Empty(BaseModel):
    """No body."""


class Health(BaseModel):
    status: str


class Problem(BaseModel):
    type: str
    title: str
    status: int
    detail: str
    code: str = Field(description="Stable machine-readable reason, e.g. `not_your_turn`.")
    field: str | None = None
    dice_consumed: list[LogEvent] | None = Field(
        None,
        description="Present when the command was refused after the service had drawn dice for it: those "
        "dice are not discarded but logged (these `dice_rolled` events, as you may see them, with `refused`) and "
        "the verifiable counter moved past them. Nothing else of the command happened.",
    )


class TurnDeadline(BaseModel):
    id: str
    character_id: str | None = Field(description="The character whose player the table waits for.")
    may: list[str] = Field(description="The moves that answer the wait (as in `awaiting`).")
    kind: Literal["turn", "choice"]
    status: Literal["running", "paused", "expired"] = Field(
        description="expired: it ran out; the rules' default was applied or the GM was handed the wait."
    )
    seconds: float = Field(description="The limit the wait started with.")
    until: str | None = Field(description="When it runs out (ISO 8601, UTC) while running.")
    seconds_left: float | None = Field(description="Seconds left (running or paused).")


class TurnDeadlineBoard(BaseModel):
    settings: TurnDeadlines
    paused: bool = Field(description="The GM paused every deadline of the campaign.")
    deadlines: list[TurnDeadline]
