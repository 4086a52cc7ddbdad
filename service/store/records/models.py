"""Durable records: campaigns, who may act in them, characters, the event log, dice sessions, webhooks."""

from dataclasses import dataclass, fields
from datetime import datetime, timezone
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Text,
    UniqueConstraint,
    bindparam,
    select,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from service.dice.types import DiceMode

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

# SQLite only autoincrements INTEGER PRIMARY KEY; PostgreSQL gets a 64-bit key.
BigId = BigInteger().with_variant(Integer(), "sqlite")


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)
    type_annotation_map = {dict[str, Any]: JSON, datetime: DateTime(timezone=True)}


class Campaign(Base):
    __tablename__ = "campaigns"

    id: Mapped[str] = mapped_column(String(36), primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    system: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]]
    dice_mode: Mapped[DiceMode] = mapped_column(String(16))
    # The last event sequence number handed out; bumping it also serialises writers per campaign.
    last_seq: Mapped[int] = mapped_column(Integer, default=0)
    # The version of the table: the number of the last move in the move log (0 before any).
    table_version: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # A fresh random tag per move: the live store's copy counts only when it carries the same version and
    # tag, so a copy written by a transaction that then failed to commit is never taken for the truth.
    table_token: Mapped[str] = mapped_column(String(16), default="", server_default="")
    # active: moves are accepted; finished: read-only, kept in the records database only.
    status: Mapped[str] = mapped_column(String(16), default="active", server_default="active")
    # The table's default language (en, pl, ru) for whoever states no preference (service/i18n).
    language: Mapped[str] = mapped_column(String(8), default="en", server_default="en")
    # Set on a campaign imported from a document: where and when it came from, and from which table version
    # on this server rolled the dice (service/game/transfer/commands.py). NULL: played here from the start.
    imported: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class Player(Base):
    __tablename__ = "players"

    id: Mapped[str] = mapped_column(String(36), primary_key=True)
    campaign_id: Mapped[str] = mapped_column(ForeignKey("campaigns.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(200))
    # The player's own language; NULL: the campaign's.
    language: Mapped[str | None] = mapped_column(String(8), default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class Credential(Base):
    """A bearer token, kept only as its SHA-256: a leaked table grants nothing."""

    __tablename__ = "credentials"

    id: Mapped[str] = mapped_column(String(36), primary_key=True)
    campaign_id: Mapped[str] = mapped_column(ForeignKey("campaigns.id", ondelete="CASCADE"), index=True)
    role: Mapped[str] = mapped_column(String(16))
    player_id: Mapped[str | None] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), default=None)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class Character(Base):
    __tablename__ = "characters"

    id: Mapped[str] = mapped_column(String(36), primary_key=True)
    campaign_id: Mapped[str] = mapped_column(ForeignKey("campaigns.id", ondelete="CASCADE"), index=True)
    player_id: Mapped[str | None] = mapped_column(ForeignKey("players.id", ondelete="SET NULL"), default=None)
    name: Mapped[str] = mapped_column(String(200))
    sheet: Mapped[dict[str, Any]]
    version: Mapped[int] = mapped_column(Integer, default=1)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


@dataclass(frozen=True, slots=True)
class CharacterRow:
    """A character as a move or a view of the table reads it: plain and read-only, outside any session. Every
    move and every read loads every character of its campaign; built as ORM instances they cost about ten times
    as much (8 against 0.8 µs each here), which a campaign of a few hundred characters felt on every request.
    A move changes sheets by writing them (service/game/log/write.py), never through these."""

    id: str
    campaign_id: str
    player_id: str | None
    name: str
    sheet: dict[str, Any]
    version: int
    created_at: datetime
    updated_at: datetime


CHARACTER_COLUMNS = tuple(f.name for f in fields(CharacterRow))


@dataclass(frozen=True, slots=True)
class CampaignRow:
    """A campaign's row as a read of the table first looks at it, outside any session: whether this process keeps
    that very table's view needs these values only, and an ORM instance cost more to build than the rest of such
    a read's handler (about 5% of a GET …/state served from a kept view). Its fields are the table's columns."""

    id: str
    name: str
    system: str
    options: dict[str, Any]
    dice_mode: DiceMode
    last_seq: int
    table_version: int
    table_token: str
    status: str
    language: str
    imported: dict[str, Any] | None
    created_at: datetime


CAMPAIGN_COLUMNS = tuple(f.name for f in fields(CampaignRow))
# Every character of one campaign, as CharacterRow's fields; built once.
CAMPAIGN_CHARACTERS = select(*(Character.__table__.c[name] for name in CHARACTER_COLUMNS)).where(
    Character.__table__.c.campaign_id == bindparam("campaign_id")
)


async def campaign_characters(s: Any, campaign_id: str) -> list[CharacterRow]:
    """Every character of the campaign, as plain rows (`s`: an AsyncSession)."""
    result = await (await s.connection()).execute(CAMPAIGN_CHARACTERS, {"campaign_id": campaign_id})
    return [CharacterRow(*row) for row in result]


class EventRecord(Base):
    __tablename__ = "events"
    __table_args__ = (UniqueConstraint("campaign_id", "seq", name="uq_events_campaign_seq"),)

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    campaign_id: Mapped[str] = mapped_column(ForeignKey("campaigns.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    type: Mapped[str] = mapped_column(String(64))
    data: Mapped[dict[str, Any]]
    # What players see instead of `data`; NULL means the same as `data`.
    redacted: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    visibility: Mapped[str] = mapped_column(String(8), default="all")
    actor_role: Mapped[str] = mapped_column(String(16))
    actor_player_id: Mapped[str | None] = mapped_column(String(36), default=None)
    # The id of the request that appended it (X-Request-ID, service/requestid.py): joins the event to the
    # service's log lines. Operators' metadata: not part of the event clients see.
    request_id: Mapped[str | None] = mapped_column(String(128), default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class MoveRecord(Base):
    """One applied move: everything needed to apply it again through the pure engine.

    The move log is the truth: a table is its latest snapshot plus the moves after it, replayed
    with their recorded dice. `version` is the table version the move produced."""

    __tablename__ = "moves"
    __table_args__ = (UniqueConstraint("campaign_id", "version", name="uq_moves_campaign_version"),)

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    campaign_id: Mapped[str] = mapped_column(ForeignKey("campaigns.id", ondelete="CASCADE"))
    version: Mapped[int] = mapped_column(Integer)
    # action (an engine move), character (a sheet added to the table), undo (back to an earlier version)
    kind: Mapped[str] = mapped_column(String(16))
    body: Mapped[dict[str, Any]]
    actor: Mapped[dict[str, Any]]
    dice: Mapped[list[Any]] = mapped_column(JSON)
    # The events the move appended: seqs first_seq..last_seq (first_seq > last_seq when none).
    first_seq: Mapped[int] = mapped_column(Integer)
    last_seq: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class SnapshotRecord(Base):
    """The whole engine state (options, characters, table) at one version, so a rebuild replays few moves."""

    __tablename__ = "snapshots"

    campaign_id: Mapped[str] = mapped_column(ForeignKey("campaigns.id", ondelete="CASCADE"), primary_key=True)
    version: Mapped[int] = mapped_column(Integer, primary_key=True)
    # The engine's state-shape version when the snapshot was taken; others are ignored on rebuild.
    engine_version: Mapped[int] = mapped_column(Integer)
    state: Mapped[dict[str, Any]]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class DiceSession(Base):
    """A commit-reveal session: `seed` stays secret until the session is closed."""

    __tablename__ = "dice_sessions"
    __table_args__ = (UniqueConstraint("campaign_id", "number", name="uq_dice_sessions_campaign_number"),)

    id: Mapped[str] = mapped_column(String(36), primary_key=True)
    campaign_id: Mapped[str] = mapped_column(ForeignKey("campaigns.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)
    commitment: Mapped[str] = mapped_column(String(64))
    seed: Mapped[str] = mapped_column(String(128))
    client_seed: Mapped[str] = mapped_column(String(200), default="")
    counter: Mapped[int] = mapped_column(Integer, default=0)
    status: Mapped[str] = mapped_column(String(16), default="open")
    opened_at: Mapped[datetime] = mapped_column(default=utcnow)
    closed_at: Mapped[datetime | None] = mapped_column(default=None)


class IdempotencyRecord(Base):
    """A write sent with an Idempotency-Key: claimed while it runs, then its sealed reply until it expires.

    Nothing here is readable without the key and the caller's own bearer secret: `key_hash` and
    `request_mac` are keyed hashes and `reply` is encrypted, all under keys derived from both
    (service/game/idempotency.py)."""

    __tablename__ = "idempotency_keys"

    owner: Mapped[str] = mapped_column(String(64), primary_key=True)  # a credential id, or the creation scope
    key_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    request_mac: Mapped[str] = mapped_column(String(64))
    # Which run holds (or last held) the key; retries take a stale claim over by compare-and-set on it.
    lease: Mapped[str] = mapped_column(String(32))
    lease_until: Mapped[float] = mapped_column(Float)  # unix seconds
    reply: Mapped[str | None] = mapped_column(Text)  # sealed; NULL while the command runs
    expires_at: Mapped[float] = mapped_column(Float, index=True)


class Webhook(Base):
    """An endpoint a GM registered: which events it gets, through whose eyes, and the secret that signs them.

    `secret` is stored as service/game/webhooks/signing.py seals it: encrypted when the deployment sets a key."""

    __tablename__ = "webhooks"

    id: Mapped[str] = mapped_column(String(36), primary_key=True)
    campaign_id: Mapped[str] = mapped_column(ForeignKey("campaigns.id", ondelete="CASCADE"), index=True)
    url: Mapped[str] = mapped_column(String(2048))
    # Event types to deliver; empty means every type.
    event_types: Mapped[list[Any]] = mapped_column(JSON)
    # "gm": events as the GM sees them; "players": as a player sees them (no GM-only event or data).
    view: Mapped[str] = mapped_column(String(8))
    # active: deliveries are written and sent; paused (by the GM) and disabled (by the worker, after
    # RULEKEEPER_WEBHOOKS_DISABLE_AFTER_TIMEOUTS timeouts in a row): none are written, pending ones wait.
    status: Mapped[str] = mapped_column(String(16), default="active")
    description: Mapped[str] = mapped_column(String(200), default="")
    secret: Mapped[str] = mapped_column(Text)
    # After a rotation the old secret may sign alongside the new one until `previous_until` (unix seconds).
    previous_secret: Mapped[str | None] = mapped_column(Text, default=None)
    previous_until: Mapped[float | None] = mapped_column(Float, default=None)
    # Attempts in a row that got no answer in time; any answer resets it. While it is above zero the endpoint is
    # backed off (nothing is sent to it before `retry_at`, unix seconds) and sends in the slow lane.
    timeouts_in_row: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    retry_at: Mapped[float] = mapped_column(Float, default=0.0, server_default="0")
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class WebhookDelivery(Base):
    """The outbox: one event for one endpoint, written in the transaction that appended the event.

    `id` is the `webhook-id` header, the same on every attempt. A worker claims a due delivery by setting
    `lease` until `lease_until`; only the earliest pending delivery of an endpoint is ever due, so events
    reach each endpoint in order."""

    __tablename__ = "webhook_deliveries"
    __table_args__ = (
        UniqueConstraint("webhook_id", "seq", name="uq_webhook_deliveries_webhook_seq"),
        Index("ix_webhook_deliveries_due", "status", "next_attempt_at"),
        Index("ix_webhook_deliveries_webhook_status_seq", "webhook_id", "status", "seq"),
    )

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    webhook_id: Mapped[str] = mapped_column(ForeignKey("webhooks.id", ondelete="CASCADE"))
    campaign_id: Mapped[str] = mapped_column(ForeignKey("campaigns.id", ondelete="CASCADE"), index=True)
    seq: Mapped[int] = mapped_column(Integer)
    event_type: Mapped[str] = mapped_column(String(64))
    # The exact body every attempt sends and signs.
    payload: Mapped[str] = mapped_column(Text)
    # pending (waiting or in flight), delivered, failed (attempts used up)
    status: Mapped[str] = mapped_column(String(16), default="pending")
    # Attempts since the delivery was (re)scheduled; at the limit it is marked failed.
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt_at: Mapped[float] = mapped_column(Float)  # unix seconds
    lease: Mapped[str] = mapped_column(String(32), default="")
    lease_until: Mapped[float] = mapped_column(Float, default=0.0)
    last_attempt_at: Mapped[float | None] = mapped_column(Float, default=None)
    last_response_code: Mapped[int | None] = mapped_column(Integer, default=None)
    last_duration_ms: Mapped[int | None] = mapped_column(Integer, default=None)
    last_error: Mapped[str | None] = mapped_column(String(300), default=None)
    delivered_at: Mapped[float | None] = mapped_column(Float, default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class WebhookAttempt(Base):
    """One try of one delivery: when, how long, what the receiver answered (or why there was no answer)."""

    __tablename__ = "webhook_attempts"

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    delivery_id: Mapped[str] = mapped_column(ForeignKey("webhook_deliveries.id", ondelete="CASCADE"), index=True)
    started_at: Mapped[float] = mapped_column(Float)  # unix seconds
    duration_ms: Mapped[int] = mapped_column(Integer)
    response_code: Mapped[int | None] = mapped_column(Integer, default=None)
    error: Mapped[str | None] = mapped_column(String(300), default=None)
