// `rigidref scene force-based --model article`: the Force Based article's page
// (collision-force.html) ported in reference/include/rigidref/articles/
// scene_force.hpp, run for N steps of its simulate() (D-SCENE-2). In double
// with --js-libm data/golden/scene_force.json, the output is bit for bit the
// golden run of the article's JavaScript (tests/scene_force_test.cpp).
#include "scene.hpp"

#include "scene_driver.hpp"
#include "scene_plot.hpp"

#include "rigidref/articles/scene_force.hpp"
#include "rigidref/errors.hpp"
#include "rigidref/scalar.hpp"
#include "rigidref/scene_state.hpp"

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
                 "Which scene: force-based (collision-force.html: two walls, a square and a triangle,\n"
                 "dt = 0.02, g = 9.8; BodyForce.js's projectWalls / projectCollision)")
      ->required()
      ->check(CLI::IsMember({"force-based"}));
  cmd.add_option("--model", opts.model,
                 "article: the page's code ported faithfully, quirks kept (derivations/scenes.md);\n"
                 "reference: not implemented yet")
      ->check(CLI::IsMember({"article", "reference"}))
      ->capture_default_str();
  cmd.add_option("--steps", opts.steps, "Number of simulate() steps (one per rendered frame in the page)")
      ->check(CLI::Range(0, 100000000))
      ->capture_default_str();
  cmd.add_option("--precision", opts.precision,
                 "Scalar type of the port: float, double (the JavaScript's), long double, mp50\n"
                 "(50-digit binary float). The page's constants are converted once from their decimals.")
      ->check(CLI::IsMember({"float", "double", "long double", "mp50"}))
      ->capture_default_str();
  cmd.add_option("--js-libm", opts.js_libm,
                 "Use the V8 Math.cos/Math.sin/** results recorded in this golden file\n"
                 "(data/golden/scene_force.json) where it has them, the C library's elsewhere.\n"
                 "Double only. Without it, cos/sin are the C library's, which differ from V8's by\n"
                 "one ulp on some arguments, so the run can part from the JavaScript's.");
  cmd.add_option("--svg", opts.svg,
                 "Also write an SVG of the run: the walls, every body's centre track, its outline every\n"
                 "--svg-stride steps (faint) and at the last step (solid)");
  cmd.add_option("--svg-stride", opts.svg_stride, "Steps between outlines in --svg")
      ->check(CLI::Range(1, 100000000))
      ->capture_default_str();
  cmd.add_option("--energy-svg", opts.energy_svg,
                 "Also write an SVG of the mechanical energy over the steps (1/2 m v^2 + 1/2 I w^2 + m g y)");
  cmd.footer(
      "Output: JSON Lines on standard output, one per step k = 1..N, after that step's simulate():\n"
      "  {\"step\":k,\"bodies\":[{\"pos\":[x,y],\"ang\":a,\"vel\":[x,y],\"angVel\":w}, ...]}\n"
      "Numbers are the shortest decimals that read back to the same value (float, double, long double)\n"
      "or max_digits10 digits (mp50); NaN and infinities as the strings \"NaN\", \"Infinity\", \"-Infinity\".\n"
      "Body 0 is the square, body 1 the triangle. Exit status 0, 1 if the simulation stops early\n"
      "(where the article's code would throw, e.g. \"Weird collision\"), 2 on bad usage.\n"
      "Example: rigidref scene force-based --model article --steps 3 --precision double\n");
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

bool write_file(const std::string& path, const std::string& text, std::ostream& err) {
  std::ofstream f(path);
  f << text;
  if (!f) {
    err << "error: cannot write " << path << '\n';
    return false;
  }
  return true;
}

template <class T>
int run(const scene_options& opts, articles::scene_libm<T> libm, std::ostream& out, std::ostream& err) {
  scene_driver<T> d = make_scene_driver<T>(opts.scene, opts.model, std::move(libm));
  const bool plots = !opts.svg.empty() || !opts.energy_svg.empty();
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
  if (!opts.svg.empty() && !write_file(opts.svg, trajectory_svg(runs, label, opts.svg_stride, true), err)) return 2;
  if (!opts.energy_svg.empty() &&
      !write_file(opts.energy_svg, energy_svg(runs, 9.8, "energy, " + label, true), err))
    return 2;
  return rc;
}

}  // namespace

// V8's values from a golden file, by argument bits (the C library's elsewhere).
bool v8_libm(const std::string& file, articles::scene_libm<double>& libm, std::ostream& err) {
  std::ifstream in(file);
  if (!in) {
    err << "error: cannot open " << file << '\n';
    return false;
  }
  using table = std::unordered_map<std::uint64_t, std::uint64_t>;
  auto cos_t = std::make_shared<table>(), sin_t = std::make_shared<table>(), pow_t = std::make_shared<table>();
  try {
    const auto doc = nlohmann::json::parse(in);
    auto bits = [](const nlohmann::json& j) { return std::stoull(j.get<std::string>(), nullptr, 16); };
    for (auto [t, name] : {std::pair{cos_t, "cos"}, std::pair{sin_t, "sin"}, std::pair{pow_t, "pow3"}})
      for (const auto& r : doc.at("js_libm").at(name)) (*t)[bits(r.at(0))] = bits(r.at(1));
  } catch (const std::exception& e) {
    err << "error: " << file << ": not a scene golden file (" << e.what() << ")\n";
    return false;
  }
  auto look = [](const std::shared_ptr<table>& t, double x, double fallback) {
    const auto it = t->find(std::bit_cast<std::uint64_t>(x));
    return it == t->end() ? fallback : std::bit_cast<double>(it->second);
  };
  libm.cos = [=](const double& x) { return look(cos_t, x, std::cos(x)); };
  libm.sin = [=](const double& x) { return look(sin_t, x, std::sin(x)); };
  libm.pow3 = [=](const double& x) { return look(pow_t, x, std::pow(x, 3)); };
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
      articles::scene_libm<double> libm;
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
