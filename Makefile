# gwasl: the two commands of the README.  Both set everything up on a fresh machine.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# a complete scenario card (victory conditions, SSR, Balance), played to its end in the user guide
SCENARIO ?= gwasl/scenarios/saint-julien-1915.json

.PHONY: run play test bench clean

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --disable-pip-version-check -q -e '.[test]'
	@touch $(STAMP)

run: $(STAMP)
	@$(BIN)/gwasl edit $(SCENARIO)

# the player window on a new game of the same scenario (its card first; README "How to play")
play: $(STAMP)
	@$(BIN)/gwasl play $(SCENARIO)

# the suite on TEST_WORKERS processes (pytest-xdist), each test file whole on one of them (its
# module fixtures built once), files that share played games together (tests/conftest.py); the mypy gate and the benchmarks' smoke runs are started once, by
# the controller (tests/conftest.py)
TEST_WORKERS ?= 2
test: $(STAMP)
	PYTHONDONTWRITEBYTECODE= QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -q -n $(TEST_WORKERS) --dist loadfile
# test: bytecode is written even where the environment says not to (PYTHONDONTWRITEBYTECODE):
# each child process of the suite (a command run as a real process, the benchmarks, the wheel's
# checks) then reuses gwasl compiled once, and a second run reuses pytest's rewritten tests
# (__pycache__ is ignored by git).

# Every benchmark script (a module with an `if __name__ == "__main__":` block) prints its
# figures; helpers such as benchmarks/maps.py have none.  tests/test_benchmarks.py runs the
# same list with --quick, so a benchmark that cannot run fails `make test`.
BENCH_ARGS ?=
bench: $(STAMP)
	@for b in $$(grep -l '^if __name__ == "__main__":' benchmarks/*.py); do m=$$(basename $$b .py); echo "== benchmarks.$$m"; QT_QPA_PLATFORM=offscreen $(BIN)/python -m benchmarks.$$m $(BENCH_ARGS) || exit 1; done

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis .mypy_cache build *.egg-info
