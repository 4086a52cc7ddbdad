"""Turn deadlines kept by the server: each campaign's settings and pause, and one row per timed wait.

Times are unix seconds (as the webhook outbox keeps them): the worker compares them with its own clock, and a
restarted or second replica reads the same rows."""

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, Float, ForeignKey, Index, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from service.store.records.models import Base, utcnow


class CampaignClock(Base):
    """A campaign that keeps turn deadlines: its settings (service/game/deadlines/settings.py) and whether the
    GM has paused every deadline."""

    __tablename__ = "campaign_clocks"

    campaign_id: Mapped[str] = mapped_column(ForeignKey("campaigns.id", ondelete="CASCADE"), primary_key=True)
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    paused: Mapped[bool] = mapped_column(Boolean, default=False)
    # Default moves the clock made since the last move someone at the table made; at
    # RULEKEEPER_DEADLINE_MAX_DEFAULTS_IN_ROW the deadlines pause, so an empty table's log stops growing.
    defaults_in_row: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class TurnDeadline(Base):
    """One wait of one character with a time limit. `key` names the wait (a turn, or a choice with its
    moves) so a wait that goes on across moves keeps its deadline. running: `due_at` (and `warn_at` until
    the warning went out); paused: `remaining` seconds; expired: fired, kept while the wait lasts so it
    never fires twice. `warned_at`: when its warning went out, so a pause and resume does not send it again
    (an extension, a new limit, clears it: the new one gets its warning)."""

    __tablename__ = "turn_deadlines"
    __table_args__ = (
        UniqueConstraint("campaign_id", "key", name="uq_turn_deadlines_campaign_key"),
        Index("ix_turn_deadlines_status_due", "status", "due_at"),
    )

    id: Mapped[str] = mapped_column(String(36), primary_key=True)
    campaign_id: Mapped[str] = mapped_column(ForeignKey("campaigns.id", ondelete="CASCADE"), index=True)
    key: Mapped[str] = mapped_column(String(64))
    character_id: Mapped[str | None] = mapped_column(String(64), default=None)
    may: Mapped[list[str]] = mapped_column(JSON)
    kind: Mapped[str] = mapped_column(String(16))
    status: Mapped[str] = mapped_column(String(16))
    seconds: Mapped[float] = mapped_column(Float)
    due_at: Mapped[float | None] = mapped_column(Float, default=None)
    warn_at: Mapped[float | None] = mapped_column(Float, default=None)
    remaining: Mapped[float | None] = mapped_column(Float, default=None)
    warned_at: Mapped[float | None] = mapped_column(Float, default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
