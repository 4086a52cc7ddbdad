"""turn deadlines remember when their warning went out, so a pause and resume does not warn twice

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-26 15:00:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op


revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("turn_deadlines", schema=None) as batch_op:
        batch_op.add_column(sa.Column("warned_at", sa.Float(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("turn_deadlines", schema=None) as batch_op:
        batch_op.drop_column("warned_at")
