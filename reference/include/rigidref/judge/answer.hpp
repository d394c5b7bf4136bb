// What an engine hands to the judge, without JSON: its numbers (which may be
// NaN or infinite: a failed answer, not an error of the caller), its working
// precision and its declared allowances. derivations/judge.md D-JUDGE-1.
#pragma once

#include "rigidref/convert.hpp"
#include "rigidref/scalar.hpp"
#include "rigidref/vec2.hpp"

#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref::judge {

// One number of an engine's answer: its exact value, or "not finite".
class real {
 public:
  real() = default;  // not finite until given a value
  real(float x) { set(x); }
  real(double x) { set(x); }
  real(long double x) { set(x); }
  real(int x) : value_(exact(x)) {}
  real(long long x) : value_(exact(x)) {}
  real(const exact& x) : value_(x) {}
  real(const mp50& x) { set(x); }
  real(const mp100& x) { set(x); }

  static real not_finite() { return real(); }
  bool finite() const { return value_.has_value(); }
  // The exact value; only for finite numbers.
  const exact& value() const {
    if (!value_) throw std::logic_error("rigidref::judge::real: not finite");
    return *value_;
  }

 private:
  template <class T>
  void set(const T& x) {
    if (is_finite(x)) value_ = to_exact(x);
  }
  std::optional<exact> value_;
};

struct point {
  real x, y;
  point() = default;
  point(real px, real py) : x(std::move(px)), y(std::move(py)) {}
  template <class T>
  point(const vec2<T>& v) : x(v.x), y(v.y) {}
};

// The engine's working precision: errors are counted in its epsilon.
struct precision {
  std::string name = "double";
  exact epsilon = to_exact(std::numeric_limits<double>::epsilon());  // 0 for exact

  template <class T>
  static precision of() {
    precision p;
    p.name = std::string(scalar_name<T>());
    if constexpr (is_exact_v<T>) p.epsilon = 0;
    else p.epsilon = to_exact(T(std::numeric_limits<T>::epsilon()));
    return p;
  }
  // By the protocol's names: float, double, long double, mp50, mp100, exact.
  static precision named(std::string_view name) {
    if (name == "float") return of<float>();
    if (name == "double") return of<double>();
    if (name == "long double") return of<long double>();
    if (name == "mp50") return of<mp50>();
    if (name == "mp100") return of<mp100>();
    if (name == "exact") return of<exact>();
    throw std::invalid_argument("precision: expected float, double, long double, mp50, mp100 or exact, got \"" +
                                std::string(name) + "\"");
  }
};

// Who answered: its precision and what it approximates on purpose
// (allowances by name, rules.hpp allowance_rules; amounts >= 0).
struct engine {
  judge::precision precision;
  std::map<std::string, exact, std::less<>> allowances;

  engine() = default;
  explicit engine(judge::precision p) : precision(std::move(p)) {}
  template <class T>
  static engine working_in() {
    return engine(judge::precision::of<T>());
  }
  // The amount of one allowance, 0 when not declared.
  exact allowance(std::string_view name) const {
    const auto it = allowances.find(name);
    return it == allowances.end() ? exact(0) : it->second;
  }
  bool declares(std::string_view name) const { return allowances.find(name) != allowances.end(); }
};

}  // namespace rigidref::judge

#include "rigidref/detail/fp_end.hpp"
