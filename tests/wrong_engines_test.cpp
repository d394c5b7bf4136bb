// For every op `rigidref check` judges, a plausible wrong engine that it must
// fail, next to an honest one that it must pass (issue 25; derivations/
// judge.md). The engines are written here, independently of rigidref's own
// algorithms, except where noted ("the reference in double": rigidref eval
// answering in double, a different precision from the judge's). Every run
// goes through the CLI with --cases, as a user's adapter would.
//
//   op                    wrong engine
//   mass.polygon          inertia about the origin (a Box2D-style omission of the shift)
//   mass.circle           m r^2 (the half forgotten)
//   mass.rectangle        m (w^2 + h^2) / 6
//   mass.triangle         the polar moment about the first vertex
//   mass.regular_polygon  m R^2 / 2, the disc's formula
//   gjk.distance          |dx| + |dy| as the distance of two discs (a wrong norm);
//                         "intersecting" from a tolerance (distance < 0.05)
//   epa.penetration       the normal reversed
//   contact.manifold      the separation's sign reversed
//   sat.rectangles        the overlap flag of the first axis alone
//   mat2.sqrt             the square roots of the entries
//   mat2.polar            q and s swapped
//   shape_match           the angle's sign reversed
//   step.pair             friction bounded by 2 mu jn; the impulse of one body's mass alone
#include "support/eval_pipe.hpp"

#include <nlohmann/json.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <functional>
#include <random>
#include <string>
#include <vector>

using namespace rigidref::testing::eval_pipe;

namespace {

struct verdicts {
  int status = 0;
  std::vector<json> lines;
  std::string summary;
};

// The cases as a case file, each answered by `engine`, judged with --cases.
verdicts judge(const std::vector<json>& cases, const std::function<json(const json&)>& engine,
               const std::string& precision, const std::string& extra = "") {
  const auto case_file = temp_path("cases");
  const auto verdict_file = temp_path("verdicts");
  std::string input;
  {
    std::ofstream out(case_file);
    for (const json& c : cases) {
      out << c.dump() << "\n";
      json a = c;
      a["engine"] = "test engine";
      a["precision"] = precision;
      const json answer = engine(c);
      for (const auto& [key, value] : answer.items()) a[key] = value;  // result, allowances, inputs
      input += a.dump() + "\n";
    }
  }
  const cli_run r = run_cli("check --cases " + shell_quote(case_file.string()) + " --verdicts " +
                                shell_quote(verdict_file.string()) + " " + extra,
                            input);
  verdicts v{r.status, {}, r.out};
  for (const std::string& line : split_lines(read_file(verdict_file))) v.lines.push_back(json::parse(line));
  std::filesystem::remove(case_file);
  std::filesystem::remove(verdict_file);
  return v;
}

std::size_t failing(const verdicts& v) {
  std::size_t n = 0;
  for (const json& l : v.lines) n += l["verdict"] == "fail";
  return n;
}

json result(json r) { return {{"result", std::move(r)}}; }

double f32(double x) { return static_cast<double>(static_cast<float>(x)); }

// The reference answering in double (rigidref eval), for the ops whose
// honest engine would otherwise be a copy of a long article formula.
json reference_in_double(const json& c) {
  json q = c;
  q["precision"] = "double";
  const json a = eval1(q.dump());
  REQUIRE(a["ok"] == true);
  return a["result"];
}

std::mt19937_64& rng() {
  static std::mt19937_64 g(20261126);
  return g;
}
double uniform(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng()); }

}  // namespace

TEST_CASE("wrong engines: mass.polygon, inertia about the origin", "[wrong]") {
  // Random convex polygons off the origin by about their size.
  std::vector<json> cases;
  for (int k = 0; k < 12; ++k) {
    const int n = 3 + k % 6;
    const double ox = uniform(-2, 2), oy = uniform(-2, 2);
    std::vector<double> angles;
    for (int i = 0; i < n; ++i) angles.push_back(uniform(0, 2 * M_PI));
    std::sort(angles.begin(), angles.end());
    json v = json::array();
    for (double t : angles) v.push_back({f32(ox + std::cos(t)), f32(oy + std::sin(t))});
    cases.push_back({{"id", "p-" + std::to_string(k)}, {"op", "mass.polygon"}, {"vertices", v}, {"density", 1}});
  }
  // A triangle fan from the first vertex, in double; `about_origin` skips the shift to the centroid.
  const auto fan = [](bool about_origin) {
    return [about_origin](const json& c) {
      const json& v = c["vertices"];
      const double sx = v[0][0], sy = v[0][1];
      double area = 0, mx = 0, my = 0, is = 0;
      for (std::size_t i = 1; i + 1 < v.size(); ++i) {
        const double ax = v[i][0].get<double>() - sx, ay = v[i][1].get<double>() - sy;
        const double bx = v[i + 1][0].get<double>() - sx, by = v[i + 1][1].get<double>() - sy;
        const double d = ax * by - ay * bx;
        area += d / 2;
        mx += d / 6 * (ax + bx);
        my += d / 6 * (ay + by);
        is += d / 12 * (ax * ax + ax * bx + bx * bx + ay * ay + ay * by + by * by);
      }
      const double cx = mx / area, cy = my / area;
      double inertia = is - area * (cx * cx + cy * cy);
      if (about_origin) inertia += area * ((cx + sx) * (cx + sx) + (cy + sy) * (cy + sy));
      return result({{"area", area}, {"centroid", {cx + sx, cy + sy}}, {"mass", area}, {"inertia", inertia}});
    };
  };
  const verdicts honest = judge(cases, fan(false), "double");
  CHECK(honest.status == 0);
  CHECK(failing(honest) == 0);
  const verdicts wrong = judge(cases, fan(true), "double");
  CHECK(wrong.status == 1);
  CHECK(failing(wrong) == cases.size());
  for (const json& l : wrong.lines) CHECK(l["failures"] == json::array({"inertia"}));
}

TEST_CASE("wrong engines: the closed mass formulas", "[wrong]") {
  const float m = 3.5f, r = 0.75f, w = 2.5f, h = 0.5f, R = 1.25f;
  SECTION("mass.circle: m r^2 instead of m r^2 / 2") {
    const std::vector<json> cases{{{"id", "c"}, {"op", "mass.circle"}, {"radius", r}, {"mass", m}}};
    CHECK(judge(cases, [&](const json&) { return result({{"inertia", m * r * r / 2}}); }, "float").status == 0);
    CHECK(judge(cases, [&](const json&) { return result({{"inertia", m * r * r}}); }, "float").status == 1);
  }
  SECTION("mass.rectangle: / 6 instead of / 12") {
    const std::vector<json> cases{{{"id", "r"}, {"op", "mass.rectangle"}, {"width", w}, {"height", h}, {"mass", m}}};
    CHECK(judge(cases, [&](const json&) { return result({{"inertia", m * (w * w + h * h) / 12}}); }, "float").status == 0);
    CHECK(judge(cases, [&](const json&) { return result({{"inertia", m * (w * w + h * h) / 6}}); }, "float").status == 1);
  }
  SECTION("mass.triangle: about the first vertex instead of the centroid") {
    // (0,0), (4,0), (1,3), m = 2: about the centroid m (a^2 + b^2 + c^2) / 36
    // with sides^2 16, 18, 10: 2 * 44 / 36; about the first vertex add m |g|^2, g = (5/3, 1).
    const std::vector<json> cases{
        {{"id", "t"}, {"op", "mass.triangle"}, {"vertices", {{0, 0}, {4, 0}, {1, 3}}}, {"mass", 2}}};
    const double about_centroid = 2.0 * 44 / 36;
    CHECK(judge(cases, [&](const json&) { return result({{"inertia", about_centroid}}); }, "double").status == 0);
    CHECK(judge(cases, [&](const json&) { return result({{"inertia", about_centroid + 2 * (25.0 / 9 + 1)}}); },
                "double")
              .status == 1);
  }
  SECTION("mass.regular_polygon: the disc's m R^2 / 2") {
    const std::vector<json> cases{{{"id", "n"}, {"op", "mass.regular_polygon"}, {"sides", 6}, {"radius", R}, {"mass", m}}};
    const double closed = m * R * R * (2 + std::cos(2 * M_PI / 6)) / 6;
    CHECK(judge(cases, [&](const json&) { return result({{"inertia", closed}}); }, "double").status == 0);
    CHECK(judge(cases, [&](const json&) { return result({{"inertia", m * R * R / 2.0}}); }, "double").status == 1);
  }
}

namespace {

// Disc pairs at random angles, apart and overlapping in equal numbers, and
// two pairs just apart (0.01): closer than a tolerance engine's 0.05,
// farther than the budget of touching.
std::vector<json> disc_pairs(const std::string& op) {
  std::vector<json> cases;
  for (int k = 0; k < 12; ++k) {
    const double r1 = f32(uniform(0.5, 2)), r2 = f32(uniform(0.5, 2)), t = uniform(0, 2 * M_PI);
    const double gap = k < 2 ? 0.01 : k % 2 == 0 ? uniform(0.1, 1) : -uniform(0.1, 0.4) * std::min(r1, r2);
    const double d = r1 + r2 + gap, cx = f32(uniform(-3, 3)), cy = f32(uniform(-3, 3));
    cases.push_back({{"id", op + "-" + std::to_string(k)},
                     {"op", op},
                     {"a", {{"center", {cx, cy}}, {"radius", r1}}},
                     {"b", {{"center", {f32(cx + d * std::cos(t)), f32(cy + d * std::sin(t))}}, {"radius", r2}}}});
  }
  return cases;
}

struct discs {
  double ax, ay, r1, bx, by, r2, dx, dy, d;
  explicit discs(const json& c)
      : ax(c["a"]["center"][0]), ay(c["a"]["center"][1]), r1(c["a"]["radius"]), bx(c["b"]["center"][0]),
        by(c["b"]["center"][1]), r2(c["b"]["radius"]), dx(bx - ax), dy(by - ay), d(std::hypot(dx, dy)) {}
};

}  // namespace

TEST_CASE("wrong engines: gjk.distance with a wrong norm, and a flag from a tolerance", "[wrong]") {
  const std::vector<json> cases = disc_pairs("gjk.distance");
  const auto engine = [](bool l1, double tolerance) {
    return [=](const json& c) {
      const discs s(c);
      const double centres = l1 ? std::abs(s.dx) + std::abs(s.dy) : s.d;
      const double distance = std::max(0.0, centres - s.r1 - s.r2);
      json r = {{"intersecting", distance <= tolerance}, {"distance", distance}};
      if (distance > 0) {
        r["point_a"] = {s.ax + s.r1 * s.dx / s.d, s.ay + s.r1 * s.dy / s.d};
        r["point_b"] = {s.bx - s.r2 * s.dx / s.d, s.by - s.r2 * s.dy / s.d};
      }
      return result(r);
    };
  };
  const verdicts honest = judge(cases, engine(false, 0), "double");
  CHECK(honest.status == 0);
  const verdicts l1 = judge(cases, engine(true, 0), "double");
  CHECK(l1.status == 1);
  CHECK(failing(l1) >= 5);  // every separated pair off an axis
  const verdicts tolerant = judge(cases, engine(false, 0.05), "double");
  CHECK(tolerant.status == 1);
  CHECK(failing(tolerant) == 2);  // the two pairs 0.01 apart
  for (const json& l : tolerant.lines)
    if (l["verdict"] == "fail") CHECK(l["failures"] == json::array({"intersecting"}));
}

TEST_CASE("wrong engines: epa.penetration with the normal reversed", "[wrong]") {
  std::vector<json> cases;
  for (const json& c : disc_pairs("epa.penetration"))
    if (discs(c).d < discs(c).r1 + discs(c).r2) cases.push_back(c);
  REQUIRE(cases.size() >= 4);
  const auto engine = [](double sign) {
    return [=](const json& c) {
      const discs s(c);
      return result({{"intersecting", true}, {"depth", s.r1 + s.r2 - s.d}, {"normal", {sign * s.dx / s.d, sign * s.dy / s.d}}});
    };
  };
  CHECK(judge(cases, engine(1), "double").status == 0);
  const verdicts reversed = judge(cases, engine(-1), "double");
  CHECK(failing(reversed) == cases.size());
  for (const json& l : reversed.lines) CHECK(l["failures"] == json::array({"normal"}));
}

TEST_CASE("wrong engines: contact.manifold with the separation's sign reversed", "[wrong]") {
  std::vector<json> cases;
  for (const json& c : disc_pairs("contact.manifold"))
    if (discs(c).d < discs(c).r1 + discs(c).r2) cases.push_back(c);
  const auto engine = [](double sign) {
    return [=](const json& c) {
      const discs s(c);
      const double nx = s.dx / s.d, ny = s.dy / s.d, sep = s.d - s.r1 - s.r2;
      // The midpoint of the two surfaces along the normal.
      const double px = s.ax + (s.r1 + sep / 2) * nx, py = s.ay + (s.r1 + sep / 2) * ny;
      return result({{"normal", {nx, ny}}, {"points", {{{"point", {px, py}}, {"separation", sign * sep}}}}});
    };
  };
  CHECK(judge(cases, engine(1), "double").status == 0);
  const verdicts reversed = judge(cases, engine(-1), "double");
  CHECK(failing(reversed) == cases.size());
  for (const json& l : reversed.lines) CHECK(l["failures"] == json::array({"separation"}));
}

TEST_CASE("wrong engines: sat.rectangles deciding on one axis", "[wrong]") {
  // A long flat rectangle and a tilted one beyond its right end: their
  // projections on the first rectangle's normal (y) overlap, on its tangent
  // (x) they do not.
  std::vector<json> cases;
  for (int k = 0; k < 4; ++k)
    cases.push_back({{"id", "s-" + std::to_string(k)},
                     {"op", "sat.rectangles"},
                     {"r1", {{"center", {0, 0}}, {"width", 4}, {"height", 0.5}, {"angle", 0.1 * k}}},
                     {"r2", {{"center", {3.2 + 0.1 * k, 0.05 * k}}, {"width", 4}, {"height", 0.5}, {"angle", 0.9}}}});
  const auto honest = [](const json& c) { return result(reference_in_double(c)); };
  REQUIRE(judge(cases, honest, "double").status == 0);
  for (const json& c : cases) REQUIRE(reference_in_double(c)["overlap"] == false);
  const auto one_axis = [](const json& c) {
    json r = reference_in_double(c);
    r["overlap"] = true;  // the first axis's projections overlap
    return result(r);
  };
  CHECK(failing(judge(cases, one_axis, "double")) == cases.size());
}

TEST_CASE("wrong engines: mat2.sqrt of the entries, mat2.polar with q and s swapped", "[wrong]") {
  const std::vector<json> sqrt_cases{{{"id", "q"}, {"op", "mat2.sqrt"}, {"m", {{5, 4}, {4, 5}}}}};
  // sqrt [[5,4],[4,5]] = [[2,1],[1,2]] exactly.
  CHECK(judge(sqrt_cases, [](const json&) { return result({{"x", {{2, 1}, {1, 2}}}}); }, "double").status == 0);
  CHECK(judge(sqrt_cases, [](const json&) { return result({{"x", {{std::sqrt(5.0), 2}, {2, std::sqrt(5.0)}}}}); },
              "double")
            .status == 1);
  const std::vector<json> polar_cases{{{"id", "p"}, {"op", "mat2.polar"}, {"m", {{1, 2}, {-0.5, 3}}}, {"side", "right"}}};
  const auto honest = [](const json& c) {
    const json r = reference_in_double(c);
    return result({{"q", r["q"]}, {"s", r["s"]}});
  };
  CHECK(judge(polar_cases, honest, "double").status == 0);
  CHECK(judge(polar_cases, [&](const json& c) {
          json r = honest(c);
          std::swap(r["result"]["q"], r["result"]["s"]);
          return r;
        }, "double").status == 1);
}

TEST_CASE("wrong engines: shape_match with the angle's sign reversed", "[wrong]") {
  const std::vector<json> cases{{{"id", "m"},
                                 {"op", "shape_match"},
                                 {"rest", {{0, 0}, {2, 0}, {2, 1}, {0, 1}}},
                                 {"current", {{1, 1}, {2.7, 2.05}, {2.2, 2.9}, {0.5, 1.85}}}}};
  const auto engine = [](double sign) {
    return [=](const json& c) {
      const json r = reference_in_double(c);
      return result({{"angle", sign * r["angle"].get<double>()}, {"translation", r["translation"]}});
    };
  };
  CHECK(judge(cases, engine(1), "double").status == 0);
  CHECK(judge(cases, engine(-1), "double").status == 1);
}

namespace {

// A unit box (density 2) turned by 0.5 rad, its lowest vertex 0.01 into a
// static ground (top face y = 0), sliding: one contact, with friction.
json box_on_ground(const std::string& id, double friction, double restitution, double vx) {
  const double angle = f32(0.5), c = std::cos(angle), s = std::sin(angle);
  double lowest = 0;
  for (const double x : {-0.5, 0.5})
    for (const double y : {-0.5, 0.5}) lowest = std::min(lowest, s * x + c * y);
  return {{"id", id},
          {"op", "step.pair"},
          {"body1", {{"vertices", {{-10, -1}, {10, -1}, {10, 0}, {-10, 0}}}, {"static", true}}},
          {"body2",
           {{"vertices", {{-0.5, -0.5}, {0.5, -0.5}, {0.5, 0.5}, {-0.5, 0.5}}},
            {"position", {0, f32(-0.01 - lowest)}},
            {"angle", angle},
            {"velocity", {vx, -2}},
            {"angular_velocity", 0},
            {"density", 2}}},
          {"friction", friction},
          {"restitution", restitution},
          {"dt", f32(1.0 / 60)}};
}

// Projected Gauss-Seidel on that one contact, `sweeps` sweeps from zero
// impulses in double, normal row then tangent row, friction bounded by
// `cone` mu jn; the contact point midway between the vertex and the ground.
json sweeping_engine(const json& c, int sweeps, double cone) {
  const json& b = c["body2"];
  const double angle = b["angle"], co = std::cos(angle), si = std::sin(angle);
  const double px = b["position"][0], py = b["position"][1];
  double vx = b["velocity"][0], vy = b["velocity"][1], w = b["angular_velocity"];
  const double m = 2.0 * 1 * 1, inertia = m * (1 + 1) / 12, mu = c["friction"], e = c["restitution"];
  double qx = 0, qy = 1e9;  // the lowest vertex
  for (const json& v : b["vertices"]) {
    const double x = px + co * v[0].get<double>() - si * v[1].get<double>();
    const double y = py + si * v[0].get<double>() + co * v[1].get<double>();
    if (y < qy) qx = x, qy = y;
  }
  const double rx = qx - px, ry = qy / 2 - py;  // the point (qx, qy / 2)
  const auto u = [&](double nx, double ny) { return (vx - w * ry) * nx + (vy + w * rx) * ny; };
  const auto k = [&](double nx, double ny) {
    const double rn = rx * ny - ry * nx;
    return 1 / m + rn * rn / inertia;
  };
  const auto apply = [&](double j, double nx, double ny) {
    vx += j * nx / m;
    vy += j * ny / m;
    w += (rx * ny - ry * nx) * j / inertia;
  };
  const double target = -e * std::min(u(0, 1), 0.0);
  double jn = 0, jt = 0;
  for (int i = 0; i < sweeps; ++i) {
    const double n_next = std::max(0.0, jn - (u(0, 1) - target) / k(0, 1));
    apply(n_next - jn, 0, 1);
    jn = n_next;
    const double bound = cone * mu * jn;
    const double t_next = std::clamp(jt - u(-1, 0) / k(-1, 0), -bound, bound);
    apply(t_next - jt, -1, 0);
    jt = t_next;
  }
  json r = {{"body1_after", {{"velocity", {0, 0}}, {"angular_velocity", 0}}},
            {"body2_after", {{"velocity", {vx, vy}}, {"angular_velocity", w}}},
            {"contacts", {{{"point", {qx, qy / 2}}, {"normal", {0, 1}}, {"jn", jn}, {"jt", jt}}}}};
  return {{"result", r}, {"allowances", {{"solver_iterations", sweeps}}}};
}

}  // namespace

TEST_CASE("wrong engines: step.pair judged on what its sweeps can reach", "[wrong][step]") {
  const std::vector<json> cases{box_on_ground("slide", 0.2, 0.3, 3), box_on_ground("grip", 0.8, 0, 0.5)};
  SECTION("an honest engine of 8 sweeps passes with solver_iterations 8") {
    const verdicts v = judge(cases, [](const json& c) { return sweeping_engine(c, 8, 1); }, "double");
    CHECK(v.status == 0);
    for (const json& l : v.lines) CHECK(l["verdict"] == "pass");
  }
  SECTION("... and fails without it: 8 sweeps are not the exact solution") {
    const verdicts v = judge(cases, [](const json& c) {
      json a = sweeping_engine(c, 8, 1);
      a.erase("allowances");
      return a;
    }, "double");
    CHECK(v.status == 1);
    CHECK(v.summary.find("velocities") != std::string::npos);
  }
  SECTION("a friction bound of 2 mu jn fails even with the allowance") {
    const verdicts v = judge(cases, [](const json& c) { return sweeping_engine(c, 8, 2); }, "double");
    CHECK(v.status == 1);
    REQUIRE(v.lines.size() == 2);
    CHECK(v.lines[0]["verdict"] == "fail");  // the sliding box: its friction saturates the wrong cone
    const auto& failures = v.lines[0]["failures"];
    CHECK(std::find(failures.begin(), failures.end(), "friction_cone") != failures.end());
  }
  SECTION("converged engines pass without the allowance") {
    const verdicts v = judge(cases, [](const json& c) {
      json a = sweeping_engine(c, 2000, 1);
      a.erase("allowances");
      return a;
    }, "double");
    CHECK(v.status == 0);
  }
}

TEST_CASE("wrong engines: step.pair with the impulse of one body's mass alone", "[wrong][step]") {
  // Two discs head on, no gravity, no friction: the impulse is
  // -(1 + e) u_n / (1/m1 + 1/m2); the wrong engine uses 1/m1 alone.
  std::vector<json> cases;
  for (int k = 0; k < 4; ++k) {
    const double e = 0.25 * k, r = 0.5;
    cases.push_back({{"id", "discs-" + std::to_string(k)},
                     {"op", "step.pair"},
                     {"body1", {{"radius", r}, {"position", {0, 0}}, {"velocity", {1, 0}}, {"density", 1 + k}}},
                     {"body2", {{"radius", r}, {"position", {0.99, 0}}, {"velocity", {-1, 0}}, {"density", 1}}},
                     {"restitution", e}});
  }
  const auto engine = [](bool one_mass) {
    return [=](const json& c) {
      const double pi = std::acos(-1.0), r = 0.5;
      const double m1 = c["body1"]["density"].get<double>() * pi * r * r, m2 = pi * r * r, e = c["restitution"];
      const double u = -1 - 1;  // v2 - v1 along (1, 0)
      const double j = -(1 + e) * u / (one_mass ? 1 / m1 : 1 / m1 + 1 / m2);
      return result({{"body1_after", {{"velocity", {1 - j / m1, 0}}, {"angular_velocity", 0}}},
                     {"body2_after", {{"velocity", {-1 + j / m2, 0}}, {"angular_velocity", 0}}}});
    };
  };
  CHECK(judge(cases, engine(false), "double").status == 0);
  const verdicts wrong = judge(cases, engine(true), "double");
  CHECK(failing(wrong) == cases.size());
}
