"""How a card value nests in spreadsheet columns (`Shape`), and the shapes the field types
share. The field types (generator.pack.fieldtypes) each give their own; `columns` turns shapes
into column names and cells."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Shape:
    """How a value nests. `leaf`: int, text, bool, ref, refs, hexes, value (int or text);
    `keys`: a mapping (fixed keys, or None for any key) of `child`; `record`: named parts;
    `numbered`: a list of `child` records, one numbered group of columns per entry."""

    leaf: str | None = None
    keys: tuple[str, ...] | None = None
    mapping: bool = False
    child: "Shape | None" = None
    record: tuple[tuple[str, Shape], ...] = ()  # ((name, Shape), ...)
    numbered: bool = False

    @property
    def item(self) -> Shape:
        """The shape of a mapping's values or of a numbered list's entries (`child`, which those have)."""
        if self.child is None:
            raise ValueError(f"{self} has no child shape")
        return self.child

    def part(self, name: str) -> Shape | None:
        for key, shape in self.record:
            if key == name:
                return shape
        return None


INT, TEXT, BOOL, REF = Shape("int"), Shape("text"), Shape("bool"), Shape("ref")
RECORDS = {  # the named parts of the record-valued field types, in column order
    "attacks": (("damage", INT), ("range", INT), ("text", TEXT)),
    "feat": (("name", TEXT), ("text", TEXT)),
    "requirements": (("stat", TEXT), ("field", TEXT), ("value", Shape("value")), ("min", INT)),
    "ability-list": (("name", TEXT), ("cost", INT), ("text", TEXT), ("extra", TEXT)),
}
