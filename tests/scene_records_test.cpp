// `rigidref check --scenes-out` (tools/check/scene_records.hpp): the
// per-frame series of a scene.run record, against engines written here whose
// trajectories the test knows in closed form: a disc dropped with e = 0.5
// (its bounce heights, read off its own velocities, and its energy), a box
// sliding down a 25 degree ramp (distance m g (sin - mu cos) h^2 k(k+1)/2),
// a box sinking into the ground (its depth), and a disc in free flight (no
// overlap: no depth series). The expected values never come from the code
// under test; the records keep 4 significant digits.
#include "support/eval_pipe.hpp"

#include "check/scene_records.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

// This file's names stay apart from the other files of its test program,
// which compile as one unit (tests/CMakeLists.txt, rigidref_test_file).
namespace scene_records_test {

using namespace rigidref::testing::eval_pipe;

namespace {

json scene_case(const std::string& id) {
  for (const std::string& line :
       split_lines(read_file(std::filesystem::path(RIGIDREF_SOURCE_DIR) / "data" / "validation" / "scenes.jsonl"))) {
    json c = json::parse(line);
    if (c["id"] == id) return c;
  }
  FAIL("no case " << id << " in data/validation/scenes.jsonl");
  return {};
}

json state(double x, double y, double angle, double vx, double vy, double w) {
  return {{"position", {x, y}}, {"angle", angle}, {"velocity", {vx, vy}}, {"angular_velocity", w}};
}

// The case answered with these frames (one list of body states per step),
// judged by check --cases --scenes-out: the one record.
json record_of(const json& c, const std::vector<std::vector<json>>& steps) {
  json frames = json::array();
  for (std::size_t k = 0; k < steps.size(); ++k) frames.push_back({{"step", k + 1}, {"bodies", steps[k]}});
  json answer = c;
  answer["engine"] = "test engine";
  answer["precision"] = "double";
  answer["result"] = {{"frames", frames}};
  const auto case_file = temp_path("scene-record-case"), records = temp_path("scene-records");
  {
    std::ofstream out(case_file);
    out << c.dump() << "\n";
  }
  const cli_run r = run_cli("check --cases " + shell_quote(case_file.string()) + " --scenes-out " +
                                shell_quote(records.string()),
                            answer.dump() + "\n");
  INFO(r.out << r.err);
  REQUIRE((r.status == 0 || r.status == 1));
  const std::vector<std::string> lines = split_lines(read_file(records));
  std::filesystem::remove(case_file);
  std::filesystem::remove(records);
  REQUIRE(lines.size() == 1);
  return json::parse(lines[0]);
}

// A record's value (4 significant digits) against the exact one.
void check_close(const json& recorded, double exact) {
  INFO("recorded " << recorded << ", expected " << exact);
  REQUIRE(recorded.is_number());
  CHECK(std::abs(recorded.get<double>() - exact) <= 5.01e-4 * std::abs(exact) + 1e-12);
}

}  // namespace

TEST_CASE("scene records: a drop's bounce heights and energy", "[scene][records]") {
  const json c = scene_case("bounce-disc-e0.5-h1.25");
  const double h = c["dt"], e = c["restitution"], r = c["bodies"][1]["radius"], g = 10;
  const double mass = std::acos(-1.0) * r * r;  // density 1
  double y = c["bodies"][1]["position"][1], v = 0;
  const double face = 0;  // the slab's top
  std::vector<std::vector<json>> steps;
  std::vector<double> gap{y - r - face}, velocity{0}, energy{0};
  const double e0 = mass * g * y;
  for (int k = 1; k <= c["steps"].get<int>(); ++k) {
    const bool touching = y - r <= face;
    v -= g * h;
    if (touching && v < 0) v = -e * v;
    y += v * h;
    steps.push_back({state(0, 0, 0, 0, 0, 0), state(0, y, 0, 0, v, 0)});
    gap.push_back(y - r - face);
    velocity.push_back(v);
    energy.push_back(mass * (v * v / 2 + g * y) - e0);
  }
  // The heights from the engine's own velocities: a fall ends at the frame
  // before the velocity turns upwards (the impact), a rise at the last frame
  // before it turns downwards; h_0 is the first fall, h_k the k-th rise, from
  // the face (this engine lets the disc into it) or from the impact's
  // clearance if that is above the face, until a rise below h_0 / 10^4 or
  // one the frames do not finish.
  std::vector<double> expected;
  double level = 0;
  for (std::size_t k = 1; k + 1 < gap.size(); ++k) {
    if (velocity[k] > 0 && velocity[k - 1] <= 0) {
      level = std::max(gap[k - 1], 0.0);
      if (expected.empty()) expected.push_back(gap[0] - level);
    }
    if (velocity[k] > 0 && velocity[k + 1] <= 0) {
      if (!(gap[k] - level > expected[0] / 1e4)) break;
      expected.push_back(gap[k] - level);
    }
  }
  REQUIRE(expected.size() >= 5);
  const json rec = record_of(c, steps);
  INFO(rec.dump());
  CHECK(rec["engine"] == "test engine");
  CHECK(rec["id"] == "bounce-disc-e0.5-h1.25");
  CHECK(rec["family"] == "bounce");
  CHECK(rec["laws"]["bounce"]["verdict"] == "pass");
  CHECK(rec["laws"]["ramp"]["verdict"] == "not judged");
  CHECK_FALSE(rec["laws"]["ramp"]["reason"].get<std::string>().empty());
  CHECK(rec["laws"].size() == 11);
  const json& s = rec["series"];
  CHECK(s["dt"] == h);
  CHECK(s["record_every"] == 1);
  CHECK(s["bounce"]["e"] == e);
  const json& heights = s["bounce"]["heights"];
  REQUIRE(heights.size() == expected.size());
  for (std::size_t k = 0; k < expected.size(); ++k) check_close(heights[k], expected[k]);
  // ... which in continuous time are e^(2k) h_0; this engine lets the disc
  // into the face by up to one step's motion before it pushes back, which
  // moves h_k by O(u dt / h_k): 0.4 % for the first rise (u = 5 m/s, 1.25 m),
  // 17 % by the second.
  CHECK(std::abs(heights[1].get<double>() / heights[0].get<double>() - e * e) <= 0.01 * e * e);
  REQUIRE(s["energy"].size() == energy.size());
  CHECK(std::abs(s["energy0"].get<double>() - e0) <= 1e-12 * e0);
  for (std::size_t k = 0; k < energy.size(); ++k) check_close(s["energy"][k], energy[k]);
  CHECK_FALSE(s.contains("ramp"));
}

TEST_CASE("scene records: the distance down a ramp and the closed form's acceleration", "[scene][records]") {
  const json c = scene_case("ramp-25-0.5");
  const double h = c["dt"], mu = c["friction"], g = 10, a0 = c["bodies"][1]["angle"];
  const double theta = -a0, acc = g * (std::sin(theta) - mu * std::cos(theta));
  std::vector<std::vector<json>> steps;
  std::vector<double> along{0};
  double d = 0, v = 0;
  for (int k = 1; k <= c["steps"].get<int>(); ++k) {
    v += acc * h;
    d += v * h;
    steps.push_back({state(0, 0, a0, 0, 0, 0), state(d * std::cos(theta), -d * std::sin(theta), a0, v * std::cos(theta),
                                                      -v * std::sin(theta), 0)});
    along.push_back(d);
  }
  const json rec = record_of(c, steps);
  INFO(rec.dump().substr(0, 3000));
  CHECK(rec["laws"]["ramp"]["verdict"] == "pass");
  const json& ramp = rec["series"]["ramp"];
  CHECK(ramp["motion"] == "slides");
  CHECK(std::abs(ramp["a"].get<double>() - acc) <= 1e-12 * acc);
  // Frames up to the face's end: the slab is 120 m long, so all 180 here.
  REQUIRE(ramp["along"].size() == along.size());
  for (std::size_t k = 0; k < along.size(); ++k) check_close(ramp["along"][k], along[k]);
  CHECK_FALSE(rec["series"].contains("bounce"));
}

TEST_CASE("scene records: the deepest overlap per frame, absent without overlap", "[scene][records]") {
  // A unit box on the ground, sinking 0.1 mm a step down to 5 mm.
  const json c = scene_case("rest-box");
  std::vector<std::vector<json>> steps;
  std::vector<double> depth{0};
  for (int k = 1; k <= c["steps"].get<int>(); ++k) {
    const double sunk = std::min(1e-4 * k, 5e-3);
    steps.push_back({state(0, 0, 0, 0, 0, 0), state(0, -sunk, 0, 0, 0, 0)});
    depth.push_back(sunk);
  }
  const json rec = record_of(c, steps);
  INFO(rec.dump().substr(0, 3000));
  CHECK(rec["laws"]["rest"]["verdict"] == "fail");  // 5 mm without a declared slop
  REQUIRE(rec["series"]["depth"].size() == depth.size());
  for (std::size_t k = 0; k < depth.size(); ++k) check_close(rec["series"]["depth"][k], depth[k]);

  // A disc thrown up, alone: no pair overlaps, so no depth series.
  const json f = scene_case("free-disc");
  const double h = f["dt"];
  double x = f["bodies"][0]["position"][0], y = f["bodies"][0]["position"][1];
  double vx = f["bodies"][0]["velocity"][0], vy = f["bodies"][0]["velocity"][1];
  const double w = f["bodies"][0]["angular_velocity"];
  double angle = f["bodies"][0]["angle"];
  std::vector<std::vector<json>> flight;
  for (int k = 1; k <= f["steps"].get<int>(); ++k) {
    vy -= 10 * h;
    x += vx * h, y += vy * h, angle += w * h;
    flight.push_back({state(x, y, angle, vx, vy, w)});
  }
  const json free = record_of(f, flight);
  INFO(free.dump().substr(0, 3000));
  CHECK(free["laws"]["free_flight"]["verdict"] == "pass");
  CHECK_FALSE(free["series"].contains("depth"));
  CHECK(free["series"]["energy"].size() == flight.size() + 1);
}

TEST_CASE("scene records: bounce heights from a clearance series", "[scene][records]") {
  using rigidref::tools::check::bounce_heights;
  // Falls 1 -> 0, rises to 0.25 and 0.0625 (each from a trough at 0), then
  // jitters by 1e-6 < 1 / 10^4: the list ends there.
  CHECK(bounce_heights({1, 0.5, 0, 0.2, 0.25, 0.1, 0, 0.0625, 0.03, 0, 1e-6, 0, 1e-6, 0}) ==
        std::vector<long double>{1, 0.25, 0.0625});
  // A rise counts from the lowest point before it when that is above the
  // face (a skin), from the face when the body went into it.
  CHECK(bounce_heights({1, 0.5, 0.125, 0.375, 0.25, 0.0625, 0.125, 0.0625}) == std::vector<long double>{0.875, 0.25, 0.0625});
  CHECK(bounce_heights({1, 0, -0.015625, 0.234375, 0.125, -0.03125, 0.03125, 0}) ==
        std::vector<long double>{1, 0.234375, 0.03125});
  // A rise the frames do not finish is not a bounce; a fall without a rise is h_0 alone.
  CHECK(bounce_heights({1, 0, 0.5, 0.75}) == std::vector<long double>{1});
  CHECK(bounce_heights({1, 0.5, 0, 0}) == std::vector<long double>{1});
  CHECK(bounce_heights({}).empty());
  CHECK(bounce_heights({1, 1, 1}).empty());  // never fell
}

}  // namespace scene_records_test
