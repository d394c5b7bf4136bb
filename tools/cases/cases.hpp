// `rigidref cases`: write a validation case set as eval request lines.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>

namespace CLI {
class App;  // <CLI/CLI.hpp> only in the files that add the options: 7 s of compiler time a file
}  // namespace CLI

namespace rigidref::tools {

struct cases_options {
  std::string set = "mass";
  std::uint64_t seed = 20261122;
  std::optional<std::size_t> count;  // number of random cases; unset: the set's default_count
};

// The number of random cases of the committed set `set` (data/validation/):
// mass 400, collision 300, manifold 300, dynamics 120.
std::size_t default_count(const std::string& set);

void add_cases_options(CLI::App& cmd, cases_options& opts);

// Writes the request lines on `out`; returns 0.
int run_cases(const cases_options& opts, std::ostream& out);

}  // namespace rigidref::tools
