// rigidref-chipmunk: answers mass.polygon with Chipmunk2D 7 (Debian
// libchipmunk-dev; cpFloat is double), for `rigidref check`.
//   area      |cpAreaForPoly(n, v, 0)|: Chipmunk's area is signed by winding,
//             clockwise positive (documented in chipmunk.h); the protocol's is
//             positive in either orientation.
//   centroid  cpCentroidForPoly(n, v).
//   inertia   cpMomentForPoly(m, n, v, -centroid, 0), the documented way to
//             get the moment about the centroid; m = density * area in double
//             (one rounding of the adapter's, far inside the budget).
// Chipmunk's formulas are shoelace sums, valid for any simple polygon, so the
// adapter passes concave polygons too (Chipmunk's poly *shapes* are convex;
// these helpers do not check). What was measured: D-ENGINE-7.
#include "adapter_io.hpp"

#include <chipmunk/chipmunk.h>

#include <cmath>
#include <vector>

namespace {

using namespace rigidref::adapters;

void mass_polygon(ojson& line) {
  const std::vector<point> v = points(line.at("vertices"), "vertices");
  if (v.size() < 3) throw unsupported_case("fewer than 3 vertices");
  const double density = line.contains("density") ? number(line["density"], "density") : 1.0;
  std::vector<cpVect> c;
  for (const point& p : v) c.push_back(cpv(p.x, p.y));
  const int n = static_cast<int>(c.size());
  const double area = std::fabs(cpAreaForPoly(n, c.data(), 0.0));
  const cpVect centroid = cpCentroidForPoly(n, c.data());
  const double mass = density * area;
  const double inertia = cpMomentForPoly(mass, n, c.data(), cpvneg(centroid), 0.0);
  line["result"] = {{"area", area}, {"centroid", vec_json(centroid.x, centroid.y)}, {"inertia", inertia}};
}

}  // namespace

int main() { return run_adapter("chipmunk-7.0.3", "double", {{"mass.polygon", mass_polygon}}); }
