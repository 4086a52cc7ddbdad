"""turn deadlines: campaign clocks and timed waits

Revision ID: 0007
Revises: 0005
Create Date: 2026-11-25 08:00:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op


revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "campaign_clocks",
        sa.Column("campaign_id", sa.String(length=36), nullable=False),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("paused", sa.Boolean(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["campaign_id"], ["campaigns.id"], name=op.f("fk_campaign_clocks_campaign_id_campaigns"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("campaign_id", name=op.f("pk_campaign_clocks")),
    )
    op.create_table(
        "turn_deadlines",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("campaign_id", sa.String(length=36), nullable=False),
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("character_id", sa.String(length=64), nullable=True),
        sa.Column("may", sa.JSON(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("seconds", sa.Float(), nullable=False),
        sa.Column("due_at", sa.Float(), nullable=True),
        sa.Column("warn_at", sa.Float(), nullable=True),
        sa.Column("remaining", sa.Float(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["campaign_id"], ["campaigns.id"], name=op.f("fk_turn_deadlines_campaign_id_campaigns"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_turn_deadlines")),
        sa.UniqueConstraint("campaign_id", "key", name="uq_turn_deadlines_campaign_key"),
    )
    with op.batch_alter_table("turn_deadlines", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_turn_deadlines_campaign_id"), ["campaign_id"], unique=False)
        batch_op.create_index("ix_turn_deadlines_status_due", ["status", "due_at"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("turn_deadlines", schema=None) as batch_op:
        batch_op.drop_index("ix_turn_deadlines_status_due")
        batch_op.drop_index(batch_op.f("ix_turn_deadlines_campaign_id"))
    op.drop_table("turn_deadlines")
    op.drop_table("campaign_clocks")
