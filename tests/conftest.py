"""Shared fixtures: the Boss Fight pack, legal builds to start from, and a helper that writes a
build YAML into tmp_path, validates it and answers questions about the result."""

from __future__ import annotations

import collections
import os
from dataclasses import dataclass
from pathlib import Path

import pytest

from generator.pack.load import load_build, load_pack
from generator.rules.engine import validate_build
from generator.core.report import Report, Violation
from generator.core import yamlio
from generator.core.yamlio import display_path

REPO = Path(__file__).resolve().parents[1]
PACK_DIR = REPO / "card_data" / "boss_fight"
FIXTURES = Path(__file__).resolve().parent / "fixtures"

# A legal boss: 69 points, two legs, equipment on pieces with room for it, a 30-card deck.
LEGAL_BOSS = """\
pack: boss_fight
name: Test Brute
side: boss
points_limit: 100
characters:
  - name: Test Brute
    pieces:
      - piece: basalt-jaw
      - piece: coal-ribcage
      - piece: pillar-leg
      - piece: anchor-foot
      - piece: titan-arm
        equipment: [bone-cleaver]
      - piece: knuckle-club
        equipment: [anchor-chain]
    abilities: [blood-frenzy]
    deck:
      lumbering-stride: 3
      thunderous-charge: 3
      shamble: 2
      crushing-blow: 3
      unleash: 3
      flurry-of-limbs: 3
      gorge: 3
      foul-ichor: 1
      apex-rampage: 1
      walk: 3
      basic-attack: 3
      quick-tonic: 2
"""

# A legal party of three: exactly 100 points (34 + 34 + 32), every deck 30 cards.
LEGAL_PARTY = """\
pack: boss_fight
name: Test Wardens
side: hero
points_limit: 100
characters:
  - hero: torva-greymantle
    equipment: [knights-longsword]
    abilities: []
    deck:
      walk: 3
      run: 2
      charge: 3
      guarded-strike: 3
      basic-attack: 3
      heavy-attack: 3
      special-attack: 3
      feint: 2
      jab: 3
      healing-draught: 2
      bandage-roll: 2
      smelling-salts: 1
  - hero: wren-ashby
    equipment: [ashwood-longbow]
    abilities: []
    deck:
      walk: 3
      run: 2
      dodge-roll: 3
      basic-attack: 3
      aimed-shot: 3
      heavy-attack: 3
      special-attack: 3
      flurry: 2
      jab: 3
      quick-tonic: 2
      bolas: 3
  - hero: maud-hallow
    equipment: [blessed-mace]
    abilities: [battlefield-triage]
    deck:
      walk: 3
      regroup: 3
      dodge-roll: 2
      basic-attack: 3
      special-attack: 3
      guarded-strike: 3
      healing-draught: 3
      bandage-roll: 3
      smelling-salts: 3
      quick-tonic: 3
      jab: 1
"""

# A single hero with a 30-card deck, for requirement and slot tests (Tamsin: agility 4, 1 slot).
SOLO_DECK = """\
    deck:
      walk: 3
      run: 3
      dodge-roll: 3
      basic-attack: 3
      heavy-attack: 3
      special-attack: 3
      guarded-strike: 3
      healing-draught: 3
      bandage-roll: 3
      quick-tonic: 3
"""


def solo(hero: str, equipment: str = "[]", abilities: str = "[]", limit: int = 150) -> str:
    return (f"pack: boss_fight\nname: Solo\nside: hero\npoints_limit: {limit}\ncharacters:\n"
            f"  - hero: {hero}\n    equipment: {equipment}\n    abilities: {abilities}\n" + SOLO_DECK)


def line_of(text: str, needle: str, nth: int = 1) -> int:
    """1-based line of the nth line of `text` containing `needle`."""
    seen = 0
    for number, line in enumerate(text.splitlines(), start=1):
        if needle in line:
            seen += 1
            if seen == nth:
                return number
    raise AssertionError(f"{needle!r} not found {nth} time(s) in the build text")


@dataclass
class Checked:
    """A validated build file: the text written, where, and the report."""

    path: Path
    text: str
    report: Report

    @property
    def file(self) -> str:
        return display_path(self.path)

    @property
    def legal(self) -> bool:
        return self.report.legal

    def rules(self) -> list[str]:
        return sorted(v.rule for v in self.report.violations)

    def of(self, rule: str) -> list[Violation]:
        return [v for v in self.report.sorted_violations() if v.rule == rule]

    def one(self, rule: str) -> Violation:
        found = self.of(rule)
        assert len(found) == 1, f"expected one {rule}, got {[v.message for v in found]} in {self.rules()}"
        return found[0]

    def line(self, needle: str, nth: int = 1) -> int:
        return line_of(self.text, needle, nth)


@pytest.fixture(autouse=True)
def environment_restored():
    """Each test ends with the environment it started with. A command run in-process (click's
    CliRunner) may set variables for its own workers (`pnp serve` leaves the hosts it answers
    to, its packs and its database for uvicorn's workers); left behind, they change what the
    next test's app answers to (with pytest-xdist, whatever test runs next on that worker)."""
    before = dict(os.environ)
    yield
    if os.environ != before:
        os.environ.clear()
        os.environ.update(before)


@pytest.fixture(autouse=True)
def private_calibration(tmp_path_factory, monkeypatch):
    """Every test gets its own (empty) saved-calibration file: no test reads or writes the
    real user's `pnp calibrate` settings."""
    path = tmp_path_factory.mktemp("config") / "calibration.json"
    monkeypatch.setenv("PNP_CONFIG", str(path))
    return path


@pytest.fixture(autouse=True)
def private_template_cache(tmp_path_factory, monkeypatch):
    """Compiled templates go to a folder of the test session's, never the user's ~/.cache
    (render/base/templatecache.py); shared by the session's tests, as a user's runs share it."""
    global _TEMPLATE_CACHE
    if _TEMPLATE_CACHE is None:
        _TEMPLATE_CACHE = tmp_path_factory.mktemp("template-cache")
    monkeypatch.setenv("PNP_CACHE_DIR", str(_TEMPLATE_CACHE))
    return _TEMPLATE_CACHE


_TEMPLATE_CACHE: Path | None = None


@pytest.fixture
def parses(monkeypatch, tmp_path_factory):
    """Counts every YAML parse by file name while the test runs, from an empty cache folder of the
    test's own ($PNP_CACHE_DIR: a file parsed once is kept there, core/yamlio.py, and loaded by a
    later read instead of parsed)."""
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path_factory.mktemp("cold-cache")))
    counts: collections.Counter = collections.Counter()
    parse = yamlio.parse_yaml

    def counting(text, file):
        counts[file] += 1
        return parse(text, file)

    monkeypatch.setattr(yamlio, "parse_yaml", counting)
    return counts


@pytest.fixture(scope="session")
def pack():
    return load_pack(PACK_DIR)


@pytest.fixture
def check(tmp_path, pack):
    """check(text, points=None, name="build.yaml") -> Checked: write the build and validate it."""
    counter = {"n": 0}

    def run(text: str, points: int | None = None, name: str | None = None) -> Checked:
        counter["n"] += 1
        path = tmp_path / (name or f"build{counter['n']}.yaml")
        path.write_text(text, encoding="utf-8")
        report = validate_build(pack, load_build(path, pack), points)
        return Checked(path, text, report)

    return run


@pytest.fixture
def in_repo(monkeypatch):
    """Run from the repository root, as a user of `pnp` would (builds find card_data/ from there)."""
    monkeypatch.chdir(REPO)
    return REPO
