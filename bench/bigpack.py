"""A big pack on disk for timing whole builds: a copy of card_data/boss_fight whose card
files are repeated (ids and names suffixed) until the pack holds about N cards. With `vary`
(`--vary`), each copy's rules text also gains a sentence of its own, so no two cards of the
deck set the same text (as in a real deck of that size: nothing a text cache keeps is reused).

    python bench/bigpack.py 9000 /tmp/big9k --vary   # then: pnp build /tmp/big9k -o OUT
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "card_data" / "boss_fight"


WORDS = "swift heavy burning shadowed ancient gleaming brittle hungry silent".split()


def _varied(text: str, i: int) -> str:
    extra = " ".join(WORDS[(i + k) % len(WORDS)] for k in range(1 + i % 7))
    return f"{text} Then deal :damage:{i % 4 + 1} to a {extra} foe within {i % 5 + 1} :hex: of you."


def make_big_pack(n: int, dest: Path, vary: bool = False) -> int:
    """Write the copy into `dest` (replaced if it exists); returns the number of cards."""
    dest = Path(dest)
    if dest.exists():
        shutil.rmtree(dest)
    shutil.copytree(SOURCE, dest)
    files = sorted((dest / "cards").glob("*.yaml"))
    docs = {f: yaml.safe_load(f.read_text(encoding="utf-8")) for f in files}
    total = sum(len(d.get("cards") or []) for d in docs.values())
    copy = 1
    while total < n:
        for f, doc in docs.items():
            cards = []
            for c in doc.get("cards") or []:
                if total + len(cards) >= n:
                    break
                c = dict(c, id=f"{c['id']}-x{copy}", name=f"{c['name']} {copy}")
                if vary and c.get("text"):
                    c["text"] = _varied(c["text"], total + len(cards))
                cards.append(c)
            if cards:
                out = dest / "cards" / f"x{copy:04d}-{f.name}"
                out.write_text(yaml.safe_dump({"cards": cards}, sort_keys=False, allow_unicode=True),
                               encoding="utf-8")
                total += len(cards)
        copy += 1
    return total


if __name__ == "__main__":
    print(make_big_pack(int(sys.argv[1]), Path(sys.argv[2]), vary="--vary" in sys.argv[3:]))
