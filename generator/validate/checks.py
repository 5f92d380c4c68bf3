"""What a pack's verdict judges without drawing (`pack_checks`): the pack's own data and rules
(`pack_report`), its art's licences (`art_findings`), its play pieces, every preset and every
map. `pnp build` asks these first (build.py) and loads none of the drawn checks (validate/packs.py,
preflight/render_check.py: every map page and rulebook block laid out) unless they refuse."""

from __future__ import annotations

from generator.core.errors import InputError, Location, Problem, short_list
from generator.core.report import Report, Violation
from generator.core.words import counted
from generator.pack.credits import pack_credits
from generator.maps.load import load_pack_maps
from generator.pack.load import load_presets, preset_results
from generator.pack.model import Pack
from generator.render.pieces.model import check_pieces
from generator.rules.engine import validate_build
from generator.rules.pack_checks import validate_pack_rules
from generator.validate.maps import validate_map_file


def pack_checks(pack: Pack, points: int | str | None = None,
                max_characters: int | None = None) -> tuple[list[Report], list[Problem]]:
    """What the pack's verdict judges without drawing: its play pieces, its own rules, its art's
    licences, every preset and every map (a tenth of a second for boss_fight). `pnp build` asks
    these first (build.py: check_before_building) and refuses what they refuse."""
    problems: list[Problem] = []
    if getattr(pack.spec, "pieces", None) is not None:
        problems.extend(check_pieces(pack))
    reports = [pack_report(pack)]
    reports[0].violations.extend(art_findings(pack))  # the designer's to-do, beside the pack's rules
    for _path, build, stopped in preset_results(pack):  # built once: the rulebook check shares them
        if build is None:
            problems.extend(stopped)
            continue
        try:
            reports.append(validate_build(pack, build, points, max_characters))
        except InputError as exc:
            problems.extend(exc.problems)
    for map_file in pack.map_files:
        try:
            # the rules' setup, and the maps' scenario zones too: the kit prints both
            reports.extend(validate_map_file(pack, map_file, None, "both"))
        except InputError as exc:
            problems.extend(exc.problems)
    return reports, problems


def pack_report(pack: Pack) -> Report:
    """The pack's own data: counts per set and type (the loader already refused broken data)."""
    report = Report(file=pack.game_file, kind="pack", name=f"{pack.spec.name} {pack.spec.version}")
    counts: dict[str, dict[str, int]] = {}  # set -> card type -> cards
    for card in pack.cards.values():
        counts.setdefault(card.set, {}).setdefault(card.type, 0)
        counts[card.set][card.type] += 1
    report.stats = {"cards": len(pack.cards), "by_set": counts,
                    "presets": len(pack.preset_files), "maps": len(pack.map_files)}
    report.violations.extend(validate_pack_rules(pack))
    return report


def art_findings(pack: Pack) -> list[Violation]:
    """An image whose licence no card declares (a warning: the build cannot credit it), and the
    cards that print the placeholder for want of art (info: a pack in the making has them)."""
    credits = pack_credits(pack)
    out = []
    for image in credits.unlicensed:
        card = pack.cards[image.cards[0]]
        out.append(Violation(
            "art.licence", "warning", f"the image `{image.file}` ({counted(f'{len(image.cards)} card(s)')}: "
            f"{short_list(image.cards, 4)}) declares no licence, so the build cannot credit it",
            card.field_locations.get("art", card.location), f"{card.id}.art", observed=image.file,
            expected="its `author:` and `licence:`",
            fix=f"art: {{file: {image.file}, author: WHO, licence: WHICH}} (docs/formats.md, Card art)"))
    if credits.without_art:
        ids = credits.without_art
        out.append(Violation(
            "art.missing", "info", f"{counted(f'{len(ids)} card(s)')} of {len(pack.cards)} print the placeholder "
            f"picture, having no `art:`: {short_list(ids, 6)}", Location(pack.game_file), "cards",
            observed=len(ids), expected=0,  # which: `pnp list --format json`, `art` null
            fix="give each an icon of the bundled set (`pnp icons search WORD`, then `art: {icon: NAME}`) "
                "or an image file (docs/formats.md, Card art)"))
    return out


def read_shared_files(pack: Pack) -> None:
    """Parse the files several parts need (maps, presets) once, before the pack goes to worker
    processes (forked: each has them, not reading them again, and the checks above find them
    read); a broken map is left for its own check to report."""
    load_presets(pack)
    if pack.map_files:
        try:
            load_pack_maps(pack)
        except InputError:
            pass
