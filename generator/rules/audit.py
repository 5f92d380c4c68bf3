"""`pnp validate --audit`: cards whose points are far from what their statistics predict.

For every card type whose cards carry points and numeric statistics, the audit fits a linear
model of points on those statistics (least squares, solved with small normal equations) and
compares each card with the price the *other* cards of its type give it (a leave-one-out
prediction, so an overpriced card cannot pull the line towards itself). Cards found far off are
then left out of the other cards' fits too, worst first, so one wildly mispriced card cannot
drag its neighbours out of line.

Features come from the fields game.yaml declares for the type: the non-combat stats one by
one (`health`); the combat stats (those with `combat: true`) as one sum, since a point of any
combat stat is worth the same; bonuses the same way; slots, feat cost and other whole-number
fields; the hex count of a size diagram; for attacks, the total damage and the longest range;
and, when a type is shared by several sets (boss and hero equipment), which set a card is in,
since each side spends its own budget. Features that hardly vary within a type (fewer than 3
cards differ from the most common value) are left out, so one odd card cannot be fitted
exactly by a feature of its own, and the model keeps at least 2 cards per coefficient.

A card is an **outlier** when |points − predicted| > max(3 points, 30 % of predicted). A card
with an `audit_note:` is a **documented exception**: shown, never a failure. The audit
**passes** when no outlier is left without a note. Rules text is not priced, which is why
the tolerance is a few points wide: designers add 0–3 points for a strong effect.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from generator.pack.fieldtypes import FIELD_KINDS

if TYPE_CHECKING:
    from generator.pack.model import Card, Pack


MIN_POINTS_TOLERANCE = 3.0
RELATIVE_TOLERANCE = 0.30
MIN_VARYING = 3          # a feature must vary on at least this many cards of the type
MIN_CARDS_PER_TERM = 2   # at least this many cards per fitted coefficient (intercept included)
RIDGE = 1e-6             # keeps the normal equations solvable when features coincide

OK, OUTLIER, DOCUMENTED = "ok", "outlier", "documented exception"


@dataclass(frozen=True)
class AuditRow:
    id: str
    name: str
    type: str
    set: str
    points: int
    predicted: float
    residual: float          # points - predicted (positive: dearer than its statistics suggest)
    tolerance: float
    status: str              # ok | outlier | documented exception
    note: str | None = None
    basis: str = ""          # the fitted formula of the card's type, for people
    features: dict[str, float] = field(default_factory=dict)

    @property
    def flagged(self) -> bool:
        return self.status != OK

    @property
    def failure(self) -> bool:
        return self.status == OUTLIER

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id, "name": self.name, "type": self.type, "set": self.set,
            "points": self.points, "predicted": self.predicted, "residual": self.residual,
            "tolerance": self.tolerance, "status": self.status, "flagged": self.flagged,
            "note": self.note, "basis": self.basis, "features": dict(self.features),
        }


# ---- features -------------------------------------------------------------------------


def card_features(pack: Pack, card: Card) -> dict[str, float]:
    """Numeric features of a card for the audit (see the module docstring)."""
    out: dict[str, float] = {}
    for fname, fspec in pack.spec.card_types[card.type].fields.items():
        out.update(FIELD_KINDS[fspec.type].audit_features(pack, fname, fspec, card.fields.get(fname)))
    return out


# ---- least squares ----------------------------------------------------------------------


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (the systems here are at most ~10 × 10)."""
    n = len(vector)
    a = [row[:] + [vector[i]] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        if abs(a[pivot][col]) < 1e-12:
            continue
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(n):
            if r != col and a[r][col] != 0.0:
                f = a[r][col] / a[col][col]
                a[r] = [x - f * y for x, y in zip(a[r], a[col])]
    return [a[i][n] / a[i][i] if abs(a[i][i]) >= 1e-12 else 0.0 for i in range(n)]


def fit(rows: list[list[float]], targets: list[float]) -> list[float]:
    """Least-squares coefficients (intercept first) of targets on rows of features."""
    design = [[1.0] + list(r) for r in rows]
    k = len(design[0])
    xtx = [[sum(d[i] * d[j] for d in design) + (RIDGE if i == j and i > 0 else 0.0) for j in range(k)]
           for i in range(k)]
    xty = [sum(d[i] * t for d, t in zip(design, targets)) for i in range(k)]
    return _solve(xtx, xty)


def predict(coef: list[float], row: list[float]) -> float:
    return coef[0] + sum(c * x for c, x in zip(coef[1:], row))


# ---- the audit ---------------------------------------------------------------------------


def _varying(names: list[str], table: list[dict[str, float]]) -> list[str]:
    kept: list[str] = []
    for name in names:
        values = [row[name] for row in table]
        common = max(set(values), key=values.count)
        if sum(1 for v in values if v != common) >= MIN_VARYING:
            kept.append(name)
    return kept


def _weakest(names: list[str], table: list[dict[str, float]], points: list[float]) -> str:
    def spread(n: str) -> float:
        values = [row[n] for row in table]
        mean = sum(values) / len(values)
        return float((sum((v - mean) ** 2 for v in values) / len(values)) ** 0.5)  # float ** float: Any to mypy

    coef = fit([[row[n] for n in names] for row in table], points)
    return min(names, key=lambda n: (abs(coef[1 + names.index(n)]) * spread(n), n))


def _formula(coef: list[float], names: list[str]) -> str:
    parts = [f"{coef[0]:.1f}"]
    for c, name in zip(coef[1:], names):
        if abs(c) < 0.005:
            continue
        sign = "−" if c < 0 else "+"
        parts.append(f"{sign} {abs(c):.2f}×{name}")
    return "points ≈ " + " ".join(parts)


def _tolerance(predicted: float) -> float:
    return max(MIN_POINTS_TOLERANCE, RELATIVE_TOLERANCE * abs(predicted))


def _predict_without(matrix: list[list[float]], points: list[float], i: int, excluded: set[int]) -> float:
    """The price of card i according to the other cards (leaving out known outliers)."""
    train = [j for j in range(len(points)) if j != i and j not in excluded]
    coef = fit([matrix[j] for j in train], [points[j] for j in train])
    return predict(coef, matrix[i])


def _outliers(matrix: list[list[float]], points: list[float]) -> set[int]:
    """Cards left out of every fit: repeatedly the worst card beyond tolerance, so one wildly
    mispriced card cannot drag its neighbours' predictions out of line (at most a third)."""
    excluded: set[int] = set()
    while len(excluded) < len(points) // 3:
        worst, worst_ratio = None, 1.0
        for i in range(len(points)):
            if i in excluded:
                continue
            predicted = _predict_without(matrix, points, i, excluded)
            ratio = abs(points[i] - predicted) / _tolerance(predicted)
            if ratio > worst_ratio:
                worst, worst_ratio = i, ratio
        if worst is None:
            break
        excluded.add(worst)
    return excluded


def audit_pack(pack: Pack) -> list[AuditRow]:
    """One row per audited card (types whose points vary and that have statistics), in pack
    type order, then by card id. Rows with status other than `ok` are the flagged ones."""
    out: list[AuditRow] = []
    for type_id in pack.spec.card_types:
        cards = sorted(pack.cards_of(type_id), key=lambda c: c.id)
        if len(cards) < 4 or len({c.points for c in cards}) < 2:
            continue  # nothing to compare: too few cards, or every card costs the same (actions)
        table = [card_features(pack, c) for c in cards]
        sets = sorted({c.set for c in cards}, key=list(pack.spec.sets).index)
        for card, row in zip(cards, table):
            for set_id in sets[1:]:  # a type used by several sides may be priced per side
                row[f"set {set_id}"] = 1.0 if card.set == set_id else 0.0
        every = sorted({n for row in table for n in row})
        for row in table:  # an optional field a card leaves out counts as 0
            for name in every:
                row.setdefault(name, 0.0)
        names = _varying(every, table)
        points = [float(c.points) for c in cards]
        # keep the model small next to the number of cards, so leave-one-out stays meaningful:
        # drop the feature that explains least (smallest standardised coefficient)
        while names and len(cards) < MIN_CARDS_PER_TERM * (len(names) + 1):
            names.remove(_weakest(names, table, points))
        matrix = [[row[n] for n in names] for row in table]
        excluded = _outliers(matrix, points)
        kept = [j for j in range(len(cards)) if j not in excluded]
        basis = _formula(fit([matrix[j] for j in kept], [points[j] for j in kept]), names)
        for i, card in enumerate(cards):
            predicted = _predict_without(matrix, points, i, excluded)
            residual = card.points - predicted
            tolerance = _tolerance(predicted)
            note = card.fields.get("audit_note")
            if abs(residual) <= tolerance:
                status = OK
            else:
                status = DOCUMENTED if note else OUTLIER
            out.append(AuditRow(card.id, card.name, type_id, card.set, card.points, round(predicted, 1),
                                round(residual, 1), round(tolerance, 1), status, note, basis,
                                {n: table[i][n] for n in names}))
    return out


def audit_passes(rows: list[AuditRow]) -> bool:
    return not any(r.failure for r in rows)
