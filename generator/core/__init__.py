"""core: what every layer shares and nothing of ours lies under: errors and diagnostics
(Location, Problem, InputError, Violation, Report), safe file writing (atomic_output), path
confinement (resolve_inside), the YAML reader that remembers where each value was written,
duplex geometry (duplex.py: the sign a calibration reading needs for each flip), the saved
duplex calibration (calibration.py) and where the shipped templates and example games are
(resources.py).

May import: the standard library and third-party packages only; nothing else of `generator`."""
