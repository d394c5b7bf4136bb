// Checks an accuracy table against internal/bounds.hpp and prints it, so the
// test log carries the measured table (shared by the accuracy tests).
#pragma once

#include "rigidref/verify/accuracy.hpp"
#include "rigidref/internal/bounds.hpp"

#include <catch2/catch.hpp>

#include <iostream>
#include <vector>

namespace rigidref::testing {

inline void enforce_bounds(const std::vector<verify::error_stats>& table) {
  for (const auto& s : table) {
    const auto* b = verify::find_bound(s.function, s.digits);
    INFO(s.function << " in " << s.type << ": " << s.cases << " cases, max " << s.max_ulps << " ulps, max "
                    << s.max_eps << " eps, rms " << s.rms_eps() << " eps; worst " << s.worst_case);
    REQUIRE(b != nullptr);
    CHECK(s.cases > 0);
    CHECK(s.max_ulps <= b->max_ulps);
    CHECK(s.max_eps <= b->max_eps);
    std::cout << s.type << " | " << s.function << " | cases " << s.cases << " | max ulps " << s.max_ulps
              << " | max eps " << s.max_eps << " | rms eps " << s.rms_eps() << "\n";
  }
}

}  // namespace rigidref::testing
