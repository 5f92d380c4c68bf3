"""Publishing a build: the same loader and validator as `pnp validate` decide it is legal
under the stated points limit; what it holds (cards and characters) is recorded for the
filters and the card statistics."""

from __future__ import annotations

import dataclasses
from collections import Counter

from generator.core.errors import InputError, Location, Problem
from generator.pack.model import Pack
from generator.rules.engine import validate_build
from generator.share.codes import encode
from generator.web.state import document_from_yaml, to_build, to_yaml
from generator.community.store import Store


def contents(build) -> tuple[Counter, set[str]]:
    """Every card of a build with its count, and its characters (their base cards)."""
    cards: Counter = Counter()
    characters: set[str] = set()
    for char in build.characters:
        for base in char.bases:
            cards[base.card.id] += 1
            characters.add(base.card.id)
            for eq in base.equipment:
                cards[eq.id] += 1
        for ref in (*char.equipment, *char.abilities):
            cards[ref.id] += 1
        for entry in char.deck:
            cards[entry.card.id] += entry.copies
    return cards, characters


def publish(store: Store, pack: Pack, text: str, owner: int, author: str, points_limit: int | None,
            source: str | None = None, description: str | None = None) -> str:
    """Publish the build `text` as legal under `points_limit` (None: the build's own or the
    pack's limit); its public id. An illegal build is refused with the validator's reasons.
    `source`: the saved build it is (published again: its next version); `description`: the
    author's Markdown (None: keep the one it has)."""
    doc = document_from_yaml(text, pack, "the saved build")
    build = to_build(doc, pack)
    if points_limit is not None:
        build = dataclasses.replace(build, points_limit=points_limit, unlimited=False)
    report = validate_build(pack, build, points_limit)
    errors = [v for v in report.violations if v.severity == "error"]
    if errors:
        raise InputError([Problem("publish.illegal", f"only legal builds are published: {v.message}",
                                  Location("the saved build"), found=v.path, fix="fix it in the editor first")
                          for v in errors[:10]])
    total = report.points.total if report.points else 0
    limit = report.points.limit if report.points else points_limit
    cards, characters = contents(build)
    code = encode(pack, build).code
    return store.publish(owner, author, pack.spec.id, build.name[:200], build.side, total, limit, to_yaml(doc), code,
                         dict(cards), characters, source=source, description=description)
