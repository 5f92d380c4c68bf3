"""One-click fixes for the editor: for an error that points at a card or a character of the
build, the change that removes it ("Remove 1 × Walk"), offered only after it was tried on a
copy of the build and the validator no longer reports that violation. Some need no try
(`_settled`): taking out the card or character the violation is on (the violation goes with
it), or what a rule's own count says ends it (copies over a deck's count, equipment over a
piece's slots: rules.checks.COUNTS_COPIES, SUMS_CONTRIBUTORS). The rules stay the
engine's (generator.rules); this module only proposes changes the editor already makes
(generator.web.state) and asks the validator whether each one works.

A warning gets no button: its build is legal, and its advice is not a card to take out (two
heroes may be the same hero; the kit prints one card of each, so print the build's own).

Also the wording the web shows for the engine's messages: no backticked field names, no
command lines (a web player has buttons for those, and a hint is said with the button)."""

from __future__ import annotations

import json
import re

from generator.core.errors import InputError
from generator.core.report import Report, Violation
from generator.pack.model import Pack
from generator.rules import checks
from generator.rules.engine import rule_spec, rule_violations
from generator.web.state import apply_op, parse_op, side_of, to_build
from generator.web.words import gettext

MAX_TRIED = 16  # violations given a fix button per change: the validator runs once per candidate
MAX_DECK_TRIES = 8  # cards tried for a deck that is over as a whole

_PATH = re.compile(r"^characters\[(\d+)\](?:\.(\w+)(?:\[(\d+)\])?(?:\.(equipment)\[(\d+)\])?(?:\.([^.]+))?)?$")


def key(v: Violation) -> tuple:
    return (v.rule, v.path, v.message)


def _count(value) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    m = re.search(r"\d+", str(value)) if value is not None else None
    return int(m.group()) if m else None


def candidates(pack: Pack, doc: dict, v: Violation) -> list[tuple[str, dict]]:
    """The changes that might remove this violation, each with its button label."""
    side = side_of(pack, doc)
    base = side.base
    chars = doc["characters"]

    def name(card_id) -> str:
        card = pack.cards.get(card_id or "")
        return card.name if card else str(card_id)

    def char_name(i: int) -> str:
        char = chars[i]
        value = char.get(base.key)
        return char.get("name") or (name(value) if isinstance(value, str) else f"{side.character_word(1)} {i + 1}")

    if v.path == "characters" and chars:
        have, want = _count(v.observed), _count(v.expected)
        if have is not None and want is not None and have > want:
            last = len(chars) - 1
            return [(gettext("Remove {name}").format(name=char_name(last)), {"op": "remove_char", "char": last})]
        return []
    m = _PATH.match(v.path or "")
    if not m:
        return []
    i = int(m.group(1))
    if i >= len(chars):
        return []
    place, index, _eq, eq_index, card_key = m.groups()[1:]
    char = chars[i]
    if place == "deck" and not card_key:  # the deck as a whole is over: a card with copies enough
        have, want = _count(v.observed), _count(v.expected)
        if have is None or want is None or have <= want:
            return []
        extra = have - want
        return [(gettext("Remove {n} × {name}").format(n=extra, name=name(cid)), {"op": "deck", "char": i, "card": cid, "delta": -extra})
                for cid, n in char.get("deck", {}).items() if n >= extra][:MAX_DECK_TRIES]
    if place == "deck" and card_key:
        copies = char.get("deck", {}).get(card_key, 0)
        if not copies:
            return []
        have, want = _count(v.observed), _count(v.expected)
        fewer = have - want if have is not None and want is not None and 0 < have - want < copies else None
        out = [(gettext("Remove {n} × {name}").format(n=fewer, name=name(card_key)), {"op": "deck", "char": i, "card": card_key, "delta": -fewer})] \
            if fewer else []
        out.append((gettext("Remove {n} × {name}").format(n=max(copies, 1), name=name(card_key)),
                    {"op": "deck", "char": i, "card": card_key, "delta": -copies}))
        return out
    if place in ("equipment", "abilities") and index is not None:
        items = char.get(place, [])
        j = int(index)
        return [(gettext("Remove {name}").format(name=name(items[j])), {"op": "remove", "char": i, "place": place, "index": j})] \
            if j < len(items) else []
    if place == base.key and base.many and index is not None:
        items = char.get(base.key, [])
        j = int(index)
        if j >= len(items):
            return []
        if eq_index is not None:
            eq = items[j].get("equipment", [])
            k = int(eq_index)
            return [(gettext("Remove {name}").format(name=name(eq[k])), {"op": "remove", "char": i, "place": "equipment", "piece": j,
                                               "index": k})] if k < len(eq) else []
        item = items[j].get(base.item_key or "card")
        # a piece that carries too much: take off what it carries, among the violation's
        # contributors (the equipment on it, `points` holding the slots each uses: docs/validation.md)
        # those enough alone to end the overflow, in the rule's order, so the first is the one the
        # rule's hint names; the piece itself only when no one item is enough
        attached = items[j].get("equipment", [])
        have, want = _count(v.observed), _count(v.expected)
        over = have - want if have is not None and want is not None else 0
        carried = dict.fromkeys(c.id for c in v.contributors if c.id in attached and c.points >= over)
        return [(gettext("Remove {name}").format(name=name(cid)), {"op": "remove", "char": i, "place": "equipment", "piece": j,
                                         "index": attached.index(cid)}) for cid in carried] + \
            [(gettext("Remove {name}").format(name=name(item)), {"op": "remove", "char": i, "place": "base", "index": j})]
    if place == base.key and not base.many:
        return [(gettext("Remove {name}").format(name=char_name(i)), {"op": "remove_char", "char": i})]
    return []


_FIRST = "characters[0]"


def _rule_is(pack: Pack, rule_id: str, kind) -> bool:
    """Whether the pack rule `rule_id` is of a kind rules.checks names (`kind`: one of its
    predicates, such as checks.reads_one_character)."""
    rule = rule_spec(pack, rule_id)
    return rule is not None and kind(rule)


def moved(path: str, op: dict, base_key: str) -> str | None:
    """Where the element at `path` is once `op` is made: a removal takes an item out of a
    list, so the items after it move up one (None: the element is the one taken out). A fix
    is judged by what happens to its own element, not to whatever moves into its place: take
    out the first of two abilities whose requirement is unmet and the second moves into the
    first's place, still unmet, but the first's violation is gone."""
    if op["op"] == "remove_char":
        listed, index = "characters", op["char"]
    elif op["op"] != "remove":
        return path  # a deck count changes no place: decks are keyed by card
    elif op.get("place") == "equipment" and op.get("piece") is not None:
        listed, index = f"characters[{op['char']}].{base_key}[{op['piece']}].equipment", op["index"]
    else:
        place = base_key if op.get("place") == "base" else op.get("place")
        listed, index = f"characters[{op['char']}].{place}", op["index"]
    if not path.startswith(listed + "["):
        return path
    number, _, rest = path[len(listed) + 1:].partition("]")
    k = int(number)
    if k == index:
        return None
    return f"{listed}[{k - 1}]{rest}" if k > index else path


def _after(pack: Pack, doc: dict, op: dict, rule: str) -> set | None:
    """The paths of the violations of `rule` left once `op` is made on a copy of `doc` (a
    document clean_document made); None when the change cannot be made or leaves a build the
    loader refuses (then it fixes nothing). Only the rule the fix is offered for is checked: a
    fix removes the violation it names, whatever else the build still breaks. A change to one
    character, for a rule that judges each character by its own cards, is tried on a build of
    that character alone (what it finds there is what it finds in the whole build: a test holds
    every pack to it), so a try in a party of twelve copies and checks one character, not twelve."""
    i = op.get("char")
    alone = op["op"] in ("remove", "deck") and _rule_is(pack, rule, checks.reads_one_character)
    if alone:  # the change and the rule are about character i only: try it on that character alone
        doc, op = dict(doc, characters=[doc["characters"][i]]), dict(op, char=0)
    try:
        changed = apply_op(doc, parse_op(op), pack, cleaned=True)
        left = rule_violations(pack, to_build(changed, pack), rule)
    except InputError:
        return None
    if not alone:
        return {v.path for v in left}
    return {f"characters[{i}]" + v.path[len(_FIRST):] if v.path.startswith(_FIRST) else v.path for v in left}


def _settled(pack: Pack, doc: dict, v: Violation, op: dict, base_key: str) -> bool:
    """Whether `op` surely ends `v`, with no need to try it on a copy of the build (taking a card
    out never leaves a build the loader refuses):
    - it takes out the very card or character the violation is on: the violation goes with it;
    - for a rule that counts a deck's copies against a number (rules.checks.COUNTS_COPIES), it
      takes out at least the copies over it;
    - for a rule whose count is the sum of its contributors' (rules.checks.SUMS_CONTRIBUTORS: a
      piece's slots), it takes off one contributor worth at least the excess."""
    if moved(v.path, op, base_key) is None:
        return True
    have, want = _count(v.observed), _count(v.expected)
    if have is None or want is None or have <= want:
        return False
    if op["op"] == "deck" and _rule_is(pack, v.rule, checks.counts_copies):
        # the copies of the card the violation counts (copy_limit), or of any card (deck_size)
        mine = not v.contributors or op["card"] in {c.id for c in v.contributors}
        return mine and -op["delta"] >= have - want
    if op["op"] == "remove" and op.get("piece") is not None and _rule_is(pack, v.rule, checks.sums_contributors):
        carried = doc["characters"][op["char"]][base_key][op["piece"]].get("equipment", [])
        card = carried[op["index"]] if 0 <= op["index"] < len(carried) else None
        return any(c.id == card and c.points >= have - want for c in v.contributors)
    return False


def fixes(pack: Pack, doc: dict, report: Report | None) -> dict[tuple, tuple[str, dict]]:
    """For each violation (by `key`) that has one, the button that fixes it: (label, change).
    A change offered for several violations of one rule is made and checked once."""
    out: dict[tuple, tuple[str, dict]] = {}
    if report is None:
        return out
    tried = 0
    left_after: dict = {}  # (a change as JSON, rule) -> what _after found
    base_key = side_of(pack, doc).base.key
    for v in report.sorted_violations():
        if tried >= MAX_TRIED:
            break
        if v.severity != "error":
            # a warning is about a legal build: its advice is shown (print another copy of a
            # card two heroes share), but taking out a card the player chose is not its fix
            continue
        options = candidates(pack, doc, v)
        tried += bool(options)
        for label, op in options:
            if _settled(pack, doc, v, op, base_key):
                out[key(v)] = (label, op)
                break
            try_key = (json.dumps(op, sort_keys=True), v.rule)
            if try_key not in left_after:
                left_after[try_key] = _after(pack, doc, op, v.rule)
            left = left_after[try_key]
            if left is not None and moved(v.path, op, base_key) not in left:
                out[key(v)] = (label, op)
                break
    return out


_COMMAND = re.compile(r"`(pnp|python|make)\b[^`]*`")
# a rule's hint that names a command the editor page has a button for, said with the button
_ON_THE_PAGE = ((re.compile(r"`pnp build --build[^`]*`"), "the Cards (PDF) button below"),)
# what a message says with a command, said with the page a player has instead
_IN_PAGE_WORDS = ((re.compile(r"\(`pnp list` shows them all\)"), "(the Cards page lists them all)"),
                  (re.compile(r"run `pnp list` to see the card ids"), "the Cards page lists every card"),
                  (re.compile(r"exactly as `pnp share` printed it"), "exactly as it was shared"),
                  (re.compile(r"a code made by `pnp share`"), "a share code"))
_ASIDE = re.compile(r"\s*\([^()]*`(?:pnp|python|make)\b[^`]*`[^()]*\)")  # "(… `pnp x` …)": left out


def words(text: str | None, on_page: bool = False) -> str | None:
    """An engine message as the web shows it: field names without backticks; a command line
    is said with the page that does the same (the Cards page for `pnp list`), an aside naming
    one is left out, and a hint that needs a command line is left out whole (None), since the
    page has buttons for that. `on_page`: the text is a rule's hint shown in the editor, where
    a command the page has a button for (printing the build's own cards) is named by that
    button instead."""
    if not text:
        return text
    if on_page:
        for command, button in _ON_THE_PAGE:
            text = command.sub(button, text)
    if "`" in text:
        for command, said in _IN_PAGE_WORDS:
            text = command.sub(said, text)
        text = _ASIDE.sub("", text)
    if _COMMAND.search(text):
        return None
    return text.replace("`", "")
