# gwasl: the two commands of the README.  Both set everything up on a fresh machine.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
SCENARIO ?= scenarios/bois-des-caures-1916.json

.PHONY: run test bench clean

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --disable-pip-version-check -q -e '.[test]'
	@touch $(STAMP)

run: $(STAMP)
	@$(BIN)/gwasl edit $(SCENARIO)

test: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -q

bench: $(STAMP)
	@for b in benchmarks/*.py; do echo "== $$b"; QT_QPA_PLATFORM=offscreen $(BIN)/python $$b || exit 1; done

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build *.egg-info
