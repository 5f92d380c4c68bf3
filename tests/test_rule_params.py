"""A rule primitive declares its parameters with their defaults once (generator.rules.params):
with `size` left out of a pack's deck-size rule, the validator, the editor's deck target and the
rulebook all say the primitive's default, and with `size` written they all say that."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from generator.pack.load import load_build, load_pack
from generator.render.rulebook.templating import rule_values
from generator.rules.checks import CHECKS
from generator.rules.engine import validate_build
from generator.rules.params import PARAMETERS, declares, parameter
from generator.web.view import deck_size as editor_deck_target

REPO = Path(__file__).resolve().parents[1]
PRESET = "sable.yaml"  # a 16-card deck


def battle_bosses(tmp_path: Path, keep_size: bool) -> Path:
    root = tmp_path / "battle_bosses"
    shutil.copytree(REPO / "card_data" / "battle_bosses", root)
    game = root / "game.yaml"
    text = game.read_text(encoding="utf-8")
    assert "    check: deck_size\n    size: 16\n" in text
    if not keep_size:
        game.write_text(text.replace("    check: deck_size\n    size: 16\n", "    check: deck_size\n"), encoding="utf-8")
    return root


def deck_verdicts(pack) -> list:
    build = load_build(pack.root / "presets" / PRESET, pack)
    return [v for v in validate_build(pack, build).violations if v.rule == "deck.size"]


@pytest.mark.parametrize("keep_size, want", [(True, 16), (False, PARAMETERS["deck_size"]["size"])])
def test_the_validator_the_editor_and_the_rulebook_say_the_same_deck_size(tmp_path, keep_size, want):
    pack = load_pack(battle_bosses(tmp_path, keep_size))
    side = next(iter(pack.spec.sides))
    assert editor_deck_target(pack, side) == want
    assert rule_values(pack)["deck_size"] == want
    verdicts = deck_verdicts(pack)
    if keep_size:  # the preset's 16 cards are legal
        assert verdicts == []
    else:  # the same 16 cards are short of the default, and the message says the default
        assert verdicts and all(v.expected == want for v in verdicts)
        assert f"exactly {want}" in verdicts[0].message


def test_every_declared_parameter_belongs_to_a_registered_primitive_and_the_rule_model():
    from generator.pack.model import RuleSpec
    assert PARAMETERS["deck_size"] == {"size": 30}
    for check, params in PARAMETERS.items():
        assert check in CHECKS
        assert CHECKS[check].parameters is params
        for name in params:
            assert name in RuleSpec.model_fields, (check, name)


def test_a_written_parameter_wins_over_the_default_and_a_primitive_declares_once():
    from generator.pack.model import RuleSpec
    assert parameter(RuleSpec(id="deck.size", check="deck_size"), "size") == 30
    assert parameter(RuleSpec(id="deck.size", check="deck_size", size=12), "size") == 12
    assert parameter(RuleSpec(id="owner.x", check="owner"), "field") == "owner"
    with pytest.raises(RuntimeError, match="twice"):
        declares("deck_size", size=40)(lambda ctx, rule: [])
