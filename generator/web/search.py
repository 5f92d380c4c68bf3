"""The card search language's help page: examples made from the pack's own cards, fields and
keywords, each with the number of cards it finds (the language itself is generator.pack.query,
the one parser every page uses)."""

from __future__ import annotations

from collections import Counter

from generator.pack.model import Pack
from generator.pack.query import query_fields, search
from generator.web.common import per_pack
from generator.web.words import gettext


@per_pack
def search_examples(pack: Pack) -> list[tuple[str, str, int]]:
    """(query, what it asks in words, cards found), each one finding at least one card."""
    cards = list(pack.cards.values())
    fields = query_fields(pack)
    out: list[tuple[str, str]] = []
    named = next((c for c in cards if len(c.name.split()) > 1), cards[0] if cards else None)
    if named is not None:
        word = named.name.split()[0].lower()
        out.append((word, gettext("cards with “{word}” in the name, the rules text or the type").format(word=word)))
        out.append((f'"{named.name.lower()}"', gettext("the words in quotes, together")))
    tags = Counter(fields["type"].get(c)[-1] for c in cards if len(fields["type"].get(c)) > 2)
    if tags:
        tag = str(tags.most_common(1)[0][0])
        quoted = f'"{tag.lower()}"' if " " in tag else tag.lower()
        out.append((f"type:{quoted}", gettext("cards whose type or kind is {tag}").format(tag=tag)))
        other = [str(t) for t, _ in tags.most_common(2)[1:]]
        if other:
            q2 = f'"{other[0].lower()}"' if " " in other[0] else other[0].lower()
            out.append((f"type:{quoted} or type:{q2}", gettext("{tag} or {other} cards").format(tag=tag, other=other[0])))
            out.append((f"-type:{quoted}", gettext("every card that is not {tag}").format(tag=tag)))
    priced = sorted(c.points for c in cards if c.points)
    if priced:
        mid = priced[len(priced) // 2]
        out.append((f"points<={mid}", gettext("cards costing {n} points or less").format(n=mid)))
    used = Counter(str(v) for c in cards for v in fields["kw"].get(c)[::2])
    if used:
        kid = used.most_common(1)[0][0]
        out.append((f"kw:{kid}", gettext("cards whose text uses the keyword {name}").format(name=pack.spec.keywords[kid].name)))
    for stat_id, stat in pack.spec.stats.items():
        values = sorted(v for c in cards for v in fields[stat_id.lower()].get(c) if isinstance(v, int))
        if values:
            high = values[(len(values) * 3) // 4]
            words = gettext("cards with {stat} {n} or more (their own, a bonus, or a requirement)")
            out.append((f"{stat_id.lower()}>={high}", words.format(stat=stat.name, n=high)))
            break
    found = []
    for query, words in out:
        n = len(search(pack, query))
        if n:
            found.append((query, words, n))
    return found
