"""What players do with a published build: its description (Markdown, shown sanitised), its
versions (publishing the same saved build again adds one; the page keeps its address, likes
and comments), one like per account (a unique key claims it), comments the designer may
hide, and the list sorted by likes (an index like the other two sort orders').

Every publication made before this migration becomes version 1 of itself.

Revision ID: 0004
Revises: 0003
"""
from alembic import op
import sqlalchemy as sa

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("publications") as batch:  # batch: SQLite rebuilds the table
        batch.add_column(sa.Column("description", sa.Text(), nullable=False, server_default=""))
        batch.add_column(sa.Column("source", sa.String(80), nullable=True))
        batch.add_column(sa.Column("version", sa.Integer(), nullable=False, server_default="1"))
        batch.add_column(sa.Column("likes", sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("updated_at", sa.DateTime(), nullable=True))
    op.create_index("ix_publications_liked", "publications", ["pack", "featured", "likes", "id"])
    op.create_index("ix_publications_source", "publications", ["owner_key", "source"], unique=True)
    versions = op.create_table(
        "publication_versions",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("publication_id", sa.Integer(), sa.ForeignKey("publications.id", ondelete="CASCADE"), nullable=False),
        sa.Column("n", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("code", sa.Text(), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.Column("points_limit", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.UniqueConstraint("publication_id", "n", name="uq_publication_versions_n"))
    op.create_table(
        "likes",
        sa.Column("publication_id", sa.Integer(), sa.ForeignKey("publications.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("user_id", sa.Integer(), primary_key=True),  # the primary key: one like per account
        sa.Column("created_at", sa.DateTime(), nullable=False))
    op.create_table(
        "comments",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("publication_id", sa.Integer(), sa.ForeignKey("publications.id", ondelete="CASCADE"), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("author", sa.String(40), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("hidden", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("created_at", sa.DateTime(), nullable=False))
    op.create_index("ix_comments_publication", "comments", ["publication_id", "id"])
    op.create_index("ix_comments_user_time", "comments", ["user_id", "created_at"])
    publications = sa.table("publications", sa.column("id"), sa.column("name"), sa.column("text"), sa.column("code"),
                            sa.column("points"), sa.column("points_limit"), sa.column("created_at"))
    op.execute(versions.insert().from_select(
        ["publication_id", "n", "name", "text", "code", "points", "points_limit", "created_at"],
        sa.select(publications.c.id, sa.literal(1), publications.c.name, publications.c.text, publications.c.code,
                  publications.c.points, publications.c.points_limit, publications.c.created_at)))


def downgrade():
    op.drop_index("ix_comments_user_time", table_name="comments")
    op.drop_index("ix_comments_publication", table_name="comments")
    op.drop_table("comments")
    op.drop_table("likes")
    op.drop_table("publication_versions")
    op.drop_index("ix_publications_source", table_name="publications")
    op.drop_index("ix_publications_liked", table_name="publications")
    with op.batch_alter_table("publications") as batch:
        for column in ("updated_at", "likes", "version", "source", "description"):
            batch.drop_column(column)
