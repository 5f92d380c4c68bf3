"""The published builds' generation: one number that every change to what the published
builds' pages show (a publication, a copy, featured or hidden) raises in the same
transaction. A worker keeps pages it drew under the number they were drawn at, so a page
kept from before a change is never shown after it, whichever worker made the change.

Revision ID: 0003
Revises: 0002
"""
from alembic import op
import sqlalchemy as sa

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade():
    table = op.create_table("generations", sa.Column("name", sa.String(32), primary_key=True),
                            sa.Column("n", sa.Integer(), nullable=False))
    op.bulk_insert(table, [{"name": "published", "n": 0}])


def downgrade():
    op.drop_table("generations")
