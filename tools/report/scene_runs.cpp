// The report's scene runs (report/scene_runs.hpp).
#include "report/scene_runs.hpp"
#include "scene/driver.hpp"
#include "scene/plot.hpp"

#include "rigidref/epa.hpp"
#include "rigidref/scalar.hpp"
#include "rigidref/internal/scene_checks.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>
#include <span>
#include <string>

namespace rigidref::tools {
namespace {

constexpr int steps = 500;
constexpr double g = 9.8;

struct run_result {
  std::vector<scene_snapshot<double>> frames;  // 0 .. last step reached
  std::string stopped;                         // why it stopped early ("" = ran all steps)
};

template <class T>
run_result run(const std::string& scene, const std::string& model) {
  run_result r;
  scene_driver<T> d = make_scene_driver<T>(scene, model);
  r.frames.push_back(snapshot_to_double(d.snapshot()));
  for (int k = 1; k <= steps; ++k) {
    try {
      d.step();
    } catch (const std::exception& e) {
      r.stopped = "stopped at step " + std::to_string(k) + ": " + e.what();
      break;
    }
    r.frames.push_back(snapshot_to_double(d.snapshot()));
  }
  return r;
}

bool finite_state(const scene_snapshot<double>& s) {
  for (const auto& b : s.bodies) {
    for (double v : {b.pos.x, b.pos.y, b.ang, b.vel.x, b.vel.y, b.ang_vel})
      if (!std::isfinite(v)) return false;
    for (const auto& p : b.world_shape)
      if (!std::isfinite(p.x) || !std::isfinite(p.y)) return false;
  }
  return true;
}

// How deep the bodies are in the walls and in each other after a step:
// the deepest vertex behind a wall, and the deepest pair overlap (EPA depth).
struct penetration {
  double wall = 0, pair = 0;
};

penetration penetration_of(const scene_snapshot<double>& s) {
  penetration p;
  for (const auto& b : s.bodies)
    for (const auto& v : b.world_shape)
      for (const auto& w : s.walls)
        p.wall = std::max(p.wall, -(w.normal.x * (v.x - w.position.x) + w.normal.y * (v.y - w.position.y)));
  for (std::size_t i = 0; i < s.bodies.size(); ++i)
    for (std::size_t j = i + 1; j < s.bodies.size(); ++j) {
      try {
        const auto r = epa_penetration<double>(std::span<const vec2<double>>(s.bodies[i].world_shape),
                                               std::span<const vec2<double>>(s.bodies[j].world_shape));
        if (r.intersecting) p.pair = std::max(p.pair, r.depth);
      } catch (const std::exception&) {
        p.pair = std::numeric_limits<double>::quiet_NaN();  // not a convex polygon: shown as a gap in the plot
      }
    }
  return p;
}

measured_row row(const std::string& scene, const std::string& model, const std::string& quantity,
                 const std::string& type, double value, const std::string& unit, const std::string& expectation,
                 const std::string& verdict, const std::string& why) {
  return {"scene", scene + " (" + model + " model): " + quantity, type, steps, value, unit, expectation, verdict,
          why, ""};
}

// double against mp50 (long double when quick), events compared per step.
verify::divergence_report divergence(const std::string& scene, const std::string& model, bool quick) {
  using articles::shape_matching_model;
  const auto sm = model == "article" ? shape_matching_model::article : shape_matching_model::reference;
  if (scene == "shape-matching")
    return quick ? verify::shape_matching_divergence<double, long double>(steps, sm)
                 : verify::shape_matching_divergence<double, mp50>(steps, sm);
  if (model == "article")
    return quick ? verify::article_divergence<double, long double>(steps) : verify::article_divergence<double, mp50>(steps);
  return quick ? verify::reference_divergence<double, long double>(steps)
               : verify::reference_divergence<double, mp50>(steps);
}

// Momentum bookkeeping of the force-based scene in double: the reference
// model's identity p' = p + m g dt + wall impulses (exact residual in eps of
// the momentum scale, bound 16 from derivations/scene_reference.md), and how
// far the article model is from it (force resets and push-outs).
void momentum_rows(std::vector<measured_row>& rows) {
  const double eps = std::numeric_limits<double>::epsilon();
  reference_world<double> w = make_force_reference_scene<double>();
  double worst = 0;
  for (int k = 1; k <= steps; ++k) {
    const scene_snapshot<double> before = snapshot(w);
    step(w);
    const auto m = verify::reference_momentum_residual(before, snapshot(w), w.last, w.params.g, w.params.dt);
    worst = std::max(worst, m.linear / (eps * m.linear_scale));
  }
  rows.push_back(row("force-based", "reference", "linear momentum change minus gravity and wall impulses, per step",
                     "double", worst, "eps of the momentum scale", "<= 16 eps", worst <= 16 ? "pass" : "FAIL",
                     "D-SCENEREF-7"));
  articles::force_scene<double> a = articles::make_force_scene<double>();
  double violation = 0;
  int first = 0;
  for (int k = 1; k <= steps; ++k) {
    const auto m = verify::article_momentum(a);
    if (m.violation > 64 * eps * 10 && first == 0) first = k;  // above rounding: 64 eps of 10 kg m/s
    violation = std::max(violation, m.violation);
  }
  measured_row r = row("force-based", "article", "the same identity: largest violation (first at step " +
                                                     std::to_string(first) + ")",
                       "double", violation, "N s", "reported", "finding", "D-SCENEREF-7, D-BODYFORCE-5");
  r.counterexample = "scene_force_article_momentum_reset.json";
  rows.push_back(std::move(r));
}

}  // namespace

scene_runs run_report_scenes(const report_options& o, const std::function<void(const std::string&)>& stage) {
  scene_runs out;
  const std::vector<std::pair<std::string, std::string>> models{{"article", "#b2182b"}, {"reference", "#1b7837"}};
  for (const std::string scene : {"force-based", "shape-matching"}) {
    std::vector<scene_plot_run> plotted;
    std::vector<plot_series> penetrations;
    const std::string why = scene == "force-based" ? "D-SCENE-5, D-SCENEREF-8" : "D-SCENE-6, D-SCENE-10";
    for (const auto& [model, colour] : models) {
      stage("scene " + scene + ", " + model + " model");
      run_result d;
      try {
        d = run<double>(scene, model);
      } catch (const invalid_input&) {
        continue;  // this scene/model pair does not exist (yet)
      }
      const int reached = static_cast<int>(d.frames.size()) - 1;
      // Resting: mean vel.y and mean speed of every body over steps 300..500.
      double vy = 0, speed = 0;
      int n = 0;
      for (int k = 300; k <= reached; ++k)
        for (const auto& b : d.frames[k].bodies) {
          vy += b.vel.y;
          speed += std::hypot(b.vel.x, b.vel.y);
          ++n;
        }
      if (n) {
        out.rows.push_back(row(scene, model, "mean vel.y over steps 300-500", "double", vy / n, "m/s", "reported",
                               "finding", why));
        out.rows.push_back(row(scene, model, "mean speed over steps 300-500", "double", speed / n, "m/s", "reported",
                               "finding", why));
      }
      // Penetration: the deepest over the run, and the mean at rest.
      plot_series pen{model + " model, double", colour, {}};
      double wall_max = 0, pair_max = 0, rest = 0;
      int rest_n = 0;
      for (const auto& f : d.frames) {
        const penetration q = penetration_of(f);
        wall_max = std::max(wall_max, q.wall);
        pair_max = std::max(pair_max, q.pair);
        pen.points.push_back({f.step, std::max(q.wall, q.pair)});
        if (f.step >= 300) rest += std::max(q.wall, q.pair), ++rest_n;
      }
      penetrations.push_back(std::move(pen));
      out.rows.push_back(row(scene, model, "deepest vertex behind a wall, any step", "double", wall_max, "m",
                             "reported", "finding", why));
      out.rows.push_back(row(scene, model, "deepest overlap of two bodies (EPA depth), any step", "double", pair_max,
                             "m", "reported", "finding", why));
      if (rest_n)
        out.rows.push_back(row(scene, model, "mean of the deepest penetration over steps 300-500", "double",
                               rest / rest_n, "m", "reported", "finding", why));
      out.rows.push_back(row(scene, model, "energy at the last step / at step 0", "double",
                             scene_energy(d.frames.back(), g) / scene_energy(d.frames.front(), g), "ratio",
                             "reported", "finding", why));
      // No NaN in any precision; where double and mp50 part.
      for (const std::string type : {"float", "double", "long double", "mp50"}) {
        if (o.quick && type == "mp50") continue;
        run_result r = type == "double" ? d
                       : type == "float" ? run<float>(scene, model)
                       : type == "long double" ? run<long double>(scene, model)
                                               : run<mp50>(scene, model);
        const bool ok = std::all_of(r.frames.begin(), r.frames.end(), finite_state);
        out.rows.push_back(row(scene, model, "steps run with every state finite" +
                                                 (r.stopped.empty() ? std::string() : " (" + r.stopped + ")"),
                               type, static_cast<double>(r.frames.size() - 1), "steps",
                               "no NaN or infinity in any step", ok ? "pass" : "FAIL", why));
      }
      // Where a double run and a wider one part: the first step whose
      // discrete events (contacts, features, gates) differ (scene_checks.hpp).
      const std::string wide = o.quick ? "long double" : "mp50";
      const verify::divergence_report dv = divergence(scene, model, o.quick);
      out.rows.push_back(row(scene, model, "first step whose discrete events differ, double against " + wide +
                                               " (0: none in " + std::to_string(dv.steps_run) + " steps)",
                             "double", dv.first_event_step, "step", "reported", "finding", why));
      out.rows.push_back(row(scene, model, "largest state difference, double against " + wide + ", before that step",
                             "double", dv.max_diff_before, "SI units", "reported", "finding", why));
      plotted.push_back({model + " model, double" + (d.stopped.empty() ? "" : " (" + d.stopped + ")"), colour,
                         std::move(d.frames)});
    }
    if (plotted.empty()) continue;
    if (scene == "force-based") momentum_rows(out.rows);
    out.figures.push_back({"The " + scene + " scene: paths of both models (double, 500 steps)",
                           trajectory_svg(plotted, scene + " scene", 25, false)});
    out.figures.push_back({"The " + scene + " scene: mechanical energy over time",
                           energy_svg(plotted, g, scene + " scene: energy", false)});
    out.figures.push_back({"The " + scene + " scene: the deepest penetration after each step (a vertex behind a "
                           "wall, or two bodies' EPA depth)",
                           line_chart_svg(penetrations, scene + " scene: penetration", "deepest penetration (m)", false)});
  }
  return out;
}

}  // namespace rigidref::tools
