// The names of FastMath's flags (include/spvjit/fast_math.hpp), for messages and logs.
#include "spvjit/fast_math.hpp"

namespace spvjit {

std::string to_string(FastMath flags) {
  if (flags == FastMath::none) return "none";
  if (flags == FastMath::all) return "all";
  static constexpr struct {
    FastMath flag;
    const char* name;
  } names[] = {{FastMath::reassociate, "reassociate"},
               {FastMath::contract, "contract"},
               {FastMath::no_nans, "no_nans"},
               {FastMath::no_infs, "no_infs"},
               {FastMath::no_signed_zeros, "no_signed_zeros"},
               {FastMath::reciprocal, "reciprocal"},
               {FastMath::approximate_functions, "approximate_functions"}};
  std::string out;
  for (const auto& n : names) {
    if (!has(flags, n.flag)) continue;
    if (!out.empty()) out += " | ";
    out += n.name;
  }
  return out;
}

}  // namespace spvjit
