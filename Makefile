# The two commands of the README: `make test` and `make bench`. Each installs what it needs.
BUILD ?= build
POCL_PREFIX ?= /opt/spvjit-pocl-6.0
FILTER ?=
export OCL_ICD_VENDORS ?= $(POCL_PREFIX)/etc/OpenCL/vendors

.PHONY: all deps build test bench clean check-asan check-tsan sanitizers soak fuzz

all: build

deps:
	bash third_party/install-deps.sh
	SPVJIT_POCL_PREFIX=$(POCL_PREFIX) bash third_party/pocl/build.sh

$(BUILD)/build.ninja:
	cmake -S . -B $(BUILD) -G Ninja

build: deps $(BUILD)/build.ninja
	cmake --build $(BUILD)

test: build
	cd $(BUILD) && ctest --output-on-failure
	$(MAKE) --no-print-directory sanitizers fuzz

bench: build
	$(BUILD)/bench/spvjit_saxpy_demo

# Reliability checks (README, "Guarantees"); `make test` runs them after the suite.
FUZZ_SECONDS ?= 60
check-asan: deps
	bash sanitizers/check.sh asan
check-tsan: deps
	bash sanitizers/check.sh tsan
sanitizers: check-asan check-tsan
soak: build
	$(BUILD)/test/spvjit_soak
fuzz: deps
	bash fuzz/run.sh $(FUZZ_SECONDS)

clean:
	rm -rf $(BUILD)
