"""The small expression form of a card-data check (`check: card_check`, `expect: ...`).

A pack states facts its cards must agree with, such as `base_hp <= max_hp` or
`count(boss-card where boss == this.id and tier == "Last Stand") >= 1`. The text is parsed
here into a tiny tree and evaluated over plain card values; nothing is ever handed to
Python's `eval`, and the only names an expression can reach are card fields.

    expr   := or
    or     := and ("or" and)*
    and    := not ("and" not)*
    not    := "not" not | cmp
    cmp    := sum (("<" | "<=" | ">" | ">=" | "==" | "!=") sum)?
    sum    := unary (("+" | "-") unary)*
    unary  := "-" unary | atom
    atom   := NUMBER | "TEXT" | true | false | none | "(" expr ")"
            | count(TYPE [where expr]) | sum(TYPE.FIELD [where expr]) | [this.]NAME(.KEY)*

Outside `count`/`sum`, a name is a field of the checked card; inside their `where`, a name
is a field of the card being counted and `this.NAME` the checked card's. Names may hold
hyphens (`boss-card`), so a subtraction is written with spaces (`hp - phase_two_at`).
A value the card leaves out (an optional field) is `none`: `lasts != none` asks whether it
is there. Any other use of it (a sum, an ordering) makes the check not apply to that card,
and a filter not match it."""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeAlias

if TYPE_CHECKING:
    from generator.pack.model import Card

MAX_LENGTH = 400
MAX_DEPTH = 12  # brackets, `not`, minus signs and filters inside one another
COMMON = ("id", "name", "type", "set", "points", "text", "flavour", "copies")
_TOKEN = re.compile(r"""\s*(?:
    (?P<num>\d+(?:\.\d+)?)
  | (?P<str>"[^"\\]*"|'[^'\\]*')
  | (?P<op><=|>=|==|!=|<|>|\+|-|\(|\)|\.)
  | (?P<name>[A-Za-z_][A-Za-z0-9_]*(?:-[A-Za-z0-9_]+)*)
)""", re.VERBOSE)
_WORDS = {"and", "or", "not", "where", "true", "false", "none"}
# a comparison of two values whose types the evaluation checked at run time (numbers, or texts)
_COMPARE: dict[str, Callable[[Any, Any], bool]] = {"<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b,
            ">=": lambda a, b: a >= b, "==": lambda a, b: a == b, "!=": lambda a, b: a != b}


class ExprError(ValueError):
    """An expression that does not parse, or names something the pack lacks; `column` is
    1-based inside the expression text."""

    def __init__(self, message: str, column: int = 1, expected: str | None = None):
        super().__init__(message)
        self.message, self.column, self.expected = message, column, expected


class Missing(Exception):
    """A value the expression needs is not there (an optional field left out)."""


# ---- the tree ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Const:
    value: object
    text: str


@dataclass(frozen=True)
class Field:
    names: tuple[str, ...]
    this: bool  # `this.NAME`: the checked card even inside a filter
    column: int
    text: str


@dataclass(frozen=True)
class Op:
    op: str  # a comparison, "+", "-", "and", "or", "not", "neg"
    args: tuple[Node, ...]
    text: str


@dataclass(frozen=True)
class Gather:
    kind: str  # "count" | "sum"
    type: str
    field: tuple[str, ...]  # sum: the summed field of each matching card
    where: Node | None
    column: int
    text: str


Node: TypeAlias = "Const | Field | Op | Gather"  # a node of the tree


# ---- parsing -------------------------------------------------------------------------------

def _tokens(text: str) -> list[tuple[str, str, int]]:
    out: list[tuple[str, str, int]] = []
    pos = 0
    while pos < len(text):
        if text[pos:].strip() == "":
            break
        m = _TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            col = pos + len(text[pos:]) - len(text[pos:].lstrip()) + 1
            raise ExprError(f"unexpected `{text[col - 1]}` at column {col}", col,
                            "a field name, a number, \"text\", a comparison, + or -")
        kind = m.lastgroup or ""  # every alternative of _TOKEN is a named group
        out.append((kind, m.group(kind), m.start(kind) + 1))
        pos = m.end()
    out.append(("end", "", len(text) + 1))
    return out


class _Parser:
    def __init__(self, text: str):
        self.text = text
        self.toks = _tokens(text)
        self.i = 0
        self.depth = 0

    def deeper(self, col: int) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise ExprError(f"the expression nests more than {MAX_DEPTH} deep at column {col}", col,
                            f"at most {MAX_DEPTH} brackets, `not`s or filters inside one another")

    def peek(self, value: str | None = None, kind: str | None = None) -> bool:
        k, v, _ = self.toks[self.i]
        return (value is None or v == value) and (kind is None or k == kind)

    def take(self, value: str | None = None, kind: str | None = None, what: str | None = None) -> tuple[str, int]:
        k, v, col = self.toks[self.i]
        if not self.peek(value, kind):
            found = "the end" if k == "end" else f"`{v}`"
            raise ExprError(f"found {found} at column {col}", col, what or f"`{value}`")
        self.i += 1
        return v, col

    def src(self, start_col: int) -> str:
        end = self.toks[self.i - 1]
        return self.text[start_col - 1:end[2] - 1 + len(end[1])].strip()

    def parse(self) -> Node:
        node = self.expr()
        if not self.peek(kind="end"):
            _, v, col = self.toks[self.i]
            raise ExprError(f"unexpected `{v}` at column {col}", col, "the end of the expression, `and` or `or`")
        return node

    def expr(self) -> Node:
        return self.binary("or", self.conj)

    def conj(self) -> Node:
        return self.binary("and", self.negation)

    def binary(self, word: str, lower: Callable[[], Node]) -> Node:
        col = self.toks[self.i][2]
        node = lower()
        while self.peek(word, "name"):
            self.i += 1
            node = Op(word, (node, lower()), self.src(col))
        return node

    def negation(self) -> Node:
        col = self.toks[self.i][2]
        if self.peek("not", "name"):
            self.i += 1
            self.deeper(col)
            inner = self.negation()
            self.depth -= 1
            return Op("not", (inner,), self.src(col))
        return self.compare()

    def compare(self) -> Node:
        col = self.toks[self.i][2]
        left = self.total()
        if self.peek(kind="op") and self.toks[self.i][1] in _COMPARE:
            op, _ = self.take(kind="op")
            right = self.total()
            return Op(op, (left, right), self.src(col))
        return left

    def total(self) -> Node:
        col = self.toks[self.i][2]
        node = self.unary()
        while self.peek("+", "op") or self.peek("-", "op"):
            op, _ = self.take(kind="op")
            node = Op(op, (node, self.unary()), self.src(col))
        return node

    def unary(self) -> Node:
        col = self.toks[self.i][2]
        if self.peek("-", "op"):
            self.i += 1
            self.deeper(col)
            inner = self.unary()
            self.depth -= 1
            return Op("neg", (inner,), self.src(col))
        return self.atom()

    def atom(self) -> Node:
        kind, value, col = self.toks[self.i]
        if kind == "num":
            self.i += 1
            return Const(float(value) if "." in value else int(value), value)
        if kind == "str":
            self.i += 1
            return Const(value[1:-1], value)
        if self.peek("(", "op"):
            self.i += 1
            self.deeper(col)
            node = self.expr()
            self.depth -= 1
            self.take(")", what="`)`")
            return node
        if kind == "name" and value in ("count", "sum") and self.toks[self.i + 1][1] == "(":
            return self.gather(value, col)
        if kind == "name" and value in ("true", "false", "none"):
            self.i += 1
            return Const({"true": True, "false": False, "none": None}[value], value)
        if kind == "name" and value not in _WORDS:
            return self.field(col)
        found = "the end" if kind == "end" else f"`{value}`"
        raise ExprError(f"found {found} at column {col}", col, "a field name, a number or \"text\"")

    def field(self, col: int) -> Field:
        names = [self.take(kind="name")[0]]
        while self.peek(".", "op"):
            self.i += 1
            names.append(self.take(kind="name", what="a field name after `.`")[0])
        this = names[0] == "this"
        if this:
            names = names[1:]
            if not names:
                raise ExprError(f"`this` at column {col} needs a field: `this.NAME`", col, "this.NAME")
        return Field(tuple(names), this, col, self.src(col))

    def gather(self, kind: str, col: int) -> Gather:
        self.i += 2  # the word and "("
        self.deeper(col)
        type_id, _ = self.take(kind="name", what="a card type")
        field: tuple[str, ...] = ()
        if kind == "sum":
            names: list[str] = []
            while self.peek(".", "op"):
                self.i += 1
                names.append(self.take(kind="name", what="a field name after `.`")[0])
            if not names:
                raise ExprError(f"`sum` at column {col} needs the field it adds up: sum(TYPE.FIELD)", col,
                                "sum(TYPE.FIELD where ...)")
            field = tuple(names)
        where: Node | None = None
        if self.peek("where", "name"):
            self.i += 1
            where = self.expr()
        self.take(")", what="`)` or `where`")
        self.depth -= 1
        return Gather(kind, type_id, field, where, col, self.src(col))


def parse(text: str) -> Node:
    """The tree of an expression, or ExprError saying where it breaks."""
    if not isinstance(text, str) or not text.strip():
        raise ExprError("the expression is empty", 1, "a comparison such as `base_hp <= max_hp`")
    if len(text) > MAX_LENGTH:
        raise ExprError(f"the expression is {len(text)} characters long", 1, f"at most {MAX_LENGTH}")
    return _Parser(text).parse()


# ---- checking names against the pack -------------------------------------------------------

def unknown_names(node: Node, fields_of: Callable[[str], Collection[str] | None], each: str
                  ) -> list[tuple[str, int, list[str]]]:
    """(name, column, known names) for every field or card type the expression names that the
    pack lacks; `fields_of(type_id)` gives a type's field names, or None for an unknown type."""
    out: list[tuple[str, int, list[str]]] = []

    def walk(n: Node, inner: str | None) -> None:
        if isinstance(n, Field):
            type_id = each if (n.this or inner is None) else inner
            known = list(COMMON) + list(fields_of(type_id) or ())
            if n.names[0] not in known:
                out.append((n.names[0], n.column, known))
        elif isinstance(n, Op):
            for a in n.args:
                walk(a, inner)
        elif isinstance(n, Gather):
            of_type = fields_of(n.type)
            if of_type is None:
                out.append((n.type, n.column, []))
                return
            if n.field and n.field[0] not in list(COMMON) + list(of_type):
                out.append((n.field[0], n.column, list(COMMON) + list(of_type)))
            if n.where is not None:
                walk(n.where, n.type)
    walk(node, None)
    return out


def top_fields(node: Node) -> list[str]:
    """The checked card's fields the expression reads outside any count or sum, in order."""
    out: list[str] = []

    def walk(n: Node) -> None:
        if isinstance(n, Field) and n.names[0] not in out:
            out.append(n.names[0])
        elif isinstance(n, Op):
            for a in n.args:
                walk(a)
    walk(node)
    return out


# ---- evaluating ----------------------------------------------------------------------------

def _read(card: Card, names: tuple[str, ...]) -> object:
    """A field's value, or None when the card leaves it out."""
    first = names[0]
    value = getattr(card, first) if first in COMMON else card.fields.get(first)
    for key in names[1:]:
        value = value.get(key) if isinstance(value, dict) else None
    return value


def evaluate(node: Node, card: Card, cards: Sequence[Card], inner: Card | None = None) -> object:
    """The value of `node` for `card` (inner: the card a filter is looking at). A left-out
    value compares with == and != (`lasts != none`); anything else it takes part in raises
    Missing, which makes the whole check not apply (and a filter not match)."""
    if isinstance(node, Const):
        return node.value
    if isinstance(node, Field):
        return _read(card if (node.this or inner is None) else inner, node.names)
    if isinstance(node, Gather):
        total: float = 0  # an int while every summed value is one
        for other in cards:
            if other.type != node.type or not _matches(node.where, card, cards, other):
                continue
            if node.kind == "count":
                total += other.copies
                continue
            value = _read(other, node.field)
            if value is None:
                continue
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise TypeError(f"{'.'.join(node.field)} of {other.name} is not a number")
            total += value * other.copies
        return total
    op, args = node.op, node.args
    if op == "and":
        return bool(evaluate(args[0], card, cards, inner)) and bool(evaluate(args[1], card, cards, inner))
    if op == "or":
        return bool(evaluate(args[0], card, cards, inner)) or bool(evaluate(args[1], card, cards, inner))
    if op == "not":
        return not evaluate(args[0], card, cards, inner)
    values = [evaluate(a, card, cards, inner) for a in args]
    if op in ("==", "!="):
        return _COMPARE[op](values[0], values[1])
    if any(v is None for v in values):
        raise Missing(node.text)
    numbers = [v for v in values if isinstance(v, (int, float)) and not isinstance(v, bool)]
    if len(numbers) < len(values):  # texts may be ordered against texts; anything else needs numbers
        if op in _COMPARE and all(isinstance(x, str) for x in values):
            return _COMPARE[op](values[0], values[1])
        bad = next(v for v in values if isinstance(v, bool) or not isinstance(v, (int, float)))
        raise TypeError(f"`{node.text}` needs numbers, found {bad!r}")
    if op == "neg":
        return -numbers[0]
    if op == "+":
        return numbers[0] + numbers[1]
    if op == "-":
        return numbers[0] - numbers[1]
    return _COMPARE[op](numbers[0], numbers[1])


def _matches(where: Node | None, card: Card, cards: Sequence[Card], other: Card) -> bool:
    if where is None:
        return True
    try:
        return bool(evaluate(where, card, cards, other))
    except Missing:
        return False


def holds(node: Node, card: Card, cards: Sequence[Card]) -> bool:
    """Whether the check holds for `card`; a value left out of a sum or an ordering makes
    it hold (not applicable)."""
    try:
        return bool(evaluate(node, card, cards))
    except Missing:
        return True


def _true(node: Node, card: Card, cards: Sequence[Card]) -> bool:
    try:
        return bool(evaluate(node, card, cards))
    except Missing:
        return True


def explain(node: Node, card: Card, cards: Sequence[Card]) -> str:
    """What was found, for the report: the first broken comparison's two sides and values."""
    if isinstance(node, Op) and node.op in ("and", "or", "not"):
        for arg in node.args:
            if node.op == "and" and not _true(arg, card, cards):
                return explain(arg, card, cards)
        return "; ".join(explain(a, card, cards) for a in node.args)
    if isinstance(node, Op) and node.op in _COMPARE:
        return " and ".join(_shown(a, card, cards) for a in node.args if not isinstance(a, Const))
    return _shown(node, card, cards)


def _shown(node: Node, card: Card, cards: Sequence[Card]) -> str:
    try:
        value = evaluate(node, card, cards)
    except Missing:
        value = None
    return f"{node.text} is {value}"
