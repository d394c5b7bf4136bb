// Set "dynamics": step.pair requests (docs/eval-protocol.md) of two bodies in
// contact at their pre-step poses, for judging engines' collision response
// (derivations/step.md). Every input is a float written exactly as a double,
// as in the other sets.
//
// Random scenes cycle through six kinds (the case's family in brackets):
//   vertex-on-face   a convex polygon at a random angle, its lowest vertex
//                    sunk into a static ground box, one contact
//                    (polygon-vertex-on-ground)
//   face-on-face     a box flat on the static ground, two contacts
//                    (box-on-ground)
//   circle-on-face   a circle on the static ground (circle-on-ground)
//   circles          two dynamic circles, off-centre, zero gravity, their
//                    centres in a random direction (circle-pair)
//   pair             two dynamic polygons, mass ratio 1e-3 .. 1e3, an
//                    off-centre hit, both spinning, zero gravity
//                    (polygon-pair)
//   wall             a polygon thrown sideways into a static wall
//                    (polygon-into-wall)
// Shapes are off their body origin by up to half their size, so the origin
// and the centre of mass differ. Restitution is 0, 1 or uniform in [0, 1],
// friction uniform in [0, 1.5] (0 for one scene in six); with a static body
// gravity is (0, -9.8) for half the scenes. The overlap at the pre-step poses
// is 1 % of the smaller body's size, far above float's rounding of the
// poses, so every engine and the reference see the same contact. Then named
// scenes with hand-known answers (tests/step_pair_test.cpp works them;
// families named-...). Last, from their own generator, 12 scenes of the
// kinds with a static ground or wall, which lie along the axes, turned as a
// whole (ground, body, velocities, gravity) by a random angle at least 5
// degrees from the axes: a contact normal or a distance taken along the axes
// (a wrong norm) is then wrong there.
#include "cases/dynamics_set.hpp"
#include "cases/angle_off_axes.hpp"
#include "cases/strictly_convex.hpp"
#include "protocol/json.hpp"

#include "cases/case_bodies.hpp"
#include "rigidref/predicates.hpp"
#include "rigidref/sat.hpp"
#include "rigidref/verify/random.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ostream>
#include <string>
#include <vector>

namespace rigidref::tools {
namespace {

using body = case_body;

using eval::ojson;

constexpr double pi = 3.141592653589793;

float f(double x) { return static_cast<float>(x); }

struct scene {
  std::string id, family, label;
  body b1, b2;
  float restitution = 0, friction = 0, dt = 1.0f / 60;
  vec2<float> gravity{0, 0};
};

void write_scene(std::ostream& out, const scene& s) {
  ojson r = ojson::object();
  r["id"] = s.id;
  r["op"] = "step.pair";
  r["label"] = s.label;
  r["family"] = s.family;
  r["body1"] = body_json(s.b1);
  r["body2"] = body_json(s.b2);
  r["restitution"] = static_cast<double>(s.restitution);
  r["friction"] = static_cast<double>(s.friction);
  r["dt"] = static_cast<double>(s.dt);
  r["gravity"] = vec_json(s.gravity);
  out << eval::to_json_text(r) << '\n';
}

std::vector<vec2<float>> box(double w, double h, double cx = 0, double cy = 0) {
  return {{f(cx - w / 2), f(cy - h / 2)}, {f(cx + w / 2), f(cy - h / 2)}, {f(cx + w / 2), f(cy + h / 2)},
          {f(cx - w / 2), f(cy + h / 2)}};
}

// A convex polygon of 3..8 vertices, counter-clockwise, of radius about r,
// its centre `off` from the body origin.
std::vector<vec2<float>> random_convex(verify::rng& g, double r, vec2<double> off) {
  for (;;) {
    const int n = verify::uniform_int(g, 3, 8);
    std::vector<double> angles;
    for (int k = 0; k < n; ++k) angles.push_back(2 * pi * verify::uniform01<double>(g));
    std::sort(angles.begin(), angles.end());
    std::vector<vec2<float>> v;
    for (double a : angles) v.push_back({f(off.x + r * std::cos(a)), f(off.y + r * std::sin(a))});
    if (strictly_convex(v)) return v;
  }
}

// y of the lowest point of b at its pose (double arithmetic on the floats).
double lowest(const body& b) {
  if (b.vertices.empty()) return b.position.y - b.radius;
  double y = INFINITY;
  const double c = std::cos(b.angle), s = std::sin(b.angle);
  for (const auto& p : b.vertices) y = std::min(y, b.position.y + s * p.x + c * p.y);
  return y;
}

// x of the rightmost point of b at its pose.
double rightmost(const body& b) {
  if (b.vertices.empty()) return b.position.x + b.radius;
  double x = -INFINITY;
  const double c = std::cos(b.angle), s = std::sin(b.angle);
  for (const auto& p : b.vertices) x = std::max(x, b.position.x + c * p.x - s * p.y);
  return x;
}

std::vector<vec2<double>> world(const body& b) {
  const double c = std::cos(b.angle), s = std::sin(b.angle);
  std::vector<vec2<double>> w;
  for (const auto& p : b.vertices) w.push_back({b.position.x + c * p.x - s * p.y, b.position.y + s * p.x + c * p.y});
  return w;
}

double mean_x(const std::vector<vec2<double>>& v) {
  double m = 0;
  for (const auto& p : v) m += p.x;
  return m / static_cast<double>(v.size());
}

double mean_y(const std::vector<vec2<double>>& v) {
  double m = 0;
  for (const auto& p : v) m += p.y;
  return m / static_cast<double>(v.size());
}

// The SAT depth of two polygon bodies at their poses (0 when apart).
double overlap_depth(const body& a, const body& b) {
  const sat_result<double> r = sat<double>(world(a), world(b));
  return r.status == contact_status::intersecting ? r.depth : 0.0;
}

double log_uniform(verify::rng& g, double lo, double hi) {
  return lo * std::pow(hi / lo, verify::uniform01<double>(g));
}

vec2<double> origin_offset(verify::rng& g, double r) {
  return {0.5 * r * (2 * verify::uniform01<double>(g) - 1), 0.5 * r * (2 * verify::uniform01<double>(g) - 1)};
}

// A static ground box, top face at y = 0 in the world, under a body of size r.
body ground(double r) {
  body b;
  b.is_static = true;
  b.vertices = box(40 * r, 2 * r, 0, -r);
  return b;
}

void set_material(verify::rng& g, scene& s, int i) {
  const int kind = i % 3;
  s.restitution = kind == 0 ? 0.0f : kind == 1 ? 1.0f : f(verify::uniform01<double>(g));
  s.friction = (i % 6 == 5) ? 0.0f : f(1.5 * verify::uniform01<double>(g));
}

// Sinks b2 into the static ground's top face (y = 0) by `depth`.
void rest_on_ground(body& b, double depth) { b.position.y = f(b.position.y - lowest(b) - depth); }

scene random_scene(verify::rng& g, int i) {
  scene s;
  s.id = "step-" + std::to_string(i);
  set_material(g, s, i);
  const double r = log_uniform(g, 0.25, 4);
  const int kind = i % 6;
  const auto falling = [&](body& b) {
    b.velocity = {f(r * (2 * verify::uniform01<double>(g) - 1)), f(-r * (0.5 + 3 * verify::uniform01<double>(g)))};
    b.angular_velocity = f(2 * verify::uniform01<double>(g) - 1);
    b.density = f(log_uniform(g, 0.1, 10));
  };
  const bool with_gravity = (i / 6) % 2 == 1;
  if (kind <= 2) {  // on the static ground
    s.b1 = ground(r);
    body& b = s.b2;
    b.position.x = f(r * (2 * verify::uniform01<double>(g) - 1));
    if (kind == 0) {
      b.vertices = random_convex(g, r, origin_offset(g, r));
      b.angle = f(2 * pi * verify::uniform01<double>(g));
      s.family = "polygon-vertex-on-ground";
      s.label = "vertex on face: a convex polygon on the static ground";
    } else if (kind == 1) {
      const vec2<double> off = origin_offset(g, r);
      b.vertices = box(2 * r, r * (0.5 + verify::uniform01<double>(g)), off.x, off.y);
      s.family = "box-on-ground";
      s.label = "face on face: a box flat on the static ground";
    } else {
      b.radius = f(r);
      s.family = "circle-on-ground";
      s.label = "circle on face: a circle on the static ground";
    }
    falling(b);
    if (kind == 1) b.angular_velocity = 0;  // both corners touch and approach
    rest_on_ground(b, 0.01 * r);
    if (with_gravity) s.gravity = {0, -9.8f};
    s.label += with_gravity ? ", gravity" : ", no gravity";
  } else if (kind == 3) {  // two dynamic circles, off-centre
    const double r2 = r * log_uniform(g, 0.2, 5);
    s.b1.radius = f(r);
    s.b2.radius = f(r2);
    s.b1.density = f(log_uniform(g, 0.1, 10));
    s.b2.density = f(s.b1.density * log_uniform(g, 1e-3, 1e3) * (r * r) / (r2 * r2));
    const double a = 2 * pi * verify::uniform01<double>(g);
    const double d = 0.99 * (r + r2);
    s.b2.position = {f(d * std::cos(a)), f(d * std::sin(a))};
    const double speed = r * (0.5 + 3 * verify::uniform01<double>(g));
    const double skew = 0.8 * (2 * verify::uniform01<double>(g) - 1);  // off-centre
    s.b1.velocity = {f(speed * std::cos(a + skew)), f(speed * std::sin(a + skew))};
    s.b2.velocity = {f(-0.3 * speed * std::cos(a)), f(-0.3 * speed * std::sin(a))};
    s.family = "circle-pair";
    s.label = "circles: two dynamic circles, off-centre hit, mass ratio 1e-3 .. 1e3";
  } else if (kind == 4) {  // two dynamic polygons, both spinning
    const double r2 = r * log_uniform(g, 0.3, 3);
    s.b1.vertices = random_convex(g, r, origin_offset(g, r));
    s.b1.angle = f(2 * pi * verify::uniform01<double>(g));
    s.b1.angular_velocity = f(4 * verify::uniform01<double>(g) - 2);
    s.b1.density = f(log_uniform(g, 0.1, 10));
    body& b = s.b2;
    b.vertices = random_convex(g, r2, origin_offset(g, r2));
    b.angle = f(2 * pi * verify::uniform01<double>(g));
    b.angular_velocity = f(4 * verify::uniform01<double>(g) - 2);
    b.density = f(s.b1.density * log_uniform(g, 1e-3, 1e3) * (r * r) / (r2 * r2));
    // Off-centre: b's centre up to 0.8 r to the side of b1's. Lower b onto
    // b1 until the SAT depth of their overlap is 1 % of the smaller size
    // (bisection on b's height, from centres level to far above); draw the
    // side offset again when the two do not overlap that much.
    const double target = 0.01 * std::min(r, r2);
    for (;;) {
      b.position = {0, 0};
      const double c1 = mean_y(world(s.b1)), c2 = mean_y(world(b));
      b.position.x = f(mean_x(world(s.b1)) - mean_x(world(b)) + 0.8 * r * (2 * verify::uniform01<double>(g) - 1));
      double lo = c1 - c2, hi = lo + 4 * (r + r2);
      for (int k = 0; k < 80; ++k) {
        b.position.y = f((lo + hi) / 2);
        (overlap_depth(s.b1, b) >= target ? lo : hi) = b.position.y;
      }
      b.position.y = f(lo);
      const double d = overlap_depth(s.b1, b);
      if (d >= target && d <= 2 * target) break;
    }
    b.velocity = {f(0.5 * r * (2 * verify::uniform01<double>(g) - 1)), f(-r * (0.5 + 2 * verify::uniform01<double>(g)))};
    s.family = "polygon-pair";
    s.label = "pair: two dynamic spinning polygons, mass ratio 1e-3 .. 1e3, off-centre";
  } else {  // a wall on the right, a polygon thrown into it
    body& w = s.b1;
    w.is_static = true;
    w.vertices = box(2 * r, 40 * r, r, 0);  // left face at x = 0
    body& b = s.b2;
    b.vertices = random_convex(g, r, origin_offset(g, r));
    b.angle = f(2 * pi * verify::uniform01<double>(g));
    b.position.x = f(b.position.x - rightmost(b) + 0.01 * r);
    b.velocity = {f(r * (0.5 + 3 * verify::uniform01<double>(g))), f(r * (2 * verify::uniform01<double>(g) - 1))};
    b.angular_velocity = f(2 * verify::uniform01<double>(g) - 1);
    b.density = f(log_uniform(g, 0.1, 10));
    if (with_gravity) s.gravity = {0, -9.8f};
    s.family = "polygon-into-wall";
    s.label = std::string("wall: a polygon thrown into a static wall") + (with_gravity ? ", gravity" : ", no gravity");
  }
  return s;
}

void named_scenes(std::ostream& out) {
  const auto flat_box = [](const std::string& id, const std::string& label, float e) {
    scene s;
    s.id = "step-" + id;
    s.family = "named-box-on-ground";
    s.label = label;
    s.b1.is_static = true;
    s.b1.vertices = box(20, 2, 0, -1);
    s.b2.vertices = box(1, 1);
    s.b2.position = {0, 0.5f - 0x1p-7f};
    s.b2.velocity = {0, -2};
    s.restitution = e;
    s.friction = 0.5f;
    return s;
  };
  write_scene(out, flat_box("box-flat-e0", "a unit box falling flat on the static ground at 2 m/s, e = 0", 0));
  write_scene(out, flat_box("box-flat-e1", "a unit box falling flat on the static ground at 2 m/s, e = 1", 1));
  scene rest = flat_box("box-resting", "a unit box at rest on the ground under gravity, e = 0", 0);
  rest.b2.velocity = {0, 0};
  rest.gravity = {0, -9.8f};
  write_scene(out, rest);
  scene spin = flat_box("box-spinning", "a unit box spinning at 5 rad/s, one corner on the ground", 0.5f);
  spin.b2.angle = 0.5f;
  spin.b2.position = {0, f(0.5 * (std::cos(0.5) + std::sin(0.5)) - 0x1p-7)};
  spin.b2.angular_velocity = 5;
  write_scene(out, spin);
  scene circles;
  circles.id = "step-circles-head-on";
  circles.family = "named-circles-head-on";
  circles.label = "equal circles head on at 1 m/s each, e = 1: they exchange velocities";
  circles.b1.radius = 0.5f;
  circles.b2.radius = 0.5f;
  circles.b1.position = {-0.5f + 0x1p-8f, 0};
  circles.b2.position = {0.5f - 0x1p-8f, 0};
  circles.b1.velocity = {1, 0};
  circles.b2.velocity = {-1, 0};
  circles.restitution = 1;
  write_scene(out, circles);
  scene ratio;
  ratio.id = "step-mass-ratio-1e3";
  ratio.family = "named-mass-ratio";
  ratio.label = "a light box (density 1e-3) dropped on a heavy dynamic box, zero gravity";
  ratio.b1.vertices = box(4, 1);
  ratio.b2.vertices = box(1, 1);
  ratio.b2.density = 1e-3f;
  ratio.b2.position = {0.75f, 1 - 0x1p-7f};
  ratio.b2.velocity = {0, -1};
  ratio.friction = 0.3f;
  write_scene(out, ratio);
}

// The scene turned about the origin by `angle`: positions, velocities and
// gravity turned, every body's angle increased (shapes stay in their body
// frames), each number rounded to float once. The rounding moves the bodies
// by ulps, against an overlap of 1 % of their size.
void turn(scene& s, double angle) {
  const double c = std::cos(angle), si = std::sin(angle);
  const auto turned = [&](vec2<float> v) {
    return vec2<float>{f(c * v.x - si * v.y), f(si * v.x + c * v.y)};
  };
  for (body* b : {&s.b1, &s.b2}) {
    b->position = turned(b->position);
    b->velocity = turned(b->velocity);
    b->angle = f(std::remainder(b->angle + angle, 2 * pi));
  }
  s.gravity = turned(s.gravity);
}

// 12 scenes of the kinds on a static ground or against a static wall (3
// of each), turned by a random angle.
void turned_scenes(std::uint64_t seed, std::ostream& out) {
  verify::rng g(seed + 6);
  int k = 0;
  for (int i = 0; k < 12; ++i) {
    if (i % 6 == 3 || i % 6 == 4) continue;  // the two-body kinds: already in random directions
    scene s = random_scene(g, i);
    const double angle = angle_off_axes(g);
    turn(s, angle);
    s.id = "step-rotated-" + std::to_string(k++);
    char buf[64];
    std::snprintf(buf, sizeof buf, ", the scene turned by %.2f degrees", angle * 180 / pi);
    s.label += buf;
    write_scene(out, s);
  }
}

}  // namespace

void write_dynamics_set(std::uint64_t seed, std::size_t count, std::ostream& out) {
  verify::rng g(seed + 2);
  for (std::size_t i = 0; i < count; ++i) write_scene(out, random_scene(g, static_cast<int>(i)));
  named_scenes(out);
  turned_scenes(seed, out);
}

}  // namespace rigidref::tools
