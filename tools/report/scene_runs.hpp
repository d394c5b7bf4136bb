// The report's scene runs: every scene in every model that exists, 500 steps,
// in every precision: figures (paths, energy over time) and measured rows
// (resting behaviour, energy, no NaN, where double and mp50 part).
// derivations/scenes.md, derivations/scene_reference.md.
#pragma once

#include "report/report.hpp"
#include "report/measurements.hpp"
#include "report/scene.hpp"

#include <functional>
#include <string>
#include <vector>

namespace rigidref::tools {

struct scene_runs {
  std::vector<scene_figure> figures;
  std::vector<measured_row> rows;
};

scene_runs run_report_scenes(const report_options& o, const std::function<void(const std::string&)>& stage);

}  // namespace rigidref::tools
