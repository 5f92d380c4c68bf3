"""What a rule primitive sees: the cards of a build resolved against the pack (`Placed`),
the validation `Context`, and the points breakdown. The one card resolution of the engine:
anything that needs "which card sits where in this build" uses `resolve_build`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple, Protocol

from generator.core.errors import Problem, did_you_mean
from generator.core.report import Points, PointsLine, Violation
from generator.core.yamlio import PathT

if TYPE_CHECKING:
    from generator.pack.model import Build, Card, Character, Pack, Ref, RuleSpec, SideSpec

PLACES = ("base", "equipment", "abilities", "deck")


class Placed(NamedTuple):
    """A card named somewhere in a build, resolved against the pack. (A named tuple: a build
    makes dozens at every validation, and the web builder validates at every click.)"""

    ref: Ref
    card: Card
    place: str  # one of PLACES
    character: Character
    base_index: int | None = None  # for equipment attached to a base card
    copies: int = 1
    index: int = 0  # type: ignore[assignment]  # the character's position in the build (the field shadows tuple.index)
    # False for a card of a kind its place does not take (a Hero card among boss pieces): it is
    # reported by `card.kind` and adds nothing to the character's stats
    fits: bool = True


@dataclass
class Context:
    """One validation. `placed` is fixed once made; the per-character views below are built
    from it on first use and kept, because every check asks for them again (a build of four
    characters asks `of` about a hundred times), and the web builder validates at every click."""

    pack: Pack
    build: Build
    limit: int | None
    placed: list[Placed]
    limit_source: str | None = None
    max_characters: int | None = None  # the table's cap: --max-characters, else the build's
    # (id of a character, place or None for all) -> its cards
    _of: dict[tuple[int, str | None], list[Placed]] = field(default_factory=dict, init=False, repr=False,
                                                            compare=False)
    # (id of a character, "base" | "full") -> its stats
    _stats: dict[tuple[int, str], dict[str, int]] = field(default_factory=dict, init=False, repr=False, compare=False)
    _points: Points | None = field(default=None, init=False, repr=False, compare=False)  # points_of, made once

    @property
    def side(self) -> SideSpec:
        return self.pack.spec.sides[self.build.side]

    def of(self, character: Character, place: str | None = None) -> list[Placed]:
        """The cards of one character (in build order), all or those of one place. The list is
        shared between callers: read it, never change it."""
        if not self._of:
            for p in self.placed:  # keyed by identity: two characters may be equal (a duplicate hero)
                self._of.setdefault((id(p.character), None), []).append(p)
                self._of.setdefault((id(p.character), p.place), []).append(p)
        return self._of.get((id(character), place), [])

    def base_stats(self, character: Character) -> dict[str, int]:
        """Stats of a character from its base cards and equipment bonuses (what requirements see)."""
        key = (id(character), "base")
        if key not in self._stats:
            self._stats[key] = self._base_stats(character)
        return dict(self._stats[key])

    def _base_stats(self, character: Character) -> dict[str, int]:
        totals = {s: 0 for s in self.pack.spec.stats}
        for p in self.of(character):
            if not p.fits:
                continue
            if p.place == "base":
                source = dict(p.card.fields.get("stats") or {})
                for stat in self.pack.spec.stats:  # a whole-number field named after a stat counts too
                    value = p.card.fields.get(stat)
                    if isinstance(value, int) and not isinstance(value, bool):
                        source.setdefault(stat, value)
            elif p.place == "equipment":
                source = p.card.fields.get("bonus") or {}
            else:
                continue
            for stat, value in source.items():
                totals[stat] = totals.get(stat, 0) + value
        return totals

    def full_stats(self, character: Character) -> dict[str, int]:
        key = (id(character), "full")
        if key not in self._stats:
            totals = self.base_stats(character)
            for p in self.of(character, "abilities"):
                if not p.fits:
                    continue
                for stat, value in (p.card.fields.get("bonus") or {}).items():
                    totals[stat] = totals.get(stat, 0) + value
            self._stats[key] = totals
        return dict(self._stats[key])


def path_text(path: PathT) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def place_types(side: SideSpec) -> dict[str, tuple[str, ...] | None]:
    """The card types each place of a character takes (a deck may take several)."""
    return {
        "base": (side.base.type,),
        "equipment": (side.equipment.type,) if side.equipment else None,
        "abilities": side.abilities.types if side.abilities else None,
        "deck": side.deck.types if side.deck else None,
    }


def resolve_build(pack: Pack, build: Build, violations: list[Violation]) -> list[Placed]:
    placed: list[Placed] = []
    wanted = place_types(pack.spec.sides[build.side])

    def take(ref: Ref, place: str, character: Character, index: int, base_index: int | None = None,
             copies: int = 1) -> None:
        card = pack.cards.get(ref.id)
        if card is None:
            violations.append(unknown_card(pack, ref, place))
            return
        types = wanted[place]
        fits = types is None or card.type in types
        placed.append(Placed(ref, card, place, character, base_index, copies, index, fits))

    for index, character in enumerate(build.characters):
        for bi, entry in enumerate(character.bases):
            take(entry.card, "base", character, index)
            for eq in entry.equipment:
                take(eq, "equipment", character, index, base_index=bi)
        for eq in character.equipment:
            take(eq, "equipment", character, index)
        for ab in character.abilities:
            take(ab, "abilities", character, index)
        for deck_entry in character.deck:
            take(deck_entry.card, "deck", character, index, copies=deck_entry.copies)
    return placed


def unknown_card(pack: Pack, ref: Ref, place: str) -> Violation:
    guess = did_you_mean(ref.id, pack.cards)
    fix = f"did you mean `{guess}` ({pack.cards[guess].name})?" if guess else "run `pnp list` to see the card ids"
    return Violation("card.unknown", "error", f"no card with the id `{ref.id}` in {pack.spec.name}",
                     ref.location, path_text(ref.path), observed=ref.id, expected="a card id of the pack",
                     fix=fix)


def unknown_cards(violations: list[Violation], doing: str = "") -> list[Problem]:
    """The cards a build names that the pack does not have (its card.unknown violations) as
    problems: a rule error to the validator (the build is not legal), but nothing can print it,
    encode it or name it in a deck list, so the commands that would refuse it with these, in the
    validator's words (`doing` before them: "cannot write a deck list of this build")."""
    return [Problem(v.rule, f"{doing}: {v.message}" if doing else v.message, v.location,
                    found=None if v.observed is None else str(v.observed), fix=v.fix)
            for v in violations if v.rule == "card.unknown"]


def points_of(ctx: Context) -> Points:
    """The points breakdown of the build (made once per validation: the limit check and the
    report both need it)."""
    if ctx._points is None:
        ctx._points = _points_of(ctx)
    return ctx._points


def _points_of(ctx: Context) -> Points:
    lines: dict[tuple[int, str, str], PointsLine] = {}
    for p in ctx.placed:
        if p.card.points == 0 and p.place == "deck":
            continue
        key = (p.index, p.card.id, p.place)  # by position: two characters may share a name
        old = lines.get(key)
        count = (old.count if old else 0) + p.copies
        lines[key] = PointsLine(p.character.name, p.card.id, p.card.name, p.card.type, count, p.card.points,
                                p.index)
    return Points(lines=list(lines.values()), limit=ctx.limit, limit_source=ctx.limit_source,
                  names=[c.name for c in ctx.build.characters])


class BuildCheck(Protocol):
    """A rule primitive over one build (rules.checks.CHECKS): what it sees, the rule as game.yaml
    gives it, and the violations it finds."""
    def __call__(self, ctx: Context, rule: RuleSpec) -> list[Violation]: ...


class PackCheck(Protocol):
    """A rule primitive over a whole pack (rules.pack_checks.PACK_CHECKS)."""
    def __call__(self, pack: Pack, rule: RuleSpec) -> list[Violation]: ...
