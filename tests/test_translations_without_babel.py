"""A pack with translations on the default install, where Babel (the `translations` extra) is
missing: `pnp validate` checks the pack and says once which translations it could not read and
how to add the extra; `--lang` is one clear error (exit 2); `pnp build` builds the kit as written;
the builder offers no language it cannot read and serves the pack as written."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import time
import urllib.request
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
    asked = client.get("/p/boss_fight?lang=de").text  # the builder's own words too stay as written
    assert ">Browse the cards<" in asked and "Karten ansehen" not in asked
    r = client.get("/api/boss_fight/cards?lang=de")
    assert r.status_code == 200 and "Basic Attack" in r.text and "Einfacher Angriff" not in r.text
    assert client.get("/p/boss_fight/rules?lang=de").status_code == 200


def test_serve_says_at_start_that_the_translations_are_not_offered_and_how_to_add_them(tmp_path):
    server = subprocess.Popen([sys.executable, "-c", WITHOUT_BABEL, "serve", str(BOSS_FIGHT), "--port", "0",
                               "--builds", str(tmp_path / "builds"), "--cache", str(tmp_path / "cache")],
                              cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        started = server.stdout.readline()  # the note follows it on stderr, before the server answers
        port = re.search(r"pnp serve: Boss Fight at http://localhost:(\d+)/", started)
        assert port, started
        answered = None
        for _ in range(600):  # until it answers (then Ctrl-C stops it as a person's would), at most a minute
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port[1]}/p/boss_fight?lang=de", timeout=10) as r:
                    answered = r.read().decode()
                break
            except OSError:
                time.sleep(0.1)
        # no language menu, the pack as written
        assert answered is not None and 'class="languages"' not in answered and '<html lang="en">' in answered
    finally:
        server.send_signal(signal.SIGINT)
        out, err = server.communicate(timeout=60)
    assert server.returncode == 0 and "Traceback" not in out + err, out + err
    said = [line for line in err.splitlines() if "translation" in line]
    assert len(said) == 1 and said[0].startswith("note: translations not offered (Boss Fight: de)"), err
    assert re.search(r"the `translations` extra; add it: \S+ -m pip install 'babel>=[\d.]+'$", said[0]), said[0]


def test_serve_says_nothing_of_translations_it_can_read_or_a_pack_without_any():
    pytest.importorskip("babel")
    from generator.cli.serve import translations_note
    from generator.pack.load import load_pack
    assert translations_note([load_pack(REPO / BOSS_FIGHT)]) is None
    assert translations_note([load_pack(REPO / "card_data" / "tactics")]) is None
