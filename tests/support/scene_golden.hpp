// What the two scene tests (scene_force_test.cpp, scene_shape_matching_test.cpp)
// share about the golden runs in data/golden (data/generate/scene_force.js,
// scene_shape_matching.js): loading a golden file by name, the "0x..." bit
// strings, V8's libm from a golden's js_libm (through
// articles/scene_shape_matching.hpp's read_v8_libm_table), and the
// comparison of a port's bodies with a golden step, stopping at the first
// step that differs.
#pragma once

#include "rigidref/articles/scene_shape_matching.hpp"
#include "rigidref/vec2.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <iomanip>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <utility>

namespace rigidref::testing::scene_golden {

// Bits of a golden number ("0x" + 16 hex digits), and of a double.
inline std::uint64_t bits_of(const nlohmann::json& j) {
  return static_cast<std::uint64_t>(std::stoull(j.get<std::string>(), nullptr, 16));
}
inline std::uint64_t bits_of(double x) { return std::bit_cast<std::uint64_t>(x); }
inline double from_hex(const nlohmann::json& j) { return std::bit_cast<double>(bits_of(j)); }

// "0x" + the 16 hex digits of x, as in the golden files.
inline std::string hex(double x) {
  std::ostringstream s;
  s << "0x" << std::hex << std::setw(16) << std::setfill('0') << bits_of(x);
  return s.str();
}

// data/golden/<name> in the source tree.
inline std::string golden_path(const std::string& name) {
  return std::string(RIGIDREF_SOURCE_DIR) + "/data/golden/" + name;
}

// data/golden/<name>, parsed once per test binary.
inline const nlohmann::json& golden(const std::string& name) {
  static std::map<std::string, nlohmann::json> docs;
  auto it = docs.find(name);
  if (it == docs.end()) {
    std::ifstream in(golden_path(name));
    REQUIRE(in.good());
    it = docs.emplace(name, nlohmann::json::parse(in)).first;
  }
  return it->second;
}

// V8's Math.cos / Math.sin / ** (and Math.atan2) recorded in a golden's
// js_libm, by argument bits; an argument the JS never saw falls back to the
// C library and is counted in table->misses.
inline std::shared_ptr<articles::v8_libm_table> v8_table(const nlohmann::json& doc) {
  return articles::read_v8_libm_table(doc["js_libm"]);
}

// How many recorded cos and sin results differ from the C library's.
inline int cos_sin_differ_from_libc(const articles::v8_libm_table& t) {
  int n = 0;
  for (auto [a, r] : t.cos) n += std::cos(std::bit_cast<double>(a)) != std::bit_cast<double>(r);
  for (auto [a, r] : t.sin) n += std::sin(std::bit_cast<double>(a)) != std::bit_cast<double>(r);
  return n;
}

// The first field of a body state (in golden order: pos, ang, vel, angVel)
// whose bits differ from the golden body `g`, or "".
inline std::string first_field_difference(const vec2<double>& pos, double ang, const vec2<double>& vel,
                                          double ang_vel, const nlohmann::json& g) {
  const std::pair<const char*, std::pair<double, double>> fields[] = {
      {"pos.x", {pos.x, from_hex(g["pos"][0])}}, {"pos.y", {pos.y, from_hex(g["pos"][1])}},
      {"ang", {ang, from_hex(g["ang"])}},         {"vel.x", {vel.x, from_hex(g["vel"][0])}},
      {"vel.y", {vel.y, from_hex(g["vel"][1])}}, {"angVel", {ang_vel, from_hex(g["angVel"])}},
  };
  for (const auto& [name, v] : fields) {
    if (bits_of(v.first) != bits_of(v.second)) {
      std::ostringstream s;
      s << name << ": port " << std::setprecision(17) << v.first << " (" << hex(v.first) << "), JS " << v.second
        << " (" << hex(v.second) << ")";
      return s.str();
    }
  }
  return "";
}

// "body i <field ...>" for the first of `bodies` that differs from the golden
// step's bodies (diff(body, golden body) gives the field), or "".
template <class Bodies, class Diff>
std::string first_body_difference(const Bodies& bodies, const nlohmann::json& golden_bodies, Diff diff) {
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    const std::string d = diff(bodies[i], golden_bodies[i]);
    if (!d.empty()) return "body " + std::to_string(i) + " " + d;
  }
  return "";
}

// Advances the port (advance(s)) through the golden steps 1..last and
// CHECKs after each that its contact calls match (same_calls(s.last_gjk,
// step)) and every body is bit-identical (diff(body, golden body) == "").
// Returns the number of bodies compared.
template <class Scene, class Advance, class SameCalls, class Diff>
int check_steps_bit_identical(const nlohmann::json& doc, int last, Scene& s, Advance advance, SameCalls same_calls,
                              Diff diff) {
  int compared = 0;
  for (int k = 1; k <= last; ++k) {
    const auto& step = doc["steps"][static_cast<std::size_t>(k - 1)];
    REQUIRE(step["step"].get<int>() == k);
    advance(s);
    INFO("step " << k);
    CHECK(same_calls(s.last_gjk, step));
    for (std::size_t i = 0; i < s.bodies.size(); ++i) {
      INFO("body " << i);
      CHECK(diff(s.bodies[i], step["bodies"][i]) == "");
      ++compared;
    }
  }
  return compared;
}

struct divergence {
  int step = 0;  // 0: none within the recorded steps
  std::string what;
};

// Calls step(k, golden_step) for the golden steps in order, step(...)
// advancing the port one step and returning what differs ("" if nothing);
// stops at the first step that differs.
template <class Step>
divergence first_divergence(const nlohmann::json& doc, Step&& step) {
  for (const auto& g : doc["steps"]) {
    const int k = g["step"].get<int>();
    std::string d = step(k, g);
    if (!d.empty()) return {k, std::move(d)};
  }
  return {};
}

}  // namespace rigidref::testing::scene_golden
