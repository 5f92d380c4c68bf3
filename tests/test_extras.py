"""The one line a message gives to add an optional part: pnp is not on the package index, so the
line names the extra's own packages (from the installed metadata) and the environment pnp runs
in: `pipx inject` where pipx made it, else this interpreter's pip."""

from __future__ import annotations

import shlex
import sys
import tomllib
from pathlib import Path

from generator.core import extras

REPO = Path(__file__).resolve().parents[1]


def test_each_extra_names_the_packages_pyproject_declares():
    declared = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    for extra in ("accounts", "rtl", "postgres", "translations", "site"):
        assert sorted(extras.extra_packages(extra)) == sorted(p.replace(" ", "") for p in declared[extra]), extra


def test_the_line_installs_into_this_very_environment(monkeypatch):
    monkeypatch.setattr(sys, "prefix", "/home/me/pnp-env")
    words = shlex.split(extras.install_line("accounts"))
    assert words[:4] == [sys.executable, "-m", "pip", "install"]
    assert sorted(w.split(">")[0] for w in words[4:]) == ["argon2-cffi"]
    assert "pnp-generator[" not in extras.install_line("accounts")  # not on the index: that line would fail


def test_under_pipx_the_line_injects_into_pnps_own_venv(monkeypatch):
    monkeypatch.setattr(sys, "prefix", "/home/me/.local/share/pipx/venvs/pnp-generator")
    words = shlex.split(extras.install_line("rtl"))
    assert words[:3] == ["pipx", "inject", "pnp-generator"]
    assert sorted(w.split(">")[0] for w in words[3:]) == ["arabic-reshaper", "python-bidi"]
