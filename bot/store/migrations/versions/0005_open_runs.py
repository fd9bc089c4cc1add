"""Check runs in progress, kept so that a restarted embedded server finishes those a killed
one left (a merge group's run is on no pull request the start-up scan would look through).

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "open_runs",
        sa.Column("key", sa.String(300), primary_key=True),
        sa.Column("opened_at", sa.DateTime(timezone=True), nullable=False, index=True),
        sa.Column("run", sa.JSON(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("open_runs")
