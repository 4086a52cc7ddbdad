"""request id on events

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-25 05:00:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op


revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Nullable and without a default: adding it rewrites no row, and events from before have none.
    with op.batch_alter_table("events", schema=None) as batch_op:
        batch_op.add_column(sa.Column("request_id", sa.String(length=128), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("events", schema=None) as batch_op:
        batch_op.drop_column("request_id")
