"""The first tables: settings, users, builds and their versions, publications, sign-in attempts.

Revision ID: 0001
Revises:
"""
from alembic import op
import sqlalchemy as sa

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade():
    op.create_table("settings", sa.Column("key", sa.String(64), primary_key=True),
                    sa.Column("value", sa.Text(), nullable=False))
    op.create_table("users", sa.Column("id", sa.Integer(), primary_key=True),
                    sa.Column("name", sa.String(40), nullable=False, unique=True),
                    sa.Column("password_hash", sa.String(200), nullable=False),
                    sa.Column("role", sa.String(16), nullable=False),
                    sa.Column("created_at", sa.DateTime(), nullable=False))
    op.create_table("builds", sa.Column("id", sa.Integer(), primary_key=True),
                    sa.Column("owner_key", sa.Integer(), nullable=False),
                    sa.Column("stem", sa.String(80), nullable=False),
                    sa.Column("pack", sa.String(80)),
                    sa.Column("name", sa.String(200), nullable=False),
                    sa.Column("side", sa.String(80)),
                    sa.Column("text", sa.Text(), nullable=False),
                    sa.Column("version", sa.Integer(), nullable=False),
                    sa.Column("created_at", sa.DateTime(), nullable=False),
                    sa.Column("updated_at", sa.DateTime(), nullable=False),
                    sa.UniqueConstraint("owner_key", "stem", name="uq_builds_owner_stem"))
    op.create_table("versions", sa.Column("id", sa.Integer(), primary_key=True),
                    sa.Column("build_id", sa.Integer(), sa.ForeignKey("builds.id", ondelete="CASCADE"),
                              nullable=False),
                    sa.Column("n", sa.Integer(), nullable=False),
                    sa.Column("text", sa.Text(), nullable=False),
                    sa.Column("created_at", sa.DateTime(), nullable=False),
                    sa.UniqueConstraint("build_id", "n", name="uq_versions_build_n"))
    op.create_index("ix_versions_build_id", "versions", ["build_id"])
    op.create_table("publications", sa.Column("id", sa.Integer(), primary_key=True),
                    sa.Column("public_id", sa.String(32), nullable=False, unique=True),
                    sa.Column("owner_key", sa.Integer(), nullable=False),
                    sa.Column("author", sa.String(40), nullable=False),
                    sa.Column("pack", sa.String(80), nullable=False),
                    sa.Column("name", sa.String(200), nullable=False),
                    sa.Column("side", sa.String(80), nullable=False),
                    sa.Column("points", sa.Integer(), nullable=False),
                    sa.Column("points_limit", sa.Integer()),
                    sa.Column("text", sa.Text(), nullable=False),
                    sa.Column("code", sa.Text(), nullable=False),
                    sa.Column("copies", sa.Integer(), nullable=False),
                    sa.Column("hidden", sa.Boolean(), nullable=False),
                    sa.Column("featured", sa.Boolean(), nullable=False),
                    sa.Column("created_at", sa.DateTime(), nullable=False))
    op.create_index("ix_publications_pack", "publications", ["pack"])
    op.create_index("ix_publications_created_at", "publications", ["created_at"])
    op.create_table("published_cards",
                    sa.Column("publication_id", sa.Integer(), sa.ForeignKey("publications.id", ondelete="CASCADE"),
                              primary_key=True),
                    sa.Column("card", sa.String(120), primary_key=True),
                    sa.Column("kind", sa.String(16), primary_key=True),
                    sa.Column("count", sa.Integer(), nullable=False))
    op.create_index("ix_published_cards_card", "published_cards", ["card"])
    op.create_table("signin_attempts", sa.Column("id", sa.Integer(), primary_key=True),
                    sa.Column("key", sa.String(120), nullable=False),
                    sa.Column("at", sa.DateTime(), nullable=False))
    op.create_index("ix_signin_attempts_key", "signin_attempts", ["key"])
    op.create_index("ix_signin_attempts_at", "signin_attempts", ["at"])


def downgrade():
    for table in ("signin_attempts", "published_cards", "publications", "versions", "builds", "users", "settings"):
        op.drop_table(table)
