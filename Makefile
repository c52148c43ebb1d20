# The two commands of the README: `make test` and `make bench`. Each installs what it needs.
BUILD ?= build
POCL_PREFIX ?= /opt/spvjit-pocl-6.0
FILTER ?=
export OCL_ICD_VENDORS ?= $(POCL_PREFIX)/etc/OpenCL/vendors
# One compiler cache for every build directory (build/, build-asan/, build-tsan/, build-fuzz/)
# and every clone on this machine: paths under the clone are hashed relative to it, so a fresh
# clone of the same sources compiles nothing again. CMakeLists.txt puts ccache in front.
export CCACHE_DIR ?= /opt/spvjit-ccache
export CCACHE_BASEDIR ?= $(CURDIR)
export CCACHE_NOHASHDIR ?= 1
# The test binary's precompiled header (test/CMakeLists.txt): ccache takes -include'd PCHs only
# with these sloppinesses, and otherwise compiles every test file again.
export CCACHE_SLOPPINESS ?= pch_defines,time_macros,include_file_mtime,include_file_ctime
export CCACHE_MAXSIZE ?= 8G

.PHONY: all deps build test check examples bench clean check-asan check-tsan sanitizers soak fuzz

all: build

# Each stage of `make test` says how long it took ("stage <name>: N s"), for the CI log.
STAGE = bash $(CURDIR)/third_party/stage.sh

deps:
	$(STAGE) deps bash third_party/install-deps.sh
	$(STAGE) pocl env SPVJIT_POCL_PREFIX=$(POCL_PREFIX) bash third_party/pocl/build.sh

$(BUILD)/build.ninja:
	cmake -S . -B $(BUILD) -G Ninja

build: deps $(BUILD)/build.ninja
	$(STAGE) build cmake --build $(BUILD)

# Each doctest case is its own CTest test (its own process); two at a time is safe (temporary
# directories, caches and cgroups are per process) and quicker than one process for them all.
test: build
	cd $(BUILD) && $(STAGE) ctest ctest --output-on-failure -j2
	$(STAGE) examples $(MAKE) --no-print-directory examples
	$(STAGE) check-asan $(MAKE) --no-print-directory check-asan
	$(STAGE) check-tsan $(MAKE) --no-print-directory check-tsan
	$(STAGE) fuzz $(MAKE) --no-print-directory fuzz

# The inner loop (docs/contributing.md, "Which tests when"): an incremental build, then every
# test but those that took over CHECK_SECONDS in this build directory's last run (test/quick.sh).
CHECK_SECONDS ?= 3
check: build
	$(STAGE) check bash test/quick.sh $(BUILD) $(CHECK_SECONDS)

# The examples consume the *installed* package, as an embedding application would: install into
# $(BUILD)/install, build examples/ against it with CMake, and one of them with pkg-config.
examples: build
	cmake --install $(BUILD) --prefix $(CURDIR)/$(BUILD)/install >/dev/null
	cmake -S examples -B $(BUILD)/examples -G Ninja -DCMAKE_PREFIX_PATH=$(CURDIR)/$(BUILD)/install >/dev/null
	cmake --build $(BUILD)/examples
	cd $(BUILD)/examples && ctest --output-on-failure
	PKG_CONFIG_PATH=$$(dirname $$(find $(CURDIR)/$(BUILD)/install -name spvjit.pc)) sh -c \
	  'c++ examples/embed_saxpy.cpp $$(pkg-config --cflags --libs spvjit) -o $(BUILD)/examples/embed_saxpy_pkgconfig'
	$(BUILD)/examples/embed_saxpy_pkgconfig

# The benchmark suite; FILTER=<regex> runs the matching cases only. Results: $(BUILD)/bench/.
bench: build
	$(BUILD)/bench/run_suite.sh '$(FILTER)'

# Reliability checks (docs/reliability.md, "Guarantees"); `make test` runs them after the suite.
FUZZ_SECONDS ?= 60
check-asan: deps
	bash sanitizers/check.sh asan
check-tsan: deps
	bash sanitizers/check.sh tsan
sanitizers: check-asan check-tsan
soak: build
	$(BUILD)/test/spvjit_soak
	$(BUILD)/test/spvjit_kernel_churn
fuzz: deps
	bash fuzz/run.sh $(FUZZ_SECONDS)

clean:
	rm -rf $(BUILD)
