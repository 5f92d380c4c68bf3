"""Share codes: a build packed into one short line (`PNP1-…`) and back into a build file.

A code is `PNP1-` and then Crockford base32 (digits and capitals without I, L, O, U) of
a bit-packed payload followed by its CRC32. The alphabet keeps the whole code inside the
QR alphanumeric mode, reads aloud without ambiguity and survives any URL.

The payload names cards by their index among the pack's card ids in sorted order, so a
code is tied to one version of one pack: it states the pack id, the version and a short
fingerprint of the card ids, and decoding refuses a code made for another pack, another
version, or a pack whose cards changed under the same version. CRC32 detects every
error burst of up to 32 bits, so every single mistyped character (5 bits) is caught.

Payload, in bits (uint: 3-bit groups, each with a continuation bit in front):

    text pack id · text pack version · 16 bits card fingerprint · uint side index ·
    text build name · uint points limit + 1 (0: the pack default; 100001: `none`, no limit) · uint characters, then each:
      2 bits name (0 default, 1 the build's name, 2 own text [+ text]) ·
      uint base cards, each: index · uint equipment, each: index ·
      uint equipment · indexes · uint abilities · indexes · uint deck entries, each: index · uint copies
"""

from __future__ import annotations

import base64
import hashlib
import re
import os
import zlib
from dataclasses import dataclass
from pathlib import Path
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

import yaml

from generator.core.errors import InputError, Location, Problem, did_you_mean
from generator.core.limits import MAX_COPIES, MAX_ITEMS, MAX_POINTS, MAX_SHARED_CHARACTERS, NotANumber, whole_number
from generator.core.yamlio import parse_yaml
from generator.pack.cache import Slot
from generator.pack.buildshape import BuildDoc, character_document, character_refs
from generator.pack.load import build_from_document

if TYPE_CHECKING:
    from generator.pack.model import Build, Pack, Ref

FORMAT = 1
UNLIMITED = MAX_POINTS + 2  # the points-limit value of `points_limit: none` (above every real limit + 1)
PREFIX = f"PNP{FORMAT}-"
ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford base32
_DECODE = {ch: i for i, ch in enumerate(ALPHABET)}
_DECODE.update({"I": 1, "L": 1, "O": 0})  # Crockford: read look-alikes as what they look like
# RFC 4648's base32 digits to ours: the same 5-bit groups, so the C encoder does the work
_FROM_RFC4648 = bytes.maketrans(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", ALPHABET.encode("ascii"))
WHERE = "share code"

MAX_CHARACTERS = MAX_SHARED_CHARACTERS
MAX_TEXT_BYTES = 400
MAX_CODE_CHARS = 8000

NAME_DEFAULT, NAME_OF_BUILD, NAME_OWN = 0, 1, 2


# ---- the pack's side of the contract ------------------------------------------------------


def card_ids(pack: Pack) -> list[str]:
    """Card ids in code order: sorted, so the order does not depend on file names or layout."""
    return sorted(pack.cards)


def pack_fingerprint(pack: Pack) -> int:
    """16 bits over the card ids and sides: catches a pack that changed without a new version."""
    text = "\n".join(card_ids(pack)) + "\n--\n" + "\n".join(pack.spec.sides)
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:2], "big")


def _index_width(count: int) -> int:
    return max(1, (count - 1).bit_length())


def _default_name(pack: Pack, side_id: str, base_ids: list[str], position: int) -> str:
    """The name a character gets when its build gives none (see generator.load)."""
    base = pack.spec.sides[side_id].base
    if not base.many and base_ids and base_ids[0] in pack.cards:
        return pack.cards[base_ids[0]].name
    return f"character {position + 1}"


# ---- bits ------------------------------------------------------------------------------------


class _Writer:
    def __init__(self) -> None:
        self.value = 0
        self.count = 0

    def put(self, value: int, width: int) -> None:
        assert 0 <= value < (1 << width), (value, width)
        self.value = (self.value << width) | value
        self.count += width

    def uint(self, value: int) -> None:
        if 0 <= value < 8:  # most counts and lengths: one group of 3 bits with no "more" bit
            self.value = (self.value << 4) | value
            self.count += 4
            return
        groups = []
        while True:
            groups.append(value & 7)
            value >>= 3
            if not value:
                break
        for i, group in enumerate(reversed(groups)):
            more = 1 if i < len(groups) - 1 else 0
            self.put((more << 3) | group, 4)

    def text(self, value: str) -> None:
        data = value.encode("utf-8")
        self.uint(len(data))
        if data:  # the bytes in order, 8 bits each: one number of 8 × len bits
            self.put(int.from_bytes(data, "big"), 8 * len(data))

    def to_bytes(self) -> bytes:
        pad = (-self.count) % 8
        return (self.value << pad).to_bytes((self.count + pad) // 8, "big")


class _Damaged(Exception):
    """The payload passed its checksum but does not parse: a code no pnp made."""


class _Reader:
    def __init__(self, data: bytes):
        self.value = int.from_bytes(data, "big")
        self.left = len(data) * 8

    def get(self, width: int) -> int:
        if width > self.left:
            raise _Damaged("the code ends too early")
        self.left -= width
        return (self.value >> self.left) & ((1 << width) - 1)

    def uint(self, limit: int, what: str) -> int:
        value = 0
        for _ in range(12):
            group = self.get(4)
            value = (value << 3) | (group & 7)
            if not group & 8:
                if value > limit:
                    raise _Damaged(f"{what} is {value}, more than {limit}")
                return value
        raise _Damaged(f"{what} is too large")

    def text(self, what: str) -> str:
        size = self.uint(MAX_TEXT_BYTES, f"the length of {what}")
        data = bytes(self.get(8) for _ in range(size))
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            raise _Damaged(f"{what} is not UTF-8 text") from None

    def finish(self) -> None:
        if self.left >= 8 or (self.left and self.get(self.left)):
            raise _Damaged("there is data after the end of the build")


# ---- base32 ----------------------------------------------------------------------------------


def _b32encode(data: bytes) -> str:
    """The data's bits in groups of 5, the last one filled with zero bits, one digit each."""
    return base64.b32encode(data).rstrip(b"=").translate(_FROM_RFC4648).decode("ascii")


def _problem(code: str, message: str, column: int = 1, **kw: str | None) -> InputError:  # found, expected, fix
    return InputError([Problem(code, message, Location(WHERE, 1, column), **kw)])


def _b32decode(text: str, offset: int) -> bytes:
    value = 0
    for i, ch in enumerate(text):
        digit = _DECODE.get(ch)
        if digit is None:
            raise _problem("share.character", f"the share code holds `{ch}`, which no share code uses",
                           offset + i + 1, found=ch,
                           expected="digits and the letters A-Z except I, L, O and U",
                           fix="copy the code again, or scan the QR code on the roster sheet")
        value = (value << 5) | digit
    bits = len(text) * 5
    nbytes = bits // 8
    extra = bits - nbytes * 8
    if extra >= 5 or value & ((1 << extra) - 1):
        raise _damaged_code()
    return (value >> extra).to_bytes(nbytes, "big")


def _damaged_code() -> InputError:
    return _problem("share.checksum", "the share code is damaged: its checksum does not match "
                    "(a character is mistyped, missing or extra)",
                    expected="the code exactly as `pnp share` printed it",
                    fix="copy the code again, or scan the QR code on the roster sheet")


# ---- encoding --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Shared:
    code: str
    payload: bytes

    @property
    def hash(self) -> str:
        return build_hash(self.payload)


def build_hash(payload: bytes) -> str:
    """A short fingerprint of a build: the first 8 hex digits of SHA-256 of its share payload."""
    return hashlib.sha256(payload).hexdigest()[:8]


CODE_TABLES: Slot[tuple[dict[str, int], int, int]] = Slot("share_code_tables")


def _code_tables(pack: Pack) -> tuple[dict[str, int], int, int]:
    """A pack's card index, index width and fingerprint, worked out once per loaded pack and
    kept in the pack's own cache (`Pack.loaded`; a pack's cards do not change once loaded)."""
    def made() -> tuple[dict[str, int], int, int]:
        ids = card_ids(pack)
        return {cid: i for i, cid in enumerate(ids)}, _index_width(len(ids)), pack_fingerprint(pack)
    return pack.loaded.made(CODE_TABLES, made)


def payload_of(pack: Pack, build: Build) -> bytes:
    """The canonical bytes of a build (what a share code carries, before the checksum)."""
    index, width, fingerprint = _code_tables(pack)
    _check_known(pack, build, index)
    sides = list(pack.spec.sides)
    w = _Writer()
    w.text(pack.spec.id)
    w.text(pack.spec.version)
    w.put(fingerprint, 16)
    w.uint(sides.index(build.side))
    w.text(build.name)
    w.uint(UNLIMITED if build.unlimited else (0 if build.points_limit is None else build.points_limit + 1))
    w.uint(len(build.characters))

    def cards(refs: Sequence[Ref]) -> None:
        w.uint(len(refs))
        for ref in refs:
            w.put(index[ref.id], width)

    for position, char in enumerate(build.characters):
        default = _default_name(pack, build.side, [b.card.id for b in char.bases], position)
        if char.name == default:
            w.put(NAME_DEFAULT, 2)
        elif char.name == build.name:
            w.put(NAME_OF_BUILD, 2)
        else:
            w.put(NAME_OWN, 2)
            w.text(char.name)
        w.uint(len(char.bases))
        for entry in char.bases:
            w.put(index[entry.card.id], width)
            cards(entry.equipment)
        cards(char.equipment)
        cards(char.abilities)
        w.uint(len(char.deck))
        for deck_entry in char.deck:
            w.put(index[deck_entry.card.id], width)
            w.uint(deck_entry.copies)
    return w.to_bytes()


def _check_known(pack: Pack, build: Build, index: dict[str, int]) -> None:
    problems: list[Problem] = []
    for char in build.characters:
        for _, ref, _ in character_refs(char):
            if ref.id not in index:
                guess = did_you_mean(ref.id, pack.cards)
                problems.append(Problem(
                    "share.unknown-card", f"cannot share this build: no card with the id `{ref.id}` "
                    f"in {pack.spec.name} {pack.spec.version}", ref.location, found=ref.id,
                    expected="a card id of the pack",
                    fix=f"did you mean `{guess}`?" if guess else "run `pnp list` to see the card ids"))
    too_many = [c for c in build.characters if len(c.deck) > MAX_ITEMS]
    if len(build.characters) > MAX_CHARACTERS or too_many:
        problems.append(Problem("share.too-large", "this build is too large for a share code",
                                build.location, expected=f"at most {MAX_CHARACTERS} characters"))
    if problems:
        raise InputError(problems)


def encode(pack: Pack, build: Build) -> Shared:
    payload = payload_of(pack, build)
    crc = zlib.crc32(PREFIX.encode("ascii") + payload).to_bytes(4, "big")
    return Shared(PREFIX + _b32encode(payload + crc), payload)


def share_code(pack: Pack, build: Build) -> str:
    return encode(pack, build).code


# ---- decoding --------------------------------------------------------------------------------


@dataclass(frozen=True)
class SharedCharacter:
    name: str | None  # None: the default name (a hero is named by its card)
    bases: tuple[tuple[str, tuple[str, ...]], ...]
    equipment: tuple[str, ...]
    abilities: tuple[str, ...]
    deck: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class SharedBuild:
    pack: str
    version: str
    name: str
    side: str
    points_limit: int | str | None  # a number, "none" (no limit) or None (the pack default)
    characters: tuple[SharedCharacter, ...]
    hash: str


def _unpack(code: str) -> bytes:
    """Check the prefix, alphabet and checksum; return the payload."""
    raw = code
    text = "".join(code.split()).upper()
    if not text:
        raise _problem("share.empty", "the share code is empty", expected=f"a code starting with {PREFIX}")
    if len(text) > MAX_CODE_CHARS:
        raise _problem("share.too-long", f"the share code is {len(text):,} characters long",
                       expected=f"at most {MAX_CODE_CHARS:,} characters")
    head, dash, body = text.partition("-")
    if not head.startswith("PNP") or not dash:
        raise _problem("share.format", "this is not a pnp share code", found=raw.strip()[:24],
                       expected=f"a code starting with {PREFIX}", fix="run `pnp share BUILD` to make one")
    if head != PREFIX[:-1]:
        version = head[3:]
        try:
            newer = whole_number(version, 10**6) > FORMAT
        except NotANumber:
            newer = False
        raise _problem("share.format", f"this share code has format {version or '?'}; this pnp reads format "
                       f"{FORMAT}" + (" (the code was made by a newer pnp)" if newer else ""),
                       found=head + "-", expected=PREFIX, fix="update pnp" if newer else None)
    offset = len(raw) - len(raw.lstrip()) + len(head) + 1
    data = _b32decode(body, offset)
    if len(data) < 5:
        raise _damaged_code()
    payload, crc = data[:-4], data[-4:]
    if zlib.crc32(PREFIX.encode("ascii") + payload).to_bytes(4, "big") != crc:
        raise _damaged_code()
    return payload


def pack_dir_for_code(code: str, packs_root: Path = Path("card_data")) -> Path:
    """The pack a code was made for, found from the id it carries: `<packs_root>/<id>`."""
    payload = _unpack(code)
    try:
        pack_id = _Reader(payload).text("the pack id")
    except _Damaged:
        raise _damaged_code() from None
    folder = packs_root / pack_id
    if not re.fullmatch(r"[a-z0-9_-]{1,64}", pack_id) or not (folder / "game.yaml").is_file():
        raise _problem("share.pack", f"this code is for the pack `{pack_id[:64]}`, which is not in {packs_root}/",
                       found=pack_id[:64], expected=f"a pack folder {packs_root}/{pack_id[:64]}",
                       fix="pass --pack with the pack's folder")
    return folder


def decode(code: str, pack: Pack) -> SharedBuild:
    """The build a code holds, checked against `pack`; InputError for anything wrong."""
    payload = _unpack(code)
    spec = pack.spec
    try:
        r = _Reader(payload)
        pack_id = r.text("the pack id")
        version = r.text("the pack version")
        if pack_id != spec.id:
            raise _problem("share.pack", f"this code is for the pack `{pack_id}`, not `{spec.id}` ({spec.name})",
                           found=pack_id, expected=spec.id, fix=f"pass --pack card_data/{pack_id}")
        if version != spec.version:
            raise _problem("share.version", f"this code was made for {spec.name} {version}; you have "
                           f"{spec.version}", found=version, expected=spec.version,
                           fix=f"use {spec.name} {version} to read it, or ask for a code made with {spec.version}")
        if r.get(16) != pack_fingerprint(pack):
            raise _problem("share.cards", f"this code was made for a {spec.name} {version} whose cards differ "
                           "from yours (the pack changed without a new version number)",
                           expected=f"the cards of {spec.name} {version} as the code's maker had them",
                           fix="give the pack a new version when its cards change, and share the build again")
        ids = card_ids(pack)
        width = _index_width(len(ids))
        sides = list(spec.sides)
        side_index = r.uint(len(sides) - 1 if sides else 0, "the side")
        if side_index >= len(sides):
            raise _Damaged("it names a side the pack does not have")
        side = sides[side_index]
        name = r.text("the build name")
        limit = r.uint(UNLIMITED, "the points limit")
        count = r.uint(MAX_CHARACTERS, "the number of characters")

        def card() -> str:
            i = r.get(width)
            if i >= len(ids):
                raise _problem("share.unknown-card", f"this code names card number {i + 1}, but "
                               f"{spec.name} {spec.version} has only {len(ids)} cards",
                               found=f"card number {i + 1}", expected=f"1 to {len(ids)}",
                               fix="the code was not made by pnp from this pack: ask for it again")
            return ids[i]

        def cards(what: str) -> tuple[str, ...]:
            return tuple(card() for _ in range(r.uint(MAX_ITEMS, what)))

        characters = []
        for _ in range(count):
            mode = r.get(2)
            if mode == NAME_DEFAULT:
                char_name = None
            elif mode == NAME_OF_BUILD:
                char_name = name
            elif mode == NAME_OWN:
                char_name = r.text("a character name")
            else:
                raise _Damaged("a character name is of an unknown kind")
            bases = tuple((card(), cards("the equipment of a base card"))
                          for _ in range(r.uint(MAX_ITEMS, "the number of base cards")))
            equipment = cards("the number of equipment cards")
            abilities = cards("the number of abilities")
            deck = tuple((card(), r.uint(MAX_COPIES, "a number of copies"))
                         for _ in range(r.uint(MAX_ITEMS, "the number of deck entries")))
            characters.append(SharedCharacter(char_name, bases, equipment, abilities, deck))
        r.finish()
    except _Damaged as exc:
        raise _problem("share.damaged", f"the share code cannot be read: {exc}",
                       expected="a code made by `pnp share`", fix="ask for the code again") from None
    return SharedBuild(pack_id, version, name, side,
                       "none" if limit == UNLIMITED else (None if limit == 0 else limit - 1),
                       tuple(characters), build_hash(payload))


# ---- the build file ----------------------------------------------------------------------------


def build_document(pack: Pack, shared: SharedBuild) -> BuildDoc:
    """The decoded build in the build format, keys in the order a person writes them."""
    side = pack.spec.sides[shared.side]
    base = side.base
    doc: BuildDoc = {"pack": shared.pack, "name": shared.name, "side": shared.side}
    if shared.points_limit is not None:
        doc["points_limit"] = shared.points_limit
    characters = []
    for char in shared.characters:
        if not base.many and len(char.bases) != 1:
            raise _problem("share.damaged", f"a {side.name} character has {len(char.bases)} base cards; "
                           "this side takes exactly one", expected="a code made by `pnp share`")
        bases = char.bases if base.many else char.bases[0][0]
        characters.append(character_document(side, char.name, bases, char.equipment, char.abilities,
                                             {card_id: copies for card_id, copies in char.deck}))
    doc["characters"] = characters
    return doc


def _scalar(value: object) -> str:
    if isinstance(value, int):
        return str(value)
    text = str(value)
    try:
        if text and yaml.safe_load(f"k: {text}") == {"k": text}:
            return text
    except yaml.YAMLError:
        pass
    return yaml.safe_dump(text, default_style='"', allow_unicode=True, width=10**9).strip()


def _flow(items: Iterable[object]) -> str:
    return "[" + ", ".join(_scalar(i) for i in items) + "]"


def dump_build(doc: BuildDoc, schema_ref: str | None = None, note: str | None = None) -> str:
    """YAML text of a build document, formatted like the presets: deterministic, no library styling."""
    lines = []
    if schema_ref:
        lines.append(f"# yaml-language-server: $schema={schema_ref}")
    if note:
        lines.append(f"# {note}")
    for key in ("pack", "name", "side", "points_limit", "notes"):
        if key in doc:
            lines.append(f"{key}: {_scalar(doc[key])}")
    lines.append("characters:" if doc["characters"] else "characters: []")
    for char in doc["characters"]:
        first = True
        for key, value in char.items():
            lead = "  - " if first else "    "
            first = False
            if isinstance(value, list) and value and isinstance(value[0], dict):
                lines.append(f"{lead}{key}:")
                for item in value:
                    item_lead = "      - "
                    for ikey, ivalue in item.items():
                        text = _flow(ivalue) if isinstance(ivalue, list) else _scalar(ivalue)
                        lines.append(f"{item_lead}{ikey}: {text}")
                        item_lead = "        "
            elif isinstance(value, list):
                lines.append(f"{lead}{key}: {_flow(value)}")
            elif isinstance(value, dict):
                if not value:
                    lines.append(f"{lead}{key}: {{}}")
                else:
                    lines.append(f"{lead}{key}:")
                    for card_id, copies in value.items():
                        lines.append(f"      {_scalar(card_id)}: {copies}")
            else:
                lines.append(f"{lead}{key}: {_scalar(value)}")
    return "\n".join(lines) + "\n"


def schema_ref(pack: Pack, out_path: Path | None) -> str:
    """Where the build schema (`pnp schema` writes schemas/ in the working folder) is, seen from the file."""
    target = Path.cwd() / "schemas" / f"build.{pack.spec.id}.schema.json"
    folder = Path(out_path).resolve().parent if out_path else Path.cwd()
    try:
        return Path(os.path.relpath(target, folder)).as_posix()
    except ValueError:  # another drive on Windows
        return target.as_posix()


def unshare_text(code: str, pack: Pack, out_path: Path | None = None) -> str:
    """The build file a code holds, checked to load back as a build of `pack`."""

    shared = decode(code, pack)
    text = dump_build(build_document(pack, shared), schema_ref(pack, out_path),
                      f"Unshared from a pnp share code ({pack.spec.name} {shared.version}, build hash {shared.hash}).")
    build_from_document(parse_yaml(text, WHERE), pack)  # a code that decodes to a broken build stops here
    return text


def build_signature(build: Build) -> tuple[object, ...]:
    """What makes two builds the same: names, side, limit and every card, copy and attachment."""
    return (build.name, build.side, build.points_limit, build.unlimited, tuple(
        (c.name, tuple((b.card.id, tuple(e.id for e in b.equipment)) for b in c.bases),
         tuple(e.id for e in c.equipment), tuple(a.id for a in c.abilities),
         tuple((d.card.id, d.copies) for d in c.deck))
        for c in build.characters))
