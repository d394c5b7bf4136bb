// The limits on one request line of the eval protocol (docs/eval-protocol.md
// 1.4, "Limits"): they bound the time and memory a single line can cost.
// Beyond a limit the answer is invalid_input with a message naming the
// limit. `rigidref eval`, `rigidref check` and every engine adapter
// (rigidref/protocol/adapter_io.hpp) hold lines to them. The worst times
// within the limits are measured by tools/eval/measure_limits.sh and written
// in the protocol.
#pragma once

#include "rigidref/errors.hpp"
#include "rigidref/scalar.hpp"

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref::protocol::limits {

// Bytes of one request line (after dropping a CRLF's '\r'). A polygon of
// max_list_length vertices with full-precision double coordinates is ~60 kB.
inline constexpr std::size_t max_line_bytes = 1 << 20;

// Bytes of one answer line `rigidref check` reads: a scene.run answer
// carries every recorded frame (100 bodies for 600 frames is ~10 MB).
inline constexpr std::size_t max_answer_line_bytes = std::size_t(32) << 20;

// Entries of one list of points or numbers (polygon vertices, shape_match
// points and weights).
inline constexpr std::size_t max_list_length = 1000;

// Characters of one decimal string ("0.1", "-1.5e-300", "p/q"): enough for
// the exact decimal expansion of every double (at most 767 significant
// digits) with sign and exponent.
inline constexpr std::size_t max_number_chars = 800;

// In "exact": the bits of the largest numerator plus those of the largest
// denominator among the values of one list (a polygon's coordinates, ...).
// Rational arithmetic costs grow with it and the O(n^2) exact predicates
// multiply that by the list length: 1000 vertices mixing 1e300 and 1e-300
// (2047 bits) took minutes; within this limit the worst is measured in the
// protocol. Above it the answer is `unsupported` (mp100 takes such inputs).
inline constexpr long max_exact_list_bits = 256;

// Entries of one list in "exact": the exact predicates (the O(n^2)
// simplicity test of mass.polygon) cost n^2 rational operations; 1000
// vertices at max_exact_list_bits took 41 s. Above it: `unsupported`.
inline constexpr std::size_t max_exact_list_length = 200;

// Deepest nesting of arrays/objects in a line (eval: parse_error; check:
// unreadable). Deeper JSON would only exhaust the stack of the recursive
// writers, and no request needs more than 3 levels.
inline constexpr int max_nesting = 256;

// The deepest [ / { nesting outside strings (the line need not be valid JSON).
inline int nesting_depth(std::string_view line) {
  int depth = 0, deepest = 0;
  bool in_string = false, escaped = false;
  for (char c : line) {
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > deepest) deepest = depth;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return deepest;
}

inline std::string limit_note(const char* name) {
  return std::string(" (limit ") + name + ", docs/eval-protocol.md section 1.4)";
}

inline void check_list_length(std::size_t size, const std::string& path) {
  if (size > max_list_length)
    throw invalid_input(path + ": " + std::to_string(size) + " entries, more than " +
                        std::to_string(max_list_length) + limit_note("max_list_length"));
}

inline void check_number_chars(std::size_t size, const std::string& path) {
  if (size > max_number_chars)
    throw invalid_input(path + ": a number string of " + std::to_string(size) + " characters, more than " +
                        std::to_string(max_number_chars) + limit_note("max_number_chars"));
}

// The bits of the widest numerator plus those of the widest denominator.
inline long exact_list_bits(const std::vector<exact>& values) {
  long num_bits = 0, den_bits = 0;
  for (const exact& v : values) {
    if (v == 0) continue;
    const big_int n = numerator(v), d = denominator(v);
    num_bits = std::max(num_bits, static_cast<long>(msb(n < 0 ? big_int(-n) : n)) + 1);
    den_bits = std::max(den_bits, static_cast<long>(msb(d)) + 1);
  }
  return num_bits + den_bits;
}

inline void check_exact_list(std::size_t entries, const std::vector<exact>& values, const std::string& path) {
  if (entries > max_exact_list_length)
    throw unsupported(path + ": " + std::to_string(entries) + " entries, more than " +
                      std::to_string(max_exact_list_length) + " in \"exact\"" + limit_note("max_exact_list_length") +
                      "; use \"mp100\"");
  const long bits = exact_list_bits(values);
  if (bits > max_exact_list_bits)
    throw unsupported(path + ": in \"exact\" these values need " + std::to_string(bits) +
                      " bits (widest numerator + widest denominator), more than " +
                      std::to_string(max_exact_list_bits) + limit_note("max_exact_list_bits") +
                      "; use \"mp100\"");
}

}  // namespace rigidref::protocol::limits

#include "rigidref/detail/fp_end.hpp"
