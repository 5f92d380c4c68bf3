"""What the editor shows for a build: its characters with every violation placed next to the
card or place it concerns, the points bar, the limit in force and where it comes from, and
the numbers behind the charts. Validation itself is the engine's (generator.rules)."""

from __future__ import annotations

from dataclasses import dataclass, field

from generator.core.errors import InputError
from generator.pack.model import Pack
from generator.rules.decided import decided_deck
from generator.rules.engine import validate_build
from generator.rules.params import parameter
from generator.core.report import Report, Violation
from generator.share.codes import share_code
from generator.pack import display
from generator.web import charts
from generator.web.fixes import fixes, key
from generator.web.common import per_pack
from generator.web.state import NO_LIMIT, WHERE, side_of, to_build
from generator.web.words import gettext
from generator.core.yamlio import parse_yaml
from generator.pack.load import build_from_document


@dataclass
class Item:
    """One card in a place of a character, with the violations that point at it."""

    path: str
    card_id: str
    name: str
    points: int | None
    type_name: str = ""
    count: int = 1
    index: int | None = None
    known: bool = True
    violations: list = field(default_factory=list)
    children: list = field(default_factory=list)  # equipment attached to a base card
    tag: str = ""  # the card's first choice field (an action type, a piece type)


@dataclass
class CharView:
    index: int
    name: str
    path: str
    bases: list
    equipment: list
    abilities: list
    deck: list
    deck_count: int
    deck_size: int | None
    points: int = 0
    stats: dict = field(default_factory=dict)
    stat_rows: tuple = ()  # the statistics shown: (label, value) pairs
    deck_rows: tuple | None = None  # a deck with no violation at a card: its rows, drawn as one part
    slots_used: int | None = None
    slots_total: int | None = None
    violations: list = field(default_factory=list)
    deck_violations: list = field(default_factory=list)
    fill: str | None = None  # the one legal deck its base card leaves, in words, when the deck is not it yet


@dataclass
class BuildView:
    doc: dict
    report: Report | None
    problems: list
    chars: list
    build_violations: list
    warnings: list
    total: int = 0
    limit: int | None = None
    limit_source: str = ""
    code: str | None = None
    code_error: str | None = None
    charts: dict = field(default_factory=dict)
    priced: bool = True  # the side's builds can cost points (generator.pack.display)
    stat_labels: dict = field(default_factory=dict)  # the statistics shown, key -> label
    fixes: dict = field(default_factory=dict)  # violation key -> (button label, change), see web.fixes

    def fix_for(self, v: Violation):
        return self.fixes.get(key(v))

    @property
    def legal(self) -> bool:
        return self.report is not None and self.report.legal and not self.problems

    @property
    def over(self) -> bool:
        return self.limit is not None and self.total > self.limit

    @property
    def bar_percent(self) -> float:
        if not self.limit:
            return 100.0 if self.total else 0.0
        return min(100.0, 100.0 * self.total / self.limit)


def _path(*parts) -> str:
    out = ""
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _attach(violations: list[Violation], targets: dict[str, list]) -> list[Violation]:
    """Put each violation on the most specific element its path points into (the longest
    target that is the path itself or the path cut before a `.` or a `[`); return the rest."""
    rest = []
    for v in violations:
        path = v.path or ""
        while path and path not in targets:
            path = path[:max(path.rfind("."), path.rfind("["), 0)]
        if path:
            targets[path].append(v)
        else:
            rest.append(v)
    return rest


@per_pack
def allows_no_limit(pack: Pack) -> bool:
    """Whether the pack's build format takes `points_limit: none` (asked of the loader)."""
    side = next(iter(pack.spec.sides), None)
    if side is None:
        return False
    try:
        build_from_document(parse_yaml(f"name: x\nside: {side}\npoints_limit: {NO_LIMIT}\ncharacters: []\n",
                                       WHERE), pack)
    except InputError:
        return False
    return True


def limit_source(pack: Pack, doc: dict, report: Report | None) -> tuple[int | None, str]:
    """The limit in force and where it comes from, in words (the page's language: web/words.py):
    the validator's own answer where the report carries it (`limit_source`), else read from the
    build and the pack."""
    spec = pack.spec
    value = doc.get("points_limit")
    points = report.points if report is not None else None
    limit = points.limit if points is not None else None
    source = getattr(points, "limit_source", None)
    default = spec.default_points_limit
    if source == "command line":
        return limit, gettext("set for this check")
    if value == NO_LIMIT or (source == "build" and limit is None):
        return None, gettext("no limit, set in this build")
    if isinstance(value, str):
        return limit, gettext("{name} ({limit}), set in this build").format(name=value, limit=spec.points_limits.get(value))
    if value is not None or source == "build":
        return limit, gettext("set in this build")
    if default is None or (source is None and points is not None and hasattr(points, "limit_source")):
        return limit, gettext("the pack sets no limit")
    if isinstance(default, str):
        return limit, gettext("the pack default: {name} ({limit})").format(name=default, limit=spec.points_limits.get(default))
    return limit, gettext("the pack default")


def build_view(pack: Pack, doc: dict) -> BuildView:
    side = side_of(pack, doc)
    problems: list = []
    report = build = None
    try:
        build = to_build(doc, pack)
        report = validate_build(pack, build)
    except InputError as exc:
        problems = exc.problems
    violations = report.sorted_violations() if report else []
    targets: dict[str, list] = {"points_limit": [], "name": []}
    totals = report.points.by_character() if report is not None and report.points is not None else None
    chars = [_char_view(pack, doc, i, c, targets, report, totals) for i, c in enumerate(doc["characters"])]
    rest = _attach(violations, targets)
    for cv in chars:
        cv.violations = targets.get(cv.path, [])
        cv.deck_violations = targets.get(cv.path + ".deck", [])
        for item in cv.bases + cv.equipment + cv.abilities + cv.deck:
            item.violations = targets.get(item.path, [])
            for child in item.children:
                child.violations = targets.get(child.path, [])
        cv.deck_rows = None if any(d.violations for d in cv.deck) else \
            tuple((d.path, d.card_id, d.name, d.tag, d.count) for d in cv.deck)
    build_level = rest + targets["points_limit"] + targets["name"]
    view = BuildView(doc, report, problems, chars, [v for v in build_level if v.severity == "error"],
                     [v for v in violations if v.severity != "error"])
    view.priced = display.deals_in_points(pack, side)
    view.stat_labels = display.stat_labels(pack, side)
    for cv in chars:
        cv.stat_rows = tuple((label, cv.stats[k]) for k, label in view.stat_labels.items() if k in cv.stats)
    if report is not None and report.points is not None:
        view.total = report.points.total
    view.limit, view.limit_source = limit_source(pack, doc, report)
    if report is not None and build is not None:  # a report is of a build
        try:
            view.code = share_code(pack, build)
        except InputError as exc:
            view.code_error = exc.problems[0].message
    view.charts = charts.build_charts(pack, doc, report, side, build)
    view.fixes = fixes(pack, doc, report)
    return view


def _char_view(pack: Pack, doc: dict, i: int, char: dict, targets: dict, report: Report | None,
               totals: dict | None) -> CharView:
    """`totals`: the report's points per character (Points.by_character), or None."""
    side = side_of(pack, doc)
    base = side.base
    cpath = _path("characters", i)
    targets[cpath] = []
    targets[cpath + ".deck"] = []

    shown = card_rows(pack)

    def item(card_id, path, count=1, index=None):
        row = shown.get(card_id)
        targets[path] = []
        if row is None:
            return Item(path, card_id, card_id, None, "unknown card", count, index, False, tag="unknown card")
        return Item(path, card_id, row[0], row[1], row[2], count, index, True, tag=row[3])

    bases, equipment = [], []
    if base.many:
        key = base.item_key or "card"
        for bi, entry in enumerate(char.get(base.key, [])):
            bpath = _path("characters", i, base.key, bi)
            it = item(entry.get(key), bpath, index=bi)
            for ei, eq in enumerate(entry.get("equipment", [])):
                it.children.append(item(eq, _path("characters", i, base.key, bi, "equipment", ei), index=ei))
            bases.append(it)
    elif char.get(base.key):
        bases.append(item(char[base.key], _path("characters", i, base.key)))
    for ei, eq in enumerate(char.get("equipment", [])):
        equipment.append(item(eq, _path("characters", i, "equipment", ei), index=ei))
    abilities = [item(a, _path("characters", i, "abilities", ai), index=ai)
                 for ai, a in enumerate(char.get("abilities", []))]
    deck = [item(cid, _path("characters", i, "deck", cid), count=n) for cid, n in char.get("deck", {}).items()]
    name = charts.character_name(pack, side, i, char)
    cv = CharView(i, name, cpath, bases, equipment, abilities, deck, sum(d.count for d in deck),
                  deck_size(pack, doc["side"]))
    if report is not None:
        cv.stats = character_stats(report, i, name)
        if totals is not None:
            cv.points = character_points(totals, i, name)
    cv.slots_used, cv.slots_total = _slots(pack, bases, equipment)
    chosen = char.get(base.key)
    decided = decided_deck(pack, doc["side"], chosen) if side.deck and isinstance(chosen, str) else None
    if decided is not None and char.get("deck") != decided.deck:
        cv.fill = decided.words(pack)
    return cv


def character_stats(report: Report, index: int, name: str) -> dict:
    """A character's numbers in the report, keyed by position (`characters[0]`, newer
    reports) or by name (older ones); only the numbers, not the name it carries."""
    stats = report.stats or {}
    for where in (f"characters[{index}]", index, name):
        if where in stats and isinstance(stats[where], dict):
            return {k: v for k, v in stats[where].items() if isinstance(v, int) and not isinstance(v, bool)}
    return {}


def character_points(totals: dict, index: int, name: str) -> int:
    """Points of one character, from a report's totals by position (newer) or by name (older)."""
    return totals.get(index, totals.get(name, 0)) if index in totals or name in totals else 0


def deck_size(pack: Pack, side_id: str) -> int | None:
    for rule in pack.spec.rules:
        if rule.check == "deck_size" and (rule.side is None or rule.side == side_id):
            return parameter(rule, "size")
    return None


def _slots(pack: Pack, bases: list, equipment: list) -> tuple[int | None, int | None]:
    """Slots used and offered, from the pack's slot_capacity rule (its field names are data)."""
    rule = next((r for r in pack.spec.rules if r.check == "slot_capacity"), None)
    if rule is None:
        return None, None
    cap_field, use_field = parameter(rule, "capacity_field"), parameter(rule, "usage_field")

    def value(card_id, name):
        card = pack.cards.get(card_id)
        v = card.fields.get(name) if card else None
        return v if isinstance(v, int) else 0

    total = sum(value(b.card_id, cap_field) for b in bases)
    used = sum(value(e.card_id, use_field) for b in bases for e in b.children)
    used += sum(value(e.card_id, use_field) for e in equipment)
    return used, total


@per_pack
def card_rows(pack: Pack) -> dict[str, tuple]:
    """What a card's row in a character's lists shows of the card: card id -> (name, points,
    type name, tag), worked out once per pack."""
    return {cid: (card.name, card.points, pack.spec.card_types[card.type].name, card_tag(pack, card))
            for cid, card in pack.cards.items()}


def card_tag(pack: Pack, card, owner: bool = False) -> str:
    """A short word for a card in lists: the value of its type's first `choice` field; with
    `owner` (the card picker), for a card that belongs to one character (the pack's `owner`
    rule names the field), whose it is: "Easy · Karrun only". The validator still decides;
    this saves a player the wrong click."""
    words = []
    spec = pack.spec.card_types.get(card.type)
    for name, f in (spec.fields.items() if spec else []):
        if f.type == "choice" and card.fields.get(name) is not None:  # as the card says it (`Kraft`, not `Might`)
            value = str(card.fields[name])
            words.append(pack.translation.pgettext(name, value) if pack.translation is not None else value)
            break
    for rule in pack.spec.rules if owner else ():
        owner_id = card.fields.get(parameter(rule, "field")) if rule.check == "owner" else None
        if isinstance(owner_id, str) and owner_id:
            holder = pack.cards.get(owner_id)
            words.append(str(gettext("{name} only")).format(name=holder.name if holder else owner_id))
            break
    return " · ".join(words)
