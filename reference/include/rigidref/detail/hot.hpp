// RIGIDREF_HOT marks the small arithmetic helpers of the filtered collision
// paths (filter.hpp, double_word.hpp): GCC otherwise keeps several of them as
// out-of-line calls, which the benchmark's profile showed at 20-30 % of a
// query (bench/README.md). Forcing them inline changes no result.
// RIGIDREF_COLD marks the rare exact fallbacks beside them, kept out of line
// so that the hot caller stays small enough to inline.
#pragma once

#if defined(__GNUC__) || defined(__clang__)
#define RIGIDREF_HOT inline __attribute__((always_inline))
#define RIGIDREF_COLD __attribute__((noinline, cold))
#else
#define RIGIDREF_HOT inline
#define RIGIDREF_COLD
#endif
