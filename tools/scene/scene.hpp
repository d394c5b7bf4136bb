// `rigidref scene`: run an article's scene step by step and print its state
// as JSON Lines (one line per step).
#pragma once

#include "rigidref/articles/scene_shape_matching.hpp"

#include <iosfwd>
#include <string>

namespace CLI {
class App;  // <CLI/CLI.hpp> only in the files that add the options: 7 s of compiler time a file
}  // namespace CLI

namespace rigidref::tools {

struct scene_options {
  std::string scene;                  // force-based, shape-matching
  std::string model = "article";      // article (the faithful port), reference
  int steps = 500;
  std::string precision = "double";   // float, double, long double, mp50
  std::string js_libm;                // golden file whose V8 libm values to use (article, double)
  std::string svg;                    // write the bodies' paths here (SVG)
  std::string energy_svg;             // write the energy over time here (SVG)
  int svg_stride = 25;                // outlines every this many steps in the paths
};

void add_scene_options(CLI::App& cmd, scene_options& opts);

// Writes {"step":k,"bodies":[{"pos":[x,y],"ang":a,"vel":[x,y],"angVel":w},...]}
// for k = 1..steps on `out`. Returns 0, 1 when the simulation stops early
// (the article code would throw there), 2 on bad usage.
int run_scene(const scene_options& opts, std::ostream& out, std::ostream& err);

// Fills `libm` with V8's cos, sin and ** 3 recorded in a scene golden file
// (by argument bits; the C library's values for other arguments). False,
// with a message on `err`, when the file cannot be read.
bool v8_libm(const std::string& file, articles::shape_matching_libm<double>& libm, std::ostream& err);

}  // namespace rigidref::tools
