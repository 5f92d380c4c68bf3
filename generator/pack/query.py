"""The card search language: one parser and one set of field names, taken from the pack's own
card fields, stats and keywords, for every place a player looks for cards (the card browser,
the editor's card picker, the published builds' filter, the JSON API).

    type:attack points<=3 kw:poison agility>=4 "exact words" -name:walk (tier:easy or tier:hard)

A query is terms joined by `and` (a space) and `or`, each one a word (found in the name, the
rules text, the id, the type or the card's tag), a quoted phrase, or `field OP value` with OP
one of `:` (contains, or equals for a number), `=`, `!=`, `<`, `<=`, `>`, `>=`; `-` or `not`
before a term negates it, parentheses group. What a field means is in `query_fields(pack)`,
which the builder's help page lists. A query that cannot be read is an InputError naming the
column, what was found and what was expected. Work is bounded (core/limits.py): a query's
length, its number of terms and the depth of its parentheses.

`Query.matches(card)` asks one card; `Query.leaves()` gives the terms whose structure the
published builds' filter keeps (a build matches a term when it holds a card matching it).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Union, cast

from generator.core.errors import InputError, Location, Problem, did_you_mean
from generator.core.limits import MAX_QUERY_CHARS, MAX_QUERY_DEPTH, MAX_QUERY_TERMS
from generator.pack.fieldtypes import FIELD_KINDS
from generator.pack.translations.own import Say, words_of

if TYPE_CHECKING:
    from generator.pack.model import Card, Pack

WHERE = "the search"
Kind = Literal["number", "text"]
Value = Union[int, str]
OPS = ("<=", ">=", "!=", ":", "=", "<", ">")
_FIELD_TERM = re.compile(r"^([A-Za-z][A-Za-z0-9_-]*)(<=|>=|!=|:|=|<|>)(.*)$", re.S)
_TOKEN = re.compile(r'\s*(?:(?P<paren>[()])|(?P<quote>"[^"]*"?)|(?P<word>[^\s()"]+(?:"[^"]*"?)?))')


@dataclass(frozen=True)
class QueryField:
    """A name a query may use: what it reads of a card, in words for the help page."""

    name: str
    kind: Kind
    help: str
    get: Callable[[Card], list[Value]] = field(repr=False, compare=False)


# ---- the pack's fields ----------------------------------------------------------------------------


def _norm(name: str) -> str:
    return name.strip().casefold().replace("-", "_").replace(" ", "_")


_CATALOGUES: dict[int, tuple[Pack, dict[str, QueryField]]] = {}


def query_fields(pack: Pack) -> dict[str, QueryField]:
    """Every field name a query may use for this pack, in the order the help page lists them:
    the card's own (name, text, type, set, points, keywords, side), the pack's stats, then each
    field its card types declare (by name, and by its label where that differs). Worked out
    once per pack."""
    hit = _CATALOGUES.get(id(pack))
    if hit is not None and hit[0] is pack:
        return hit[1]
    fields = _catalogue(pack)
    _CATALOGUES[id(pack)] = (pack, fields)
    return fields


def _catalogue(pack: Pack) -> dict[str, QueryField]:
    spec = pack.spec
    out: dict[str, QueryField] = {}
    sources: dict[str, set[str]] = {}  # what each name reads already: a stat, a field
    field_help: dict[str, tuple[str, str]] = {}  # a card field's name -> its words, and its help for the first type

    def add(name: str, kind: Kind, help: str, get: Callable[[Card], list[Value]], source: str = "") -> None:
        key = _norm(name)
        have = out.get(key)
        if have is None:
            out[key], sources[key] = QueryField(key, kind, help, get), {source}
        elif source and source not in sources[key] and have.kind == kind:  # a stat and a field named alike: both
            first, sources[key] = have.get, sources[key] | {source}
            out[key] = QueryField(key, kind, f"{have.help}; {help}", lambda c: first(c) + get(c))

    def type_words(card: Card) -> list[Value]:
        ct = spec.card_types.get(card.type)
        words: list[Value] = [card.type, ct.name if ct else card.type]
        tag = _tag(pack, card)
        return words + ([tag] if tag else [])

    keywords, say = _keyword_finder(pack), words_of(pack)  # the help in the pack's language
    add("name", "text", say("the card's name"), lambda c: [c.name])
    add("text", "text", say("its rules text"), lambda c: [c.text])
    add("flavour", "text", say("its flavour text"), lambda c: [c.flavour])
    add("id", "text", say("its id"), lambda c: [c.id])
    add("type", "text", say("its card type, or the kind its type sorts it by (an action type, a tier)"), type_words)
    add("set", "text", say("its set"), lambda c: [c.set, spec.sets[c.set].name] if c.set in spec.sets else [c.set])
    add("points", "number", say("what it costs in points"), lambda c: [c.points])
    named = ", ".join(k.name for k in list(spec.keywords.values())[:4]) + ("…" if len(spec.keywords) > 4 else "")
    add("kw", "text", say("a keyword its text uses ({names})").format(names=named) if spec.keywords
        else say("a keyword its text uses"), keywords)
    add("side", "text", say("a side that may take it"),
        lambda c: [w for sid, s in spec.sides.items() if c.set in s.sets for w in (sid, s.name)])
    holders = [(fname, ct_id) for ct_id, ct in spec.card_types.items()
               for fname, f in ct.fields.items() if FIELD_KINDS[f.type].holds_stats]
    for stat_id, stat in spec.stats.items():
        getter = _stat_getter(stat_id, holders)
        add(stat_id, "number", say("{stat}: the card's own, a bonus it gives, or what it requires").format(stat=stat.name),
            getter, f"stat {stat_id}")
        if _norm(stat.name) != _norm(stat_id):
            add(stat.name, "number", say("the same as {name}").format(name=_norm(stat_id)), getter, f"stat {stat_id}")
    for ct in spec.card_types.values():
        for fname, f in ct.fields.items():
            if FIELD_KINDS[f.type].holds_stats:
                continue
            kind: Kind = "number" if f.type == "int" else "text"
            words = f.label or fname.replace("_", " ")
            words = words.lower() if pack.translation is None else words  # a translation keeps its capitals (German nouns)
            getter = _field_getter(pack, fname, kind)
            field_help.setdefault(_norm(fname), (words, say("{words} ({types} cards)").format(words=words, types=ct.name)))
            add(fname, kind, field_help[_norm(fname)][1], getter, f"field {fname}")
            if f.label and _norm(f.label) != _norm(fname):
                add(f.label, kind, say("the same as {name}").format(name=_norm(fname)), getter, f"field {fname}")
    # a name declared by several card types: its help names them all
    for name, qf in list(out.items()):
        types = [ct.name for ct in spec.card_types.values() for fname in ct.fields if _norm(fname) == name
                 and not FIELD_KINDS[ct.fields[fname].type].holds_stats]
        if len(types) > 1 and name in field_help and qf.help.endswith(field_help[name][1]):
            words, first = field_help[name]
            out[name] = QueryField(name, qf.kind, qf.help[:-len(first)] + say("{words} ({types} cards)").format(
                words=words, types=", ".join(types)), qf.get)
    return out


def _tag(pack: Pack, card: Card) -> str | None:
    """The value of the card type's first choice field: the word lists show beside a card."""
    ct = pack.spec.card_types.get(card.type)
    for fname, f in (ct.fields.items() if ct else []):
        if f.type == "choice" and card.fields.get(fname) is not None:
            return str(card.fields[fname])
    return None


def _stat_getter(stat_id: str, holders: list[tuple[str, str]]) -> Callable[[Card], list[Value]]:
    def get(card: Card) -> list[Value]:
        values: list[Value] = []
        for fname, ct_id in holders:
            block = card.fields.get(fname) if card.type == ct_id else None
            if isinstance(block, dict) and isinstance(block.get(stat_id), int):
                values.append(block[stat_id])
        for value in card.fields.values():  # a requirement of the stat: "Agility 4+" reads 4
            if isinstance(value, list):
                values += [r.get("min", 1) for r in value if isinstance(r, dict) and r.get("stat") == stat_id]
        return values
    return get


def _field_getter(pack: Pack, fname: str, kind: Kind) -> Callable[[Card], list[Value]]:
    def get(card: Card) -> list[Value]:
        value = card.fields.get(fname)
        if value is None or value in ("", [], {}):
            return []
        if kind == "number":
            return [value] if isinstance(value, int) and not isinstance(value, bool) else []
        ct = pack.spec.card_types.get(card.type)
        f = ct.fields.get(fname) if ct else None
        kind_of: Any = cast(Any, FIELD_KINDS[f.type]) if f else None  # every registered type has page_text
        words: list[Value] = [str(kind_of.page_text(pack, value))] if f else [str(value)]
        if isinstance(value, str) and value in pack.cards:  # a card it names: by id and by name
            words.append(value)
        elif isinstance(value, list):
            words += [v for v in value if isinstance(v, str)]
        return words
    return get


def _keyword_finder(pack: Pack) -> Callable[[Card], list[Value]]:
    """The keywords a card's text uses, by id and name (whole words, any case)."""
    spec = pack.spec.keywords
    if not spec:
        return lambda card: []
    names = {k.name.casefold(): kid for kid, k in spec.items()}
    pattern = re.compile(r"(?<![\w-])(" + "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
                         + r")(?![\w-])", re.I)

    def get(card: Card) -> list[Value]:
        found = dict.fromkeys(names[m.group(1).casefold()] for m in pattern.finditer(card.text or ""))
        return [w for kid in found for w in (kid, spec[kid].name)]
    return get


# ---- the parsed query ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Term:
    """One leaf: a word or phrase (field None), or `field OP value`."""

    field: QueryField | None
    op: str
    value: Value
    column: int

    def matches(self, card: Card, pack: Pack) -> bool:
        if self.field is None:
            return str(self.value) in _haystack(pack, card)
        values = self.field.get(card)
        if self.field.kind == "number":
            want = int(self.value)
            nums = [v for v in values if isinstance(v, int)]
            if self.op == "!=":
                return all(v != want for v in nums)
            return any(_compare(v, self.op, want) for v in nums)
        want_s = str(self.value)
        texts = [str(v).casefold() for v in values]
        if self.op == ":":
            return any(want_s in t for t in texts)
        if self.op == "=":
            return any(want_s == t for t in texts)
        return all(want_s != t for t in texts)  # "!="


@dataclass(frozen=True)
class Not:
    inner: Node


@dataclass(frozen=True)
class All:
    parts: tuple[Node, ...]


@dataclass(frozen=True)
class Any_:
    parts: tuple[Node, ...]


Node = Union[Term, Not, All, Any_]


def _compare(a: int, op: str, b: int) -> bool:
    return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}.get(op, a == b)


_HAYSTACKS: dict[int, tuple[Pack, dict[str, str]]] = {}


def _haystack(pack: Pack, card: Card) -> str:
    """What a bare word looks in: name, rules text, id, type name, tag and the names of the cards
    it refers to (whose card it is: "Mother Veyl"), in any case (kept per pack: cards never change)."""
    hit = _HAYSTACKS.get(id(pack))
    if hit is None or hit[0] is not pack:
        hit = _HAYSTACKS[id(pack)] = (pack, {})
    hay = hit[1].get(card.id)
    if hay is None:
        ct = pack.spec.card_types.get(card.type)
        refs = [pack.cards[v].name for fname, f in (ct.fields.items() if ct else []) if f.type == "card-ref"
                and isinstance(v := card.fields.get(fname), str) and v in pack.cards]
        hay = " ".join([card.name, card.text or "", card.id, ct.name if ct else card.type, _tag(pack, card) or "",
                        *refs])
        hay = hit[1][card.id] = hay.casefold()
    return hay


@dataclass(frozen=True)
class Query:
    text: str
    root: Node | None  # None: the empty query, every card

    def matches(self, card: Card, pack: Pack) -> bool:
        return self.root is None or evaluate(self.root, lambda t: t.matches(card, pack))

    def cards(self, pack: Pack, cards: list[Card] | None = None) -> list[Card]:
        return [c for c in (pack.cards.values() if cards is None else cards) if self.matches(c, pack)]

    def leaves(self) -> Iterator[Term]:
        return _leaves(self.root) if self.root is not None else iter(())


def evaluate(node: Node, leaf: Callable[[Term], bool]) -> bool:
    """The node's truth with each leaf's answer from `leaf`: a card's (Query.matches) or a
    published build's (it holds a card matching the leaf)."""
    if isinstance(node, Term):
        return leaf(node)
    if isinstance(node, Not):
        return not evaluate(node.inner, leaf)
    if isinstance(node, All):
        return all(evaluate(p, leaf) for p in node.parts)
    return any(evaluate(p, leaf) for p in node.parts)


def _leaves(node: Node) -> Iterator[Term]:
    if isinstance(node, Term):
        yield node
    elif isinstance(node, Not):
        yield from _leaves(node.inner)
    else:
        for part in node.parts:
            yield from _leaves(part)


# ---- reading a query -----------------------------------------------------------------------------


def _problem(code: str, message: str, column: int, found: str | None = None, expected: str | None = None,
             fix: str | None = None) -> InputError:
    return InputError([Problem(code, message, Location(WHERE, 1, column), found=found, expected=expected, fix=fix)])


@dataclass
class _Token:
    kind: Literal["(", ")", "word", "phrase"]
    text: str
    column: int


def _tokens(text: str, say: Say) -> list[_Token]:
    out: list[_Token] = []
    pos = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            break
        start = m.start(m.lastgroup or "word") + 1
        if m.group("paren"):
            out.append(_Token("(" if m.group("paren") == "(" else ")", m.group("paren"), start))
        elif m.group("quote") is not None:
            quoted = m.group("quote")
            if len(quoted) < 2 or not quoted.endswith('"'):
                raise _problem("query.quote", say("a quotation mark is not closed"), start, quoted[:40],
                               say('a closing "'))
            out.append(_Token("phrase", quoted[1:-1], start))
        elif m.group("word"):
            out.append(_Token("word", m.group("word"), start))
        pos = m.end()
    return out


class _Parser:
    def __init__(self, text: str, pack: Pack):
        self.say = say = words_of(pack)  # the messages in the pack's language (pack/translations/own.py)
        self.tokens = _tokens(text, say)
        self.fields = query_fields(pack)
        self.at = 0
        self.terms = 0

    def peek(self) -> _Token | None:
        return self.tokens[self.at] if self.at < len(self.tokens) else None

    def either(self, depth: int) -> Node:
        say = self.say
        parts = [self.every(depth)]
        while (t := self.peek()) is not None and t.kind == "word" and t.text.casefold() in ("or", "|"):
            self.at += 1
            after = self.peek()
            if after is None or after.kind == ")":
                raise _problem("query.syntax", say("`or` needs a term after it"), t.column, t.text,
                               say("a term after `or`"))
            parts.append(self.every(depth))
        return parts[0] if len(parts) == 1 else Any_(tuple(parts))

    def every(self, depth: int) -> Node:
        say = self.say
        parts: list[Node] = []
        while (t := self.peek()) is not None and t.kind != ")" and not (
                t.kind == "word" and t.text.casefold() in ("or", "|")):
            if t.kind == "word" and t.text.casefold() == "and":
                self.at += 1
                continue
            parts.append(self.one(depth))
        if not parts:
            t = self.peek()
            raise _problem("query.syntax", say("a term is missing"), t.column if t else 1, t.text if t else None,
                           say("a word, a phrase in quotes or field:value"))
        return parts[0] if len(parts) == 1 else All(tuple(parts))

    def one(self, depth: int) -> Node:
        say = self.say
        t = self.peek()
        assert t is not None
        if t.kind == "word" and (t.text.casefold() == "not" or t.text.startswith("-")):
            if t.text.casefold() == "not" or t.text == "-":  # `not x`, `-(a or b)`
                self.at += 1
                after = self.peek()
                if after is None or after.kind == ")":
                    raise _problem("query.syntax", say("`{term}` needs a term after it").format(term=t.text),
                                   t.column, t.text)
            else:
                self.tokens[self.at] = _Token("word", t.text[1:], t.column + 1)
            return Not(self.one(depth))
        if t.kind == "(":
            if depth >= MAX_QUERY_DEPTH:
                raise _problem("query.depth", say("parentheses nest deeper than {n}").format(n=MAX_QUERY_DEPTH),
                               t.column)
            self.at += 1
            after = self.peek()
            if after is None or after.kind == ")":
                raise _problem("query.syntax", say("a parenthesis is not closed") if after is None else
                               say("nothing between the parentheses"), t.column, "(", say("a term inside ( )"))
            inner = self.either(depth + 1)
            close = self.peek()
            if close is None or close.kind != ")":
                raise _problem("query.syntax", say("a parenthesis is not closed"), t.column, "(",
                               say("a closing )"))
            self.at += 1
            return inner
        if t.kind == ")":
            raise _problem("query.syntax", say("a closing parenthesis without an opening one"), t.column, ")")
        self.at += 1
        self.terms += 1
        if self.terms > MAX_QUERY_TERMS:
            raise _problem("query.size", say("the search has more than {n} terms").format(n=MAX_QUERY_TERMS),
                           t.column, expected=say("at most {n} terms").format(n=MAX_QUERY_TERMS))
        if t.kind == "phrase":
            return Term(None, ":", t.text.casefold(), t.column)
        m = _FIELD_TERM.match(t.text)
        if m is None:
            return Term(None, ":", t.text.casefold(), t.column)
        name, op, value = m.group(1), m.group(2), m.group(3)
        if value == "" and (nxt := self.peek()) is not None and nxt.kind == "phrase":
            self.at += 1
            value = nxt.text
        elif value.startswith('"'):
            value = value.strip('"')
        return self.field_term(name, op, value, t.column)

    def field_term(self, name: str, op: str, value: str, column: int) -> Term:
        qf, say = self.fields.get(_norm(name)), self.say
        if qf is None:
            guess = did_you_mean(_norm(name), self.fields)
            raise _problem("query.field", say("no field `{name}` to search in this pack").format(name=name), column, name,
                           say("one of: {names}").format(names=", ".join(sorted(self.fields))),
                           say("did you mean `{guess}`?").format(guess=guess) if guess
                           else say("put it in quotes to search for the words"))
        if value == "":
            raise _problem("query.value", say("`{term}` needs a value after it").format(term=f"{name}{op}"), column,
                           f"{name}{op}", f"{name}{op}{'3' if qf.kind == 'number' else 'word'}")
        if qf.kind == "number":
            if not re.fullmatch(r"-?\d{1,6}", value):
                raise _problem("query.number", say("`{field}` is a number").format(field=qf.name), column, value,
                               say("a whole number"), say("write a number, as in {example}").format(example=f"{qf.name}{op}3"))
            return Term(qf, op, int(value), column)
        if op in ("<", "<=", ">", ">="):
            raise _problem("query.compare", say("`{field}` is words, which are not compared with {op}").format(
                               field=qf.name, op=op), column,
                           f"{name}{op}{value}", f"{qf.name}:word, {qf.name}=word or {qf.name}!=word",
                           say("write {example}").format(example=f"{qf.name}:{value or 'word'}"))
        return Term(qf, op, value.casefold(), column)


def parse_query(text: str, pack: Pack) -> Query:
    """The query `text` for `pack` (an empty one matches every card); InputError for one that
    cannot be read, with its column."""
    text, say = text or "", words_of(pack)
    if len(text) > MAX_QUERY_CHARS:
        raise _problem("query.size", say("the search is {n} characters long").format(n=len(text)), MAX_QUERY_CHARS,
                       expected=say("at most {n} characters").format(n=MAX_QUERY_CHARS))
    if not text.strip():
        return Query(text, None)
    parser = _Parser(text, pack)
    root = parser.either(0)
    rest = parser.peek()
    if rest is not None:  # only a stray ")" stops the parse early
        raise _problem("query.syntax", say("a closing parenthesis without an opening one"), rest.column, rest.text)
    return Query(text, root)


def search(pack: Pack, text: str, cards: list[Card] | None = None) -> list[Card]:
    """The cards (of `cards`, default all the pack's) matching the query `text`."""
    return parse_query(text, pack).cards(pack, cards)
