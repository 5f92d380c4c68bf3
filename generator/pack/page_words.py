"""A card field's value in words, as the deck builder's card page and the JSON API show it
(each field type's `page_text`, generator.pack.fieldtypes): names rather than ids, the
card's own wording ("Agility 4+", "Head ×2") and never a Python value such as a dict or
`None`. The rulebook and `pnp list` have their own forms (icons, columns)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from generator.pack.field_values import ATTACK_KINDS

if TYPE_CHECKING:
    from generator.pack.model import Pack


def stat_name(pack: Pack, stat_id: Any) -> str:
    spec = pack.spec.stats.get(stat_id) if isinstance(stat_id, str) else None
    return spec.name if spec else str(stat_id)


def card_name(pack: Pack, card_id: Any) -> str:
    card = pack.cards.get(card_id) if isinstance(card_id, str) else None
    return card.name if card else str(card_id)


def plain(pack: Pack, value: Any) -> str:
    """Any value in words: a mapping as `key value` pairs (a stat by its name), a list joined
    with commas, yes or no; nested values the same way, so nothing is printed as Python."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):
        return ", ".join(f"{stat_name(pack, k)} {plain(pack, v)}" for k, v in value.items() if v not in (None, ""))
    if isinstance(value, (list, tuple)):
        return ", ".join(plain(pack, v) for v in value)
    return str(value)


def requirement(pack: Pack, req: dict[str, Any]) -> str:
    """`Agility 4+` (a character's stat), `Head ×2` (cards with a field's value)."""
    count = req.get("min", 1)
    if req.get("stat"):
        return f"{stat_name(pack, req['stat'])} {count}+"
    return f"{req.get('value')}" + (f" ×{count}" if count not in (None, 1) else "")


def requirements(pack: Pack, value: Any) -> str:
    return ", ".join(requirement(pack, r) for r in value or () if isinstance(r, dict))


def attacks(pack: Pack, value: Any) -> str:
    """`Basic: 3 damage, range 1 (Chop at one adjacent hero.)`, one per kind, in the kinds' order."""
    out = []
    order = {k: i for i, k in enumerate(ATTACK_KINDS)}
    for kind, a in sorted((value or {}).items(), key=lambda kv: order.get(kv[0], len(order))):
        words = f"{kind.capitalize()}: {a.get('damage', 0)} damage, range {a.get('range', 1)}"
        out.append(words + (f" ({a['text']})" if a.get("text") else ""))
    return "; ".join(out)


def feat(pack: Pack, value: Any) -> str:
    value = value or {}
    return f"{value.get('name', '')}: {value.get('text', '')}".strip(": ")


def abilities(pack: Pack, value: Any) -> str:
    """`Flare (cost 2): Deal 1 damage …`, with an extra cost in words after the cost."""
    out = []
    for a in value or ():
        cost = f"cost {a.get('cost', 0)}" + (f", {a['extra']}" if a.get("extra") else "")
        out.append(f"{a.get('name', '')} ({cost}): {a.get('text', '')}")
    return "; ".join(out)


def card_ref(pack: Pack, value: Any) -> str:
    return card_name(pack, value) if value else ""


def card_refs(pack: Pack, value: Any) -> str:
    return ", ".join(card_name(pack, v) for v in value or ())


def stat(pack: Pack, value: Any) -> str:
    return stat_name(pack, value) if value else ""


def hexes(pack: Pack, value: Any) -> str:
    n = len(value or ())
    return "1 hex" if n == 1 else f"{n} hexes"
