// `rigidref eval` ops mat2.sqrt, mat2.polar and shape_match, end to end: the
// built binary answers through a pipe (support/eval_pipe.hpp) and every
// answer is read back and checked independently of the library functions
// that computed it: by the defining identities (x*x = m, q^T q = I, q*s = m,
// ...) evaluated in exact rational arithmetic on the printed values, and by
// answers known by hand.
//
// Tolerances. eps is the precision's machine epsilon (2^(1 - digits)). A
// printed entry within k ulps of the true one is within k eps |entry| of it
// (ulp(x) <= eps |x|), so a matrix within k ulps per entry is within
// k eps |X|_F in the Frobenius norm; the bounds below follow from that.
// They are compared squared, in exact arithmetic, so the check itself does
// not round.
#include "support/eval_pipe.hpp"
#include "support/matchers.hpp"

#include "rigidref/convert.hpp"
#include "rigidref/scalar.hpp"
#include "rigidref/verify/accuracy.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <boost/math/constants/constants.hpp>

#include <array>
#include <cmath>
#include <string>
#include <type_traits>
#include <vector>

// This file's names stay apart from the other files of its test program,
// which compile as one unit (tests/CMakeLists.txt, rigidref_test_file).
namespace eval_matrix_test {

namespace {

using rigidref::exact;
using rigidref::verify::oracle_float;
using namespace rigidref::testing::eval_pipe;

exact q(const char* text) { return rigidref::parse_exact(text); }

template <class T>
exact eps() {
  return rigidref::to_exact(rigidref::epsilon<T>());
}

// ---- exact 2x2 arithmetic (independent of rigidref::mat2) -------------------------

struct m22 {
  exact a, b, c, d;  // [[a, b], [c, d]]
};

m22 mul(const m22& x, const m22& y) {
  return {x.a * y.a + x.b * y.c, x.a * y.b + x.b * y.d, x.c * y.a + x.d * y.c, x.c * y.b + x.d * y.d};
}
m22 sub(const m22& x, const m22& y) { return {x.a - y.a, x.b - y.b, x.c - y.c, x.d - y.d}; }
m22 transposed(const m22& x) { return {x.a, x.c, x.b, x.d}; }
exact det(const m22& x) { return x.a * x.d - x.b * x.c; }
exact trace(const m22& x) { return x.a + x.d; }
exact frobenius2(const m22& x) { return x.a * x.a + x.b * x.b + x.c * x.c + x.d * x.d; }
const m22 identity{1, 0, 0, 1};

std::string text(const m22& x) {
  using rigidref::to_string;
  return "[[" + to_string(x.a) + ", " + to_string(x.b) + "], [" + to_string(x.c) + ", " + to_string(x.d) + "]]";
}

// |r|_F <= k_eps |s|_F, checked as |r|_F^2 <= k_eps^2 |s|_F^2.
void check_small(const m22& r, const exact& k_eps, const exact& scale2, const std::string& what) {
  INFO(what << ": residual " << text(r) << ", allowed Frobenius norm " << rigidref::to_string(k_eps)
            << " * sqrt(" << rigidref::to_string(scale2) << ")");
  CHECK(frobenius2(r) <= k_eps * k_eps * scale2);
}

// A matrix given as decimal strings, as T reads it (one rounding per entry).
template <class T>
m22 input_matrix(const std::array<const char*, 4>& m) {
  auto in = [](const char* s) { return rigidref::to_exact(rigidref::from_string<T>(s)); };
  return {in(m[0]), in(m[1]), in(m[2]), in(m[3])};
}

std::string matrix_json(const std::array<const char*, 4>& m) {
  return std::string("[[\"") + m[0] + "\",\"" + m[1] + "\"],[\"" + m[2] + "\",\"" + m[3] + "\"]]";
}

// A printed result matrix read back exactly.
template <class T>
m22 read_matrix(const json& v) {
  INFO("matrix: " << v.dump());
  REQUIRE(v.is_array());
  REQUIRE(v.size() == 2);
  REQUIRE(v[0].is_array());
  REQUIRE(v[1].is_array());
  REQUIRE(v[0].size() == 2);
  REQUIRE(v[1].size() == 2);
  auto e = [](const json& x) { return rigidref::to_exact(read_real<T>(x)); };
  return {e(v[0][0]), e(v[0][1]), e(v[1][0]), e(v[1][1])};
}

// Each entry within `ulps` of the correctly rounded entry of `truth`.
template <class T>
void check_matrix(const json& v, const m22& truth, double ulps = 1) {
  INFO("matrix: " << v.dump() << ", expected " << text(truth));
  REQUIRE(v.is_array());
  REQUIRE(v.size() == 2);
  check_real<T>(v[0][0], truth.a, ulps);
  check_real<T>(v[0][1], truth.b, ulps);
  check_real<T>(v[1][0], truth.c, ulps);
  check_real<T>(v[1][1], truth.d, ulps);
}

// A printed zero is +0 (no "-0": the sign carries no information there).
template <class T>
void check_plus_zero(const json& v) {
  INFO("value: " << v.dump());
  CHECK(read_real<T>(v) == 0);
  if (v.is_string()) CHECK(v.get<std::string>().front() != '-');
  else CHECK_FALSE(std::signbit(v.get<double>()));
}

const std::vector<std::string> sqrt_methods = {"default", "cayley_hamilton", "diagonalization"};

}  // namespace

// ---- mat2.sqrt ---------------------------------------------------------------------------

TEMPLATE_LIST_TEST_CASE("mat2.sqrt in every precision and every method", "[eval][mat2]", rigidref::all_scalars) {
  using T = TestType;
  const std::string p(rigidref::scalar_name<T>());
  // m, and the principal square root when it is known by hand.
  struct sqrt_case {
    std::array<const char*, 4> m;
    bool known;
    m22 x;
  };
  const exact r = rigidref::to_exact(oracle_float(sqrt(oracle_float(0.5))));  // sqrt(1/2), 230 bits
  const std::vector<sqrt_case> cases = {
      {{"5", "4", "4", "5"}, true, {2, 1, 1, 2}},           // eigenvalues 9, 1 (not [[1,2],[2,1]], det -3)
      {{"4", "0", "0", "9"}, true, {2, 0, 0, 3}},           // diagonal
      {{"1", "1", "0", "1"}, true, {1, q("1/2"), 0, 1}},    // Jordan block: the repeated-eigenvalue case
      {{"0", "-1", "1", "0"}, true, {r, -r, r, r}},         // rotation by pi/2 -> by pi/4 (complex eigenvalues)
      {{"0", "0", "0", "0"}, true, {0, 0, 0, 0}},           // zero -> zero
      {{"0.3", "1.7", "-2.1", "5.9"}, false, {}},           // real distinct eigenvalues, inexact inputs
      {{"-1", "-3", "2", "-1"}, false, {}},                 // complex pair, negative trace
      {{"1e-3", "2.5", "-0.75", "12"}, false, {}},          // wide spread of magnitudes
  };
  std::vector<std::string> requests;
  for (const sqrt_case& c : cases)
    for (const std::string& method : sqrt_methods)
      requests.push_back(R"({"op":"mat2.sqrt","precision":")" + p + R"(","method":")" + method + R"(","m":)" +
                         matrix_json(c.m) + "}");
  // "default" is the default.
  requests.push_back(R"({"op":"mat2.sqrt","precision":")" + p + R"(","m":[[5,4],[4,5]]})");
  const std::vector<json> a = eval(requests);
  REQUIRE(a.size() == cases.size() * sqrt_methods.size() + 1);

  if constexpr (rigidref::is_exact_v<T>) {
    // Square roots: unsupported in exact, for every method and every matrix.
    for (const json& x : a) require_error(x, "unsupported", {"exact", "square root"});
  } else {
    // Residual: x within k ulps per entry gives |x*x - m|_F <= (2k + k^2 eps) eps |x|_F^2
    // (x*x - m = x e + e x + e e, |e|_F <= k eps |x|_F). The reference is within 1 ulp
    // (k = 1); the article's methods, evaluated in T, are within a few ulps on these
    // well-conditioned matrices: 16 eps allows k up to 7.
    const exact tol = 16 * eps<T>();
    std::size_t i = 0;
    for (const sqrt_case& c : cases) {
      const m22 m = input_matrix<T>(c.m);
      for (const std::string& method : sqrt_methods) {
        INFO("m = " << text(m) << ", method " << method);
        const json& answer = a[i++];
        require_ok(answer, p);
        const m22 x = read_matrix<T>(answer["result"]["x"]);
        check_small(sub(mul(x, x), m), tol, frobenius2(x), "x*x - m");
        if (frobenius2(m) == 0) {
          for (const auto* row : {&answer["result"]["x"][0], &answer["result"]["x"][1]})
            for (const json& e : *row) check_plus_zero<T>(e);
        } else {
          // The principal root: both eigenvalues of x in the right half-plane,
          // i.e. tr x > 0 and det x > 0 (a 2x2 criterion).
          CHECK(trace(x) > 0);
          CHECK(det(x) > 0);
        }
        // The reference is within 1 ulp of the known root; the article's methods
        // within a few (the rotation by pi/4 divides by a rounded 2 sqrt(1/2)).
        if (c.known) check_matrix<T>(answer["result"]["x"], c.x, method == "default" ? 1 : 4);
      }
    }
    require_ok(a.back(), p);
    check_matrix<T>(a.back()["result"]["x"], {2, 1, 1, 2});
  }
}

TEMPLATE_LIST_TEST_CASE("mat2.sqrt outside the domain is domain_error, for every method", "[eval][mat2]",
                        rigidref::all_scalars) {
  using T = TestType;
  const std::string p(rigidref::scalar_name<T>());
  const std::vector<std::string> matrices = {
      "[[-1,0],[0,2]]",   // det < 0: eigenvalue -1
      "[[0,1],[0,0]]",    // nilpotent, nonzero: no square root at all
      "[[-1,0],[0,-1]]",  // negative eigenvalues (real square roots exist, none principal)
      "[[-4,1],[0,-1]]",  // real negative eigenvalues, not symmetric
      "[[0,0],[0,-1]]",   // eigenvalues 0 and -1
  };
  std::vector<std::string> requests;
  for (const std::string& m : matrices)
    for (const std::string& method : sqrt_methods)
      requests.push_back(R"({"id":1,"op":"mat2.sqrt","precision":")" + p + R"(","method":")" + method +
                         R"(","m":)" + m + "}");
  const std::vector<json> a = eval(requests);
  for (std::size_t i = 0; i < a.size(); ++i) {
    INFO("request: " << requests[i]);
    CHECK(a[i]["id"] == 1);
    if constexpr (rigidref::is_exact_v<T>) require_error(a[i], "unsupported", {"exact"});
    else require_error(a[i], "domain_error", {"no real principal square root", "eigenvalue"});
  }
}

// ---- mat2.polar ----------------------------------------------------------------------------

TEMPLATE_LIST_TEST_CASE("mat2.polar in every precision, both sides", "[eval][mat2]", rigidref::all_scalars) {
  using T = TestType;
  const std::string p(rigidref::scalar_name<T>());
  const std::vector<std::array<const char*, 4>> matrices = {
      {"3", "1", "2", "4"},               // 0: det 10 > 0
      {"-1", "0", "0", "2"},              // 1: det -2 < 0, q = diag(-1, 1), s = diag(1, 2)
      {"1", "2", "3", "4"},               // 2: det -2 < 0
      {"0.1", "-2.5", "1.25", "0.7"},     // 3: det > 0, inexact inputs
      {"1", "2", "2", "4"},               // 4: singular
      {"0", "1", "0", "0"},               // 5: nilpotent (singular)
      {"0", "0", "0", "0"},               // 6: zero: q = I, s = 0
      {"1", "2", "2", "-1"},              // 7: det -5; a + d = c - b = 0: no unique closest rotation
      {"-3e-5", "7.5e4", "-1.5e-3", "2"}, // 8: badly scaled, det > 0
  };
  const std::vector<std::string> sides = {"right", "left"};
  std::vector<std::string> requests;
  for (const auto& m : matrices)
    for (const std::string& side : sides)
      requests.push_back(R"({"op":"mat2.polar","precision":")" + p + R"(","side":")" + side + R"(","m":)" +
                         matrix_json(m) + "}");
  requests.push_back(R"({"op":"mat2.polar","precision":")" + p + R"(","m":[[1,2],[3,4]]})");  // side defaulted
  const std::vector<json> a = eval(requests);
  REQUIRE(a.size() == matrices.size() * sides.size() + 1);

  if constexpr (rigidref::is_exact_v<T>) {
    for (const json& x : a) require_error(x, "unsupported", {"exact"});
  } else {
    // q, s and the closest rotation r are within 1 ulp per entry. Then, with
    // |e_q|_F <= eps |q|_F = sqrt(2) eps and |e_s|_F <= eps |s|_F, |s|_F = |m|_F:
    //   |q^T q - I|_F <= 2 sqrt(2) eps + O(eps^2),
    //   |q s - m|_F <= (sqrt(2) + 1) eps |m|_F + O(eps^2) (likewise s q),
    //   |det q - det_q| <= 2 sqrt(2) eps + O(eps^2).
    // All checked with 4 eps.
    const exact tol = 4 * eps<T>();
    std::size_t i = 0;
    for (std::size_t k = 0; k < matrices.size(); ++k) {
      const m22 m = input_matrix<T>(matrices[k]);
      for (const std::string& side : sides) {
        INFO("m = " << text(m) << ", side " << side);
        const json& answer = a[i++];
        require_ok(answer, p);
        const json& res = answer["result"];
        const m22 qm = read_matrix<T>(res["q"]);
        const m22 s = read_matrix<T>(res["s"]);
        // q orthogonal, s symmetric (bit for bit) and positive semidefinite.
        check_small(sub(mul(transposed(qm), qm), identity), tol, 1, "q^T q - I");
        CHECK(res["s"][0][1] == res["s"][1][0]);
        CHECK(s.a >= 0);
        CHECK(s.d >= 0);
        CHECK(det(s) >= -tol * frobenius2(s));
        // The factorisation.
        const m22 product = side == "right" ? mul(qm, s) : mul(s, qm);
        check_small(sub(product, m), tol, frobenius2(m), side == "right" ? "q s - m" : "s q - m");
        // det_q: a JSON integer, the sign of det m (either sign when m is singular).
        REQUIRE(res["det_q"].is_number_integer());
        const int det_q = res["det_q"].get<int>();
        CHECK((det_q == 1 || det_q == -1));
        if (det(m) != 0) CHECK(det_q == (det(m) > 0 ? 1 : -1));
        CHECK(abs(exact(det(qm) - det_q)) <= tol);

        // The closest rotation: [[cos, -sin], [sin, cos]] exactly in form, a
        // rotation (det +1), and a maximum of tr(r^T m) over rotations: the
        // derivative in the angle vanishes iff r^T m is symmetric, and the
        // maximum (not the minimum) has tr(r^T m) >= 0.
        const m22 rot = read_matrix<T>(res["closest_rotation"]);
        CHECK(rot.a == rot.d);
        CHECK(rot.b == -rot.c);
        check_small(sub(mul(transposed(rot), rot), identity), tol, 1, "r^T r - I");
        CHECK(abs(exact(det(rot) - 1)) <= tol);
        REQUIRE(res["closest_rotation_unique"].is_boolean());
        const bool unique = res["closest_rotation_unique"].get<bool>();
        const m22 rtm = mul(transposed(rot), m);
        if (unique) {
          const exact asym = rtm.b - rtm.c;
          INFO("r^T m = " << text(rtm));
          CHECK(asym * asym <= tol * tol * frobenius2(m));
          CHECK(trace(rtm) >= 0);
        }
        if (det_q == 1 && det(m) > 0) CHECK(res["closest_rotation"] == res["q"]);  // the same rotation
        // The angle: cos and sin (230 bits) reproduce r. |angle error| <= 2 ulp
        // <= 2 pi eps and r within 1 ulp: 8 eps covers (2 pi + 1) eps.
        const oracle_float theta(read_real<T>(res["closest_rotation_angle"]));
        CHECK(theta > -boost::math::constants::pi<oracle_float>());
        CHECK(theta <= boost::math::constants::pi<oracle_float>());
        const exact angle_tol = 8 * eps<T>();
        CHECK(abs(exact(rigidref::to_exact(oracle_float(cos(theta))) - rot.a)) <= angle_tol);
        CHECK(abs(exact(rigidref::to_exact(oracle_float(sin(theta))) - rot.c)) <= angle_tol);
      }
    }
    // Known by hand. m = diag(-1, 2): q = diag(-1, 1), s = diag(1, 2) (right) and
    // the same s on the left (diagonal m), det_q = -1, closest rotation I.
    for (std::size_t j : {2, 3}) {
      const json& res = a[j]["result"];
      check_matrix<T>(res["q"], {-1, 0, 0, 1});
      check_matrix<T>(res["s"], {1, 0, 0, 2});
      CHECK(res["det_q"] == -1);
      check_matrix<T>(res["closest_rotation"], identity);
      check_plus_zero<T>(res["closest_rotation"][0][1]);
      check_plus_zero<T>(res["closest_rotation_angle"]);
      CHECK(res["closest_rotation_unique"] == true);
    }
    // m = [[1,2],[3,4]]: det -2 -> det_q = -1, and the closest rotation (det +1,
    // angle atan2(c - b, a + d) = atan2(1, 5)) is not q.
    for (std::size_t j : {4, 5}) {
      CHECK(a[j]["result"]["det_q"] == -1);
      const exact rot_tol = 4 * eps<T>();
      const oracle_float hyp = sqrt(oracle_float(26));
      const m22 rot = read_matrix<T>(a[j]["result"]["closest_rotation"]);
      CHECK(abs(exact(rot.a - rigidref::to_exact(oracle_float(5 / hyp)))) <= rot_tol);
      CHECK(abs(exact(rot.c - rigidref::to_exact(oracle_float(1 / hyp)))) <= rot_tol);
      CHECK(det(read_matrix<T>(a[j]["result"]["q"])) < 0);
    }
    // Zero matrix: q = I, s = 0, det_q = +1.
    for (std::size_t j : {12, 13}) {
      check_matrix<T>(a[j]["result"]["q"], identity);
      check_matrix<T>(a[j]["result"]["s"], {0, 0, 0, 0});
      CHECK(a[j]["result"]["det_q"] == 1);
    }
    // a + d = c - b = 0: every rotation is equally close; r = I, angle 0.
    for (std::size_t j : {14, 15}) {
      CHECK(a[j]["result"]["closest_rotation_unique"] == false);
      check_matrix<T>(a[j]["result"]["closest_rotation"], identity);
      check_plus_zero<T>(a[j]["result"]["closest_rotation_angle"]);
    }
    // side defaults to "right".
    require_ok(a.back(), p);
    CHECK(a.back()["result"] == a[4]["result"]);
    CHECK(a[4]["result"]["s"] != a[5]["result"]["s"]);  // m not normal: right and left s differ
  }
}

// ---- shape_match ---------------------------------------------------------------------------

namespace {

struct pt {
  exact x, y;
};

// The rigid motion of the tests: rotation (3/5, 4/5) (a Pythagorean angle:
// exact entries 0.6 and 0.8), translation (10, -7).
pt rigid(const pt& v) { return {q("3/5") * v.x - q("4/5") * v.y + 10, q("4/5") * v.x + q("3/5") * v.y - 7}; }

std::string points_json(const std::vector<pt>& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i)
    s += (i ? ",[\"" : "[\"") + rigidref::to_string(v[i].x) + "\",\"" + rigidref::to_string(v[i].y) + "\"]";
  return s + "]";
}

template <class T>
void check_point(const json& v, const pt& truth, double ulps = 1) {
  INFO("point: " << v.dump() << ", expected [" << rigidref::to_string(truth.x) << ", "
                 << rigidref::to_string(truth.y) << "]");
  REQUIRE(v.is_array());
  REQUIRE(v.size() == 2);
  check_real<T>(v[0], truth.x, ulps);
  check_real<T>(v[1], truth.y, ulps);
}

pt centroid(const std::vector<pt>& v, const std::vector<exact>& w) {
  exact sw = 0, sx = 0, sy = 0;
  for (std::size_t i = 0; i < v.size(); ++i) sw += w[i], sx += w[i] * v[i].x, sy += w[i] * v[i].y;
  return {sx / sw, sy / sw};
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("shape_match recovers an exact rigid motion in every precision", "[eval][shape]",
                        rigidref::all_scalars) {
  using T = TestType;
  const std::string p(rigidref::scalar_name<T>());
  // Multiples of 5: every current point of the rigid motion is an integer.
  const std::vector<pt> rest = {{0, 0}, {5, 0}, {5, 10}, {0, 10}, {15, 5}, {20, 20}};
  std::vector<pt> current;
  for (const pt& v : rest) current.push_back(rigid(v));
  // The weighted request moves the last point far away but gives it weight 0:
  // the answer must still be the exact rigid motion.
  std::vector<pt> current_outlier = current;
  current_outlier.back() = {100, 100};
  const std::vector<exact> ones(rest.size(), exact(1));
  const std::vector<exact> weights = {1, 2, 3, q("1/2"), 1, 0};
  const std::vector<json> a = eval({
      R"({"op":"shape_match","precision":")" + p + R"(","rest":)" + points_json(rest) + R"(,"current":)" +
          points_json(current) + "}",
      R"({"op":"shape_match","precision":")" + p + R"(","rest":)" + points_json(rest) + R"(,"current":)" +
          points_json(current_outlier) + R"(,"weights":[1,2,3,"0.5",1,0]})",
  });
  if constexpr (rigidref::is_exact_v<T>) {
    for (const json& x : a) require_error(x, "unsupported", {"exact"});
  } else {
    // Angle: atan2(4, 3) to 230 bits; the op's atan2 in T is within 2 ulps.
    const exact angle = rigidref::to_exact(oracle_float(atan2(oracle_float(4), oracle_float(3))));
    const m22 rotation{q("3/5"), q("-4/5"), q("4/5"), q("3/5")};
    for (int k = 0; k < 2; ++k) {
      INFO((k == 0 ? "unweighted" : "weighted, outlier of weight 0"));
      const std::vector<exact>& w = k == 0 ? ones : weights;
      require_ok(a[k], p);
      const json& res = a[k]["result"];
      CHECK(res["rotation_status"] == "ok");
      check_real<T>(res["angle"], angle, 2);
      check_matrix<T>(res["rotation"], rotation);
      check_point<T>(res["translation"], {10, -7});
      // Goals: rotation*(rest_i - c_rest) + c_current = the rigid image of rest_i
      // (the current point itself, except for the weight-0 outlier).
      REQUIRE(res["goals"].size() == rest.size());
      for (std::size_t i = 0; i < rest.size(); ++i) check_point<T>(res["goals"][i], current[i]);
      const pt c0 = centroid(rest, w);
      check_point<T>(res["rest_centroid"], c0);
      check_point<T>(res["current_centroid"], centroid(k == 0 ? current : current_outlier, w));
      // Apq = sum w p q^T, Aqq = sum w q q^T about the centroids (Mueller's order).
      const pt c = centroid(k == 0 ? current : current_outlier, w);
      m22 apq{0, 0, 0, 0}, aqq{0, 0, 0, 0};
      for (std::size_t i = 0; i < rest.size(); ++i) {
        const pt& cur = k == 0 ? current[i] : current_outlier[i];
        const exact qx = rest[i].x - c0.x, qy = rest[i].y - c0.y, px = cur.x - c.x, py = cur.y - c.y;
        apq = {apq.a + w[i] * px * qx, apq.b + w[i] * px * qy, apq.c + w[i] * py * qx, apq.d + w[i] * py * qy};
        aqq = {aqq.a + w[i] * qx * qx, aqq.b + w[i] * qx * qy, aqq.c + w[i] * qy * qx, aqq.d + w[i] * qy * qy};
      }
      check_matrix<T>(res["apq"], apq);
      check_matrix<T>(res["aqq"], aqq);
      // The best linear map of a rigid motion is its rotation.
      CHECK(res["linear_status"] == "ok");
      check_matrix<T>(res["linear"], rotation);
    }
  }
}

TEMPLATE_LIST_TEST_CASE("shape_match says when the data do not determine the fit", "[eval][shape]",
                        rigidref::floating_scalars) {
  using T = TestType;
  const std::string p(rigidref::scalar_name<T>());
  const std::string head = R"({"op":"shape_match","precision":")" + p + "\",";
  const std::vector<json> a = eval({
      // 0: all rest points equal: no rotation can be told apart (undetermined, identity).
      head + R"("rest":[[1,1],[1,1],[1,1]],"current":[[0,0],[2,3],[4,-1]]})",
      // 1: one point.
      head + R"("rest":[[1,2]],"current":[[3,4]]})",
      // 2: collinear rest points, rotated by pi/2: the rotation is determined, the linear map is not.
      head + R"("rest":[[0,0],[1,0],[2,0]],"current":[[0,0],[0,1],[0,2]]})",
      // 3: all weight on one point: undetermined again.
      head + R"("rest":[[0,0],[1,0],[0,1]],"current":[[0,0],[0,1],[-1,0]],"weights":[0,"2.5",0]})",
  });
  for (std::size_t k : {0, 1, 3}) {
    INFO("request " << k);
    require_ok(a[k], p);
    const json& res = a[k]["result"];
    CHECK(res["rotation_status"] == "undetermined");
    CHECK(res["linear_status"] == "undetermined");
    CHECK_FALSE(res.contains("linear"));
    check_plus_zero<T>(res["angle"]);
    check_matrix<T>(res["rotation"], identity);
    check_plus_zero<T>(res["rotation"][0][1]);
    check_plus_zero<T>(res["rotation"][1][0]);
  }
  // Identity rotation: every goal is rest_i - c_rest + c_current, which is the
  // current centroid (2, 2/3) when the rest points coincide.
  REQUIRE(a[0]["result"]["goals"].size() == 3);
  for (const json& g : a[0]["result"]["goals"]) check_point<T>(g, {2, q("2/3")});
  check_point<T>(a[0]["result"]["translation"], {1, q("-1/3")});
  check_point<T>(a[1]["result"]["translation"], {2, 2});
  check_point<T>(a[1]["result"]["goals"][0], {3, 4});
  check_point<T>(a[3]["result"]["translation"], {-1, 1});  // the weighted point (1,0) -> (0,1)

  require_ok(a[2], p);
  const json& res = a[2]["result"];
  CHECK(res["rotation_status"] == "ok");
  CHECK(res["linear_status"] == "undetermined");
  CHECK_FALSE(res.contains("linear"));
  check_real<T>(res["angle"], rigidref::to_exact(oracle_float(boost::math::constants::half_pi<oracle_float>())), 2);
  check_matrix<T>(res["rotation"], {0, -1, 1, 0});
  for (int i = 0; i < 3; ++i) check_point<T>(res["goals"][i], {0, i});
}

// ---- errors ------------------------------------------------------------------------------

TEST_CASE("mat2.* and shape_match reject malformed input with the field's path", "[eval][mat2][shape]") {
  const std::vector<error_case> cases = {
      {R"({"id":1,"op":"mat2.sqrt"})", "invalid_input", {"missing field \"m\""}},
      {R"({"id":1,"op":"mat2.sqrt","m":[[1,0],[0,1],[0,0]]})", "invalid_input", {"m must be a 2x2 matrix"}},
      {R"({"id":1,"op":"mat2.sqrt","m":[[1,0,0],[0,1,0]]})", "invalid_input", {"m must be a 2x2 matrix"}},
      {R"({"id":1,"op":"mat2.sqrt","m":[1,0,0,1]})", "invalid_input", {"m must be a 2x2 matrix"}},
      {R"({"id":1,"op":"mat2.sqrt","m":"I"})", "invalid_input", {"m must be a 2x2 matrix"}},
      {R"({"id":1,"op":"mat2.sqrt","m":[[1,0],[true,1]]})", "invalid_input",
       {"m[1][0]", "expected a number or a decimal string"}},
      {R"({"id":1,"op":"mat2.sqrt","m":[[1,0],[0,"inf"]]})", "invalid_input", {"m[1][1]", "finite"}},
      {R"({"id":1,"op":"mat2.sqrt","m":[["nan",0],[0,1]]})", "invalid_input", {"m[0][0]", "finite"}},
      {R"({"id":1,"op":"mat2.sqrt","m":[[1,1e400],[0,1]]})", "invalid_input", {"m[0][1]", "1e400"}},
      {R"({"id":1,"op":"mat2.sqrt","m":[[1,0],[0,"1/2"]]})", "invalid_input", {"m[1][1]", "exact"}},
      {R"({"id":1,"op":"mat2.sqrt","m":[[1,0],[0,1]],"method":"newton"})", "invalid_input",
       {"method", "\"cayley_hamilton\"", "\"diagonalization\"", "\"default\"", "newton"}},
      {R"({"id":1,"op":"mat2.sqrt","m":[[1,0],[0,1]],"method":2})", "invalid_input", {"method"}},
      // Fields are read before "exact" is refused: a malformed request says so.
      {R"({"id":1,"op":"mat2.sqrt","precision":"exact","m":[[1,0],[0]]})", "invalid_input",
       {"m must be a 2x2 matrix"}},
      {R"({"id":1,"op":"mat2.sqrt","precision":"exact","m":[[1,0],[0,1]],"method":"x"})", "invalid_input",
       {"method"}},
      {R"({"id":1,"op":"mat2.polar","m":[[1,0],[0,1]],"side":"up"})", "invalid_input",
       {"side", "\"right\"", "\"left\""}},
      {R"({"id":1,"op":"mat2.polar","m":[[1,0],[0,null]]})", "invalid_input", {"m[1][1]"}},
      {R"({"id":1,"op":"mat2.polar","precision":"exact","m":[[1,0],[0,1]]})", "unsupported", {"exact"}},
      {R"({"id":1,"op":"shape_match","rest":[[0,0],[1,0]],"current":[[0,0]]})", "invalid_input",
       {"different lengths", "2", "1"}},
      {R"({"id":1,"op":"shape_match","rest":[],"current":[]})", "invalid_input", {"at least one point"}},
      {R"({"id":1,"op":"shape_match","rest":[[0,0]]})", "invalid_input", {"missing field \"current\""}},
      {R"({"id":1,"op":"shape_match","rest":[[0,0],["x",1]],"current":[[0,0],[1,1]]})", "invalid_input",
       {"rest[1][0]"}},
      {R"({"id":1,"op":"shape_match","rest":[[0,0],[1,1]],"current":[[0,0],[1]]})", "invalid_input",
       {"current[1]", "[x, y]"}},
      {R"({"id":1,"op":"shape_match","rest":{"x":0},"current":[[0,0]]})", "invalid_input", {"rest", "points"}},
      {R"({"id":1,"op":"shape_match","rest":[[0,0],[1,1]],"current":[[0,0],[1,1]],"weights":[1]})",
       "invalid_input", {"weights", "one entry per point"}},
      {R"({"id":1,"op":"shape_match","rest":[[0,0],[1,1]],"current":[[0,0],[1,1]],"weights":[]})",
       "invalid_input", {"weights", "one entry per point"}},
      {R"({"id":1,"op":"shape_match","rest":[[0,0],[1,1]],"current":[[0,0],[1,1]],"weights":[1,-1]})",
       "invalid_input", {"weights[1]", ">= 0"}},
      {R"({"id":1,"op":"shape_match","rest":[[0,0],[1,1]],"current":[[0,0],[1,1]],"weights":[0,0]})",
       "invalid_input", {"sum to zero"}},
      {R"({"id":1,"op":"shape_match","rest":[[0,0],[1,1]],"current":[[0,0],[1,1]],"weights":[1,"-inf"]})",
       "invalid_input", {"weights[1]", "finite"}},
      {R"({"id":1,"op":"shape_match","rest":[[0,0],[1,1]],"current":[[0,0],[1,1]],"weights":"equal"})",
       "invalid_input", {"weights", "list of numbers"}},
      {R"({"id":1,"op":"shape_match","precision":"exact","rest":[[0,0],[1,1]],"current":[[0,0],[1,1]]})",
       "unsupported", {"exact"}},
  };
  check_error_cases(cases);
}

TEST_CASE("the new ops are listed among the known ops", "[eval]") {
  const json a = eval1(R"({"id":1,"op":"mat2.inverse"})");
  require_error(a, "unknown_op", {"mat2.sqrt", "mat2.polar", "shape_match"});
}

}  // namespace eval_matrix_test
