"""webhook endpoint timeouts and backoff; unattended default moves in a row

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-26 15:00:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op


revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Additive, with server defaults, so the previous release's inserts still work during a rolling upgrade.
    with op.batch_alter_table("webhooks", schema=None) as batch_op:
        batch_op.add_column(sa.Column("timeouts_in_row", sa.Integer(), nullable=False, server_default="0"))
        batch_op.add_column(sa.Column("retry_at", sa.Float(), nullable=False, server_default="0"))
    with op.batch_alter_table("campaign_clocks", schema=None) as batch_op:
        batch_op.add_column(sa.Column("defaults_in_row", sa.Integer(), nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("campaign_clocks", schema=None) as batch_op:
        batch_op.drop_column("defaults_in_row")
    with op.batch_alter_table("webhooks", schema=None) as batch_op:
        batch_op.drop_column("retry_at")
        batch_op.drop_column("timeouts_in_row")
