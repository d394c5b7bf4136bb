// JSON plumbing of `rigidref eval` (docs/eval-protocol.md): reading the
// fields of a request into a scalar type with error messages that name the
// field path ("vertices[2][1]: ..."), turning results back into JSON values,
// and writing answer lines with the shortest round-trip text for numbers.
//
// Input reals (protocol, "Requests and results"):
//   - a JSON number is first a double (an integer literal becomes the double
//     nearest it), then converted to T: exactly when T is at least as wide
//     as double, correctly rounded for float;
//   - a string is converted directly to T with one correct rounding
//     (rigidref::from_string: "0.1" is 1/10 in exact; "p/q" only in exact).
//   Every input must be finite in T ("inf", "nan", an overflow -> invalid_input).
// Output reals:
//   - float, double: JSON numbers, printed with the shortest text that reads
//     back to the same value of that type. A float is stored as the double
//     nearest its shortest text, and doubles are printed with std::to_chars
//     (shortest for double), so the float's own shortest text comes out;
//   - every other type: a string from rigidref::to_string.
//   A non-finite result is never printed: it is an invalid_input error naming
//   the result field (never a silent NaN or a JSON null).
#pragma once

#include "protocol/limits.hpp"

#include "rigidref/convert.hpp"
#include "rigidref/error_text.hpp"
#include "rigidref/errors.hpp"
#include "rigidref/mat2.hpp"
#include "rigidref/scalar.hpp"
#include "rigidref/vec2.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace rigidref::tools::eval {

// Requests are parsed into `json` (std::map objects: O(log n) per key even
// for hostile lines). Answers are built in `ojson` so that the fields come
// out in the order the protocol lists them.
using json = nlohmann::json;
using ojson = nlohmann::ordered_json;

// A JSON number too large for a double ("1e400") makes nlohmann's parser
// fail. The line is parsed again with each such number replaced by a string
// with this prefix, so the request still gets its id and the error names the
// field (eval.cpp, with_overflow_markers).
// The marker starts with U+0001 (written "\u0001" in the re-parsed line).
inline constexpr std::string_view overflow_marker = "\x01rigidref-overflow:";

inline bool is_overflow_marker(const json& v) {
  return v.is_string() && v.get_ref<const std::string&>().rfind(overflow_marker, 0) == 0;
}

// A short printable rendering of a JSON value for error messages: at most
// `keep` characters of it (ASCII only: strings are written with JSON
// escapes), "..." and, for a number or string, its length when cut
// (rigidref/error_text.hpp). Number fields quote their value with
// keep = excerpt_chars: a double's text always fits, a 400-digit literal
// does not.
inline std::string brief(const json& v, std::size_t keep = 60) {
  if (is_overflow_marker(v))
    return excerpt(v.get_ref<const std::string&>().substr(overflow_marker.size()), std::min(keep, excerpt_chars));
  if (v.is_string()) {
    const std::string& s = v.get_ref<const std::string&>();
    const std::string_view head = char_prefix(s, keep);
    std::string quoted = json(std::string(head)).dump(-1, ' ', true, json::error_handler_t::replace);
    if (head.size() < s.size()) {
      quoted.insert(quoted.size() - 1, "...");
      quoted += " (" + std::to_string(char_count(s)) + " characters)";
    }
    return quoted;
  }
  std::string s = v.dump(-1, ' ', true, json::error_handler_t::replace);
  // A list or object holding overflowed numbers: show them as written (and
  // cut short), not as their marker strings.
  constexpr std::string_view dumped_marker = "\"\\u0001rigidref-overflow:";
  static_assert(dumped_marker.substr(7) == overflow_marker.substr(1));
  for (std::size_t at = s.find(dumped_marker); at != std::string::npos; at = s.find(dumped_marker, at)) {
    const std::size_t from = at + dumped_marker.size();
    const std::size_t close = s.find('"', from);  // a dumped string always ends with one
    const std::string number = excerpt(std::string_view(s).substr(from, close - from));
    s.replace(at, close + 1 - at, number);
    at += number.size();
  }
  if (s.size() > keep) s = s.substr(0, keep) + "...";
  return s;
}

// ---- JSON number -> double -> T ---------------------------------------------

// The double a JSON number stands for (protocol: "a JSON number is first a
// double"). Integer literals are converted with one correct rounding.
inline double json_number_as_double(const json& v) {
  if (v.is_number_unsigned()) return round_to<double>(exact(big_int(v.get<std::uint64_t>())));
  if (v.is_number_integer()) return round_to<double>(exact(big_int(v.get<std::int64_t>())));
  return v.get<double>();
}

// A double into T: exact for every type at least as wide as double, one
// correct rounding for float (which also turns an overflow into inf, never UB).
template <class T>
T double_to(double d) {
  if constexpr (std::is_same_v<T, float>) return round_to<float>(to_exact(d));
  else if constexpr (is_exact_v<T>) return to_exact(d);
  else return T(d);
}

namespace detail {

inline bool is_non_finite_word(std::string_view s) {
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) s.remove_prefix(1);
  std::string lower;
  for (char c : s) lower += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return lower == "inf" || lower == "infinity" || lower == "nan" || lower.rfind("nan(", 0) == 0;
}

}  // namespace detail

// The value of a JSON number or decimal string in T, or invalid_input naming `path`.
template <class T>
T real_from_json(const json& v, const std::string& path) {
  if (is_overflow_marker(v))  // (the number as written: its double would be inf)
    throw invalid_input(path + ": the JSON number " + brief(v, excerpt_chars) +
                        " is not finite as a double (JSON numbers are read as doubles; pass wider values as "
                        "strings, e.g. \"1e400\", in mp50, mp100 or exact)");
  T x;
  if (v.is_number()) {
    const double d = json_number_as_double(v);
    if (!std::isfinite(d)) throw invalid_input(path + ": the JSON number " + brief(v, excerpt_chars) + " is not finite");
    x = double_to<T>(d);
  } else if (v.is_string()) {
    const std::string& s = v.get_ref<const std::string&>();
    limits::check_number_chars(s.size(), path);
    if (detail::is_non_finite_word(s))
      throw invalid_input(path + ": non-finite value " + brief(v, excerpt_chars) + " (every input must be finite)");
    try {
      x = from_string<T>(s);
    } catch (const invalid_input& e) {
      throw invalid_input(path + ": " + e.what());
    }
  } else {
    throw invalid_input(path + ": expected a number or a decimal string, got " + brief(v, excerpt_chars));
  }
  if (!is_finite(x))
    throw invalid_input(path + ": " + brief(v, excerpt_chars) + " overflows " + std::string(scalar_name<T>()) +
                        " (use a wider precision)");
  return x;
}

// The value of an [x, y] pair in T, or invalid_input naming `path`.
template <class T>
vec2<T> pair_from_json(const json& v, const std::string& path) {
  if (!v.is_array() || v.size() != 2)
    throw invalid_input(path + ": expected an [x, y] pair (a list of 2 numbers), got " + brief(v));
  T x = real_from_json<T>(v[0], path + "[0]");
  T y = real_from_json<T>(v[1], path + "[1]");
  return {std::move(x), std::move(y)};
}

// ---- the fields of a request -------------------------------------------------

class fields {
 public:
  explicit fields(const json& request) : request_(request) {}

  bool has(const char* name) const { return request_.find(name) != request_.end(); }

  const json& require(const char* name) const {
    const auto it = request_.find(name);
    if (it == request_.end()) throw invalid_input(std::string("missing field \"") + name + "\"");
    return *it;
  }

  template <class T>
  T real(const char* name) const {
    return real_from_json<T>(require(name), name);
  }

  template <class T>
  T real_or(const char* name, const T& fallback) const {
    return has(name) ? real<T>(name) : fallback;
  }

  // A list of [x, y] pairs (`what` names them in the error message).
  template <class T>
  std::vector<vec2<T>> points(const char* name, const char* what = "vertices") const {
    const json& list = require(name);
    const std::string base(name);
    if (!list.is_array())
      throw invalid_input(base + ": expected a list of [x, y] " + what + ", got " + brief(list));
    limits::check_list_length(list.size(), base);
    std::vector<vec2<T>> out;
    out.reserve(list.size());
    for (std::size_t i = 0; i < list.size(); ++i) {
      out.push_back(pair_from_json<T>(list[i], base + "[" + std::to_string(i) + "]"));
    }
    if constexpr (is_exact_v<T>) {
      std::vector<exact> coordinates;
      for (const vec2<T>& p : out) coordinates.insert(coordinates.end(), {p.x, p.y});
      limits::check_exact_list(out.size(), coordinates, base);
    }
    return out;
  }

  // A list of reals ([] allowed; the op decides what length it needs).
  template <class T>
  std::vector<T> reals(const char* name) const {
    const json& list = require(name);
    const std::string base(name);
    if (!list.is_array()) throw invalid_input(base + ": expected a list of numbers, got " + brief(list));
    limits::check_list_length(list.size(), base);
    std::vector<T> out;
    out.reserve(list.size());
    for (std::size_t i = 0; i < list.size(); ++i)
      out.push_back(real_from_json<T>(list[i], base + "[" + std::to_string(i) + "]"));
    if constexpr (is_exact_v<T>) limits::check_exact_list(out.size(), out, base);
    return out;
  }

  // A 2x2 matrix as row lists [[a, b], [c, d]] (protocol, "Conventions"),
  // entry errors named "m[1][0]: ...".
  template <class T>
  mat2<T> matrix(const char* name) const {
    const json& m = require(name);
    const std::string base(name);
    const auto is_row = [](const json& row) { return row.is_array() && row.size() == 2; };
    if (!m.is_array() || m.size() != 2 || !is_row(m[0]) || !is_row(m[1]))
      throw invalid_input(base + " must be a 2x2 matrix [[a, b], [c, d]] (a list of 2 rows of 2 numbers), got " +
                          brief(m));
    const auto entry = [&](std::size_t i, std::size_t j) {
      return real_from_json<T>(m[i][j], base + "[" + std::to_string(i) + "][" + std::to_string(j) + "]");
    };
    T a = entry(0, 0), b = entry(0, 1), c = entry(1, 0), d = entry(1, 1);
    return {std::move(a), std::move(b), std::move(c), std::move(d)};
  }

  // An integer in [lo, hi]: a JSON number with an integral value (4 and 4.0
  // alike; no strings: this is a count, not a real).
  long long integer(const char* name, long long lo, long long hi) const {
    const json& v = require(name);
    const std::string expected = std::string(name) + ": expected an integer from " + std::to_string(lo) +
                                 " to " + std::to_string(hi) + ", got " + brief(v);
    if (v.is_number_unsigned()) {
      const std::uint64_t u = v.get<std::uint64_t>();
      if (u > static_cast<std::uint64_t>(hi) || static_cast<long long>(u) < lo) throw invalid_input(expected);
      return static_cast<long long>(u);
    }
    if (v.is_number_integer()) {
      const std::int64_t i = v.get<std::int64_t>();
      if (i < lo || i > hi) throw invalid_input(expected);
      return i;
    }
    if (v.is_number_float()) {
      const double d = v.get<double>();
      if (!std::isfinite(d) || d != std::floor(d) || d < static_cast<double>(lo) || d > static_cast<double>(hi))
        throw invalid_input(expected);
      return static_cast<long long>(d);
    }
    throw invalid_input(expected);
  }

  // One of a fixed set of strings; `fallback` when the field is absent.
  std::string choice(const char* name, std::initializer_list<std::string_view> allowed,
                     std::string_view fallback) const {
    if (!has(name)) return std::string(fallback);
    const json& v = require(name);
    if (v.is_string() && !is_overflow_marker(v)) {
      const std::string& s = v.get_ref<const std::string&>();
      for (std::string_view a : allowed)
        if (s == a) return s;
    }
    std::string list;
    for (std::string_view a : allowed) list += (list.empty() ? "\"" : ", \"") + std::string(a) + "\"";
    throw invalid_input(std::string(name) + ": expected one of " + list + ", got " + brief(v));
  }

 private:
  const json& request_;
};

// ---- results -> JSON ---------------------------------------------------------

// The double nearest the float's shortest decimal text: printed as a double
// with the shortest round-trip text, it gives that same text back (a decimal
// of at most 9 digits is the shortest text of the double nearest it).
inline double float_as_json_double(float x) {
  const std::string text = to_string(x);
  double d = 0;
  const auto res = std::from_chars(text.data(), text.data() + text.size(), d);
  if (res.ec != std::errc() || res.ptr != text.data() + text.size())
    throw std::logic_error("float text \"" + text + "\" did not read back as a double");
  return d;
}

// A result real as JSON (number for float/double, string otherwise).
template <class T>
ojson real_value(const T& x, std::string_view field) {
  if (!is_finite(x))
    throw invalid_input("the result " + std::string(field) + " is not finite in " + std::string(scalar_name<T>()) +
                        " (it overflows: use a wider precision or smaller inputs)");
  if constexpr (std::is_same_v<T, float>) return float_as_json_double(x);
  else if constexpr (std::is_same_v<T, double>) return x;
  else return to_string(x);
}

template <class T>
ojson point_value(const vec2<T>& p, std::string_view field) {
  const std::string f(field);
  return ojson::array({real_value(p.x, f + "[0]"), real_value(p.y, f + "[1]")});
}

// A 2x2 matrix as row lists [[a, b], [c, d]].
template <class T>
ojson matrix_value(const mat2<T>& m, std::string_view field) {
  const std::string f(field);
  return ojson::array({ojson::array({real_value(m.a, f + "[0][0]"), real_value(m.b, f + "[0][1]")}),
                       ojson::array({real_value(m.c, f + "[1][0]"), real_value(m.d, f + "[1][1]")})});
}

// ---- writing answer lines ----------------------------------------------------

// The shortest text that reads back to the same double (std::to_chars; never
// called with a non-finite value: real_value rejects those, and the parser
// never produces one).
inline void append_double(std::string& out, double d) {
  if (!std::isfinite(d)) {
    out += "null";  // unreachable for results; kept total so the writer never fails
    return;
  }
  char buf[64];
  const auto res = std::to_chars(buf, buf + sizeof buf, d);
  out.append(buf, res.ptr);
}

// Compact JSON text of `v` (no spaces), strings as UTF-8 with JSON escapes,
// numbers shortest. Works for json and ojson. Recursion depth is bounded by
// the nesting limit enforced before parsing (eval.cpp).
template <class J>
void append_json(std::string& out, const J& v) {
  switch (v.type()) {
    case nlohmann::json::value_t::object: {
      out += '{';
      bool first = true;
      for (auto it = v.begin(); it != v.end(); ++it) {
        if (!first) out += ',';
        first = false;
        out += J(it.key()).dump(-1, ' ', false, J::error_handler_t::replace);
        out += ':';
        append_json(out, it.value());
      }
      out += '}';
      return;
    }
    case nlohmann::json::value_t::array: {
      out += '[';
      bool first = true;
      for (const auto& e : v) {
        if (!first) out += ',';
        first = false;
        append_json(out, e);
      }
      out += ']';
      return;
    }
    case nlohmann::json::value_t::number_float:
      append_double(out, v.template get<double>());
      return;
    default:  // null, boolean, string, integers, binary: nlohmann's own text is already exact
      out += v.dump(-1, ' ', false, J::error_handler_t::replace);
      return;
  }
}

template <class J>
std::string to_json_text(const J& v) {
  std::string out;
  append_json(out, v);
  return out;
}

}  // namespace rigidref::tools::eval
