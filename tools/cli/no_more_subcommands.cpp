// The eval/check-only CLI (RIGIDREF_CLI_EVAL_CHECK_ONLY): no further
// subcommands; see more_subcommands.hpp.
#include "cli/more_subcommands.hpp"

namespace rigidref::tools {

subcommand_runner add_report_subcommand(CLI::App&) {
  return [] { return std::optional<int>{}; };
}

subcommand_runner add_more_subcommands(CLI::App&) {
  return [] { return std::optional<int>{}; };
}

}  // namespace rigidref::tools
