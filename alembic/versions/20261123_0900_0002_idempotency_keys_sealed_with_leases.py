"""idempotency keys: hashed keys, sealed replies, leases and expiry

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-23 09:00:00.000000

The old table held keys and whole replies (GM and player tokens included) in plain text. Its rows are
only retry memos, so they are dropped rather than converted: a retry of a request sent before the upgrade
runs as a new request.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op


revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.drop_table("idempotency_keys")
    op.create_table(
        "idempotency_keys",
        sa.Column("owner", sa.String(length=64), nullable=False),
        sa.Column("key_hash", sa.String(length=64), nullable=False),
        sa.Column("request_mac", sa.String(length=64), nullable=False),
        sa.Column("lease", sa.String(length=32), nullable=False),
        sa.Column("lease_until", sa.Float(), nullable=False),
        sa.Column("reply", sa.Text(), nullable=True),
        sa.Column("expires_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("owner", "key_hash", name=op.f("pk_idempotency_keys")),
    )
    with op.batch_alter_table("idempotency_keys", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_idempotency_keys_expires_at"), ["expires_at"], unique=False)


def downgrade() -> None:
    op.drop_table("idempotency_keys")
    op.create_table(
        "idempotency_keys",
        sa.Column("credential_id", sa.String(length=36), nullable=False),
        sa.Column("key", sa.String(length=200), nullable=False),
        sa.Column("request_hash", sa.String(length=64), nullable=False),
        sa.Column("status", sa.Integer(), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("headers", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("credential_id", "key", name=op.f("pk_idempotency_keys")),
    )
