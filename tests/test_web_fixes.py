"""The editor's fix buttons (issue 26, item 2): every preset of every pack with one rule broken
at a time; each fix the page offers, applied through the editor's change endpoint, removes the
violation it was offered for. Messages on the page carry no backticked field names and no
command lines."""

from __future__ import annotations

import copy
import functools
import html as htmllib
import json
import re

import pytest

from web_support import PACKS, doc_of, make_client


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    c, _ = make_client(tmp_path_factory.mktemp("builds"), tmp_path_factory.mktemp("cache"))
    return c


def _packs():
    from generator.pack.load import load_pack
    return [load_pack(d) for d in sorted(PACKS.iterdir()) if (d / "game.yaml").exists()]


def broken_builds(pack):
    """(what was broken, build document) for each preset: the ways a player's clicks break a
    rule, each on its own: copies over, a card of another side, a character twice, an ability
    or equipment twice, a limit far too low."""
    from generator.web.common import preset_docs
    for stem, (doc, _) in preset_docs(pack).items():
        side = pack.spec.sides[doc["side"]]
        first = doc["characters"][0]

        def variant(label, change, doc=doc, stem=stem):  # this preset's, bound now
            d = copy.deepcopy(doc)
            change(d, d["characters"][0])
            return f"{pack.spec.id}/{stem}: {label}", d

        if first.get("deck"):
            card = next(iter(first["deck"]))
            yield variant("three more copies", lambda d, c, k=card: c["deck"].__setitem__(k, c["deck"][k] + 3))
            other = next((x for x in pack.cards.values() if x.set not in side.sets), None)
            if other is not None:
                yield variant("a card of another side", lambda d, c, k=other.id: c["deck"].__setitem__(k, 1))
        yield variant("the first character twice", lambda d, c: d["characters"].append(copy.deepcopy(c)))
        for place in ("abilities", "equipment"):
            if first.get(place):
                yield variant(f"{place} twice over", lambda d, c, p=place: c[p].extend(c[p] * 2))
        if pack.spec.default_points_limit is not None or pack.spec.points_limits:
            yield variant("a limit of 1", lambda d, c: d.__setitem__("points_limit", 1))


def _violations(page: str) -> list[tuple[str, str, str]]:
    """(rule, path, inner HTML) of each violation shown."""
    return re.findall(r'<li class="violation [a-z]+" data-rule="([^"]+)" data-vpath="([^"]*)"[^>]*>(.*?)</li>',
                      page, re.S)


def _view(client, pack_id, doc):
    r = client.post(f"/p/{pack_id}/edit/apply", json={"build": doc, "op": {"op": "view"}},
                    headers={"x-pnp-fragment": "1"})
    assert r.status_code == 200, r.text[:500]
    return r.text


CASES = [(p.spec.id, label, doc) for p in _packs() for label, doc in broken_builds(p)]


@pytest.mark.parametrize("pack_id, label, doc", CASES, ids=[c[1] for c in CASES])
def test_every_fix_offered_removes_its_violation(client, pack_id, label, doc):
    page = _view(client, pack_id, doc)
    shown = _violations(page)
    assert shown, f"{label}: breaks no rule"
    for rule, path, inner in shown:
        assert "`" not in htmllib.unescape(inner), inner  # no field names in backticks
        assert not re.search(r"\bpnp (build|validate|serve)\b", inner), inner  # no command lines
        button = re.search(r"data-op='([^']+)'>([^<]+)</button>", inner)
        if not button:
            continue
        op = json.loads(htmllib.unescape(button.group(1)))
        r = client.post(f"/p/{pack_id}/edit/apply", json={"build": doc_of(page), "op": op},
                        headers={"x-pnp-fragment": "1"})
        assert r.status_code == 200, r.text[:500]
        after = [(r2, p2) for r2, p2, _ in _violations(r.text)]
        now = _now_at(path, op, pack_id, doc_of(page))
        assert now is None or (rule, now) not in after, f"{label}: '{button.group(2)}' left {rule} at {path}"


@functools.lru_cache(maxsize=None)
def _base_key(pack_id: str, side: str) -> str:
    from generator.pack.load import load_pack
    return load_pack(PACKS / pack_id).spec.sides[side].base.key


def _now_at(path: str, op: dict, pack_id: str, doc: dict) -> str | None:
    """Where the element at `path` is after `op` (None: taken out), read here on its own
    terms: a removal from a list moves the later items up one."""
    base_key = _base_key(pack_id, doc["side"])
    c = op.get("char")
    if op["op"] == "remove_char":
        listed, gone = "characters", op["char"]
    elif op["op"] == "remove" and op.get("piece") is not None:
        listed, gone = f"characters[{c}].{base_key}[{op['piece']}].equipment", op["index"]
    elif op["op"] == "remove":
        listed, gone = f"characters[{c}].{base_key if op['place'] == 'base' else op['place']}", op["index"]
    else:
        return path
    m = re.fullmatch(re.escape(listed) + r"\[(\d+)\](.*)", path)
    if not m:
        return path
    k = int(m.group(1))
    return None if k == gone else f"{listed}[{k - (k > gone)}]{m.group(2)}"


def test_fix_buttons_cover_the_rule_families_that_point_at_a_card():
    """Across the broken presets, an error that points at one card or one character of the
    build gets a button in every rule family that has such an error, with the count in the
    label where copies are over ("Remove 3 × …"). A warning gets none (its build is legal)."""
    from fastapi.testclient import TestClient  # noqa: F401  (the client fixture is per module)
    from generator.rules.engine import validate_build
    from generator.web.fixes import fixes, key as fixkey
    from generator.web.state import to_build
    families, fixed, labels = set(), set(), []
    for pack in _packs():
        for _, doc in broken_builds(pack):
            report = validate_build(pack, to_build(doc, pack))
            offered = fixes(pack, doc, report)
            assert not [k for k in offered if k in {fixkey(v) for v in report.violations if v.severity != "error"}]
            for v in report.violations:
                if v.severity == "error" and re.match(r"^characters\[\d+\]\.", v.path):
                    families.add((pack.spec.id, v.rule))
                    if any(k[0] == v.rule for k in offered):
                        fixed.add((pack.spec.id, v.rule))
            labels += [label for label, _ in offered.values()]
    assert families - fixed == set(), sorted(families - fixed)
    assert len(fixed) >= 10, sorted(fixed)
    assert any(re.match(r"Remove 3 × ", label) for label in labels), labels


def test_one_rules_violations_are_those_the_whole_validation_finds():
    """The editor checks a fix against its own rule only (rules.engine.rule_violations): over
    every preset and broken build of every pack, each rule's violations are the very ones a
    whole validation finds, and a rule a build keeps finds none."""
    from generator.rules.engine import rule_violations, validate_build
    from generator.web.common import preset_docs
    from generator.web.state import clean_document, to_build
    checked = broken = 0
    for pack in _packs():
        docs = [doc for doc, _ in preset_docs(pack).values()] + [d for _, d in broken_builds(pack)]
        rule_ids = {r.id for r in pack.spec.rules} | {"build.characters", "build.base"}
        for doc in docs:
            build = to_build(clean_document(doc, pack), pack)
            whole = validate_build(pack, build).violations
            broken += bool(whole)
            for rule in rule_ids | {v.rule for v in whole}:
                assert rule_violations(pack, build, rule) == [v for v in whole if v.rule == rule], rule
                checked += 1
    assert broken > 20 and checked > 500


def test_a_one_character_rule_finds_the_same_alone():
    """The editor tries a fix that changes one character on that character alone when the
    rule judges each character by its own cards (rules.checks.ONE_CHARACTER): over every
    preset and broken build of every pack, such a rule finds in a build of character i alone
    what it finds for character i in the whole build, and nothing outside the characters."""
    from generator.rules.checks import reads_one_character
    from generator.rules.engine import rule_violations
    from generator.web.common import preset_docs
    from generator.web.state import clean_document, to_build
    compared = found = 0
    for pack in _packs():
        docs = [doc for doc, _ in preset_docs(pack).values()] + [d for _, d in broken_builds(pack)]
        rules = [r.id for r in pack.spec.rules if reads_one_character(r)]
        for doc in docs:
            doc = clean_document(doc, pack)
            build = to_build(doc, pack)
            for rule in rules:
                whole = [(v.path, v.observed, v.expected) for v in rule_violations(pack, build, rule)]
                assert all(p.startswith("characters[") for p, _, _ in whole), (rule, whole)
                for i, char in enumerate(doc["characters"]):
                    at = f"characters[{i}]"
                    alone = rule_violations(pack, to_build(dict(doc, characters=[char]), pack), rule)
                    assert [(at + v.path[len("characters[0]"):], v.observed, v.expected) for v in alone] == \
                        [w for w in whole if w[0] == at or w[0].startswith(at + ".")], (pack.spec.id, rule, i)
                    compared += 1
                found += len(whole)
    assert compared > 1000 and found > 20, (compared, found)


def test_a_shared_card_warning_points_at_the_print_button_and_removes_no_hero(client):
    """Two heroes of one party may be the same hero (legal), and the kit prints one card of
    each: the warning says to print the build's own cards with the page's own button, in the
    page's words, and offers no button that takes a hero out."""
    from generator.pack.load import load_pack
    from generator.web.common import preset_docs
    pack = load_pack(PACKS / "boss_fight")
    doc = copy.deepcopy(next(d for d, _ in preset_docs(pack).values() if d["side"] == "hero"))
    doc["characters"].append(copy.deepcopy(doc["characters"][0]))
    shown = [(rule, inner) for rule, _, inner in _violations(_view(client, "boss_fight", doc))
             if rule == "build.shared-card"]
    assert shown, "a hero twice is a shared-card warning"
    for _, inner in shown:
        text = htmllib.unescape(re.sub(r"<[^>]+>", " ", inner))
        assert "To fix: print this build's own cards: the Cards (PDF) button below" in text, text
        assert "fixbtn" not in inner and "pnp" not in text, inner


def test_changes_that_keep_a_document_clean_leave_it_as_clean_document_would():
    """apply_op skips its second pass through clean_document for changes that only take out,
    count or reorder (state._KEEP_CLEAN): over every preset and broken build of every pack, each
    such change the page can make leaves the very document (keys in order) that pass gives."""
    from generator.web.common import preset_docs
    from generator.web.state import _KEEP_CLEAN, apply_op, clean_document, parse_op
    made = 0
    for pack in _packs():
        for doc in [d for d, _ in preset_docs(pack).values()] + [d for _, d in broken_builds(pack)]:
            doc = clean_document(doc, pack)
            side = pack.spec.sides[doc["side"]]
            ops = []
            for i, char in enumerate(doc["characters"]):
                ops += [{"op": "remove_char", "char": i}, {"op": "move_char", "char": i, "delta": 1}]
                for place in ("equipment", "abilities"):
                    ops += [{"op": "remove", "char": i, "place": place, "index": j} for j in range(len(char.get(place) or []))]
                for card in char.get("deck") or {}:
                    ops += [{"op": "deck", "char": i, "card": card, "delta": d} for d in (-1, 1, -99)]
                if side.base.many:
                    for j, item in enumerate(char.get(side.base.key) or []):
                        ops.append({"op": "remove", "char": i, "place": "base", "index": j})
                        ops += [{"op": "remove", "char": i, "place": "equipment", "piece": j, "index": k}
                                for k in range(len(item.get("equipment") or []))]
            assert {op["op"] for op in ops} <= _KEEP_CLEAN
            for op in ops:
                changed = apply_op(doc, parse_op(op), pack, cleaned=True)
                assert json.dumps(changed) == json.dumps(clean_document(changed, pack)), (pack.spec.id, op)
                made += 1
    assert made > 500, made


def test_each_of_several_like_violations_gets_its_button(client):
    """Three copies of one ability on a hero: the second and the third break the one-copy rule,
    and each gets its own button. Taking out the second moves the third into its place, still
    a duplicate; the second's violation is gone all the same (fixes.moved), so it is offered."""
    from generator.pack.load import load_pack
    from generator.web.common import preset_docs
    pack = load_pack(PACKS / "boss_fight")
    doc = copy.deepcopy(next(d for d, _ in preset_docs(pack).values() if d["side"] == "hero"))
    sets = pack.spec.sides["hero"].sets
    ability = next(c.id for c in pack.cards.values()
                   if c.type == "ability" and c.set in sets)
    doc["characters"][0]["abilities"] = [ability] * 3
    page = _view(client, "boss_fight", doc)
    dups = {path: inner for rule, path, inner in _violations(page) if rule == "ability.duplicate"}
    assert set(dups) == {"characters[0].abilities[1]", "characters[0].abilities[2]"}, dups
    assert all("fixbtn" in inner for inner in dups.values()), dups


def test_a_piece_carrying_too_much_is_offered_to_take_it_off_not_to_go(client, monkeypatch):
    """A boss piece with no slots carrying one piece of equipment: the button takes the
    equipment off (what the rule's own hint names), and the piece stays. The slots it frees
    end the overflow by the rule's own count, so no change is tried on a copy first."""
    from generator.web import fixes as F
    monkeypatch.setattr(F, "_after", lambda *a: pytest.fail(f"a change was tried: {a[2]}"))
    from generator.pack.load import load_pack
    from generator.web.common import preset_docs
    pack = load_pack(PACKS / "boss_fight")
    doc = copy.deepcopy(next(d for d, _ in preset_docs(pack).values() if d["side"] == "boss"))
    sets = pack.spec.sides["boss"].sets
    bare = next(c for c in pack.cards.values() if c.type == "boss-piece" and c.set in sets and not c.fields.get("slots"))
    gear = next(c for c in pack.cards.values()
                if c.type == "equipment" and c.set in sets and c.fields.get("slots") == 1 and not c.fields.get("owner"))
    doc["characters"][0]["pieces"].append({"piece": bare.id, "equipment": [gear.id]})
    j = len(doc["characters"][0]["pieces"]) - 1
    page = _view(client, "boss_fight", doc)
    shown = {path: inner for rule, path, inner in _violations(page) if rule == "equipment.slots"}
    inner = shown[f"characters[0].pieces[{j}].piece"]
    button = re.search(r"data-op='([^']+)'>([^<]+)</button>", inner)
    assert button and button.group(2) == f"Remove {gear.name}", inner
    assert json.loads(htmllib.unescape(button.group(1))) == {"op": "remove", "char": 0, "place": "equipment",
                                                             "piece": j, "index": 0}


def test_a_deck_over_its_counts_is_fixed_without_a_try(monkeypatch):
    """Copies over a card's limit and a deck over its size: the button takes out the copies
    over the number (the rule's own count), offered without trying it on a copy first, in
    every pack whose presets have a deck; the every-fix test above applies each of them."""
    from generator.rules.checks import counts_copies
    from generator.rules.engine import validate_build
    from generator.web import fixes as F
    from generator.web.state import clean_document, to_build
    tried = []
    real = F._after
    monkeypatch.setattr(F, "_after", lambda pack, doc, op, rule: tried.append((pack, rule)) or real(pack, doc, op, rule))
    offered = 0
    for pack in _packs():
        for label, doc in broken_builds(pack):
            if not label.endswith("three more copies"):
                continue
            doc = clean_document(doc, pack)
            report = validate_build(pack, to_build(doc, pack))
            counted = [v for v in report.violations if F._rule_is(pack, v.rule, counts_copies) and v.path.startswith("characters[")
                       and v.severity == "error" and v.observed > (F._count(v.expected) or 0)]
            got = F.fixes(pack, doc, report)
            for v in counted:
                assert F.key(v) in got and got[F.key(v)][0].startswith("Remove "), (label, v.rule)
                offered += 1
    assert offered >= 5, offered
    assert not [(p.spec.id, r) for p, r in tried if F._rule_is(p, r, counts_copies)]


def test_a_change_that_takes_out_the_violations_own_card_needs_no_try(monkeypatch):
    """A fix that takes out the very card or character a violation is on (a duplicate ability,
    an ability whose requirement is unmet, a card of another side) ends that violation with it:
    it is offered without a try on a copy of the build, over every broken build of every pack."""
    from generator.rules.engine import validate_build
    from generator.web import fixes as F
    from generator.web.state import clean_document, to_build
    tried = set()
    real = F._after
    monkeypatch.setattr(F, "_after", lambda pack, doc, op, rule: tried.add((json.dumps(op, sort_keys=True), rule))
                        or real(pack, doc, op, rule))
    untried = 0
    for pack in _packs():
        for label, doc in broken_builds(pack):
            doc = clean_document(doc, pack)
            report = validate_build(pack, to_build(doc, pack))
            tried.clear()
            got = F.fixes(pack, doc, report)
            base_key = pack.spec.sides[doc["side"]].base.key
            for v in report.violations:
                options = F.candidates(pack, doc, v) if v.severity == "error" else []
                if options and F.moved(v.path, options[0][1], base_key) is None:
                    assert got.get(F.key(v)) == options[0], (label, v.rule)
                    assert (json.dumps(options[0][1], sort_keys=True), v.rule) not in tried, (label, v.rule)
                    untried += 1
    assert untried >= 10, untried
