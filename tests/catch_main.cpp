// The one Catch2 main, compiled once for every test program.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

int main(int argc, char* argv[]) {
  // Catch prints doubles with 10 digits by default; failures need all 17.
  Catch::StringMaker<double>::precision = 17;
  Catch::StringMaker<float>::precision = 9;
  return Catch::Session().run(argc, argv);
}
