"""Vendor the game-icons.net set into the package: `generator/pack/data/game-icons.*`.

    npm pack @iconify-json/game-icons          # the icons (iconify JSON, CC BY 3.0)
    .venv/bin/python tools/vendor_icons.py iconify-json-game-icons-1.2.4.tgz /path/to/game-icons/icons.git

The first argument is the npm tarball (or its `package/icons.json`); the second a git
directory of the game-icons/icons repository, which keeps one folder per author. Only facts
derived from it are written: which author drew each icon, found by its file name and, where
two authors drew an icon of the same name (63 names), by comparing the outlines (the set
carries one of them). Nothing of the repository's files is copied.

Writes:
- `game-icons.paths.zlib`: every icon's outline in the compact form of generator/pack/iconpath.py;
- `game-icons.json.gz`: the catalogue, in the same order: names, each icon's author, the authors
  with their licences, the set's aliases, where the data came from.
"""

from __future__ import annotations

import gzip
import io
import json
import re
import subprocess
import sys
import tarfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from generator.pack.iconpath import encode, parse  # noqa: E402

OUT = REPO / "generator" / "pack" / "data"
CC_BY = "CC BY 3.0"
CC0 = "CC0 1.0"
# The contributors as the repository's licence file lists them (name, site), by folder, with the
# licence each gives: CC BY 3.0 unless it says CC0. `badges` holds Delapouite's badges (the set
# carries none of them); `various-artists` holds public-domain icons.
AUTHORS = {
    "andymeneely": ("Andy Meneely", "http://www.se.rit.edu/~andy/", CC_BY),
    "aussiesim": ("Aussiesim", "", CC_BY),
    "badges": ("Delapouite", "https://delapouite.com", CC_BY),
    "carl-olsen": ("Carl Olsen", "https://twitter.com/unstoppableCarl", CC_BY),
    "caro-asercion": ("Caro Asercion", "", CC_BY),
    "cathelineau": ("Cathelineau", "", CC_BY),
    "catsu": ("Catsu", "", CC_BY),
    "darkzaitzev": ("DarkZaitzev", "http://darkzaitzev.deviantart.com", CC_BY),
    "delapouite": ("Delapouite", "https://delapouite.com", CC_BY),
    "faithtoken": ("Faithtoken", "http://fungustoken.deviantart.com", CC_BY),
    "felbrigg": ("Felbrigg", "http://blackdogofdoom.blogspot.co.uk", CC_BY),
    "generalace135": ("GeneralAce135", "", CC_BY),
    "guard13007": ("Guard13007", "https://guard13007.com", CC_BY),
    "heavenly-dog": ("HeavenlyDog", "http://www.gnomosygoblins.blogspot.com", CC_BY),
    "irongamer": ("Irongamer", "http://ecesisllc.wix.com/home", CC_BY),
    "john-colburn": ("John Colburn", "http://ninmunanmu.com", CC_BY),
    "john-redman": ("John Redman", "http://www.uniquedicetowers.com", CC_BY),
    "kier-heyl": ("Kier Heyl", "", CC_BY),
    "lorc": ("Lorc", "http://lorcblog.blogspot.com", CC_BY),
    "lord-berandas": ("Lord Berandas", "http://berandas.deviantart.com", CC_BY),
    "lucasms": ("Lucas", "", CC_BY),
    "pepijn-poolman": ("Pepijn Poolman", "", CC_BY),
    "pierre-leducq": ("Pierre Leducq", "", CC_BY),
    "priorblue": ("PriorBlue", "", CC_BY),
    "quoting": ("Quoting", "", CC_BY),
    "rihlsul": ("Rihlsul", "", CC_BY),
    "sbed": ("Sbed", "http://opengameart.org/content/95-game-icons", CC_BY),
    "seregacthtuf": ("SeregaCthtuf", "", CC_BY),
    "skoll": ("Skoll", "", CC_BY),
    "sparker": ("Sparker", "http://citizenparker.com", CC_BY),
    "spencerdub": ("SpencerDub", "", CC_BY),
    "starseeker": ("Starseeker", "", CC_BY),
    "various-artists": ("various artists", "", "public domain"),
    "viscious-speed": ("Viscious Speed", "http://viscious-speed.deviantart.com", CC0),
    "willdabeast": ("Willdabeast", "http://wjbstories.blogspot.com", CC_BY),
    "zajkonur": ("Zajkonur", "", CC_BY),
    "zeromancer": ("Zeromancer", "", CC0),
}
# Icons the set has that the repository snapshot (2025-05-04) does not: the rest of a series
# whose first eleven cards are in caro-asercion/, and which game-icons.net serves under the
# same author's path (caro-asercion/tarot-11-justice ...).
LATER_THAN_SNAPSHOT = {f"tarot-{n}": "caro-asercion" for n in (
    "11-justice", "12-the-hanged-man", "13-death", "14-temperance", "15-the-devil", "16-the-tower",
    "17-the-star", "18-the-moon", "19-the-sun", "20-judgement", "21-the-world")}
BACKGROUND = "M0 0h512v512H0z"  # every repository SVG paints a black square behind its white icon


def read_iconify(source: Path) -> tuple[dict, dict]:
    if source.suffix in (".tgz", ".gz"):
        with tarfile.open(source) as tar:
            icons = json.load(tar.extractfile("package/icons.json"))
            package = json.load(tar.extractfile("package/package.json"))
    else:
        icons = json.loads(source.read_text())
        package = json.loads((source.parent / "package.json").read_text())
    return icons, package


def git(repo: Path, *args: str, data: bytes | None = None) -> bytes:
    return subprocess.run(["git", "-C", str(repo), *args], input=data, capture_output=True, check=True).stdout


def repository_files(repo: Path) -> dict[str, list[str]]:
    """Icon name -> the author folders holding an SVG of that name."""
    found: dict[str, list[str]] = {}
    for line in git(repo, "ls-tree", "-r", "--name-only", "HEAD").decode().splitlines():
        parts = line.split("/")
        if len(parts) == 2 and parts[1].endswith(".svg"):
            found.setdefault(parts[1][:-4], []).append(parts[0])
    return found


def svg_paths(repo: Path, paths: list[str]) -> dict[str, str]:
    """The path data of many repository SVGs at once (git cat-file --batch), the background left out."""
    out = {}
    raw = git(repo, "cat-file", "--batch", data="".join(f"HEAD:{p}\n" for p in paths).encode())
    stream = io.BytesIO(raw)
    for p in paths:
        header = stream.readline().split()
        body = stream.read(int(header[2])).decode()
        stream.read(1)
        ds = [d for d in re.findall(r'<path[^>]*\sd="([^"]*)"', body) if d.strip() != BACKGROUND]
        out[p] = " ".join(ds)
    return out


def end_points(d: str) -> set:
    """An outline's end points to the unit: two drawings of one icon share nearly all of them."""
    points = set()
    x = y = 0.0
    for seg in parse(d):
        if seg[0] == "H":
            x = seg[1]
        elif seg[0] == "V":
            y = seg[1]
        elif seg[0] != "Z":
            x, y = seg[-2], seg[-1]
        else:
            continue
        points.add((round(x), round(y)))
    return points


def likeness(a: set, b: set) -> float:
    return len(a & b) / max(1, len(a | b))


def authors_of(icons: dict, repo: Path) -> tuple[dict, dict, list]:
    files = repository_files(repo)
    wanted = [f"{a}/{name}.svg" for name in icons for a in files.get(name, [])]
    drawings = svg_paths(repo, wanted)
    author, same_name, doubtful = {}, {}, []
    for name, body in icons.items():
        folders = files.get(name, [])
        if not folders:
            if name not in LATER_THAN_SNAPSHOT:
                raise SystemExit(f"{name}: no author folder has it; add it to LATER_THAN_SNAPSHOT with a reason")
            author[name] = LATER_THAN_SNAPSHOT[name]
            continue
        mine = end_points(body)
        scores = sorted(((likeness(mine, end_points(drawings[f"{a}/{name}.svg"])), a) for a in folders), reverse=True)
        best, folder = scores[0]
        if best < 0.6 or (len(scores) > 1 and scores[1][0] > 0.3):
            doubtful.append((name, scores))
        author[name] = folder
        if len(folders) > 1:
            same_name[name] = [folder] + [a for _s, a in scores[1:]]
    unknown = {a for a in author.values()} - set(AUTHORS)
    if unknown:
        raise SystemExit(f"author folders without an entry in AUTHORS: {sorted(unknown)}")
    return author, same_name, doubtful


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__)
        return 2
    iconify, package = read_iconify(Path(argv[0]))
    repo = Path(argv[1])
    bodies = {}
    for name, icon in sorted(iconify["icons"].items()):
        (d,) = re.findall(r'\sd="([^"]*)"', icon["body"])  # each icon is one filled path
        bodies[name] = d
    author, same_name, doubtful = authors_of(bodies, repo)
    for name, scores in doubtful:
        print(f"check by eye: {name}: {scores}")
    names = sorted(bodies)
    folders = sorted(set(author.values()))
    commit = git(repo, "rev-parse", "HEAD").decode().strip()
    catalogue = {
        "set": "game-icons.net",
        "url": "https://game-icons.net",
        "licence": CC_BY,
        "licence_url": "https://creativecommons.org/licenses/by/3.0/",
        "source": {"npm": f"{package['name']}@{package['version']}", "repository": "game-icons/icons",
                   "commit": commit},
        "authors": [{"id": f, "name": AUTHORS[f][0], "url": AUTHORS[f][1], "licence": AUTHORS[f][2]} for f in folders],
        "names": names,
        "author": [folders.index(author[n]) for n in names],
        "aliases": {k: v["parent"] for k, v in sorted(iconify.get("aliases", {}).items())},
        "hidden": sorted(n for n, icon in iconify["icons"].items() if icon.get("hidden")),
        "same_name": dict(sorted(same_name.items())),
        "later_than_snapshot": sorted(n for n in names if n in LATER_THAN_SNAPSHOT),
        "size": [iconify.get("width", 512), iconify.get("height", 512)],
    }
    OUT.mkdir(parents=True, exist_ok=True)
    blob = encode([parse(bodies[n]) for n in names])
    (OUT / "game-icons.paths.zlib").write_bytes(blob)
    text = json.dumps(catalogue, separators=(",", ":"), ensure_ascii=False).encode()
    (OUT / "game-icons.json.gz").write_bytes(gzip.compress(text, 9, mtime=0))
    print(f"{len(names)} icons by {len(folders)} authors; outlines {len(blob):,} bytes, catalogue "
          f"{(OUT / 'game-icons.json.gz').stat().st_size:,} bytes; {len(same_name)} names drawn by several authors")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
