// `rigidref scene force-based --model article`: the Force Based article's page
// (collision-force.html) ported in reference/include/rigidref/articles/
// scene_force.hpp, run for N steps of its simulate() (D-SCENE-2). In double
// with --js-libm data/golden/scene_force.json, the output is bit for bit the
// golden run of the article's JavaScript (tests/scene_force_test.cpp).
#include "scene/scene.hpp"

#include "scene/driver.hpp"
#include "scene/plot.hpp"

#include "rigidref/articles/scene_force.hpp"
#include "rigidref/errors.hpp"
#include "rigidref/scalar.hpp"
#include "rigidref/scene_state.hpp"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <bit>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <functional>
#include <ios>
#include <limits>
#include <memory>
#include <ostream>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <vector>

namespace rigidref::tools {

void add_scene_options(CLI::App& cmd, scene_options& opts) {
  cmd.add_option("scene", opts.scene,
                 "Which scene:\n"
                 "  force-based     collision-force.html: two walls, a square and a triangle, dt = 0.02,\n"
                 "                  g = 9.8; BodyForce.js's impulses (derivations/scenes.md D-SCENE-1..5)\n"
                 "  shape-matching  collision-shapeMatching.html: two walls, three squares, position-based\n"
                 "                  steps with shape matching (D-SCENE-6..11)")
      ->required()
      ->check(CLI::IsMember({"force-based", "shape-matching"}));
  cmd.add_option("--model", opts.model,
                 "article: the page's code ported faithfully, quirks kept (derivations/scenes.md);\n"
                 "reference: the same scene with rigidref's components (exact-normal EPA, clipping\n"
                 "manifold and sequential impulses for force-based, derivations/scene_reference.md;\n"
                 "EPA, scale-aware features and proper rotations for shape-matching, D-SCENE-10)")
      ->check(CLI::IsMember({"article", "reference"}))
      ->capture_default_str();
  cmd.add_option("--steps", opts.steps, "Number of steps (one per rendered frame in the page)")
      ->check(CLI::Range(0, 100000000))
      ->capture_default_str();
  cmd.add_option("--precision", opts.precision,
                 "Scalar type: float, double (the JavaScript's), long double, mp50 (50-digit binary\n"
                 "float). The pages' constants are converted once from their decimals.")
      ->check(CLI::IsMember({"float", "double", "long double", "mp50"}))
      ->capture_default_str();
  cmd.add_option("--js-libm", opts.js_libm,
                 "Use the V8 Math.cos/sin/atan2/** results recorded in this golden file\n"
                 "(data/golden/scene_force.json or scene_shape_matching.json) where it has them, the C\n"
                 "library's elsewhere. Article model in double only. Without it, the C library's values\n"
                 "differ from V8's by one ulp on some arguments, so the run can part from the JavaScript's.");
  cmd.add_option("--svg", opts.svg,
                 "Also write an SVG of the run: the walls, every body's centre track, its outline every\n"
                 "--svg-stride steps (faint) and at the last step (solid)");
  cmd.add_option("--svg-stride", opts.svg_stride, "Steps between outlines in --svg")
      ->check(CLI::Range(1, 100000000))
      ->capture_default_str();
  cmd.add_option("--energy-svg", opts.energy_svg,
                 "Also write an SVG of the mechanical energy over the steps (1/2 m v^2 + 1/2 I w^2 + m g y)");
  cmd.footer(
      "Output: JSON Lines on standard output, one per step k = 1..N, after that step:\n"
      "  {\"step\":k,\"bodies\":[{\"pos\":[x,y],\"ang\":a,\"vel\":[x,y],\"angVel\":w}, ...]}\n"
      "Numbers are the shortest decimals that read back to the same value (float, double, long double)\n"
      "or max_digits10 digits (mp50); NaN and infinities as the strings \"NaN\", \"Infinity\", \"-Infinity\".\n"
      "Bodies in the page's order (force-based: the square, the triangle; shape-matching: squares of\n"
      "radius 2, 1, 1.5). Progress on stderr every 2 s on long runs. Exit status 0, 1 if the simulation\n"
      "stops early (where the article's code would throw, e.g. \"Weird collision\"), 2 on bad usage.\n"
      "Examples:\n"
      "  rigidref scene force-based --model article --steps 3 --precision double\n"
      "  rigidref scene shape-matching --model reference --svg paths.svg --energy-svg energy.svg > run.jsonl\n");
}

namespace {

template <class T>
std::string number(const T& x) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(x)) return "\"NaN\"";
    if (std::isinf(x)) return x > 0 ? "\"Infinity\"" : "\"-Infinity\"";
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, x);  // shortest round-trip
    return std::string(buf, r.ptr);
  } else {
    if (isnan(x)) return "\"NaN\"";
    if (isinf(x)) return x > 0 ? "\"Infinity\"" : "\"-Infinity\"";
    return x.str(std::numeric_limits<T>::max_digits10, std::ios_base::scientific);
  }
}

template <class T>
void print_step(std::ostream& out, int k, const scene_snapshot<T>& s) {
  std::string line = "{\"step\":" + std::to_string(k) + ",\"bodies\":[";
  for (std::size_t i = 0; i < s.bodies.size(); ++i) {
    const auto& b = s.bodies[i];
    if (i) line += ",";
    line += "{\"pos\":[" + number(b.pos.x) + "," + number(b.pos.y) + "],\"ang\":" + number(b.ang) + ",\"vel\":[" +
            number(b.vel.x) + "," + number(b.vel.y) + "],\"angVel\":" + number(b.ang_vel) + "}";
  }
  out << line << "]}\n";
}

// Opens an output file before the run, so a bad path fails at once.
std::unique_ptr<std::ofstream> open_output(const std::string& path, std::ostream& err) {
  if (path.empty()) return nullptr;
  auto f = std::make_unique<std::ofstream>(path);
  if (!*f) err << "error: cannot write " << path << '\n';
  return f;
}

template <class T>
int run(const scene_options& opts, articles::shape_matching_libm<T> libm, std::ostream& out, std::ostream& err) {
  scene_driver<T> d = make_scene_driver<T>(opts.scene, opts.model, std::move(libm));
  const auto svg = open_output(opts.svg, err), energy = open_output(opts.energy_svg, err);
  if ((svg && !*svg) || (energy && !*energy)) return 2;
  const bool plots = svg || energy;
  std::vector<scene_snapshot<double>> frames;
  if (plots) frames.push_back(snapshot_to_double(d.snapshot()));
  const auto start = std::chrono::steady_clock::now();
  auto last_note = start;
  int rc = 0;
  for (int k = 1; k <= opts.steps; ++k) {
    try {
      d.step();
    } catch (const std::exception& e) {
      err << "rigidref scene: stopped at step " << k << ": " << e.what() << '\n';
      rc = 1;
      break;
    }
    const scene_snapshot<T> snap = d.snapshot();
    print_step(out, k, snap);
    if (plots) frames.push_back(snapshot_to_double(snap));
    const auto now = std::chrono::steady_clock::now();
    if (now - last_note > std::chrono::seconds(2)) {  // progress on long runs (mp50)
      err << "rigidref scene: step " << k << " of " << opts.steps << '\n';
      last_note = now;
    }
  }
  const std::string label = opts.scene + ", " + opts.model + " model, " + opts.precision;
  const std::vector<scene_plot_run> runs{{label, "#2166ac", std::move(frames)}};
  if (svg) *svg << trajectory_svg(runs, label, opts.svg_stride, true);
  if (energy) *energy << energy_svg(runs, 9.8, "energy, " + label, true);
  if ((svg && !*svg) || (energy && !*energy)) {
    err << "error: writing the SVG output failed\n";
    return 2;
  }
  return rc;
}

}  // namespace

// V8's values from a golden file, by argument bits (the C library's elsewhere).
bool v8_libm(const std::string& file, articles::shape_matching_libm<double>& libm, std::ostream& err) {
  std::ifstream in(file);
  if (!in) {
    err << "error: cannot open " << file << '\n';
    return false;
  }
  try {
    libm = articles::shape_matching_v8_libm(articles::read_v8_libm_table(nlohmann::json::parse(in).at("js_libm")));
  } catch (const std::exception& e) {
    err << "error: " << file << ": not a scene golden file (" << e.what() << ")\n";
    return false;
  }
  return true;
}

int run_scene(const scene_options& opts, std::ostream& out, std::ostream& err) {
  if (!opts.js_libm.empty() && (opts.precision != "double" || opts.model != "article")) {
    err << "error: --js-libm holds V8's double results for the article's code; it needs --model article "
           "--precision double\n";
    return 2;
  }
  try {
    if (opts.precision == "double") {
      articles::shape_matching_libm<double> libm;
      if (!opts.js_libm.empty() && !v8_libm(opts.js_libm, libm, err)) return 2;
      return run<double>(opts, std::move(libm), out, err);
    }
    if (opts.precision == "float") return run<float>(opts, {}, out, err);
    if (opts.precision == "long double") return run<long double>(opts, {}, out, err);
    if (opts.precision == "mp50") return run<mp50>(opts, {}, out, err);
  } catch (const invalid_input& e) {  // a scene/model pair that is not available
    err << "error: " << e.what() << '\n';
    return 2;
  }
  err << "error: unknown precision " << opts.precision << '\n';
  return 2;
}

}  // namespace rigidref::tools
