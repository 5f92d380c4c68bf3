# Each target sets up .venv by itself: on a fresh machine `make kit` and `make test` are the whole set-up.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: kit test lint bench clean schemas serve gallery

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip  # 25.1 or newer reads the dependency groups
	$(PY) -m pip install --quiet -e . --group test --group bench
	$(PY) -m compileall -q generator  # PYTHONDONTWRITEBYTECODE may be set: without this every run recompiles
	touch $(STAMP)

kit: $(STAMP)
	$(PY) -m generator build card_data/boss_fight

# the gate every change passes before it lands: ruff (lint) and mypy (types), configured in pyproject.toml
lint: $(STAMP)
	$(VENV)/bin/ruff check generator tests
	$(VENV)/bin/mypy

test: lint
	@{ command -v qpdf && command -v msgfmt && command -v pdffonts && command -v chromium && command -v gs && [ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] && { ls /usr/lib/postgresql/*/bin/initdb || command -v initdb; }; } >/dev/null 2>&1 || { SUDO=$$([ "$$(id -u)" = 0 ] || echo "sudo -n"); \
	  echo "make test: installing qpdf gettext poppler-utils chromium ghostscript fonts-dejavu-core postgresql with apt-get (the tests' PDF checks, PO file check, ink check, browser tests and PostgreSQL tests use them; see README, Running the tests)"; \
	  ($$SUDO apt-get update -qq && $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq qpdf gettext poppler-utils chromium ghostscript fonts-dejavu-core postgresql) >/dev/null 2>&1 \
	  || echo "note: qpdf/gettext/chromium/ghostscript/postgresql not installed (needs apt-get as root or sudo); their checks, the browser tests and the PostgreSQL tests will be skipped"; }
	$(PY) -m pytest -q -n auto --dist loadfile  # one worker per core; a test file stays on one worker (its fixtures build once)

bench: $(STAMP)
	$(PY) -m compileall -q generator  # bytecode as an installed wheel has it, whatever was edited since set-up
	$(PY) bench/run.py
	$(PY) bench/web_load.py
	$(PY) bench/community_load.py

# the deck builder in the browser, on http://localhost:8000/ (Ctrl-C stops it); `make serve PORT=8001` for another port
PORT ?= 8000
serve: $(STAMP)
	$(PY) -m generator serve card_data/boss_fight --port $(PORT)

# the README's pictures drawn from the shipped packs: the gallery (tools/gallery.py) and the kit's
gallery: $(STAMP)
	$(PY) tools/gallery.py
	$(PY) tools/readme_images.py cards maps rulebook  # the kit's pictures further down the README

schemas: $(STAMP)
	for pack in card_data/*/; do $(PY) -m generator schema --pack $$pack || exit 1; done

clean:
	rm -rf $(VENV) output/*/ .pytest_cache .mypy_cache .ruff_cache
