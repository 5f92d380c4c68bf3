"""A big pack on disk for timing whole builds: a copy of card_data/boss_fight whose card
files are repeated (ids and names suffixed) until the pack holds about N cards.

    python bench/bigpack.py 9000 /tmp/big9k      # then: pnp build /tmp/big9k -o OUT
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "card_data" / "boss_fight"


def make_big_pack(n: int, dest: Path) -> int:
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
                cards.append(c)
            if cards:
                out = dest / "cards" / f"x{copy:04d}-{f.name}"
                out.write_text(yaml.safe_dump({"cards": cards}, sort_keys=False, allow_unicode=True),
                               encoding="utf-8")
                total += len(cards)
        copy += 1
    return total


if __name__ == "__main__":
    print(make_big_pack(int(sys.argv[1]), Path(sys.argv[2])))
