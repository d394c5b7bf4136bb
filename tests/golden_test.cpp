// The C++ port of createPolygonPoints against the articles' own JavaScript,
// run in Node (data/golden/create_polygon_points.json, data/generate/).
//  1. With V8's libm results substituted (cos, **), the rest of the
//     arithmetic is bit-identical: same operations, same order, same IEEE
//     double rounding (-ffp-contract=off).
//  2. With glibc's own cos/pow the port agrees with the JS within the sum of
//     both evaluations' D-MASS-12 bounds, and both lie within their bound of
//     the 230-digit closed form.
#include "support/matchers.hpp"

#include "rigidref/articles/create_polygon_points.hpp"
#include "rigidref/verify/accuracy.hpp"
#include "rigidref/internal/bounds.hpp"

#include <nlohmann/json.hpp>

#include <bit>
#include <cstdint>
#include <fstream>

// This file's names stay apart from the other files of its test program,
// which compile as one unit (tests/CMakeLists.txt, rigidref_test_file).
namespace golden_test {

using namespace rigidref;
using testing::IdenticalTo;

namespace {

double from_hex(const nlohmann::json& j) {
  return std::bit_cast<double>(static_cast<std::uint64_t>(std::stoull(j.get<std::string>(), nullptr, 16)));
}

nlohmann::json load() {
  std::ifstream in(std::string(RIGIDREF_SOURCE_DIR) + "/data/golden/create_polygon_points.json");
  REQUIRE(in.good());
  return nlohmann::json::parse(in);
}

}  // namespace

TEST_CASE("createPolygonPoints: bit-identical to the JS given V8's libm values", "[golden][article]") {
  const auto doc = load();
  REQUIRE(doc["cases"].size() == 14 * 9);
  for (const auto& c : doc["cases"]) {
    const int n = c["nsides"].get<int>();
    const double radius = from_string<double>(c["radius"].get<std::string>());
    const auto& lib = c["js_libm"];
    INFO("nsides " << n << " radius " << c["radius"].get<std::string>());
    CHECK_THAT(articles::create_polygon_delta<double>(n), IdenticalTo(from_hex(lib["delta"])));
    const double inertia =
        articles::create_polygon_inertia(radius, from_hex(lib["cos_delta"]), from_hex(lib["a_cubed"]), from_hex(lib["b_cubed"]));
    CHECK_THAT(inertia, IdenticalTo(from_hex(c["inertia_hex"])));
    // Vertices: center + radius * cos(delta * i), with center (0, 0).
    for (int i = 0; i < n; ++i) {
      const double x = 0.0 + radius * from_hex(lib["cos_delta_i"][i]);
      const double y = 0.0 + radius * from_hex(lib["sin_delta_i"][i]);
      CHECK_THAT(x, IdenticalTo(from_hex(c["vertices_hex"][i][0])));
      CHECK_THAT(y, IdenticalTo(from_hex(c["vertices_hex"][i][1])));
    }
  }
}

TEST_CASE("createPolygonPoints: glibc port and V8 both within the D-MASS-12 bound of the truth", "[golden][article]") {
  const auto doc = load();
  const auto* bound = verify::find_bound("mass.regular_polygon (article formula)", 53);
  REQUIRE(bound != nullptr);
  int identical = 0, total = 0;
  double max_js_ulps = 0, max_port_ulps = 0;
  for (const auto& c : doc["cases"]) {
    const int n = c["nsides"].get<int>();
    const std::string rtext = c["radius"].get<std::string>();
    const double radius = from_string<double>(rtext);
    const double js = from_hex(c["inertia_hex"]);
    const double port = articles::create_polygon_points<double>({0.0, 0.0}, radius, n).inertia;
    using verify::oracle_float;
    const oracle_float r = radius;  // the double the JS received: Number(text)
    const oracle_float truth = r * r * (2 + cos(2 * boost::math::constants::pi<oracle_float>() / n)) / 6;
    const exact t = to_exact(truth);
    const double js_ulps = verify::ulps_from_rounded(js, t), port_ulps = verify::ulps_from_rounded(port, t);
    INFO("nsides " << n << " radius " << rtext << ": js " << to_string(js) << " port " << to_string(port));
    CHECK(js_ulps <= bound->max_ulps);
    CHECK(port_ulps <= bound->max_ulps);
    CHECK(verify::ulps_from_rounded(port, to_exact(js)) <= 2 * bound->max_ulps);
    identical += port == js;
    ++total;
    max_js_ulps = std::max(max_js_ulps, js_ulps);
    max_port_ulps = std::max(max_port_ulps, port_ulps);
  }
  std::cout << "createPolygonPoints: glibc port bit-identical to V8 in " << identical << "/" << total
            << " cases; max ulps from truth: V8 " << max_js_ulps << ", port " << max_port_ulps << "\n";
  CHECK(total == 126);
}

}  // namespace golden_test
