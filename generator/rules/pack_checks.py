"""Rules over a pack's own data rather than a player's build (e.g. a boss deck whose
make-up its boss card states)."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from generator.core.errors import Location
from generator.core.report import Contributor, Violation
from generator.pack import expr, rule_names
from generator.pack.rule_names import registry_matches

if TYPE_CHECKING:
    from generator.rules.context import PackCheck
    from generator.pack.model import Card, Pack, RuleSpec


def _value(card: Card, field: str | None) -> object:
    """A card's value of a field a rule names (None: the rule names none, or the card leaves it out)."""
    return card.fields.get(field) if field is not None else None


def composition(pack: Pack, rule: RuleSpec) -> list[Violation]:
    """Each `owner_type` card states, in `counts_field`, how many `member_type` cards it
    owns per value of `split_field`; the member cards name their owner in `group_field`."""
    out: list[Violation] = []
    members = [c for c in pack.cards.values() if c.type == rule.member_type]
    for owner in (c for c in pack.cards.values() if c.type == rule.owner_type):
        stated = cast("dict[str, int]", _value(owner, rule.counts_field) or {})  # a `counts` field: value -> cards
        mine = [m for m in members if _value(m, rule.group_field) == owner.id]
        actual: dict[str, int] = {}
        for m in mine:
            key = str(_value(m, rule.split_field))
            actual[key] = actual.get(key, 0) + m.copies
        for key in sorted(set(stated) | set(actual), key=lambda k: (k not in stated, list(stated).index(k)
                                                                    if k in stated else 0, k)):
            want, have = stated.get(key, 0), actual.get(key, 0)
            if want == have:
                continue
            diff = want - have
            fix = (f"add {diff} {key} card(s) for {owner.name}" if diff > 0
                   else f"remove {-diff} {key} card(s) from {owner.name}'s deck, or raise its count")
            out.append(Violation(
                rule.id, rule.severity,
                f"{owner.name}'s deck has {have} {key} card(s); its card states {want}",
                owner.location, f"{owner.id}.{rule.counts_field}.{key}", observed=have, expected=want,
                contributors=tuple(Contributor(m.id, m.name, m.points, m.copies)
                                   for m in mine if str(_value(m, rule.split_field)) == key),
                fix=fix))
    return out


def pack_count(pack: Pack, rule: RuleSpec) -> list[Violation]:
    """How many cards of the pack (copies included) match `count` (type, set, field = value),
    against min / max / exactly: e.g. "at least 10 cards in each deck"."""
    spec = rule.count
    if spec is None:
        return []
    matching = [c for c in pack.cards.values()
                if (spec.type is None or c.type == spec.type) and (spec.set is None or c.set == spec.set)
                and (spec.field is None or c.fields.get(spec.field) == spec.value)]
    n = sum(c.copies for c in matching)
    expected = None
    if rule.exactly is not None and n != rule.exactly:
        expected = f"exactly {rule.exactly}"
    elif rule.min is not None and n < rule.min:
        expected = f"at least {rule.min}"
    elif rule.max is not None and n > rule.max:
        expected = f"at most {rule.max}"
    if expected is None:
        return []
    what = " ".join(str(x) for x in (spec.set, spec.type, spec.value) if x is not None) or "matching"
    message = (rule.message or "the pack has {count} {what} card(s); it needs {expected}").format(
        count=n, what=what, expected=expected)
    return [Violation(rule.id, rule.severity, message, Location(pack.game_file), f"rules.{rule.id}",
                      observed=n, expected=expected,
                      contributors=tuple(Contributor(c.id, c.name, c.points, c.copies) for c in matching),
                      fix=rule.fix)]


class _Values(dict[str, object]):
    """A message template's values; a name it does not know stays as written."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def card_check(pack: Pack, rule: RuleSpec) -> list[Violation]:
    """Every card of type `each` makes `expect` true (generator.pack.expr: comparisons, sums,
    counts of related cards); each card that does not is one violation at the field it breaks."""
    if rule.each is None or rule.expect is None:
        return []
    tree = expr.parse(rule.expect)  # the loader has refused an expression that does not parse
    cards = list(pack.cards.values())
    reads = expr.top_fields(tree)
    out: list[Violation] = []
    for card in cards:
        if card.type != rule.each:
            continue
        try:
            ok = expr.holds(tree, card, cards)
            found = None if ok else expr.explain(tree, card, cards)
        except TypeError as exc:
            ok, found = False, str(exc)
        if ok:
            continue
        where = next((card.field_locations[f] for f in reads if f in card.field_locations), card.location)
        values = _Values(card=card.name, id=card.id, found=found, expected=rule.expect)
        values.update({k: v for k, v in card.fields.items() if isinstance(v, (str, int, float))})
        message = _fill(rule.message, values) or "{card}: {found}; expected {expected}".format_map(values)
        out.append(Violation(rule.id, rule.severity, message, where, card.id + (f".{reads[0]}" if reads else ""),
                             observed=found, expected=rule.expect,
                             contributors=(Contributor(card.id, card.name, card.points, card.copies),),
                             fix=_fill(rule.fix, values)))
    return out


def _fill(template: str | None, values: _Values) -> str | None:
    """A pack's message template with the card's values; a template that does not fill is
    left as written rather than breaking the report."""
    if not template:
        return None
    try:
        return template.format_map(values)
    except (ValueError, IndexError, KeyError, AttributeError, TypeError):
        return template


PACK_CHECKS: dict[str, PackCheck] = {"composition": composition, "pack_count": pack_count, "card_check": card_check}
registry_matches("pack", rule_names.PACK_CHECKS, PACK_CHECKS)


def validate_pack_rules(pack: Pack) -> list[Violation]:
    out: list[Violation] = []
    for rule in pack.spec.rules:
        if rule.check in PACK_CHECKS:
            out.extend(PACK_CHECKS[rule.check](pack, rule))
    return out
