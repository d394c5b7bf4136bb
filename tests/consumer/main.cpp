// Uses the installed headers through the umbrella header: the unit square's
// mass properties, exactly, and the distance of two unit squares 1 apart.
#include <rigidref/rigidref.hpp>

#include <iostream>
#include <vector>

int main() {
  using rigidref::exact;
  std::vector<rigidref::vec2<exact>> square{{0, 0}, {1, 0}, {1, 1}, {0, 1}};
  const auto m = rigidref::polygon_mass_from_density<exact>(square, exact(1));
  std::cout << "area " << m.area << " inertia " << m.inertia << "\n";
  const std::vector<rigidref::vec2<double>> pa{{0, 0}, {1, 0}, {1, 1}, {0, 1}}, pb{{2, 0}, {3, 0}, {3, 1}, {2, 1}};
  const auto a = rigidref::make_convex_polygon<double>(pa);
  const auto b = rigidref::make_convex_polygon<double>(pb);
  const auto d = rigidref::gjk_distance(a, b);
  std::cout << "distance " << d.distance << "\n";
  return m.area == 1 && m.inertia == exact(1, 6) && !d.intersecting && d.distance == 1.0 ? 0 : 1;
}
