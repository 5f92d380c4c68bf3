"""What a card field type is (`type:` of a card type's field in game.yaml): the abstract base
every class of pack/fieldtypes.py derives from, with each answer it gives the rest of the
engine. A class that leaves a method out cannot be registered (`register` asks `isabstract`),
and mypy checks each override against the signature here; mixins in fieldtypes.py give the
common answers."""

from __future__ import annotations

import inspect
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from generator.pack.model import FieldSpec, GameSpec, Pack
    from generator.pack.sheets.shape import Shape

# a rulebook column: its heading and how a card's cell reads
BookColumn = tuple[str, Callable[[Any], str]]
FLAGS = ("sheet_text", "sheet_pair")  # class attributes each type sets


class FieldKind(ABC):
    """The base of every field type; `name` is its `type:` in game.yaml. A card's `value` is Any here:
    each class declares the type its own values have (an int, a stats mapping...), which game.yaml
    picks for a field at load time."""

    name: ClassVar[str] = ""
    holds_stats: ClassVar[bool] = False  # a stat block (`stats`, bonus fields): a bare stat column may stand for it
    sheet_text: ClassVar[bool]  # a spreadsheet cell holds it as text (else as a number or a yes/no)
    sheet_pair: ClassVar[bool]  # a spreadsheet offers it as two columns

    @staticmethod
    @abstractmethod
    def annotation(spec: FieldSpec, game: GameSpec) -> Any:
        """The pydantic annotation of the field's value on the card model."""

    @staticmethod
    @abstractmethod
    def sheet_shape(game: GameSpec) -> Shape:
        """How the value is written in a spreadsheet's cells."""

    @staticmethod
    @abstractmethod
    def sheet_offered(name: str, game: GameSpec) -> list[str]:
        """The column headings a spreadsheet offers for the field."""

    @staticmethod
    @abstractmethod
    def list_columns(name: str, game: GameSpec) -> list[str]:
        """The columns `pnp list` shows for it."""

    @staticmethod
    @abstractmethod
    def list_values(pack: Pack, name: str, spec: FieldSpec, value: Any) -> dict[str, Any]:
        """A card's values in those columns."""

    @staticmethod
    @abstractmethod
    def audit_features(pack: Pack, name: str, spec: FieldSpec, value: Any) -> dict[str, float]:
        """The numbers the points audit weighs a card by."""

    @staticmethod
    @abstractmethod
    def rulebook_columns(pack: Pack, name: str, spec: FieldSpec, get: Callable[[Any], Any]) -> list[BookColumn]:
        """The rulebook card list's columns for the field."""

    @staticmethod
    @abstractmethod
    def page_text(pack: Pack, value: Any) -> str:
        """The value in words on the deck builder's card page and in the API."""

    @staticmethod
    def sheet_choices(spec: FieldSpec) -> list[str] | None:
        """The values a spreadsheet cell offers in a drop-down list, or None."""
        return None


def missing_answers(cls: type[FieldKind]) -> list[str]:
    """What a field type class leaves out: abstract methods it does not define, flags it does not set."""
    methods = sorted(getattr(cls, "__abstractmethods__", ())) if inspect.isabstract(cls) else []
    return methods + [flag for flag in FLAGS if not hasattr(cls, flag)]
