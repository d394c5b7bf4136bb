// The subcommands beyond eval, check and version: report, cases, campaign,
// scene. The full CLI links more_subcommands.cpp; the eval/check-only CLI of
// the sanitizer run (CMake option RIGIDREF_CLI_EVAL_CHECK_ONLY) links
// no_more_subcommands.cpp instead, so that it does not compile the report,
// scene and campaign code, a third of the sanitizer build.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <optional>

namespace rigidref::tools {

// Run after parsing: the exit status of the subcommand that was given, or
// nullopt when it is none of those the function's registrar added.
using subcommand_runner = std::function<std::optional<int>()>;

// Registers report on `app` (main.cpp calls it first: report is the main
// job and leads the subcommand list of --help).
subcommand_runner add_report_subcommand(CLI::App& app);

// Registers cases, campaign and scene on `app`.
subcommand_runner add_more_subcommands(CLI::App& app);

}  // namespace rigidref::tools
