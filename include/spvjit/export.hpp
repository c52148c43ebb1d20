// What libspvjit.so exports. The library is compiled with hidden visibility; each public header
// puts its declarations between SPVJIT_API_BEGIN and SPVJIT_API_END, so exactly what
// include/spvjit declares — the API, and the few functions its inline code calls — leaves the
// library, and nothing of LLVM, SPIRV-Tools or spvjit's own internals does
// (test/test_exports.sh checks it).
#pragma once

#if defined(__GNUC__)
#define SPVJIT_API_BEGIN _Pragma("GCC visibility push(default)")
#define SPVJIT_API_END _Pragma("GCC visibility pop")
/// An internal class that a public header names: declared inside the API region it would be
/// exported, so its forward declaration and its definition both say it is not (they must agree).
#define SPVJIT_INTERNAL __attribute__((visibility("hidden")))
#else
#define SPVJIT_API_BEGIN
#define SPVJIT_API_END
#define SPVJIT_INTERNAL
#endif
