# The two commands of the README: `make test` and `make bench`. Each installs what it needs.
BUILD ?= build
POCL_PREFIX ?= /opt/spvjit-pocl-6.0
FILTER ?=
export OCL_ICD_VENDORS ?= $(POCL_PREFIX)/etc/OpenCL/vendors

.PHONY: all deps build test bench clean

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

# The benchmark suite; FILTER=<regex> runs the matching cases only. Results: $(BUILD)/bench/.
bench: build
	$(BUILD)/bench/run_suite.sh '$(FILTER)'

clean:
	rm -rf $(BUILD)
