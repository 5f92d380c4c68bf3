"""core: what every layer shares and nothing of ours lies under: errors and diagnostics
(Location, Problem, InputError, Violation, Report), safe file writing (atomic_output), path
confinement (resolve_inside) and the YAML reader that remembers where each value was written.

May import: the standard library and third-party packages only; nothing else of `generator`."""
