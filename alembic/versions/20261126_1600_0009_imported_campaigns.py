"""imported campaigns say where they came from

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-26 16:00:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op


revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Additive and nullable: every campaign before this was played here (or imported without a record of it).
    with op.batch_alter_table("campaigns", schema=None) as batch_op:
        batch_op.add_column(sa.Column("imported", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("campaigns", schema=None) as batch_op:
        batch_op.drop_column("imported")
