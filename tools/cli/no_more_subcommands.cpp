// The eval/check-only CLI (RIGIDREF_CLI_EVAL_CHECK_ONLY): no further
// subcommands; see more_subcommands.hpp.
#include "cli/more_subcommands.hpp"

namespace rigidref::tools {

std::function<std::optional<int>()> add_more_subcommands(CLI::App&) {
  return [] { return std::optional<int>{}; };
}

}  // namespace rigidref::tools
