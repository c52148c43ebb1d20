#include "jit/fast_math_options.hpp"

namespace spvjit::detail {

FastMath fast_math_of_build_options(std::string_view options) {
  constexpr FastMath unsafe = FastMath::reassociate | FastMath::contract |
                              FastMath::no_signed_zeros | FastMath::reciprocal |
                              FastMath::approximate_functions;
  static constexpr struct {
    std::string_view option;
    FastMath flags;
  } known[] = {{"-cl-mad-enable", FastMath::contract},
               {"-cl-no-signed-zeros", FastMath::no_signed_zeros},
               {"-cl-finite-math-only", FastMath::no_nans | FastMath::no_infs},
               {"-cl-unsafe-math-optimizations", unsafe},
               {"-cl-fast-relaxed-math", FastMath::all}};
  FastMath flags = FastMath::none;
  std::size_t at = 0;
  while (at < options.size()) {
    const std::size_t start = options.find_first_not_of(" \t\n\r", at);
    if (start == std::string_view::npos) break;
    std::size_t end = options.find_first_of(" \t\n\r", start);
    if (end == std::string_view::npos) end = options.size();
    const std::string_view word = options.substr(start, end - start);
    for (const auto& k : known) {
      if (word == k.option) flags = flags | k.flags;
    }
    at = end;
  }
  return flags;
}

}  // namespace spvjit::detail
