// The subcommands beyond eval and check: report, cases, campaign, scene.
// The full CLI links more_subcommands.cpp; the eval/check-only CLI of the
// sanitizer run (CMake option RIGIDREF_CLI_EVAL_CHECK_ONLY) links
// no_more_subcommands.cpp instead, so that it does not compile the report,
// scene and campaign code, a third of the sanitizer build.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <optional>

namespace rigidref::tools {

// Registers the subcommands on `app` and returns a function that, after
// parsing, runs the one that was given and returns its exit status, or
// returns nullopt when none of them was.
std::function<std::optional<int>()> add_more_subcommands(CLI::App& app);

}  // namespace rigidref::tools
