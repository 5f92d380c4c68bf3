"""Rule primitives about one character's totals and the cards characters hold:

- stat_minimum  a character's total of a stat (every fitting card, bonuses included) is at
                least `min` (Boss Fight: a boss needs 1 Health to take the field)
- unique_cards  a character (or, with `scope: build`, the whole build) holds at most one copy
                of any card in the given `places` (Boss Fight: the same ability twice on one
                character; Raid Boss: the same hero twice in one party)
- shared_cards  two characters of one build use the same card (a duplicate hero): legal, but the
                kit prints `kit_copies` of each card, so the table needs another printed copy

Each takes the validation context and a rule from game.yaml and returns violations, as the
primitives of generator.rules.checks do.
"""

from __future__ import annotations

from generator.core.report import Contributor, Violation
from generator.pack.model import RuleSpec
from generator.core.yamlio import PathT
from generator.pack.translations.own import plurals_of, words_of
from generator.rules.context import BuildCheck, Context, Placed, path_text


def _path(parts: PathT) -> str:
    return path_text(parts)


def stat_minimum(ctx: Context, rule: RuleSpec) -> list[Violation]:
    out: list[Violation] = []
    stat = rule.stat
    if stat is None or rule.min is None:
        return out
    stat_name = ctx.pack.spec.stats[stat].name if stat in ctx.pack.spec.stats else stat
    for ch in ctx.build.characters:
        have = ctx.full_stats(ch).get(stat, 0)
        if have >= rule.min:
            continue
        contributors = tuple(
            Contributor(p.card.id, p.card.name, (p.card.fields.get("stats") or {}).get(stat, 0))
            for p in ctx.of(ch, "base") if p.fits)
        values = {"character": ch.name, "stat": stat_name, "have": have, "min": rule.min}
        say = words_of(ctx.pack)  # a default message in the pack's language (pack/translations/own.py)
        template = rule.message or say("{character} has {have} {stat}; it needs at least {min} to take the field")
        out.append(Violation(rule.id, rule.severity, template.format(**values), ch.location, _path(ch.path),
                             observed=have, expected=f"{stat_name} ≥ {rule.min}", contributors=contributors,
                             fix=(rule.fix or say("add a card with {stat}")).format(**values)))
    return out


def unique_cards(ctx: Context, rule: RuleSpec) -> list[Violation]:
    """At most one copy of a card in `places`, per character, or with `scope: build` in the
    whole build (four heroes who must be four different heroes)."""
    out: list[Violation] = []
    places = tuple(rule.places) or ("abilities",)
    whole = rule.scope == "build"
    groups = [ctx.build.characters] if whole else [(ch,) for ch in ctx.build.characters]
    for members in groups:
        seen: dict[str, Placed] = {}
        for p in (p for ch in members for p in ctx.of(ch)):
            if p.place not in places:
                continue
            first = seen.setdefault(p.card.id, p)
            if first is p:
                continue
            values = {"character": p.character.name, "card": p.card.name, "first": first.character.name}
            say = words_of(ctx.pack)
            template = rule.message or (
                say("{character} takes {card}, which {first} already has; a build may hold only one copy of it")
                if whole else say("{character} takes {card} twice; a character may hold only one copy of it"))
            out.append(Violation(rule.id, rule.severity, template.format(**values), p.ref.location,
                                 _path(p.ref.path), observed=p.card.id,
                                 expected="one copy per build" if whole else "one copy per character",
                                 contributors=(Contributor(p.card.id, p.card.name, p.card.points, 2),),
                                 fix=(rule.fix or say("remove the second {card}")).format(**values)))
    return out


def shared_cards(ctx: Context, rule: RuleSpec) -> list[Violation]:
    """Cards (outside the decks) that two or more characters use: each character needs its own
    printed card, and the kit prints only the card type's `kit_copies`."""
    out: list[Violation] = []
    users: dict[str, list[Placed]] = {}
    for p in ctx.placed:
        if p.place == "deck" or not p.fits:
            continue
        mine = users.setdefault(p.card.id, [])
        if p.index not in [q.index for q in mine]:
            mine.append(p)
    for uses in users.values():
        if len(uses) < 2:
            continue
        card = uses[0].card
        printed = card.copies or 1
        if len(uses) <= printed:
            continue
        second = uses[printed]  # the first use beyond what the kit prints
        values = {"card": card.name, "count": len(uses), "printed": printed, "more": len(uses) - printed}
        say = words_of(ctx.pack)
        template = rule.message or plurals_of(ctx.pack)(
            "{count} characters use {card}: they are separate characters, but the kit prints "
            "{printed} {card} card, so print {more} more",
            "{count} characters use {card}: they are separate characters, but the kit prints "
            "{printed} {card} cards, so print {more} more", printed)
        out.append(Violation(rule.id, rule.severity, template.format(**values), second.ref.location,
                             _path(second.ref.path), observed=len(uses), expected=f"at most {printed} printed",
                             contributors=(Contributor(card.id, card.name, card.points, len(uses)),),
                             fix=(rule.fix or say("print this build's own cards: `pnp build --build FILE` "
                                                  "prints one card per character")).format(**values)))
    return out


CHARACTER_CHECKS: dict[str, BuildCheck] = {"stat_minimum": stat_minimum, "unique_cards": unique_cards, "shared_cards": shared_cards}
