// Uses the installed headers: the unit square's mass properties, exactly.
#include <rigidref/mass.hpp>

#include <iostream>
#include <vector>

int main() {
  using rigidref::exact;
  std::vector<rigidref::vec2<exact>> square{{0, 0}, {1, 0}, {1, 1}, {0, 1}};
  const auto m = rigidref::polygon_mass_from_density<exact>(square, exact(1));
  std::cout << "area " << m.area << " inertia " << m.inertia << "\n";
  return m.area == 1 && m.inertia == exact(1, 6) ? 0 : 1;
}
