"""Rule parameters with their defaults, declared once by the primitive that reads them.

A primitive that has a parameter a pack may leave out says so where it is defined:

    @declares("deck_size", size=30)
    def deck_size(ctx, rule): ...

and reads it with `parameter(rule, "size")`. The editor's deck target (generator.web.view),
the copy picker (generator.web.picker, through `copy_limit_of`) and the rulebook's
`{{ rules.deck_size }}` (generator.render.rulebook.templating) read the same value, so a rule
without `size:` means 30 everywhere. `PARAMETERS` maps a primitive's name to its defaults."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from generator.pack.model import RuleSpec

F = TypeVar("F", bound=Callable[..., object])

PARAMETERS: dict[str, dict[str, object]] = {}


def declares(check: str, **defaults: object) -> Callable[[F], F]:
    """Record the parameters of the primitive `check` and their defaults."""

    def wrap(fn: F) -> F:
        if check in PARAMETERS:
            raise RuntimeError(f"rule primitive `{check}` declares its parameters twice")
        PARAMETERS[check] = dict(defaults)
        fn.parameters = PARAMETERS[check]  # type: ignore[attr-defined]  # a function's own attribute, which no callable type declares
        return fn

    return wrap


def parameter(rule: RuleSpec, name: str) -> Any:  # an int, a text, a list... as the primitive declares it
    """The value of `name` for `rule`: what the pack wrote, else the primitive's default."""
    value = getattr(rule, name, None)
    if value is not None:
        return value
    return PARAMETERS.get(rule.check, {}).get(name)
