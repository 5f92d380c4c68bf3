"""The output profiles of `pnp build --profile`: one row each, with what it makes, which
colours it prints in, whether it takes the saved duplex reading and the module that writes
it. It imports no writer, so the command line, the build options, the print-service
presets and preflight read it without loading ReportLab; the writers are the modules of
export/profiles/ (one per profile, each declaring the same name: tests/test_profiles.py
checks that the two agree).

A new profile is one module in export/profiles/ and one row here.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ProfileRow:
    name: str
    help: str                       # what it makes, for `pnp build --help`
    module: str                     # generator.export.profiles.<module>
    colors: tuple[str, ...] = ("rgb",)  # the colours it prints in; the first is its default
    calibrated: bool = False        # printed duplex at home: the saved back-offset reading applies
    parts: tuple[str, ...] = ("cards",)  # what it builds (`--only` chooses among the home kit's)
    # parts written by a module of their own, (part, module) pairs: the home kit's pieces, maps and
    # rulebook, so that `--only cards` (and the cards worker of a whole kit) loads no piece, map or
    # rulebook renderer; every other part is `module`'s
    part_modules: tuple[tuple[str, str], ...] = ()

    def module_of(self, part: str | None = None) -> str:
        """The module of export/profiles/ that writes `part` of this profile."""
        return dict(self.part_modules).get(part or "", self.module)

    def modules(self) -> set[str]:
        return {self.module, *(module for _, module in self.part_modules)}


PROFILES: dict[str, ProfileRow] = {row.name: row for row in (
    # the home kit's parts in the order the build's two workers take them, each the next part when one is
    # free: Boss Fight's maps 0.32 s CPU (their text's contrast judged as they are drawn), rulebook 0.57
    # with its quick reference, cards 0.47, pieces 0.13; so maps then cards beside rulebook, then pieces.
    # (Three workers sharing the two cores, the three long parts at once, measured slower: 1.26-1.37 s
    # wall against 1.20-1.22, medians of 9 interleaved whole kits: the cores switching between them.)
    ProfileRow("home", "home sheets", "home", calibrated=True, parts=("maps", "rulebook", "cards", "pieces"),
               part_modules=(("pieces", "home_pieces"), ("maps", "home_maps"), ("rulebook", "home_rulebook"))),
    ProfileRow("gutterfold", "gutterfold", "gutterfold"),
    ProfileRow("print-shop", "print-shop PDF", "print_shop", colors=("rgb", "cmyk")),
    ProfileRow("png", "PNG per card", "png"),
    ProfileRow("tts", "TTS sheets and save", "tts"),
    ProfileRow("dtc", "DriveThruCards decks", "dtc", colors=("cmyk", "rgb")),
    ProfileRow("cut", "cutting-machine sheets", "cut", calibrated=True),
    ProfileRow("printplaygames", "PrintPlayGames sheets", "printplaygames"),
)}


def profiles_help() -> str:
    """The --profile option's help: what each profile makes, in the table's order."""
    names = [row.help for row in PROFILES.values()]
    return f"What to make: {', '.join(names)}."
