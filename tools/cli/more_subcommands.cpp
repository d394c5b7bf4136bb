// report, cases, campaign and scene for the full CLI (more_subcommands.hpp).
#include "cli/more_subcommands.hpp"

#include "campaign/campaign.hpp"
#include "cases/cases.hpp"
#include "report/report.hpp"
#include "scene/scene.hpp"

#include <iostream>
#include <memory>

namespace rigidref::tools {

std::function<std::optional<int>()> add_more_subcommands(CLI::App& app) {
  struct options {
    report_options report;
    cases_options cases;
    campaign_options campaign;
    scene_options scene;
  };
  // CLI11 writes the parsed values through references: the options live as
  // long as the returned function.
  auto opts = std::make_shared<options>();
  CLI::App* report = app.add_subcommand(
      "report",
      "Measure every implemented function in every precision against its oracle and print the\n"
      "accuracy table: cases, max and RMS error in epsilons, max distance in ulps from the\n"
      "correctly rounded answer, the bound it must meet, and a verdict. Exits 1 if any bound fails.");
  add_report_options(*report, opts->report);

  CLI::App* cases = app.add_subcommand(
      "cases",
      "Write a validation case set as eval request lines on standard output (data/validation/ holds the\n"
      "committed sets; an engine adapter answers them and `rigidref check` judges the answers). Every\n"
      "input is a float written exactly, so float and double engines solve the same problem.");
  add_cases_options(*cases, opts->cases);

  CLI::App* campaign = app.add_subcommand(
      "campaign",
      "The long collision campaign (not in CI): random and adversarial convex pairs per type (exactly\n"
      "touching, parallel edges, shared vertices, needles, far offsets, size ratios, collinear and\n"
      "repeated vertices) through gjk_distance, epa_penetration and sat, each compared with the exact\n"
      "oracle: decisions must agree, values within the bounds of internal/bounds.hpp, every query timed.\n"
      "Prints a table per type and kind with the worst case in full; progress every 2 s and timing on\n"
      "stderr. --shard K/N and --merge run it as N shards under GNU parallel or Slurm (docs/scale-out.md).\n"
      "Exit status 1 on any failure or hang, 2 on bad usage or shards that do not merge.");
  add_campaign_options(*campaign, opts->campaign);

  CLI::App* scene = app.add_subcommand(
      "scene",
      "Run one of the articles' two scenes step by step and print every body's position, angle,\n"
      "velocity and angular velocity after each step as JSON Lines (derivations/scenes.md).\n"
      "`--model article` is the page's code ported faithfully (in double with --js-libm it reproduces\n"
      "data/golden/scene_*.json bit for bit); `--model reference` runs it with rigidref's components.");
  add_scene_options(*scene, opts->scene);

  return [=]() -> std::optional<int> {
    if (*report) return run_report(opts->report, std::cout, std::cerr);
    if (*cases) return run_cases(opts->cases, std::cout);
    if (*campaign) return run_campaign(opts->campaign, std::cout, std::cerr);
    if (*scene) return run_scene(opts->scene, std::cout, std::cerr);
    return std::nullopt;
  };
}

}  // namespace rigidref::tools
