# The AddressSanitizer, LeakSanitizer and UndefinedBehaviorSanitizer options every ASan run of
# spvjit shares (sanitizers/check.sh asan, fuzz/run.sh): sourced, with the repository root as $1.
# Each run appends its own options to ASAN_OPTIONS after sourcing.
#
# intercept_tls_get_addr=0: the cause of "Tracer caught signal 11: addr=0x8e8 ... LeakSanitizer
# has encountered a fatal error" at exit (issue #45). With it on (ASan's default), the sanitizer
# runtime records each dynamic-TLS block a thread gets from __tls_get_addr (PoCL's libpocl, which
# carries a static LLVM with thread_local state, is dlopen'ed: its TLS is dynamic) so that the
# leak check can scan it. The runtimes we use (GCC 12's libasan8 and clang-15's) guess where such
# a block starts: when the address __tls_get_addr returns is 16 bytes past a 4 KiB boundary they
# take the 16 bytes before it for glibc 2.19's block header {start, size}
# (sanitizer_tls_get_addr.cpp; libasan8's DTLS_on_tls_get_addr: `and $0xfff` / `cmp $0x10`).
# Under ASan glibc's blocks come from ASan's malloc, so those bytes are ASan's chunk header: a
# start like 0x8e8 and a garbage size. The exit-time check then scans that range in its tracer
# thread, which faults. ASan's 16-byte-aligned chunks put a block there about 1 time in 256, so a
# process with many threads times dlopen'ed TLS modules (two Runtimes, inline workers, compile
# companions) crashed often, and again on a retry: the layout repeats. Upstream replaced the
# guess with the allocator's own chunk start (LLVM 17). Off, nothing that can be reached is lost:
# glibc's DTV and its blocks are malloc'ed, and reached from the thread control block inside the
# static TLS range the check scans anyway.
export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:intercept_tls_get_addr=0"
export LSAN_OPTIONS="suppressions=$1/sanitizers/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
