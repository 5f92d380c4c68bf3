"""`python -m generator.cli`: the same as `pnp`."""

from generator.cli import main

main()
