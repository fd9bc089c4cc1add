"""Repositories and their default-branch points.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "repositories",
        sa.Column("id", ID, primary_key=True, autoincrement=True),
        sa.Column("full_name", sa.String(200), nullable=False, unique=True),
    )
    op.create_table(
        "points",
        sa.Column("id", ID, primary_key=True, autoincrement=True),
        sa.Column(
            "repository_id",
            ID,
            sa.ForeignKey("repositories.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("commit", sa.String(40), nullable=False),
        sa.Column("taken_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("code_lines", sa.BigInteger, nullable=False),
        sa.Column("non_portable_lines", sa.BigInteger, nullable=False),
        sa.Column("nvidia_locked_lines", sa.BigInteger, nullable=False),
        sa.Column("nvidia_share", sa.Float, nullable=False),
        sa.Column("figures", sa.JSON, nullable=False),
        sa.Column("left_branch", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.UniqueConstraint("repository_id", "commit", name="uq_points_repository_commit"),
    )
    op.create_index("ix_points_repository_taken_at", "points", ["repository_id", "taken_at"])


def downgrade() -> None:
    op.drop_index("ix_points_repository_taken_at", "points")
    op.drop_table("points")
    op.drop_table("repositories")
