"""Rule primitives about a character's deck as a whole:

- deck_composition  the deck, split by a field of its cards (`split_field`, e.g. a tier), holds
                    exactly the counts its base card states (`counts_field`, a `counts` field
                    such as `{Easy: 7, Medium: 7}`). The build-side twin of the pack check
                    `composition`: Raid Boss's boss card says how its boss deck is made up.

Each takes the validation context and a rule from game.yaml and returns violations, as the
primitives of generator.rules.checks do.
"""

from __future__ import annotations

from generator.core.report import Contributor, Violation
from generator.pack.model import RuleSpec
from generator.pack.translations.own import plurals_of, words_of
from generator.rules.context import BuildCheck, Context, Placed, path_text


def deck_composition(ctx: Context, rule: RuleSpec) -> list[Violation]:
    out: list[Violation] = []
    split, counts = rule.split_field, rule.counts_field
    if not split or not counts:
        return out
    for ch in ctx.build.characters:
        stated: dict[str, int] = {}
        owners: list[str] = []
        for p in ctx.of(ch, "base"):
            value = p.card.fields.get(counts) if p.fits else None
            if isinstance(value, dict):
                owners.append(p.card.name)
                for key, n in value.items():
                    stated[str(key)] = stated.get(str(key), 0) + n
        if not owners:
            continue  # no base card states a make-up (or the base is missing: `build.base` says so)
        groups: dict[str, list[Placed]] = {}
        for p in ctx.of(ch, "deck"):
            groups.setdefault(str(p.card.fields.get(split)), []).append(p)
        # the stated order first (Easy, Medium, Hard...), then anything the card does not name
        keys = list(stated) + sorted(k for k in groups if k not in stated)
        for key in keys:
            cards = groups.get(key, [])
            want, have = stated.get(key, 0), sum(p.copies for p in cards)
            if want == have:
                continue
            say = words_of(ctx.pack)  # a default message in the pack's language (pack/translations/own.py)
            values = {"character": ch.name, "count": have, "key": key, "expected": want,
                      "base": say(" and ").join(owners), "missing": abs(want - have)}
            say_n, missing = plurals_of(ctx.pack), abs(want - have)
            template = rule.message or say_n("{character}'s deck has {count} {key} card; {base} states {expected}",
                                             "{character}'s deck has {count} {key} cards; {base} states {expected}", have)
            fix = rule.fix or (say_n("add {missing} {key} card", "add {missing} {key} cards", missing) if want > have
                               else say_n("remove {missing} {key} card", "remove {missing} {key} cards", missing))
            out.append(Violation(rule.id, rule.severity, template.format(**values), ch.deck_location,
                                 path_text(ch.path + ("deck",)), observed=have, expected=want,
                                 contributors=tuple(Contributor(p.card.id, p.card.name, p.card.points, p.copies)
                                                    for p in cards),
                                 fix=fix.format(**values)))
    return out


DECK_CHECKS: dict[str, BuildCheck] = {"deck_composition": deck_composition}
