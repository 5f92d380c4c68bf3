"""Fuzzing (hypothesis): whatever a file holds, the loader, the validator and the map checks
either give a result or raise InputError, never anything else; and the validator agrees with
itself: the same verdict twice, after reordering a build's entries, and after a round trip
through a share code.

Set PNP_FUZZ_EXAMPLES (e.g. 2000) for a longer hunt than the default run of the test suite.
"""

from __future__ import annotations

import copy
import os
from pathlib import Path

import yaml
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.share import codes as share
from generator.cli import main
from generator.core.errors import InputError
from generator.pack.load import build_from_document, load_pack
from generator.maps import validate_hexmap
from generator.maps.checks import largest_party, preset_footprints
from generator.pack.load import load_presets as preset_builds
from generator.maps.load import map_from_document
from generator.rules.engine import validate_build
from generator.core.yamlio import MAX_DEPTH, parse_yaml, read_text

REPO = Path(__file__).resolve().parents[1]
PACK_DIR = REPO / "card_data" / "boss_fight"
PACK = load_pack(PACK_DIR)
EXAMPLES = int(os.environ.get("PNP_FUZZ_EXAMPLES", "0")) or None


def fuzz(n: int):
    return settings(max_examples=EXAMPLES or n, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                           HealthCheck.data_too_large, HealthCheck.filter_too_much])


TEXT = st.text(alphabet=st.characters(exclude_categories=("Cs",)), max_size=24)
IDS = sorted(PACK.cards)
CARD_ID = st.one_of(st.sampled_from(IDS), st.sampled_from(["wlak", "no-such-card", "", "Walk", "épée", "a" * 70]))
JUNK = st.one_of(
    st.none(), st.booleans(), st.integers(-10 ** 30, 10 ** 30), st.integers(-3, 40),
    st.floats(allow_nan=False, allow_infinity=False), TEXT, CARD_ID,
    st.lists(st.one_of(CARD_ID, st.integers(-2, 5)), max_size=4),
    st.dictionaries(st.one_of(CARD_ID, st.integers(0, 3)), st.one_of(st.integers(-2, 9), TEXT), max_size=4),
)


# ---- the loader: random YAML trees, random text, random bytes ------------------------------------

SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-10 ** 20, 10 ** 20),
                    st.floats(allow_nan=False, allow_infinity=False), TEXT)
KEYS = st.one_of(TEXT, st.integers(-1000, 1000))
TREES = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=5),
                                                      st.dictionaries(KEYS, inner, max_size=5)), max_leaves=40)


def depth(value) -> int:
    if isinstance(value, dict):
        return 1 + max((depth(v) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((depth(v) for v in value), default=0)
    return 0


@fuzz(300)
@given(tree=TREES)
def test_any_yaml_tree_loads_as_the_safe_loader_reads_it(tree):
    """Our builder (positions, limits, duplicate keys) gives exactly the plain values PyYAML's
    safe loader gives; for trees without line-break characters that is the tree itself."""
    text = yaml.safe_dump(tree, allow_unicode=True, sort_keys=False)
    assert depth(tree) <= MAX_DEPTH
    doc = parse_yaml(text, "tree.yaml")
    assert doc.data == yaml.safe_load(text)
    if not any(ch in text for ch in "\x85\u2028\u2029"):  # PyYAML folds these when it reads its own dump
        assert doc.data == tree
    for _path, (line, column) in doc.positions.items():
        assert line >= 1 and column >= 1


YAMLISH = st.text(alphabet=st.sampled_from(list("abc01:-[]{}#&*!|>'\"%@`?,. \t\n\r~=\\") + ["é", "漢", "\x00", "\ufeff"]),
                  max_size=120)


@fuzz(400)
@given(text=YAMLISH)
def test_any_text_is_read_or_refused_with_an_input_error(text):
    try:
        parse_yaml(text, "text.yaml")
    except InputError as exc:
        for p in exc.problems:
            assert p.location.file == "text.yaml" and p.location.line >= 1 and p.location.column >= 1
            assert p.code.split(".")[0] in ("yaml", "file")


@fuzz(150)
@given(raw=st.binary(max_size=400))
def test_any_bytes_are_read_or_refused_with_an_input_error(tmp_path_factory, raw):
    path = tmp_path_factory.mktemp("bytes") / "raw.yaml"
    path.write_bytes(raw)
    try:
        parse_yaml(read_text(path, "raw.yaml"), "raw.yaml")
    except InputError:
        pass


PRESET_TEXTS = {p.name: p.read_text(encoding="utf-8") for p in sorted((PACK_DIR / "presets").glob("*.yaml"))}


@st.composite
def mangled_text(draw):
    """A preset with a few characters inserted, deleted or replaced (YAML's own characters first)."""
    text = draw(st.sampled_from(sorted(PRESET_TEXTS.values())))
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(text)))
        op = draw(st.sampled_from(["insert", "delete", "replace"]))
        ch = draw(st.sampled_from(list(":-[]{}#&*!|>'\"%\t\n ,?") + ["  ", "\n  - ", "é", "9" * 30]))
        if op == "insert":
            text = text[:i] + ch + text[i:]
        elif op == "delete":
            text = text[:i] + text[i + draw(st.integers(1, 12)):]
        else:
            text = text[:i] + ch + text[i + 1:]
    return text


@fuzz(250)
@given(text=mangled_text())
def test_mangled_build_text_gives_a_report_or_input_errors(text):
    try:
        build = build_from_document(parse_yaml(text, "mangled.yaml"), PACK)
    except InputError as exc:
        assert exc.problems and all(p.location.file == "mangled.yaml" for p in exc.problems)
        return
    report = validate_build(PACK, build)
    assert all(v.location.line >= 1 for v in report.violations)


# ---- the validator: random mutations of valid builds ---------------------------------------------

STARTS = {name: yaml.safe_load(text) for name, text in PRESET_TEXTS.items()}


def paths_of(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from paths_of(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from paths_of(v, prefix + (i,))


def get(value, path):
    for part in path:
        value = value[part]
    return value


@st.composite
def mutated_builds(draw):
    """A preset with 1 to 3 mutations: a value replaced by junk, an entry removed, duplicated or
    renamed, an unknown key added, a deck count bent."""
    data = copy.deepcopy(STARTS[draw(st.sampled_from(sorted(STARTS)))])
    for _ in range(draw(st.integers(1, 3))):
        paths = [p for p in paths_of(data) if p]
        path = draw(st.sampled_from(paths))
        parent, key = get(data, path[:-1]), path[-1]
        op = draw(st.sampled_from(["junk", "delete", "duplicate", "rename", "add", "count", "card"]))
        if op == "junk":
            parent[key] = draw(JUNK)
        elif op == "delete":
            del parent[key]
        elif op == "duplicate" and isinstance(parent, list):
            parent.insert(key, copy.deepcopy(parent[key]))
        elif op == "rename" and isinstance(parent, dict):
            new = draw(st.one_of(TEXT, CARD_ID, st.sampled_from(["equipmnet", "pices", "deck", "name"])))
            value = parent.pop(key)
            parent[new] = value
        elif op == "add" and isinstance(parent, dict):
            parent[draw(st.one_of(TEXT, CARD_ID))] = draw(JUNK)
        elif op == "count":
            for p in paths:
                if len(p) >= 2 and p[-2] == "deck" and p[:-2] == path[:len(p) - 2]:
                    get(data, p[:-1])[p[-1]] = draw(st.integers(-3, 12))
                    break
        elif op == "card":
            if isinstance(parent, list) and isinstance(parent[key], str):
                parent[key] = draw(CARD_ID)
            elif isinstance(parent, dict) and isinstance(key, str) and isinstance(parent[key], int):
                parent[draw(CARD_ID)] = parent.pop(key)
    return data


def load_data(data, file="fuzz.yaml"):
    text = yaml.safe_dump(data, allow_unicode=True, sort_keys=False)
    return build_from_document(parse_yaml(text, file), PACK)


def canonical(report) -> tuple:
    """What a report says, without where it was said (lines, columns, list positions)."""
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


def shuffled(draw, data: dict) -> dict:
    """The same build with its lists and mappings in another order. Characters are reordered only
    when each is named independently of its position (a character without a name, or whose hero
    card is unknown, is called `character N`)."""
    out = copy.deepcopy(data)
    chars = out.get("characters")
    if not isinstance(chars, list):
        return out
    for ch in chars:
        if not isinstance(ch, dict):
            continue
        for key in ("pieces", "equipment", "abilities"):
            if isinstance(ch.get(key), list):
                ch[key] = list(draw(st.permutations(ch[key])))
        for item in ch.get("pieces") or []:
            if isinstance(item, dict) and isinstance(item.get("equipment"), list):
                item["equipment"] = list(draw(st.permutations(item["equipment"])))
        if isinstance(ch.get("deck"), dict):
            ch["deck"] = dict(draw(st.permutations(list(ch["deck"].items()))))
        keys = draw(st.permutations(list(ch)))
        reordered = {k: ch[k] for k in keys}
        ch.clear()
        ch.update(reordered)
    named = all(isinstance(c, dict) and (c.get("name") or (isinstance(c.get("hero"), str) and c["hero"] in PACK.cards))
                for c in chars)
    if named:
        out["characters"] = list(draw(st.permutations(chars)))
    return {k: out[k] for k in draw(st.permutations(list(out)))}


@fuzz(200)
@given(data=st.data())
def test_mutated_builds_give_a_report_or_input_errors_and_the_validator_agrees_with_itself(data):
    build_data = data.draw(mutated_builds())
    points = data.draw(st.one_of(st.none(), st.integers(0, 300)))
    try:
        build = load_data(build_data)
    except InputError as exc:
        assert exc.problems
        assert all(p.location.file == "fuzz.yaml" and p.location.line >= 1 for p in exc.problems)
        return
    report = validate_build(PACK, build, points)
    verdict = canonical(report)
    assert canonical(validate_build(PACK, load_data(build_data), points)) == verdict  # the same twice
    assert canonical(validate_build(PACK, load_data(shuffled(data.draw, build_data)), points)) == verdict
    try:
        code = share.share_code(PACK, build)
    except InputError as exc:  # unknown cards cannot be shared: said as an input error
        assert {p.code for p in exc.problems} <= {"share.unknown-card", "share.too-large"}
        return
    back = build_from_document(parse_yaml(share.unshare_text(code, PACK), "unshared.yaml"), PACK)
    assert canonical(validate_build(PACK, back, points)) == verdict


@fuzz(40)
@given(data=st.data())
def test_mutated_builds_through_the_command_line(data, tmp_path_factory):
    build_data = data.draw(mutated_builds())
    path = tmp_path_factory.mktemp("cli") / "fuzz.yaml"
    path.write_text(yaml.safe_dump(build_data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    fmt = data.draw(st.sampled_from(["text", "json"]))
    result = CliRunner().invoke(main, ["validate", str(path), "--pack", str(PACK_DIR), "--format", fmt])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code in (0, 1, 2)
    assert "Traceback" not in result.output


# ---- the map checks: random map files ---------------------------------------------------------------

BUILDS = preset_builds(PACK)
FOOTPRINTS = preset_footprints(PACK, BUILDS)
PARTY = largest_party(PACK, BUILDS)
COORD = st.integers(-10, 10)
PAIR = st.one_of(st.tuples(COORD, COORD).map(list), st.just([1, 2, 3]), st.just(["a", 1]), st.just([0]))
GOOD_PAIR = st.tuples(COORD, COORD).map(list)


@st.composite
def map_documents(draw):
    """Mostly well-formed maps (hexes off the grid, unknown terrain and zones, walls, islands),
    sometimes with a broken value, so that both the checks and the schema are exercised."""
    pair = PAIR if draw(st.integers(0, 9)) == 0 else GOOD_PAIR
    shape_kind = draw(st.sampled_from(["hexagon", "rectangle", "hexes", "two", "none"]))
    shape: dict = {}
    if shape_kind in ("hexagon", "two"):
        shape["hexagon"] = draw(st.integers(-1, 7))
    if shape_kind in ("rectangle", "two"):
        shape["rectangle"] = {"columns": draw(st.integers(0, 12)), "rows": draw(st.integers(0, 10))}
    if shape_kind == "hexes":
        shape["hexes"] = draw(st.lists(GOOD_PAIR, max_size=60))
    if draw(st.booleans()):
        shape["remove"] = draw(st.lists(pair, max_size=6))
    doc: dict = {"title": draw(st.text(alphabet=st.characters(exclude_categories=("Cs", "Cc")), min_size=1,
                                       max_size=30)),
                 "shape": shape}
    if draw(st.booleans()):
        doc["orientation"] = draw(st.sampled_from(["pointy", "flat", "diagonal"]))
    if draw(st.booleans()):
        doc["hex_size"] = draw(st.one_of(st.floats(5, 100, allow_nan=False), st.integers(5, 100)))
    if draw(st.booleans()):
        doc["obstacles"] = draw(st.lists(pair, max_size=12))
    terrain_ids = st.sampled_from(sorted(PACK.spec.terrain) + ["lava", "rubbel"]) if PACK.spec.terrain else \
        st.sampled_from(["lava"])
    if draw(st.booleans()):
        doc["terrain"] = draw(st.dictionaries(terrain_ids, st.lists(pair, max_size=8), max_size=3))
    if draw(st.booleans()):
        doc["zones"] = draw(st.dictionaries(st.sampled_from(sorted(PACK.spec.sides) + ["heroes"]),
                                            st.lists(pair, max_size=10), max_size=3))
    if draw(st.integers(0, 9)) == 0:
        doc[draw(st.sampled_from(["obstacle", "notes", "scale"]))] = draw(JUNK)
    return doc


def map_report(doc: dict, file="fuzz-map.yaml"):
    text = yaml.safe_dump(doc, allow_unicode=True, sort_keys=False)
    hexmap = map_from_document(parse_yaml(text, file), PACK, "fuzz-map")
    return validate_hexmap(hexmap, PACK, FOOTPRINTS, PARTY)


def map_verdict(report) -> tuple:
    return report.legal, tuple(sorted(v.rule for v in report.violations))


@fuzz(120)
@given(doc=map_documents(), data=st.data())
def test_random_maps_give_a_report_or_input_errors(doc, data):
    try:
        report = map_report(doc)
    except InputError as exc:
        assert exc.problems and all(p.location.file == "fuzz-map.yaml" for p in exc.problems)
        return
    for v in report.violations:
        assert v.location.file == "fuzz-map.yaml" and v.location.line >= 1 and v.location.column >= 1
    assert map_verdict(map_report(doc)) == map_verdict(report)
    reordered = copy.deepcopy(doc)
    for key in ("obstacles",):
        if isinstance(reordered.get(key), list):
            reordered[key] = list(data.draw(st.permutations(reordered[key])))
    for key in ("terrain", "zones"):
        if isinstance(reordered.get(key), dict):
            reordered[key] = {k: list(data.draw(st.permutations(v))) for k, v in reordered[key].items()}
    assert map_verdict(map_report(reordered)) == map_verdict(report)


@fuzz(60)
@given(tree=TREES)
def test_any_yaml_tree_as_a_map_gives_a_report_or_input_errors(tree):
    try:
        map_report(tree if not isinstance(tree, dict) else {"title": "T", "shape": {"hexagon": 2}, **tree})
    except InputError:
        pass


# ---- share codes: whatever a player pastes ---------------------------------------------------------

CODE_CHARS = st.sampled_from(list(share.ALPHABET) + list("ILOUilou-_ \n*é"))


@fuzz(300)
@given(code=st.one_of(st.text(max_size=60), st.builds(lambda body: share.PREFIX + body, st.text(CODE_CHARS, max_size=80))),
       data=st.data())
def test_any_pasted_code_unshares_or_says_why(code, data):
    if data.draw(st.booleans()):  # a real code with a few characters changed
        build = load_data(STARTS[data.draw(st.sampled_from(sorted(STARTS)))])
        real = share.share_code(PACK, build)
        i = data.draw(st.integers(len(share.PREFIX), len(real) - 1))
        code = real[:i] + data.draw(CODE_CHARS) + real[i + data.draw(st.integers(0, 3)):]
    try:
        text = share.unshare_text(code, PACK)
    except InputError as exc:
        assert exc.problems and all(p.code.startswith(("share.", "schema.", "yaml.")) for p in exc.problems)
        return
    build_from_document(parse_yaml(text, "unshared.yaml"), PACK)
