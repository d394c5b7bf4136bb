// Catch prints doubles with 10 digits by default; failures need all 17.
// Set before main runs (Catch2WithMain's, Debian's libCatch2WithMain.a),
// in every test program: its object is linked into each of them.
#include <catch2/catch.hpp>

namespace {

const bool full_precision = [] {
  Catch::StringMaker<double>::precision = 17;
  Catch::StringMaker<float>::precision = 9;
  return true;
}();

}  // namespace
