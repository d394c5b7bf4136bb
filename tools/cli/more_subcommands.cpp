// report, cases, campaign and scene for the full CLI (more_subcommands.hpp).
// The first line of each description is its summary in `rigidref --help`.
#include "cli/more_subcommands.hpp"

#include "campaign/campaign.hpp"
#include "cases/cases.hpp"
#include "hunt/hunt.hpp"
#include "report/report.hpp"
#include "scene/scene.hpp"

#include <iostream>
#include <memory>

namespace rigidref::tools {

subcommand_runner add_report_subcommand(CLI::App& app) {
  // CLI11 writes the parsed values through references: the options live as
  // long as the returned function.
  auto opts = std::make_shared<report_options>();
  CLI::App* report = app.add_subcommand(
      "report",
      "The accuracy table: every function in every precision against its oracle.\n"
      "For each function and precision: cases, max and RMS error in epsilons, max distance in ulps\n"
      "from the correctly rounded answer, the bound it must meet, and a verdict.\n"
      "Exit status 0 when every bound holds, 1 if any fails, 2 on bad usage.");
  add_report_options(*report, *opts);
  return [=]() -> std::optional<int> {
    if (*report) return run_report(*opts, std::cout, std::cerr);
    return std::nullopt;
  };
}

subcommand_runner add_more_subcommands(CLI::App& app) {
  struct options {
    cases_options cases;
    campaign_options campaign;
    scene_options scene;
    hunt_options hunt;
  };
  auto opts = std::make_shared<options>();
  CLI::App* cases = app.add_subcommand(
      "cases",
      "Write a validation case set as eval request lines.\n"
      "Writes the requests on standard output; data/validation/ holds the committed sets. An engine\n"
      "adapter answers them and `rigidref check` judges the answers. Every input is a float written\n"
      "exactly, so float and double engines solve the same problem. Exit status 0, 2 on bad usage.");
  add_cases_options(*cases, opts->cases);

  CLI::App* campaign = app.add_subcommand(
      "campaign",
      "The long collision campaign: GJK, EPA, SAT against the exact oracle.\n"
      "Not run in CI. Random and adversarial convex pairs per type (exactly touching, parallel edges, shared vertices,\n"
      "needles, far offsets, size ratios, collinear and repeated vertices) through gjk_distance,\n"
      "epa_penetration and sat, each compared with the exact oracle: decisions must agree, values within\n"
      "the bounds of internal/bounds.hpp, every query timed. Prints a table per type and kind with the\n"
      "worst case in full; progress every 2 s and timing on stderr. --shard K/N and --merge run it as N\n"
      "shards under GNU parallel or Slurm (docs/scale-out.md).\n"
      "Exit status 1 on any failure or hang, 2 on bad usage or shards that do not merge.");
  add_campaign_options(*campaign, opts->campaign);

  CLI::App* scene = app.add_subcommand(
      "scene",
      "Run one of the articles' two scenes step by step (JSON Lines, SVG).\n"
      "Prints every body's position, angle, velocity and angular velocity after each step as JSON Lines\n"
      "(derivations/scenes.md). `--model article` is the page's code ported faithfully (in double with\n"
      "--js-libm it reproduces data/golden/scene_*.json bit for bit); `--model reference` runs it with\n"
      "rigidref's components.");
  add_scene_options(*scene, opts->scene);

  CLI::App* hunt = app.add_subcommand(
      "hunt",
      "Search a live engine for failing cases, and shrink each to its simplest form.\n"
      "Draws cases of one op (RapidCheck generators: convex polygons of 3 to 64 vertices, stars, needles,\n"
      "offsets to 9e6, sizes 1e-6 to 1e6, every shape form, near touching, shallow and deep overlaps;\n"
      "step.pair scenes on a ground, against a wall and in pairs), sends each to the adapter, judges the\n"
      "answer as `rigidref check --cases` does, and shrinks every failure of a new kind (op and failing\n"
      "field or law) through the adapter: fewer vertices, no offset, size 1, fewer digits, angle 0,\n"
      "coefficients 0 or 1, while it still fails on that field. Progress on stderr, summary on stdout.\n"
      "Exit status 0 when no case fails, 1 when a counterexample was found, 2 on bad usage.");
  add_hunt_options(*hunt, opts->hunt);

  return [=]() -> std::optional<int> {
    if (*cases) return run_cases(opts->cases, std::cout);
    if (*campaign) return run_campaign(opts->campaign, std::cout, std::cerr);
    if (*scene) return run_scene(opts->scene, std::cout, std::cerr);
    if (*hunt) return run_hunt(opts->hunt, std::cout, std::cerr);
    return std::nullopt;
  };
}

}  // namespace rigidref::tools
