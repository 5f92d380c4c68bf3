"""Rule primitives. Each takes the validation context and a rule from game.yaml and
returns violations; the pack decides which primitives run, with which ids and numbers."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from generator.core.report import Contributor, Violation
from generator.core.yamlio import PathT
from generator.pack.rule_names import BUILD_CHECKS, registry_matches
from generator.pack.translations.own import COUNTED, plurals_of, words_of
from generator.rules.context import BuildCheck, Context, Placed, path_text, place_types, points_of
from generator.rules.params import declares, parameter

if TYPE_CHECKING:
    from generator.pack.model import Card, Character, CountSpec, Pack, Ref, RuleSpec


def _path(ref: Ref) -> str:
    return path_text(ref.path)


def _names(pack: Pack, set_ids: Iterable[str]) -> str:
    return words_of(pack)(" or ").join(pack.spec.sets[s].name for s in set_ids)


def _type_name(pack: Pack, type_id: str) -> str:
    return pack.spec.card_types[type_id].name


def _a(word: str) -> str:
    """`a Hero`, `an Ability`."""
    return ("an " if word[:1].lower() in "aeiou" else "a ") + word


def _a_in(pack: Pack, word: str) -> str:
    """`a Hero` in English; a translation gets the name alone (its sentence says it its own way)."""
    return _a(word) if pack.translation is None else word


def structure(ctx: Context) -> list[Violation]:
    """Counts the pack's `sides:` declares: characters per build, base cards per character."""
    out: list[Violation] = []
    side, build = ctx.side, ctx.build
    n = len(build.characters)
    lo, hi = side.characters.min, side.characters.max
    # a table may cap its own party (--max-characters, or the build's `max_characters:`); the
    # pack's own maximum still holds, a table's cap only ever lowers it
    table = ctx.max_characters
    capped = table is not None and (hi is None or table < hi)
    if capped:
        hi = table
    excess = n - hi if hi is not None else 0  # characters over the maximum in force
    if n < lo or excess > 0:
        say = words_of(ctx.pack)  # in the pack's language (pack/translations/own.py)
        expected = (say("{lo} to {hi}").format(lo=lo, hi=hi) if hi is not None and hi != lo
                    else say("exactly {n}").format(n=lo) if hi == lo else say("at least {n}").format(n=lo))
        agreed = say(" (the maximum this table agreed)") if capped and excess > 0 else ""
        where = build.max_characters_location if capped and excess > 0 and build.max_characters_location else build.location
        # in the side's own words when it names its characters (`called:`), e.g. "3 heroes"
        one = side.character_word(1)
        say_n = plurals_of(ctx.pack)
        some: Callable[[int], str] = side.character_word if side.called else (lambda k: say_n("character", "characters", k, COUNTED))
        a_one = _a_in(ctx.pack, one)
        out.append(Violation("build.characters", "error",
                             say("a {side} build has {n} {characters}; it needs {expected}{agreed}").format(
                                 side=side.name, n=n, characters=some(n), expected=expected, agreed=agreed),
                             where, "characters", observed=n, expected=expected,
                             fix=say("add {a_character}").format(a_character=a_one) if n < lo else (
                                 say("remove {n} {characters}, or agree on a larger maximum").format(
                                     n=excess, characters=some(excess)) if capped
                                 else say("remove {a_character}").format(a_character=a_one))))
    for ch in build.characters:
        count = len(ch.bases)
        base = side.base
        if count < base.min or (base.max is not None and count > base.max):
            type_name, say, say_n = _type_name(ctx.pack, base.type), words_of(ctx.pack), plurals_of(ctx.pack)
            out.append(Violation("build.base", "error",  # in the pack's language
                                 say_n("{character} has {count} {type} card; it needs at least {min}",
                                       "{character} has {count} {type} cards; it needs at least {min}", count).format(
                                     character=ch.name, count=count, type=type_name, min=base.min),
                                 ch.location, _path_tuple(ch.path + (base.key,)), observed=count,
                                 expected=f"at least {base.min}", fix=say("add a {type} card").format(type=type_name)))
    return out


def _path_tuple(path: PathT) -> str:
    return path_text(path)


def points_limit(ctx: Context, rule: RuleSpec) -> list[Violation]:
    if ctx.limit is None:
        return []
    points = points_of(ctx)
    total = points.total
    if total <= ctx.limit:
        return []
    over = total - ctx.limit
    by_card: dict[str, Contributor] = {}
    for line in points.lines:
        old = by_card.get(line.id)
        by_card[line.id] = Contributor(line.id, line.name, line.points, (old.count if old else 0) + line.count)
    contributors = tuple(sorted(by_card.values(), key=lambda c: (-c.points * c.count, c.id)))
    # suggest dropping an extra (equipment, ability) before a whole hero or body part
    base_type = ctx.side.base.type
    is_base = {c.id: ctx.pack.cards[c.id].type == base_type for c in contributors if c.id in ctx.pack.cards}
    fitting = sorted((c for c in contributors if c.points >= over),
                     key=lambda c: (is_base.get(c.id, False), c.points, c.id))
    say = words_of(ctx.pack)  # in the pack's language (pack/translations/own.py)
    fix = (say("remove 1 × {card} ({points} points)").format(card=fitting[0].name, points=fitting[0].points)
           if fitting else say("remove cards worth at least {over} points").format(over=over))
    return [Violation(rule.id, rule.severity,
                      say("{build} costs {total} points, {over} over the limit of {limit}").format(
                          build=ctx.build.name, total=total, over=over, limit=ctx.limit),
                      ctx.build.points_limit_location, "points_limit", observed=total,
                      expected=f"at most {ctx.limit}", contributors=contributors, fix=fix)]


def deck_words(ctx: Context) -> str:
    """What the pack calls a character's deck, in its own words: `action deck` when the deck
    holds one card type named Action, else `deck` (no game's words in another game's messages)."""
    deck, say = ctx.side.deck, words_of(ctx.pack)
    types = list(deck.types) if deck is not None else []
    if len(types) == 1 and types[0] in ctx.pack.spec.card_types:
        name = ctx.pack.spec.card_types[types[0]].name
        # English writes the type lower case inside a sentence; a translation keeps its name as written
        return say("{type} deck").format(type=name.lower() if ctx.pack.translation is None else name)
    return say("deck")


@declares("deck_size", size=30)
def deck_size(ctx: Context, rule: RuleSpec) -> list[Violation]:
    out: list[Violation] = []
    size = parameter(rule, "size")
    for ch in ctx.build.characters:
        n = sum(e.copies for e in ch.deck)
        if n == size:
            continue
        diff, say = n - size, words_of(ctx.pack)
        say_n = plurals_of(ctx.pack)
        fix = (say_n("remove {n} card", "remove {n} cards", diff).format(n=diff) if diff > 0
               else say_n("add {n} card", "add {n} cards", -diff).format(n=-diff))
        template = rule.message or say("{character}'s {deck} has {count} cards; it must have exactly {size}")
        out.append(Violation(rule.id, rule.severity,
                             template.format(character=ch.name, count=n, size=size, deck=deck_words(ctx)),
                             ch.deck_location, _path_tuple(ch.path + ("deck",)), observed=n,
                             expected=size, fix=fix))
    return out


@declares("copy_limit", default=3)
def copy_limit(ctx: Context, rule: RuleSpec) -> list[Violation]:
    out: list[Violation] = []
    for ch in ctx.build.characters:
        for p in ctx.of(ch, "deck"):
            limit = copy_limit_of(p.card, rule)
            if p.copies > limit:
                extra = p.copies - limit
                values = {"character": ch.name, "count": p.copies, "card": p.card.name, "limit": limit}
                say = words_of(ctx.pack)
                template = rule.message or say("{character}'s deck has {count} copies of {card}; at most {limit} allowed")
                out.append(Violation(rule.id, rule.severity, template.format(**values),
                                     p.ref.location, _path(p.ref), observed=p.copies, expected=f"at most {limit}",
                                     contributors=(Contributor(p.card.id, p.card.name, p.card.points, p.copies),),
                                     fix=say("remove {n} × {card}").format(n=extra, card=p.card.name)))
    return out


def copy_limit_of(card: Card, rule: RuleSpec) -> int:
    """The most copies of `card` a `copy_limit` rule allows in one deck (the editor's picker
    offers no more)."""
    limit = _own_limit(card, rule.override_field)
    return limit if isinstance(limit, int) else parameter(rule, "default")


def _own_limit(card: Card, field: str | None) -> object:
    """A card's own copy limit: its `field` (e.g. `deck_limit`), or with `copies` the number of
    copies the pack itself holds, for decks made only of the cards the kit prints."""
    if field == "copies" and "copies" not in card.fields:
        return card.copies
    return card.fields.get(field) if field else None


def card_sets(ctx: Context, rule: RuleSpec) -> list[Violation]:
    out: list[Violation] = []
    side = ctx.side
    for p in ctx.placed:
        if p.card.set in side.sets:
            continue
        set_spec, say = ctx.pack.spec.sets[p.card.set], words_of(ctx.pack)
        out.append(Violation(rule.id, rule.severity,
                             say("{card} belongs to the {set}; {a_side} may only use cards from the {sets}").format(
                                 card=p.card.name, set=set_spec.name, a_side=_a_in(ctx.pack, side.name),
                                 sets=_names(ctx.pack, side.sets)),
                             p.ref.location, _path(p.ref), observed=p.card.set, expected=" or ".join(side.sets),
                             fix=say("remove {card}").format(card=p.card.name)))
    return out


def card_kinds(ctx: Context, rule: RuleSpec) -> list[Violation]:
    out: list[Violation] = []
    wanted = place_types(ctx.side)
    place_words = {"base": ctx.side.base.key, "equipment": "equipment", "abilities": "abilities", "deck": "deck"}
    for p in ctx.placed:
        expected = wanted[p.place]
        if expected is None or p.card.type in expected:
            continue
        have, say = _type_name(ctx.pack, p.card.type), words_of(ctx.pack)
        want = say(" or ").join(_type_name(ctx.pack, t) for t in expected)
        better = [place for place, t in wanted.items() if t is not None and p.card.type in t]
        fix = (say("move {card} to `{place}`").format(card=p.card.name, place=place_words[better[0]]) if better
               else say("remove {card}: {a_side} cannot use {type} cards").format(
                   card=p.card.name, a_side=_a_in(ctx.pack, ctx.side.name), type=have))
        out.append(Violation(rule.id, rule.severity,
                             say("{card} is {a_type} card, but `{place}` takes {types} cards").format(
                                 card=p.card.name, a_type=_a_in(ctx.pack, have), place=place_words[p.place], types=want),
                             p.ref.location, _path(p.ref), observed=p.card.type, expected=" or ".join(expected),
                             fix=fix))
    return out


@declares("slot_capacity", capacity_field="slots", usage_field="slots")
def slot_capacity(ctx: Context, rule: RuleSpec) -> list[Violation]:
    out: list[Violation] = []
    side = ctx.side
    if side.equipment is None:
        return out
    cap_f, use_f = parameter(rule, "capacity_field"), parameter(rule, "usage_field")

    def use(p: Placed) -> int:
        v = p.card.fields.get(use_f)
        return v if isinstance(v, int) else 1

    def cap(card: Card) -> int:
        v = card.fields.get(cap_f)
        return v if isinstance(v, int) else 0

    def by_size(items: Iterable[Placed]) -> list[Placed]:
        # the item whose removal is suggested: the smallest that is big enough, else the biggest
        return sorted(items, key=lambda e: (use(e), e.card.id))

    for ch in ctx.build.characters:
        equipment = [p for p in ctx.of(ch, "equipment") if p.card.type == side.equipment.type]
        if side.equipment.attach == "base":
            position = {id(entry.card): i for i, entry in enumerate(ch.bases)}  # a base card's index
            holders: dict[int, Placed] = {}
            for p in ctx.of(ch, "base"):
                index = position.get(id(p.ref)) if p.fits else None  # a misplaced card holds nothing
                if index is not None:
                    holders[index] = p
            on: dict[int | None, list[Placed]] = {}  # base index -> the equipment attached to it, in build order
            for e in equipment:
                on.setdefault(e.base_index, []).append(e)
            free = {i: cap(h.card) - sum(use(e) for e in on.get(i, ())) for i, h in holders.items()}
            for i, holder in sorted(holders.items()):
                attached = on.get(i, [])
                used, capacity = sum(use(e) for e in attached), cap(holder.card)
                if used <= capacity:
                    continue
                over = used - capacity
                fitting = [e for e in by_size(attached) if use(e) >= over]
                victim = fitting[0] if fitting else by_size(attached)[-1]
                others = sorted({holders[j].card.name for j, f in free.items() if j != i and f >= use(victim)})
                say, say_n = words_of(ctx.pack), plurals_of(ctx.pack)
                fix = (say_n("move {card} to a piece with {n} free slot ({pieces})",
                             "move {card} to a piece with {n} free slots ({pieces})", use(victim)).format(
                    card=victim.card.name, n=use(victim), pieces=", ".join(others[:3]))
                       if others else say("remove {card}").format(card=victim.card.name))
                out.append(Violation(rule.id, rule.severity,
                                     say_n("{character} has {n} equipment slot but carries equipment needing {used}",
                                           "{character} has {n} equipment slots but carries equipment needing {used}",
                                           capacity).format(character=holder.card.name, n=capacity, used=used),
                                     holder.ref.location, _path(holder.ref), observed=used,
                                     expected=f"at most {capacity}",
                                     contributors=tuple(Contributor(e.card.id, e.card.name, use(e))
                                                        for e in by_size(attached)),
                                     fix=fix))
        else:
            capacity = sum(cap(p.card) for p in ctx.of(ch, "base") if p.fits)
            used = sum(use(e) for e in equipment)
            if used > capacity:
                over = used - capacity
                fitting = [e for e in by_size(equipment) if use(e) >= over]
                victim = fitting[0] if fitting else by_size(equipment)[-1]
                loc, say, say_n = victim.ref.location, words_of(ctx.pack), plurals_of(ctx.pack)
                out.append(Violation(rule.id, rule.severity,
                                     say_n("{character} has {n} equipment slot but carries equipment needing {used}",
                                           "{character} has {n} equipment slots but carries equipment needing {used}",
                                           capacity).format(character=ch.name, n=capacity, used=used),
                                     loc, _path(victim.ref), observed=used, expected=f"at most {capacity}",
                                     contributors=tuple(Contributor(e.card.id, e.card.name, use(e))
                                                        for e in by_size(equipment)),
                                     fix=say("remove {card}").format(card=victim.card.name)))
    return out


@declares("requirements", field="requires")
def requirements(ctx: Context, rule: RuleSpec) -> list[Violation]:
    out: list[Violation] = []
    field = parameter(rule, "field")
    stats_spec, say = ctx.pack.spec.stats, words_of(ctx.pack)
    for ch in ctx.build.characters:
        # "a minimum value of a stat, counting bonuses from the character's other cards" (rules,
        # Equipment and Abilities): every bonus counts except the one on the card being checked.
        # Copies of the card never vouch for each other: a requirement is met without the bonus of
        # any copy of that same card on the character (two Quick Reflexes do not lift each other).
        stats = ctx.full_stats(ch)
        bases = [b for b in ctx.of(ch, "base") if b.fits]
        own_of: dict[str, dict[str, int]] = {}  # card id -> the bonuses all its copies give
        for q in ctx.of(ch):
            if q.fits and q.place in ("equipment", "abilities"):
                own = own_of.setdefault(q.card.id, {})
                for stat, value in (q.card.fields.get("bonus") or {}).items():
                    own[stat] = own.get(stat, 0) + value
        told: set[tuple[str, int]] = set()  # (card id, requirement): copies of a card share one verdict, told once
        for p in ctx.of(ch):
            if p.place == "base":
                continue
            own = own_of.get(p.card.id, {})
            for n, req in enumerate(p.card.fields.get(field) or []):
                if (p.card.id, n) in told:
                    continue
                told.add((p.card.id, n))
                need = req["min"]
                if req.get("stat"):
                    have = stats.get(req["stat"], 0) - own.get(req["stat"], 0)
                    stat_name = stats_spec[req["stat"]].name if req["stat"] in stats_spec else req["stat"]
                    if have >= need:
                        continue
                    message = say("{card} needs {stat} {n} or more; {character} has {have}").format(
                        card=p.card.name, stat=stat_name, n=need, character=ch.name, have=have)
                    expected = f"{stat_name} ≥ {need}"
                    fix = say("raise {stat} by {n} (with other cards' bonuses) or remove {card}").format(
                        stat=stat_name, n=need - have, card=p.card.name)
                else:
                    have = sum(1 for b in bases if b.card.fields.get(req["field"]) == req["value"])
                    if have >= need:
                        continue
                    label = str(req["value"])
                    message = plurals_of(ctx.pack)("{card} needs {n} card with {field} {value}; {character} has {have}",
                                                    "{card} needs {n} cards with {field} {value}; {character} has {have}",
                                                    need).format(
                        card=p.card.name, n=need, field=req["field"].replace("_", " "), value=label, character=ch.name,
                        have=have)
                    expected = f"{need} × {label}"
                    fix = say("remove {card}, or choose a character with {value}").format(card=p.card.name, value=label)
                out.append(Violation(rule.id, rule.severity, message, p.ref.location, _path(p.ref),
                                     observed=have, expected=expected, fix=fix))
    return out


def count(ctx: Context, rule: RuleSpec) -> list[Violation]:
    """How many cards in one place (base, equipment, abilities, deck; copies included) match
    `count` (type, field = value), against exactly / min / max: per character, or with
    `scope: build` over all the build's characters together (reported on the build)."""
    out: list[Violation] = []
    spec = rule.count
    if spec is None:
        return out
    chars = ctx.build.characters
    # (who the message names, where it points, the characters counted together)
    groups = ([(ctx.build.name, ctx.build.location, "characters", chars)] if rule.scope == "build"
              else [(ch.name, ch.location, _path_tuple(ch.path), (ch,)) for ch in chars])
    for who, location, path, members in groups:
        when = _counted(ctx, members, rule.when) if rule.when is not None else None
        if when == 0:
            continue  # the rule asks only of characters holding what `when` matches
        n, say = _counted(ctx, members, spec), words_of(ctx.pack)
        problem = None
        if rule.exactly is not None and n != rule.exactly:
            problem, missing = say("exactly {n}").format(n=rule.exactly), rule.exactly - n
        elif rule.min is not None and n < rule.min:
            problem, missing = say("at least {n}").format(n=rule.min), rule.min - n
        elif rule.max is not None and n > rule.max:
            problem, missing = say("at most {n}").format(n=rule.max), rule.max - n
        if problem is None:
            continue
        template = rule.messages.get(str(n)) or rule.message or (
            plurals_of(ctx.pack)("{character} has {count} matching card; the rule asks for {expected}",
                                 "{character} has {count} matching cards; the rule asks for {expected}", n))
        values = {"character": who, "count": n, "expected": problem, "missing": abs(missing), "when": when}
        out.append(Violation(rule.id, rule.severity, template.format(**values), location,
                             path, observed=n, expected=problem,
                             fix=rule.fix.format(**values) if rule.fix else None))
    return out


def _counted(ctx: Context, members: Sequence[Character], spec: CountSpec) -> int:
    """Copies of the cards in `spec`'s place of `members` that match it (type, card, field = value).
    With nothing to match, every card there counts, one the pack does not know too: a misspelled
    sword is still the equipment a hero carries (its card.unknown says what is wrong, alone)."""
    if not (spec.type or spec.card or spec.field):
        return sum(_held(ch, spec.within) for ch in members)
    n = 0
    for p in (p for ch in members for p in ctx.of(ch, spec.within)):
        if spec.type and p.card.type != spec.type:
            continue
        if spec.card and p.card.id != spec.card:
            continue
        if spec.field and p.card.fields.get(spec.field) != spec.value:
            continue
        n += p.copies
    return n


def _held(ch: Character, place: str) -> int:
    """The cards a character names in one place, known to the pack or not (copies counted)."""
    if place == "base":
        return len(ch.bases)
    if place == "equipment":
        return len(ch.equipment) + sum(len(b.equipment) for b in ch.bases)
    if place == "abilities":
        return len(ch.abilities)
    return sum(e.copies for e in ch.deck)


@declares("points_spent", min=75)
def points_spent(ctx: Context, rule: RuleSpec) -> list[Violation]:
    """A hint for a legal but weak build (a warning in the shipped packs): it spends less than
    `min` percent of the points limit in force, so the other side fields more. No limit, none."""
    if not ctx.limit:
        return []
    total, share = points_of(ctx).total, parameter(rule, "min")
    if total * 100 >= ctx.limit * share:
        return []
    values = {"build": ctx.build.name, "total": total, "limit": ctx.limit, "left": ctx.limit - total, "min": share}
    say = words_of(ctx.pack)
    template = rule.message or say("{build} spends {total} of its {limit} points, so {left} points are left unspent")
    fix = rule.fix or say("add cards worth up to {left} points, or agree on a lower points limit")
    return [Violation(rule.id, rule.severity, template.format(**values), ctx.build.points_limit_location,
                      "points_limit", observed=total, expected=f"at least {share}% of {ctx.limit}",
                      fix=fix.format(**values))]


@declares("owner", field="owner")
def owner(ctx: Context, rule: RuleSpec) -> list[Violation]:
    """Signature cards: a card whose `field` names another card (its owner, e.g. the boss it
    belongs to) may only be taken by a character that has that owner among its base cards.
    Cards with the field empty are open to everyone."""
    out: list[Violation] = []
    field = parameter(rule, "field")
    for ch in ctx.build.characters:
        bases = {p.card.id for p in ctx.of(ch, "base")}
        for p in ctx.of(ch):
            if p.place == "base":
                continue
            owner_id = p.card.fields.get(field)
            if not owner_id or owner_id in bases:
                continue
            owner_card = ctx.pack.cards.get(owner_id)
            owner_name = owner_card.name if owner_card else owner_id
            say = words_of(ctx.pack)
            out.append(Violation(rule.id, rule.severity,
                                 say("{card} belongs to {owner}; {character} may not use it").format(
                                     card=p.card.name, owner=owner_name, character=ch.name),
                                 p.ref.location, _path(p.ref), observed=owner_id,
                                 expected=" or ".join(sorted(bases)) + " (or a card open to everyone)",
                                 contributors=(Contributor(p.card.id, p.card.name, p.card.points, p.copies),),
                                 fix=rule.fix.format(card=p.card.name, owner=owner_name, character=ch.name)
                                 if rule.fix else say("remove {card}").format(card=p.card.name)))
    return out


CHECKS: dict[str, BuildCheck] = {
    "points_limit": points_limit,
    "deck_size": deck_size,
    "copy_limit": copy_limit,
    "card_sets": card_sets,
    "card_kinds": card_kinds,
    "slot_capacity": slot_capacity,
    "requirements": requirements,
    "count": count,
    "owner": owner,
    "points_spent": points_spent,
}

# primitives of their own modules (generator.rules.character_checks, deck_checks), same signature
from generator.rules.character_checks import CHARACTER_CHECKS  # noqa: E402  (after the helpers it may use)
from generator.rules.deck_checks import DECK_CHECKS  # noqa: E402

CHECKS.update(CHARACTER_CHECKS)
CHECKS.update(DECK_CHECKS)
registry_matches("build", BUILD_CHECKS, CHECKS)

# The primitives whose verdict on a character reads that character alone (its own cards, and
# the build's side): a rule of one of them, unless it says `scope: build`, finds the same
# violations of a character in a build made of that character only. The editor tries a fix
# that changes one character that way (generator.web.fixes), at a fraction of the cost in a
# large party. Not listed, so checked over the whole build: points_limit (the build's total),
# shared_cards (a card two characters use), and any primitive added later until it is listed.
ONE_CHARACTER = frozenset({"deck_size", "copy_limit", "card_sets", "card_kinds", "slot_capacity",
                           "requirements", "count", "owner", "stat_minimum", "unique_cards",
                           "deck_composition"})
if not ONE_CHARACTER <= set(CHECKS):
    raise RuntimeError(f"ONE_CHARACTER names unknown primitives: {sorted(ONE_CHARACTER - set(CHECKS))}")


# The primitives that count a deck's copies against a number (copy_limit: a card's copies over
# its limit; deck_size: the deck over its size): taking out the copies over the number ends
# the violation by the rule's own count, so the editor offers that change without trying it
# on a copy first (generator.web.fixes). tests/test_web_fixes.py applies every fix it offers.
COUNTS_COPIES = frozenset({"copy_limit", "deck_size"})
if not COUNTS_COPIES <= set(CHECKS):
    raise RuntimeError(f"COUNTS_COPIES names unknown primitives: {sorted(COUNTS_COPIES - set(CHECKS))}")


def counts_copies(rule: RuleSpec) -> bool:
    return rule.check in COUNTS_COPIES


# The primitives whose `observed` is the sum of their contributors' `points` (slot_capacity:
# the slots each piece of equipment uses, docs/validation.md): taking off one contributor worth
# at least the excess ends the violation, so the editor offers that without a try.
SUMS_CONTRIBUTORS = frozenset({"slot_capacity"})
if not SUMS_CONTRIBUTORS <= set(CHECKS):
    raise RuntimeError(f"SUMS_CONTRIBUTORS names unknown primitives: {sorted(SUMS_CONTRIBUTORS - set(CHECKS))}")


def sums_contributors(rule: RuleSpec) -> bool:
    return rule.check in SUMS_CONTRIBUTORS


def reads_one_character(rule: RuleSpec) -> bool:
    return rule.check in ONE_CHARACTER and rule.scope != "build"
