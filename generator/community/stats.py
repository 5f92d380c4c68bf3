"""What the published builds say about the cards (for the designer): per card, in how many
published builds it appears and at which points limits; the cards and characters nobody
took; the average points per side. Counted by the database (hidden builds left out)."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field

from sqlalchemy import func, select

from generator.pack.model import Pack
from generator.community.models import Publication, PublishedCard
from generator.community.store import Store


@dataclass
class CardRow:
    id: str
    name: str
    type: str                # the card type's id (the CSV's column)
    type_name: str = ""      # its name, as the page shows it
    builds: int = 0          # published builds holding it
    copies: int = 0          # copies over all of them
    limits: dict = field(default_factory=dict)  # points limit ("none" for no limit) -> builds

    @property
    def limits_text(self) -> str:
        return ", ".join(f"{k}: {v}" for k, v in sorted(self.limits.items(), key=lambda kv: str(kv[0])))


@dataclass
class Stats:
    total: int
    cards: list[CardRow]
    never_cards: list[CardRow]
    never_characters: list[tuple[str, list[CardRow]]]  # per side: "Hero Party: Heroes", its untaken, by name
    sides: list[tuple[str, int, float]]  # side id, builds, average points


def card_stats(store: Store, pack: Pack) -> Stats:
    visible = (Publication.pack == pack.spec.id) & Publication.hidden.is_(False)
    types = pack.spec.card_types
    rows = {c.id: CardRow(c.id, c.name, c.type, types[c.type].name if c.type in types else c.type)
            for c in pack.cards.values()}
    taken_chars: set[str] = set()
    with store.session() as s:
        total = s.scalar(select(func.count()).select_from(Publication).where(visible)) or 0
        q = (select(PublishedCard.card, PublishedCard.kind, Publication.points_limit,
                    func.count(), func.sum(PublishedCard.count))
             .join(Publication, Publication.id == PublishedCard.publication_id).where(visible)
             .group_by(PublishedCard.card, PublishedCard.kind, Publication.points_limit))
        for card, kind, limit, n, copies in s.execute(q):
            if kind == "character":
                taken_chars.add(card)
                continue
            row = rows.get(card)
            if row is None:  # a card the pack no longer has
                row = rows[card] = CardRow(card, card, "?")
            row.builds += n
            row.copies += int(copies or 0)
            key = "none" if limit is None else limit
            row.limits[key] = row.limits.get(key, 0) + n
        sides = [(side, n, float(avg or 0)) for side, n, avg in s.execute(
            select(Publication.side, func.count(), func.avg(Publication.points)).where(visible)
            .group_by(Publication.side).order_by(Publication.side))]
    base_types = {side.base.type for side in pack.spec.sides.values()}
    cards = sorted(rows.values(), key=lambda r: (-r.builds, r.name.casefold(), r.id))
    never = [r for r in cards if r.builds == 0]
    # what each side's characters are made of (heroes; boss pieces), apart and by name
    never_chars = []
    for side in pack.spec.sides.values():
        untaken = [r for r in never if r.type == side.base.type and r.id not in taken_chars
                   and pack.cards[r.id].set in side.sets]
        word = types[side.base.type].name if side.base.type in types else side.base.type
        never_chars.append((f"{side.name}: {word}", untaken))
    return Stats(total, cards, [r for r in never if r.type not in base_types], never_chars, sides)


def stats_csv(stats: Stats) -> str:
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["card", "name", "type", "published_builds", "copies", "points_limits"])
    for r in stats.cards:
        w.writerow([r.id, _cell(r.name), r.type, r.builds, r.copies, r.limits_text])
    return out.getvalue()


def _cell(text: str) -> str:
    """A spreadsheet cell that cannot start a formula."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text
