"""Draw odds (#26 item 5): the hypergeometric chance of at least one card of a group in the
opening draw a pack declares (`deck.draw` in game.yaml), its checks, and the editor's table."""

from __future__ import annotations

import re
from fractions import Fraction
from itertools import combinations

import pytest

from generator.core.errors import InputError
from generator.rules.draw_odds import at_least_one, opening_odds
from web_support import PACKS, make_client


def brute(pile: int, successes: int, drawn: int) -> Fraction:
    hands = list(combinations(range(pile), drawn))
    return Fraction(sum(1 for h in hands if any(c < successes for c in h)), len(hands))


@pytest.mark.parametrize("pile,k,n", [(10, 3, 4), (8, 1, 1), (8, 0, 3), (8, 8, 2), (9, 2, 9), (12, 5, 5), (1, 1, 1)])
def test_at_least_one_is_the_count_of_hands(pile, k, n):
    assert at_least_one(pile, k, n) == brute(pile, k, n)


def test_impossible_counts_are_refused():
    with pytest.raises(ValueError):
        at_least_one(5, 6, 2)
    with pytest.raises(ValueError):
        at_least_one(5, 1, 6)


def test_boss_fight_opening_four_by_action_type(packs):
    pack = packs["boss_fight"]
    side = pack.spec.sides["boss"]
    moves = [c.id for c in pack.cards.values() if c.type == "action" and c.fields.get("action_type") == "Move"][:2]
    attacks = [c.id for c in pack.cards.values() if c.type == "action" and c.fields.get("action_type") == "Attack"][:3]
    deck = {moves[0]: 3, moves[1]: 2, **{a: 3 for a in attacks}, "no-such-card": 3}
    odds = opening_odds(pack, side, deck)
    assert (odds.drawn, odds.pile, odds.by) == (4, 14, "action type")
    got = {g.label: g for g in odds.groups}
    assert got["Move"].cards == 5 and got["Attack"].cards == 9
    assert got["Move"].at_least_one == pytest.approx(1 - (9 * 8 * 7 * 6) / (14 * 13 * 12 * 11))
    assert got["Attack"].expected == pytest.approx(4 * 9 / 14)
    # a pile smaller than the draw: everything is drawn
    small = opening_odds(pack, side, {moves[0]: 2})
    assert small.drawn == 2 and small.groups[0].at_least_one == 1.0
    assert opening_odds(pack, side, {}) is None


def test_draw_of_only_some_types_and_packs_without_a_draw(packs):
    fb = packs["final_boss"]
    side = fb.spec.sides["table"]
    drops = [c.id for c in fb.cards.values() if c.type == "drop"][:10]
    stage = next(c.id for c in fb.cards.values() if c.type == "stage")
    odds = opening_odds(fb, side, {**{d: 1 for d in drops}, stage: 1})
    assert odds.pile == 10 and odds.drawn == 7 and odds.by == "category"
    assert opening_odds(fb, side, {stage: 1}) is None  # the Stages deck draws no hand
    tactics = packs["tactics"]
    for s in tactics.spec.sides.values():
        assert opening_odds(tactics, s, {c: 1 for c in list(tactics.cards)[:3]}) is None


def test_a_draw_naming_an_unknown_field_or_type_is_a_pack_error(tmp_path):
    import shutil
    from generator.pack.load import load_pack
    dst = tmp_path / "bf"
    shutil.copytree(PACKS / "boss_fight", dst)
    game = dst / "game.yaml"
    text = game.read_text()
    game.write_text(text.replace("draw: {opening: 4, by: action_type}", "draw: {opening: 4, by: action_typo}", 1))
    with pytest.raises(InputError) as err:
        load_pack(dst)
    p = err.value.problems[0]
    line = text[:text.index("draw: {opening: 4, by: action_type}")].count("\n") + 1  # where the typo sits
    assert "action_typo" in p.message and p.location.line == line and "action_type" in (p.fix or "")
    game.write_text(text.replace("draw: {opening: 4, by: action_type}", "draw: {opening: 4, of: [hero]}", 1))
    with pytest.raises(InputError) as err:
        load_pack(dst)
    assert "hero" in err.value.problems[0].message
    game.write_text(text.replace("draw: {opening: 4, by: action_type}", "draw: {opening: 0}", 1))
    with pytest.raises(InputError):
        load_pack(dst)


@pytest.fixture(scope="module")
def packs():
    from generator.pack.load import load_pack
    return {p.name: load_pack(p) for p in PACKS.iterdir() if (p / "game.yaml").is_file()}


@pytest.mark.parametrize("pack_id,stem,drawn", [("boss_fight", "boss-ashen-behemoth", 4), ("battle_bosses", "sable", 5)])
def test_the_editor_shows_the_odds_as_a_table_without_a_script(tmp_path, pack_id, stem, drawn):
    c, site = make_client(tmp_path / "builds", tmp_path / "cache")
    page = c.get(f"/p/{pack_id}/edit", params={"preset": stem}).text
    m = re.search(r'<figure class="chart odds">(.*?)</figure>', page, re.S)
    assert m, "the odds table is on the page"
    table = m.group(1)
    assert f"opening draw of {drawn} from" in table
    rows = re.findall(r'<tr><th scope="row">([^<]+)</th><td>(\d+)</td>.*?([\d.]+) %</td><td>([\d.]+)</td></tr>', table, re.S)
    assert rows
    pile = int(re.search(r"from (\d+) cards", table).group(1))
    assert sum(int(r[1]) for r in rows) == pile
    for _label, k, pct, _avg in rows:
        assert float(pct) == pytest.approx(100 * float(at_least_one(pile, int(k), drawn)), abs=0.051)
    if pack_id == "battle_bosses":
        assert ": cards by Crystals" in page
