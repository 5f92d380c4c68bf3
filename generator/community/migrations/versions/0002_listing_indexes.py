"""Indexes for the published builds' list: one per sort order (newest, most copied) that
holds the pack, the featured flag and the sort key, so a page of the list is read in index
order with LIMIT instead of sorting every publication of the pack; and published cards by
(card, kind, publication), which the "contains card" and "character" filters look up.
These replace the single-column indexes on publications.pack and published_cards.card
(each new one starts with that column).

Revision ID: 0002
Revises: 0001
"""
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade():
    op.create_index("ix_publications_newest", "publications", ["pack", "featured", "created_at", "id"])
    op.create_index("ix_publications_copied", "publications", ["pack", "featured", "copies", "id"])
    op.drop_index("ix_publications_pack", table_name="publications")
    op.create_index("ix_published_cards_card_kind", "published_cards", ["card", "kind", "publication_id"])
    op.drop_index("ix_published_cards_card", table_name="published_cards")


def downgrade():
    op.create_index("ix_published_cards_card", "published_cards", ["card"])
    op.drop_index("ix_published_cards_card_kind", table_name="published_cards")
    op.create_index("ix_publications_pack", "publications", ["pack"])
    op.drop_index("ix_publications_copied", table_name="publications")
    op.drop_index("ix_publications_newest", table_name="publications")
