"""validate: `pnp validate`'s verb as library functions: a target (a pack folder, a build file
or deck list, a map file) found, loaded and checked into `Report`s. cli/validate.py parses
and prints them, as cli/preflight.py does preflight/target.py's findings and cli/build.py
build.py's run.

- `builds`: what kind a target is (`target_kind`) and a build target checked
  (`validate_build_target`); it loads no renderer and no map, so `pnp validate BUILD` starts
  within 3x of bare pydantic and YAML (bench/startup.py).
- `checks`: what a pack's verdict judges without drawing (`pack_checks`): its data
  (`pack_report`), art licences, play pieces, presets and maps; `pnp build` asks these first.
- `packs`: a pack target (`validate_pack`): the checks above, then every face, map page and
  rulebook block drawn in memory (preflight/render_check.py) and each translation.
- `maps`: a map file checked (`validate_map_file`).
- `target`: `validate_target`, any target, dispatched by kind.

May import: core, grids, pack, rules, maps, share, render, kit and preflight. Imported by build
(`pnp build` refuses what validate refuses: checks.pack_checks, and the command line's
packs.validate_pack when they refuse) and cli; never
imports build, web or cli."""
