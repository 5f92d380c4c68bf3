"""Exports derived from the drawn PDFs: PNG per card face and Tabletop Simulator deck
sheets (raster), the TTS save with its pieces (tts_save, tts_pieces), CMYK conversion
(cmyk), DriveThruCards decks (dtc), cutting-machine sheets and cut files (cut,
cut_pieces), and the print-service presets that choose among them (services).

May import: the core modules, the pack model and render; never kit, build or the
command line (they call down into this package)."""
