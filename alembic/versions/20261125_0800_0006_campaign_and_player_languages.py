"""campaign and player languages

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-25 08:00:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op


revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Additive: the campaign's language has a server default (English, what every campaign spoke before), so the
    # previous release's inserts still work; a player's preference is nullable (none: the campaign's).
    with op.batch_alter_table("campaigns", schema=None) as batch_op:
        batch_op.add_column(sa.Column("language", sa.String(length=8), nullable=False, server_default="en"))
    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.add_column(sa.Column("language", sa.String(length=8), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.drop_column("language")
    with op.batch_alter_table("campaigns", schema=None) as batch_op:
        batch_op.drop_column("language")
