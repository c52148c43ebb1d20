// spvjit's parallel algorithms, built on its builder and launch path: reductions, scans, sorts,
// stream compaction and searches over Buffer, BufferView and SharedArray (docs/algorithms.md).
#pragma once

#include "spvjit/algorithms/context.hpp"
#include "spvjit/algorithms/functors.hpp"
#include "spvjit/algorithms/reduce.hpp"
#include "spvjit/algorithms/search.hpp"
#include "spvjit/algorithms/sort.hpp"
