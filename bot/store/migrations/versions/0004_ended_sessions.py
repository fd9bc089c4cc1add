"""Sign-outs, kept so that a signed-out session cookie is refused after a restart too.

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ended_sessions",
        sa.Column("session_id", sa.String(64), primary_key=True),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=False, index=True),
    )


def downgrade() -> None:
    op.drop_table("ended_sessions")
