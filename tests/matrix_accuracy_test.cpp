// The matrix accuracy tables of `rigidref report`, enforced: the reference
// square root, polar factors and shape matching within their bounds in every
// type and condition band (internal/bounds.hpp); the article methods measured.
#include "support/enforce_bounds.hpp"
#include "support/matchers.hpp"

#include "rigidref/internal/matrix_accuracy.hpp"

// This file's names stay apart from the other files of its test program,
// which compile as one unit (tests/CMakeLists.txt, rigidref_test_file).
namespace matrix_accuracy_test {

using namespace rigidref;

TEMPLATE_LIST_TEST_CASE("matrix functions within the bounds table", "[mat2][accuracy]", floating_scalars) {
  using T = TestType;
  const std::size_t n = std::is_floating_point_v<T> ? 60 : 12;
  testing::enforce_bounds(verify::matrix_sqrt_accuracy<T>(301, n));
  testing::enforce_bounds(verify::polar_accuracy<T>(302, n));
  testing::enforce_bounds(verify::shape_matching_accuracy<T>(303, n));
}

TEST_CASE("the article's square-root methods lose digits with the condition number (finding)", "[mat2][article]") {
  // Measured, not bounded: in double, Cayley-Hamilton evaluated in T is off
  // by more than 1000 ulps somewhere in cond 1e8-1e12, diagonalisation by
  // more than 1e5, while the reference stays correctly rounded (D-MSQRT-5).
  const auto t = verify::matrix_sqrt_accuracy<double>(304, 60);
  bool checked = false;
  for (const auto& s : t) {
    if (s.function.find("1e8-1e12") == std::string::npos) continue;
    checked = true;
    if (s.function.find("default") != std::string::npos) CHECK(s.max_ulps <= 1);
    if (s.function.find("cayley_hamilton") != std::string::npos) CHECK(s.max_ulps > 1e3);
    if (s.function.find("diagonalization") != std::string::npos) CHECK(s.max_ulps > 1e5);
  }
  CHECK(checked);
}

}  // namespace matrix_accuracy_test
