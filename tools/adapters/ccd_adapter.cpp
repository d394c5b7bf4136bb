// rigidref-ccd: answers epa.penetration with libccd 2.1 (Debian libccd-dev,
// double), for `rigidref check`.
//   rigidref-ccd            ccdGJKPenetration (GJK + EPA)
//   rigidref-ccd --mpr      ccdMPRPenetration (MPR)
// libccd has no distance query: ccdGJKIntersect and ccdMPRIntersect only
// decide whether the shapes intersect, and a flag alone is not an answer to
// gjk.distance (derivations/judge.md D-JUDGE-3), so gjk.distance is
// unsupported. The same decision is judged in epa.penetration, whose
// ccd*Penetration answers it first (-1: apart).
// libccd is 3D. A 2D convex polygon becomes a prism: A x [-h, h] and
// B x [-h/2, h/2], with h the larger of the two polygons' sizes. The prisms
// overlap by 1.5 h along z, more than any in-plane penetration (at most the
// smaller polygon's size), so the minimal translation stays in the plane and
// the depth and normal are the 2D ones. The z ranges differ on purpose: with
// equal ranges every in-plane support point of A - B has z = 0, GJK ends on
// a flat simplex around the origin, and libccd's EPA takes a simplex it
// cannot grow into a polytope for a touching contact and answers depth 0
// (simplexToPolytope2/3 in libccd's ccd.c). `--equal-prisms` keeps equal
// ranges to show that (derivations/engines.md). The z component of the
// normal libccd returns is reported as diagnostics.normal_z (0 when the
// embedding worked). The protocol's other shapes (rounded polygons, circles, points,
// segments, capsules) go through the same support-function interface: the
// core's support moved by the radius (see `support`). Findings: D-ENGINE-8
// (embedding), D-ENGINE-9 (NaN normal on
// touching pairs), D-ENGINE-10 (absolute EPA tolerance), D-ENGINE-11 (MPR).
// Tolerances left at CCD_INIT's defaults (epa_tolerance = mpr_tolerance =
// 1e-4, declared as allowances); max_iterations is unbounded by default, so
// the cases run in a worker process with a time limit per case (a hang is
// "crashed", and a fresh worker takes the next case).
// libccd sees a shape only through its support function, which for a
// polygon that is not convex is that of its convex hull: such a polygon is
// answered as its hull, and declared (diagnostics.input_changes).
#include <rigidref/protocol/adapter_io.hpp>

#include <ccd/ccd.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

namespace {

using namespace rigidref::protocol;

// A 2D shape is a core (the polygon's vertices, a point, a segment's two
// endpoints) grown by a disc of radius r; its prism is that set times
// [-h, h]. libccd takes any convex shape through its support function, the
// way a libccd user gives one: the support of the prism in direction d is
// the core's support in (d.x, d.y), moved by r along (d.x, d.y)/|(d.x, d.y)|,
// at z = +-h by the sign of d.z.
struct prism {
  std::vector<point> base;
  double r = 0;
  double h = 1;
};

void support(const void* obj, const ccd_vec3_t* dir, ccd_vec3_t* out) {
  const prism& p = *static_cast<const prism*>(obj);
  std::size_t best = 0;
  double best_dot = p.base[0].x * dir->v[0] + p.base[0].y * dir->v[1];
  for (std::size_t i = 1; i < p.base.size(); ++i) {
    const double d = p.base[i].x * dir->v[0] + p.base[i].y * dir->v[1];
    if (d > best_dot) {
      best_dot = d;
      best = i;
    }
  }
  double x = p.base[best].x, y = p.base[best].y;
  if (p.r > 0) {  // polygons (r = 0) keep exactly the support they always had
    const double len = std::hypot(dir->v[0], dir->v[1]);
    if (len > 0) {
      x += p.r * (dir->v[0] / len);
      y += p.r * (dir->v[1] / len);
    }
  }
  ccdVec3Set(out, x, y, dir->v[2] >= 0 ? p.h : -p.h);
}

void center(const void* obj, ccd_vec3_t* out) {
  const prism& p = *static_cast<const prism*>(obj);
  double x = 0, y = 0;
  for (const point& q : p.base) {
    x += q.x;
    y += q.y;
  }
  ccdVec3Set(out, x / p.base.size(), y / p.base.size(), 0);
}

double size_of(const std::vector<point>& v, double r) {
  double lo_x = v[0].x, hi_x = v[0].x, lo_y = v[0].y, hi_y = v[0].y;
  for (const point& p : v) {
    lo_x = std::min(lo_x, p.x);
    hi_x = std::max(hi_x, p.x);
    lo_y = std::min(lo_y, p.y);
    hi_y = std::max(hi_y, p.y);
  }
  const double core = std::max(hi_x - lo_x, hi_y - lo_y);
  return r > 0 ? core + 2 * r : core;
}

// The prism's base for a request shape: polygons as before (any list of 3 or
// more points; libccd's support is that of their hull), the new shapes
// through their core and radius.
void read_base(ojson& line, const char* what, prism& p) {
  const ojson& j = line.at(what);
  bool polygon = true;
  if (j.is_array()) {
    p.base = points(j, what);
    if (p.base.size() < 3) throw unsupported_case("needs polygons of 3 or more vertices");
  } else {
    const shape s = parse_shape(j, what);
    p.base = s.core;
    p.r = s.radius;
    polygon = s.form == shape::kind::polygon;
  }
  if (polygon && !convex_polygon(p.base))
    declare_input_change(line, what,
                         "not a convex polygon with an area: libccd sees it through its support function, "
                         "which is that of the convex hull, and answered for the hull");
}

bool use_mpr = false;
bool equal_prisms = false;

struct pair_setup {
  prism a, b;
  ccd_t ccd;
};

pair_setup setup(ojson& line) {
  pair_setup s;
  read_base(line, "a", s.a);
  read_base(line, "b", s.b);
  const double size = std::max(size_of(s.a.base, s.a.r), size_of(s.b.base, s.b.r));
  const double h = size > 0 ? size : 1;
  s.a.h = h;
  s.b.h = equal_prisms ? h : h / 2;
  CCD_INIT(&s.ccd);
  s.ccd.support1 = support;
  s.ccd.support2 = support;
  s.ccd.center1 = center;
  s.ccd.center2 = center;
  return s;
}

void epa_penetration(ojson& line) {
  pair_setup s = setup(line);
  ccd_real_t depth = 0;
  ccd_vec3_t dir, pos;
  const int rc = use_mpr ? ccdMPRPenetration(&s.a, &s.b, &s.ccd, &depth, &dir, &pos)
                         : ccdGJKPenetration(&s.a, &s.b, &s.ccd, &depth, &dir, &pos);
  if (rc == -2) throw std::runtime_error("libccd: memory allocation failed");
  if (rc != 0) {
    line["result"] = {{"intersecting", false}, {"depth", 0.0}};
  } else {
    line["result"] = {{"intersecting", true}, {"depth", depth}, {"normal", vec_json(dir.v[0], dir.v[1])}};
    diagnostics(line)["normal_z"] = dir.v[2];  // 0 when the prism embedding kept the normal in the plane
  }
  line["allowances"] = {{use_mpr ? "mpr_tolerance" : "epa_tolerance", use_mpr ? s.ccd.mpr_tolerance : s.ccd.epa_tolerance}};
}

}  // namespace

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--mpr") == 0) {
      use_mpr = true;
    } else if (std::strcmp(argv[i], "--equal-prisms") == 0) {
      equal_prisms = true;
    } else {
      std::cerr << "usage: rigidref-ccd [--mpr] [--equal-prisms] < requests.jsonl > answers.jsonl\n"
                   "  answers epa.penetration with libccd (it has no distance query: gjk.distance is\n"
                   "  unsupported):\n"
                   "  GJK + EPA by default, Minkowski Portal Refinement with --mpr;\n"
                   "  --equal-prisms embeds both polygons with the same z range (see the source)\n";
      return 2;
    }
  }
  std::string engine = use_mpr ? "libccd-2.1-mpr" : "libccd-2.1-gjk-epa";
  if (equal_prisms) engine += "-equal-prisms";
  return run_adapter(engine, "double",
                     {{"epa.penetration", epa_penetration}},
                     isolation::worker, /*seconds_per_case=*/5);
}
