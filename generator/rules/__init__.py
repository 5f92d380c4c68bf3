"""The build validator: rule primitives declared in a pack's game.yaml, run over a build."""

from generator.rules.engine import validate_build
from generator.rules.report import Report, Violation

__all__ = ["validate_build", "Report", "Violation"]
