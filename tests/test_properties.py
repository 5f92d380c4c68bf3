"""Property tests (hypothesis): the order of entries in a build never changes the verdict, and
removing a card from a build within its limit never puts it over on points."""

from __future__ import annotations

import copy

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import LEGAL_BOSS, LEGAL_PARTY, PACK_DIR
from generator.pack.load import build_from_document
from generator.rules.engine import validate_build
from generator.core.yamlio import parse_yaml

FAST = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

PRESETS = {p.name: yaml.safe_load(p.read_text(encoding="utf-8"))
           for p in sorted((PACK_DIR / "presets").glob("*.yaml"))}
STARTS = {"legal-boss": yaml.safe_load(LEGAL_BOSS), "legal-party": yaml.safe_load(LEGAL_PARTY), **PRESETS}


def validate_data(pack, data: dict, points=None):
    """Validate a build given as plain data (dumped to YAML text, so positions are real)."""
    text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
    build = build_from_document(parse_yaml(text, "build.yaml"), pack)
    return validate_build(pack, build, points)


def canonical(report) -> tuple:
    """Everything a result says, minus where in the file it was said (lines, columns, list indexes)."""
    violations = sorted(
        (v.rule, v.severity, v.message, repr(v.observed), repr(v.expected), v.fix or "",
         tuple(sorted((c.id, c.name, c.points, c.count) for c in v.contributors)))
        for v in report.violations)
    points = report.points
    lines = sorted((l.character, l.id, l.kind, l.count, l.points) for l in points.lines)
    return (report.legal, tuple(violations), points.total, points.limit, points.left,
            # characters are keyed by position, which a shuffle changes: compare them as a multiset
            tuple(sorted((points.name_of(i), total) for i, total in points.by_character().items())),
            tuple(lines), tuple(sorted(tuple(sorted(s.items())) for s in report.stats.values())))


# ---- strategies ---------------------------------------------------------------------------------


def _card_ids(pack, type_id):
    return sorted(c.id for c in pack.cards.values() if c.type == type_id)


@st.composite
def messy_builds(draw, pack):
    """A preset or starting build, often broken on purpose so that there is something to report."""
    data = copy.deepcopy(STARTS[draw(st.sampled_from(sorted(STARTS)))])
    any_card = st.sampled_from(sorted(pack.cards) + ["no-such-card", "wlak"])
    for ch in data["characters"]:
        for _ in range(draw(st.integers(0, 2))):
            ch.setdefault("abilities", []).append(draw(st.sampled_from(_card_ids(pack, "ability") + ["walk"])))
        if draw(st.booleans()):
            deck = ch.setdefault("deck", {})
            deck[draw(any_card)] = draw(st.integers(0, 5))
        if "pieces" in ch and draw(st.booleans()):
            item = {"piece": draw(st.sampled_from(_card_ids(pack, "boss-piece")))}
            if draw(st.booleans()):
                item["equipment"] = [draw(st.sampled_from(_card_ids(pack, "equipment")))]
            ch["pieces"].append(item)
        if "hero" in ch and draw(st.booleans()):
            ch.setdefault("equipment", []).append(draw(st.sampled_from(_card_ids(pack, "equipment"))))
        if "pieces" in ch and draw(st.booleans()):  # sometimes lose legs, for boss.movement
            ch["pieces"] = [p for p in ch["pieces"]
                            if pack.cards[p["piece"] if isinstance(p, dict) else p].get("piece_type") != "Leg"
                            or draw(st.booleans())] or ch["pieces"]
    if draw(st.booleans()):
        data["points_limit"] = draw(st.integers(0, 200))
    return data


def shuffled(draw, data: dict) -> dict:
    """The same build with every list and mapping in a random order."""
    out = copy.deepcopy(data)

    def permute(items):
        return draw(st.permutations(items))

    chars = out["characters"]
    for ch in chars:
        for key in ("pieces", "equipment", "abilities"):
            if isinstance(ch.get(key), list):
                ch[key] = list(permute(ch[key]))
        for item in ch.get("pieces", []):
            if isinstance(item, dict) and item.get("equipment"):
                item["equipment"] = list(permute(item["equipment"]))
        if isinstance(ch.get("deck"), dict):
            ch["deck"] = dict(permute(list(ch["deck"].items())))
        keys = list(ch)
        out_keys = permute(keys)
        ch_copy = {k: ch[k] for k in out_keys}
        ch.clear()
        ch.update(ch_copy)
    out["characters"] = list(permute(chars))
    top = {k: out[k] for k in permute(list(out))}
    return top


# ---- properties ----------------------------------------------------------------------------------


@FAST
@given(data=st.data())
def test_shuffling_entries_never_changes_the_result(pack, data):
    build = data.draw(messy_builds(pack))
    points = data.draw(st.one_of(st.none(), st.integers(0, 200)))
    before = canonical(validate_data(pack, build, points))
    after = canonical(validate_data(pack, shuffled(data.draw, build), points))
    assert after == before


def _removals(data: dict) -> list[tuple]:
    """Every single card that can be taken out of a build (not a hero: that is a whole character)."""
    out = []
    for ci, ch in enumerate(data["characters"]):
        for key in ("equipment", "abilities"):
            out += [(ci, key, i) for i in range(len(ch.get(key) or []))]
        for pi, item in enumerate(ch.get("pieces") or []):
            out.append((ci, "pieces", pi))
            if isinstance(item, dict):
                out += [(ci, "pieces", pi, "equipment", ei) for ei in range(len(item.get("equipment") or []))]
        out += [(ci, "deck", cid) for cid in (ch.get("deck") or {})]
    return out


def _remove(data: dict, where: tuple) -> dict:
    out = copy.deepcopy(data)
    ch = out["characters"][where[0]]
    if where[1] == "deck":
        deck = ch["deck"]
        deck[where[2]] -= 1
        if deck[where[2]] <= 0:
            del deck[where[2]]
    elif len(where) == 5:
        del ch["pieces"][where[2]]["equipment"][where[4]]
    else:
        del ch[where[1]][where[2]]
    return out


@FAST
@given(data=st.data())
def test_removing_a_card_never_breaks_the_points_limit(pack, data):
    build = data.draw(messy_builds(pack))
    total = validate_data(pack, build).points.total
    limit = data.draw(st.integers(total, total + 50))  # within the limit to start with
    before = validate_data(pack, build, limit)
    assert not [v for v in before.violations if v.rule == "points.limit"]
    where = data.draw(st.sampled_from(_removals(build)))
    after = validate_data(pack, _remove(build, where), limit)
    assert after.points.total <= before.points.total
    assert not [v for v in after.violations if v.rule == "points.limit"]


@FAST
@given(name=st.sampled_from(sorted(PRESETS)), data=st.data())
def test_removing_a_card_from_a_legal_preset_keeps_it_within_its_own_limit(pack, name, data):
    build = PRESETS[name]
    assert validate_data(pack, build).legal
    where = data.draw(st.sampled_from(_removals(build)))
    after = validate_data(pack, _remove(build, where))
    assert not [v for v in after.violations if v.rule == "points.limit"]
    assert after.points.left >= 0


@FAST
@given(data=st.data())
def test_points_are_the_sum_of_the_cards(pack, data):
    build = data.draw(messy_builds(pack))
    report = validate_data(pack, build)
    assert report.points.total == sum(l.points * l.count for l in report.points.lines)
    assert report.points.total == sum(report.points.by_character().values())
