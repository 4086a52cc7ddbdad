"""GraphQL object types: the same things and words as the REST responses, in camelCase."""
from __future__ import annotations

from typing import Any

import strawberry
from strawberry.scalars import JSON


def build(cls, data: dict[str, Any]):
    """Make a strawberry type from an application-layer dict, keeping only the fields it declares."""
    names = {f.python_name for f in cls.__strawberry_definition__.fields}
    return cls(**{k: v for k, v in data.items() if k in names})


@strawberry.type
class Player:
    id: str
    name: str
    language: str | None = strawberry.field(default=None, description="The player's own language; null: the campaign's.")


@strawberry.type
class You:
    role: str
    player_id: str | None
    character_ids: list[str]


@strawberry.type
class Campaign:
    id: str
    name: str
    system: str
    options: JSON
    dice_mode: str
    last_seq: int
    version: int
    status: str
    created_at: str
    language: str = strawberry.field(default="en", description="The default language of replies: en, pl or ru.")
    players: list[Player] = strawberry.field(default_factory=list)
    you: You | None = None


def campaign(data: dict[str, Any]) -> Campaign:
    c = build(Campaign, data)
    c.players = [build(Player, p) for p in data.get("players", [])]
    c.you = build(You, data["you"]) if data.get("you") else None
    return c


@strawberry.type
class Character:
    id: str
    name: str
    player_id: str | None
    sheet: JSON
    version: int


@strawberry.type
class EventActor:
    role: str
    player_id: str | None


@strawberry.type
class Event:
    seq: int
    type: str
    description: str = strawberry.field(description="What happened, in words, in the reply's language.")
    data: JSON
    actor: EventActor
    created_at: str | None


def event(data: dict[str, Any]) -> Event:
    e = build(Event, {**data, "actor": None})
    e.actor = build(EventActor, data["actor"])
    return e


@strawberry.type
class EventPage:
    items: list[Event]
    next_after: int
    has_more: bool


@strawberry.type
class Die:
    sides: int
    face: int
    source: str
    seq: int | None
    purpose: str


@strawberry.type
class TableState:
    version: int
    state: JSON


@strawberry.type
class ActionPayload:
    version: int
    events: list[Event]
    state: JSON


@strawberry.type
class RollPayload:
    expression: str
    label: str | None
    total: int
    text: str
    tree: JSON
    dice: list[Die]
    events: list[Event]


@strawberry.type
class DiceSession:
    number: int
    status: str
    commitment: str
    client_seed: str
    rolls: int
    seed: str | None
    opened_at: str
    closed_at: str | None


@strawberry.type
class CloseDiceSessionPayload:
    closed: DiceSession
    opened: DiceSession


@strawberry.type
class Verification:
    number: int
    seed: str
    commitment: str
    client_seed: str
    rolls: JSON
    algorithm: str
    report: JSON


@strawberry.type
class SystemSummary:
    id: str
    name: str
    options: JSON
    actions: list[str]
    option_labels: JSON = strawberry.field(description="Each option's name in the reply's language.")
    action_labels: JSON = strawberry.field(description="Each action type's name in the reply's language.")


@strawberry.type
class CreateCampaignPayload:
    campaign: Campaign
    gm_token: str


@strawberry.type
class InvitePlayerPayload:
    player: Player
    token: str


@strawberry.type
class ImportCampaignPayload:
    campaign: Campaign
    gm_token: str
    players: list[InvitePlayerPayload]


@strawberry.type
class CharacterPayload:
    character: Character


@strawberry.type
class ValidateCharacterPayload:
    valid: bool
    sheet: JSON


@strawberry.type
class Webhook:
    id: str
    url: str
    event_types: list[str]
    view: str
    status: str
    description: str
    previous_secret_expires_at: str | None
    created_at: str
    updated_at: str


@strawberry.type
class WebhookSecretPayload:
    webhook: Webhook
    secret: str = strawberry.field(description="The signing secret (`whsec_…`); shown only at registration and rotation.")


def webhook_secret(data: dict[str, Any]) -> WebhookSecretPayload:
    return WebhookSecretPayload(webhook=build(Webhook, data), secret=data["secret"])


@strawberry.type
class WebhookAttempt:
    started_at: str
    duration_ms: int
    response_code: int | None
    error: str | None


@strawberry.type
class WebhookDelivery:
    id: str
    webhook_id: str
    seq: int
    event_type: str
    status: str
    attempts: int
    next_attempt_at: str | None
    last_attempt_at: str | None
    last_response_code: int | None
    last_duration_ms: int | None
    last_error: str | None
    delivered_at: str | None
    created_at: str
    payload: JSON | None = strawberry.field(default=None, description="The body every attempt sends (one delivery only).")
    attempt_log: list[WebhookAttempt] | None = strawberry.field(default=None, description="Every attempt (one delivery only).")


def webhook_delivery(data: dict[str, Any]) -> WebhookDelivery:
    d = build(WebhookDelivery, {**data, "attempt_log": None})
    if data.get("attempt_log") is not None:
        d.attempt_log = [build(WebhookAttempt, a) for a in data["attempt_log"]]
    return d


@strawberry.type
class WebhookDeliveryPage:
    items: list[WebhookDelivery]
    next_before: int | None
    has_more: bool
