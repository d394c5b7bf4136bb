// FMA by runtime dispatch (issue 28, item 7): RIGIDREF_FMA_CLONES marks a
// function that GCC compiles twice on x86-64 Linux, for the baseline and for
// processors with FMA; the loader picks one by cpuid (an ifunc). The default
// build keeps no -march. std::fma is correctly rounded either way (glibc's
// call in the baseline clone, the instruction in the FMA clone), and
// contraction stays off in both (detail/fp_begin.hpp), so every value, bound
// and answer is the same bits in both clones (D-GJK-22, D-EPA-13).
// Empty elsewhere, when the build already has FMA (-mfma, -march), or when
// RIGIDREF_NO_FMA_CLONES is defined.
#pragma once

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__) && !defined(__FMA__) && \
    !defined(RIGIDREF_NO_FMA_CLONES)
#define RIGIDREF_FMA_CLONES __attribute__((target_clones("default", "fma")))
#else
#define RIGIDREF_FMA_CLONES
#endif
