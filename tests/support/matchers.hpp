// Catch2 matchers and printers for every rigidref scalar.
//
// Catch2 2.13's WithinULP/WithinRel do not compile for long double or
// multiprecision types, and Approx silently compares in double (DESIGN.md).
// These compare in the value's own type and print at full precision.
#pragma once

#include "rigidref/convert.hpp"
#include "rigidref/vec2.hpp"
#include "rigidref/verify/accuracy.hpp"

#include <catch2/catch.hpp>

#include <string>

namespace Catch {

template <>
struct StringMaker<long double> {
  static std::string convert(long double x) { return rigidref::to_string(x); }
};
template <>
struct StringMaker<rigidref::mp50> {
  static std::string convert(const rigidref::mp50& x) { return rigidref::to_string(x); }
};
template <>
struct StringMaker<rigidref::mp100> {
  static std::string convert(const rigidref::mp100& x) { return rigidref::to_string(x); }
};
template <>
struct StringMaker<rigidref::exact> {
  static std::string convert(const rigidref::exact& x) { return rigidref::to_string(x); }
};
template <class T>
struct StringMaker<rigidref::vec2<T>> {
  static std::string convert(const rigidref::vec2<T>& v) {
    return "[" + rigidref::to_string(v.x) + ", " + rigidref::to_string(v.y) + "]";
  }
};

}  // namespace Catch

namespace rigidref::testing {

// |x - RN(truth)| <= ulps representable steps (for exact T: x == truth).
template <class T>
class within_ulps_of_exact : public Catch::MatcherBase<T> {
 public:
  within_ulps_of_exact(exact truth, double ulps) : truth_(std::move(truth)), ulps_(ulps) {}
  bool match(const T& x) const override { return verify::ulps_from_rounded(x, truth_) <= ulps_; }
  std::string describe() const override {
    return "is within " + std::to_string(ulps_) + " ulps of the correctly rounded " + to_string(truth_) +
           " (rounded: " + to_string(round_to<T>(truth_)) + ")";
  }

 private:
  exact truth_;
  double ulps_;
};

template <class T>
within_ulps_of_exact<T> WithinUlpsOfExact(const exact& truth, double ulps) {
  return {truth, ulps};
}

// Bit-for-bit equality that prints full precision (also +-0 distinguished).
template <class T>
class identical_to : public Catch::MatcherBase<T> {
 public:
  explicit identical_to(T target) : target_(std::move(target)) {}
  bool match(const T& x) const override {
    if constexpr (std::is_floating_point_v<T>) return x == target_ && std::signbit(x) == std::signbit(target_);
    else return x == target_;
  }
  std::string describe() const override { return "is identical to " + to_string(target_); }

 private:
  T target_;
};

template <class T>
identical_to<T> IdenticalTo(const T& target) {
  return identical_to<T>(target);
}

}  // namespace rigidref::testing
