# Sanitizer and fuzzer builds. Included before any target is declared, so the flags reach the
# library, the tests and the fuzzers alike. One build directory per configuration, each a
# preset of CMakePresets.json (cmake --preset X && cmake --build --preset X):
#
#   asan  build-asan/  SPVJIT_SANITIZE="address;undefined", SPVJIT_BUILD_BENCH=OFF
#   tsan  build-tsan/  SPVJIT_SANITIZE=thread, SPVJIT_BUILD_BENCH=OFF (check.sh builds only
#                      the library and spvjit_concurrency_tests there)
#   fuzz  build-fuzz/  clang-15, SPVJIT_BUILD_FUZZERS=ON, SPVJIT_SANITIZE="address;undefined",
#                      tests and benchmarks off
#
# The sanitizer presets compile at -O1 -g1 (line tables: what a sanitizer's stack trace needs):
# one test file's ASan+UBSan compile took 18.5 s at -O2 -g, 10.1 s so (one measurement, beside
# another build).
#
# PoCL, libLLVM and the kernels PoCL compiles stay uninstrumented; sanitizers/*.supp silence
# their own reports (and nothing of ours).

set(SPVJIT_SANITIZE "" CACHE STRING
    "Sanitizers for every target: a list such as address;undefined, or thread (empty: none)")
option(SPVJIT_BUILD_FUZZERS "Build the libFuzzer targets in fuzz/ (needs clang)" OFF)

# The allocation counter interposes malloc, and so do ASan's and TSan's interceptors: the two
# cannot share a process. Sanitizer builds leave it (and the tests that read it) out.
if(SPVJIT_SANITIZE)
  set(_spvjit_alloc_counter_default OFF)
else()
  set(_spvjit_alloc_counter_default ON)
endif()
option(SPVJIT_ALLOC_COUNTER "Build the malloc-interposing allocation counter and its tests"
       ${_spvjit_alloc_counter_default})
if(SPVJIT_ALLOC_COUNTER AND SPVJIT_SANITIZE)
  message(FATAL_ERROR "SPVJIT_ALLOC_COUNTER=ON conflicts with SPVJIT_SANITIZE=${SPVJIT_SANITIZE}: "
                      "both interpose malloc. Configure with -DSPVJIT_ALLOC_COUNTER=OFF.")
endif()

if(SPVJIT_SANITIZE)
  if("thread" IN_LIST SPVJIT_SANITIZE AND "address" IN_LIST SPVJIT_SANITIZE)
    message(FATAL_ERROR "SPVJIT_SANITIZE: thread and address cannot be combined; use two build "
                        "directories")
  endif()
  list(JOIN SPVJIT_SANITIZE "," _spvjit_sanitizers)
  add_compile_options(-fsanitize=${_spvjit_sanitizers} -fno-omit-frame-pointer -g1)
  add_link_options(-fsanitize=${_spvjit_sanitizers})
  if("undefined" IN_LIST SPVJIT_SANITIZE)
    # A UBSan report must fail the test, not scroll by. The vptr check is off because libLLVM
    # is built without RTTI: its classes have no typeinfo for the check to compare against.
    add_compile_options(-fno-sanitize-recover=all -fno-sanitize=vptr)
  endif()
  message(STATUS "spvjit: sanitizers ${_spvjit_sanitizers}; allocation counter off")
endif()

if(SPVJIT_BUILD_FUZZERS)
  # Probe for clang's libFuzzer runtime (Debian 12: libclang-common-15-dev). Without it the
  # fuzz targets are skipped, not failed: the rest of the build does not need them.
  include(CheckCXXSourceCompiles)
  set(CMAKE_REQUIRED_FLAGS -fsanitize=fuzzer)
  set(CMAKE_REQUIRED_LINK_OPTIONS -fsanitize=fuzzer)
  check_cxx_source_compiles([[
    #include <cstddef>
    #include <cstdint>
    extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t*, std::size_t) { return 0; }
  ]] SPVJIT_HAVE_LIBFUZZER)
  unset(CMAKE_REQUIRED_FLAGS)
  unset(CMAKE_REQUIRED_LINK_OPTIONS)
  if(SPVJIT_HAVE_LIBFUZZER)
    # Coverage instrumentation for everything, so the fuzzer is guided by the library's code
    # too; only the fuzz executables link libFuzzer's main.
    add_compile_options(-fsanitize=fuzzer-no-link)
  else()
    message(WARNING "spvjit: libFuzzer runtime not found for ${CMAKE_CXX_COMPILER} "
                    "(Debian 12: install libclang-common-15-dev and configure with clang++-15); "
                    "fuzz targets skipped")
  endif()
endif()
