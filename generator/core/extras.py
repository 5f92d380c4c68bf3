"""How to add an optional part (an extra of pyproject.toml: `accounts`, `rtl`, `postgres`, `site`)
to the very environment pnp runs in, said in the one line a message's fix gives.

pnp is not on the package index, so `pip install 'pnp-generator[rtl]'` would fail: the line
names the extra's own packages, read from the installed distribution's metadata (pyproject.toml
stays their one home), installed beside pnp with `pipx inject` when pipx made the environment,
else with this interpreter's pip. From a copy of the repository `pip install './pnp[rtl]'` does
the same (README, "Getting started")."""

from __future__ import annotations

import re
import shlex
import sys

DISTRIBUTION = "pnp-generator"
_EXTRA = re.compile(r"""extra\s*==\s*["']([\w-]+)["']""")


def extra_packages(extra: str) -> list[str]:
    """The requirements the extra adds (`argon2-cffi>=23.1`), as the installed metadata lists them."""
    # deferred: importlib.metadata (email, zipfile, csv) costs ~10 ms, and only a message's fix reads it
    from importlib.metadata import PackageNotFoundError, requires
    try:
        listed = requires(DISTRIBUTION) or []
    except PackageNotFoundError:  # run from a folder without installing: nothing to read
        return []
    out = []
    for line in listed:
        requirement, _, marker = line.partition(";")
        found = _EXTRA.search(marker)
        if found and found[1] == extra:
            out.append(requirement.strip().replace(" ", ""))
    return out


def in_pipx() -> bool:
    """Whether pipx made the environment pnp runs in (its venvs live in a `pipx/venvs` folder)."""
    return "/pipx/venvs/" in sys.prefix.replace("\\", "/") + "/"


def install_line(extra: str) -> str:
    """The command that adds `extra` to this environment, for a message's fix."""
    packages = extra_packages(extra) or [f"the `{extra}` extra's packages"]
    quoted = " ".join(shlex.quote(p) for p in packages)
    if in_pipx():
        return f"pipx inject {DISTRIBUTION} {quoted}"
    return f"{shlex.quote(sys.executable)} -m pip install {quoted}"
