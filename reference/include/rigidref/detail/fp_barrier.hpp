// rounded(x): x as a rounded T value that no later addition or subtraction
// can fuse with the multiplication that made it. The region of fp_begin.hpp
// turns contraction off where the compiler lets it; this covers the two
// places it cannot reach: an always-inline helper (RIGIDREF_HOT) inlined by
// GCC into code compiled with contraction, and clang's -ffp-contract=fast,
// which overrides the pragma. Used only where exactness needs the rounding:
// Veltkamp's split, the product of Dekker's TwoProd (D-EFT-2) and the
// product of DWTimesFP (double_word.hpp, detail/mass_filter.hpp). It emits
// no instruction (derivations/double_word.md, D-EFT-7).
#pragma once

#include "rigidref/detail/hot.hpp"

#include <type_traits>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref::detail {

template <class T>
RIGIDREF_HOT T rounded(T x) {
  if constexpr (std::is_floating_point_v<T>) {
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 12
    return __builtin_assoc_barrier(x);
#elif (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
    if constexpr (std::is_same_v<T, long double>)
      __asm__("" : "+m"(x));  // x87: no fused multiply-add there anyway
    else
      __asm__("" : "+x"(x));  // the value, in its SSE register
    return x;
#elif (defined(__GNUC__) || defined(__clang__)) && defined(__aarch64__)
    if constexpr (std::is_same_v<T, long double>)
      __asm__("" : "+m"(x));
    else
      __asm__("" : "+w"(x));  // the value, in its SIMD register
    return x;
#elif defined(__GNUC__) || defined(__clang__)
    __asm__("" : "+m"(x));  // through memory: slower, right everywhere
    return x;
#else
    volatile T stored = x;
    return stored;
#endif
  } else {
    return x;  // multiprecision types: their operations are function calls
  }
}

}  // namespace rigidref::detail

#include "rigidref/detail/fp_end.hpp"
