// Starts a Runtime and reports the outcome, for tests that need a fresh ICD loader state (the
// loader reads OCL_ICD_VENDORS once per process). Exit 0: a device; 2: DeviceNotFoundError.
#include <cstdio>

#include "spvjit/runtime.hpp"

int main() {
  try {
    spvjit::Runtime rt;
    std::printf("device: %s\n", rt.device().summary().c_str());
    return 0;
  } catch (const spvjit::DeviceNotFoundError& e) {
    std::printf("DeviceNotFoundError: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::printf("other error: %s\n", e.what());
    return 1;
  }
}
