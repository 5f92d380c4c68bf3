"""export: outputs derived from the rendered pages: PNG per card face and Tabletop Simulator
deck sheets (raster) and the PNGs' order manifest (order), one card face as a cached PNG for screens (cardimage), the TTS save
with its pieces (tts_save, tts_pieces), CMYK conversion (cmyk), DriveThruCards decks (dtc),
cutting-machine sheets and cut files (cut, cut_pieces), the output profiles (profile_table, a
light table; profiles/, one writer module each), the print-service presets that choose among
them (service_table) and the build options checked once (options). Print-shop PDFs are
written by render.cards.sheets.

May import: everything below it (core, grids, pack, rules, maps, share, render). Never kit,
build or cli."""
