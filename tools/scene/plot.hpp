// SVG pictures of scene runs, for `rigidref scene --svg` and the report:
// the bodies' paths (centre tracks, outlines every few steps, the walls) and
// the mechanical energy over time; and an x-y scatter plot (the report's
// dynamics section). Plotting is in double whatever precision the run used.
#pragma once

#include "rigidref/scene_state.hpp"

#include <string>
#include <utility>
#include <vector>

namespace rigidref::tools {

struct scene_plot_run {
  std::string label;   // legend text, e.g. "article, double"
  std::string colour;  // CSS colour
  std::vector<scene_snapshot<double>> frames;  // step 0 (initial) .. N
};

// Converts a snapshot of any scalar type to double for drawing.
template <class T>
scene_snapshot<double> snapshot_to_double(const scene_snapshot<T>& s) {
  auto d = [](const T& x) { return static_cast<double>(x); };
  auto v = [&](const vec2<T>& p) { return vec2<double>{d(p.x), d(p.y)}; };
  scene_snapshot<double> r;
  r.step = s.step;
  for (const auto& b : s.bodies) {
    scene_body_state<double> o{v(b.pos), d(b.ang), v(b.vel), d(b.ang_vel), d(b.mass), d(b.inertia), {}};
    for (const auto& p : b.world_shape) o.world_shape.push_back(v(p));
    r.bodies.push_back(std::move(o));
  }
  for (const auto& w : s.walls) r.walls.push_back({v(w.position), v(w.normal)});
  return r;
}

// The paths: walls, every body's centre track, its outline every `stride`
// steps (faint) and at the last frame (solid). `standalone` adds the XML
// header and a style block so the file opens on its own.
std::string trajectory_svg(const std::vector<scene_plot_run>& runs, const std::string& title, int stride,
                           bool standalone);

// A value per step, one line per series.
struct plot_series {
  std::string label;
  std::string colour;
  std::vector<std::pair<int, double>> points;  // (step, value); non-finite values are left out
};
std::string line_chart_svg(const std::vector<plot_series>& series, const std::string& title, const std::string& ylabel,
                           bool standalone);

// Points (x, y), one colour per series, on equal linear axes that include
// 0 (and `at_least`), with the line y = x drawn when `diagonal`; non-finite
// points are left out. The legend gives each series' label and point count.
struct scatter_series {
  std::string label;
  std::string colour;
  std::vector<std::pair<double, double>> points;
};
std::string scatter_svg(const std::vector<scatter_series>& series, const std::string& title, const std::string& xlabel,
                        const std::string& ylabel, bool diagonal, bool standalone, double at_least = 0);

// Lines through points (x, y) on linear axes, y including 0: one polyline
// per series (non-finite points are left out), dashed when `dashed`. The
// legend names each distinct label once (series may share one: "the
// engine", "closed form").
struct xy_series {
  std::string label;
  std::string colour;
  std::vector<std::pair<double, double>> points;
  bool dashed = false;
};
std::string xy_chart_svg(const std::vector<xy_series>& series, const std::string& title, const std::string& xlabel,
                         const std::string& ylabel, bool standalone);

// Mechanical energy (1/2 m v^2 + 1/2 I w^2 + m g y, summed over bodies)
// against the step, one line per run.
std::string energy_svg(const std::vector<scene_plot_run>& runs, double g, const std::string& title, bool standalone);

}  // namespace rigidref::tools
