// The report's JS comparison: the C++ ports of the two pages' scenes
// (articles/scene_force.hpp, scene_shape_matching.hpp) run beside the
// articles' own JavaScript, as recorded in data/golden/, step by step.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace rigidref::tools {

struct scene_comparison {
  std::string variant;        // what runs on the C++ side
  int steps = 0;              // steps compared
  int identical_steps = 0;    // every field of every body bit-identical to the JS
  int first_divergence = 0;   // first step with a differing bit (0: none)
  double max_diff_wall = 0;   // largest |C++ - JS| over steps 1..wall_only_through_step
  double max_diff_body = 0;   // ... and over the rest
};

struct scene_figure {
  std::string caption;
  std::string svg;  // inline SVG
};

// One page's golden run against the C++ side.
struct scene_golden {
  std::string scene;          // force-based, shape-matching
  bool available = false;     // the golden file was found and read
  std::string note;           // why not, or the provenance in one line
  int wall_only_through = 0;  // last step of the wall-only phase
  std::vector<scene_comparison> rows;
};

struct scene_report {
  std::vector<scene_golden> scenes;   // the JS comparisons, one per page
  std::vector<scene_figure> figures;  // both models' paths and energy (report_scene_runs.hpp)
};

// Runs the comparisons with data/golden/scene_force.json and
// scene_shape_matching.json from the source tree this binary was built from.
scene_report compare_scenes(std::ostream& err);

}  // namespace rigidref::tools
