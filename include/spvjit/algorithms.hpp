// spvjit's parallel algorithms, built on its builder and launch path: reductions, scans, sorts,
// stream compaction and searches over Buffer, BufferView and SharedArray (docs/algorithms.md).
#pragma once

#include "spvjit/algorithms/compact.hpp"
#include "spvjit/algorithms/context.hpp"
#include "spvjit/algorithms/functors.hpp"
#include "spvjit/algorithms/extrema.hpp"
#include "spvjit/algorithms/histogram.hpp"
#include "spvjit/algorithms/reduce.hpp"
#include "spvjit/algorithms/scan.hpp"
#include "spvjit/algorithms/search.hpp"
#include "spvjit/algorithms/sort.hpp"
