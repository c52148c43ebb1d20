// KernelAbstractions' test/print_test.jl ported line for line. The test (test/ka/print_test.cpp)
// reads what it prints from spvjit_print_probe, which launches it in a process of its own
// (test/print_probe.cpp, `spvjit_print_probe kernel_print`).
//
// The KA kernel and its launch, quoted from JuliaGPU/KernelAbstractions.jl, test/print_test.jl
// at commit 9bf8fd59 (MIT license, Copyright (c) 2018-2021: Valentin Churavy, and other
// contributors):
/*
@kernel function kernel_print()
    I = @index(Global)
    @print("Hello from thread ", I, "!\n")
end

        kernel = kernel_print(backend(), 4)
        redirect_stdout(devnull) do
            kernel(ndrange = (4,))
            synchronize(backend())
        end
*/
#pragma once

#include "spvjit/spvjit.hpp"

namespace spvjit::ka {

inline KernelDef kernel_print() {
  KernelBuilder kb("kernel_print");
  auto I = global_linear(kb);  // @index(Global): linear, 0-based
  // KA's I counts from 1: print the same numbers it prints.
  print(kb, "Hello from thread %ld!\n", I + 1);
  return kb.finish();
}

/// kernel_print(backend(), 4): a static workgroup of 4.
inline Specialization kernel_print_sizes() {
  Specialization spec;
  spec.workgroup = WorkGroup{4};
  return spec;
}

}  // namespace spvjit::ka
