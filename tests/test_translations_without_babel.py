"""A pack with translations on the default install, where Babel (the `translations` extra) is
missing: `pnp validate` checks the pack and says once which translations it could not read and
how to add the extra; `--lang` is one clear error (exit 2); `pnp build` builds the kit as written;
the builder offers no language it cannot read and serves the pack as written."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from generator.core.errors import InputError
from generator.validate.target import validate_target

REPO = Path(__file__).resolve().parents[1]
BOSS_FIGHT = Path("card_data/boss_fight")
# the command line with `import babel` failing, as it does where the extra is not installed
WITHOUT_BABEL = "import sys; sys.modules['babel'] = None; sys.argv[0] = 'pnp'; from generator.cli import main; main()"


@pytest.fixture
def no_babel(monkeypatch):
    monkeypatch.chdir(REPO)
    monkeypatch.setitem(sys.modules, "babel", None)


def pnp_without_babel(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", WITHOUT_BABEL, *args], cwd=REPO, capture_output=True, text=True)


def test_validate_checks_the_pack_and_says_which_translations_it_did_not(no_babel):
    reports = validate_target(BOSS_FIGHT)
    said = [v for v in reports[0].violations if v.rule.startswith("translation.")]
    assert [(v.rule, v.severity, v.observed) for v in said] == [("translation.unchecked", "warning", "de")]
    assert "translations/de.po" in said[0].message and "Babel" in said[0].message
    assert said[0].fix is not None and "babel" in said[0].fix.lower() and "pip install" in said[0].fix
    with pytest.raises(InputError) as caught:
        validate_target(BOSS_FIGHT, lang="de")
    assert [p.code for p in caught.value.problems] == ["extra.missing"]


def test_the_command_line_without_babel():
    plain = pnp_without_babel("validate", str(BOSS_FIGHT))
    assert plain.returncode == 0, plain.stdout + plain.stderr
    assert "all legal, 1 warning" in plain.stdout and plain.stdout.count("translation.unchecked") == 1
    german = pnp_without_babel("validate", str(BOSS_FIGHT), "--lang", "de")
    assert german.returncode == 2 and "Traceback" not in german.stdout + german.stderr
    assert "extra.missing" in german.stdout + german.stderr and "translations` extra" in german.stdout + german.stderr


def test_the_builder_without_babel_offers_no_language_and_serves_the_pack(no_babel, tmp_path):
    pytest.importorskip("fastapi")
    from web_support import make_client  # tests/ is on the path, as for test_web_lang.py
    client, _site = make_client(tmp_path / "builds", tmp_path / "cache")
    page = client.get("/p/boss_fight")
    assert page.status_code == 200 and 'class="languages"' not in page.text
    r = client.get("/api/boss_fight/cards?lang=de")
    assert r.status_code == 200 and "Basic Attack" in r.text and "Einfacher Angriff" not in r.text
    assert client.get("/p/boss_fight/rules?lang=de").status_code == 200
