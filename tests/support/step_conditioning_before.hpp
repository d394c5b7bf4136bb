// judge/step.hpp's contact_conditioning as it was before K was built from
// per-row cross products, symmetric, and the Jacobi sweeps stopped at a
// fixed point: the reference tests/step_conditioning_test.cpp compares the
// current one with, bit for bit. Do not optimise.
#pragma once

#include "rigidref/judge/step.hpp"

#include <algorithm>
#include <vector>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref::judge::step_detail_before {

using namespace step_detail;

inline mp100 contact_conditioning(const std::vector<body>& b, const std::vector<step_contact<mp100>>& contacts,
                                  const Q& friction) {
  struct row {
    V point, dir;
  };
  std::vector<row> rows;
  for (const step_contact<mp100>& k : contacts) {
    const V p = exact_of(k.point), n = exact_of(k.normal);
    rows.push_back({p, n});
    if (friction > 0) rows.push_back({p, V{exact(-n.y), n.x}});
  }
  const std::size_t m = rows.size();
  if (m == 0) return mp100(1);
  std::vector<std::vector<mp100>> K(m, std::vector<mp100>(m, mp100(0)));
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < m; ++j) {
      Q sum = 0;
      for (const body& q : b) {
        if (q.is_static) continue;
        const V ri = rows[i].point - q.center, rj = rows[j].point - q.center;
        const Q ci = ri.x * rows[i].dir.y - ri.y * rows[i].dir.x, cj = rj.x * rows[j].dir.y - rj.y * rows[j].dir.x;
        sum += (rows[i].dir.x * rows[j].dir.x + rows[i].dir.y * rows[j].dir.y) / q.mass + ci * cj / q.inertia;
      }
      K[i][j] = round_to<mp100>(sum);
    }
  using std::abs;
  using std::sqrt;
  for (int sweep = 0; sweep < 100; ++sweep) {
    mp100 off = 0;
    for (std::size_t i = 0; i < m; ++i)
      for (std::size_t j = i + 1; j < m; ++j) off += abs(K[i][j]);
    if (off == 0) break;
    for (std::size_t p = 0; p < m; ++p)
      for (std::size_t q = p + 1; q < m; ++q) {
        if (K[p][q] == 0) continue;
        const mp100 theta = mp100((K[q][q] - K[p][p]) / (2 * K[p][q]));
        const mp100 t = mp100((theta >= 0 ? mp100(1) : mp100(-1)) / (abs(theta) + sqrt(mp100(theta * theta + 1))));
        const mp100 c = mp100(1 / sqrt(mp100(t * t + 1))), s = mp100(t * c);
        for (std::size_t k = 0; k < m; ++k) {  // K <- K G, then G^T K
          const mp100 kp = K[k][p], kq = K[k][q];
          K[k][p] = mp100(c * kp - s * kq);
          K[k][q] = mp100(s * kp + c * kq);
        }
        for (std::size_t k = 0; k < m; ++k) {
          const mp100 pk = K[p][k], qk = K[q][k];
          K[p][k] = mp100(c * pk - s * qk);
          K[q][k] = mp100(s * pk + c * qk);
        }
      }
  }
  mp100 largest = 0;
  for (std::size_t i = 0; i < m; ++i) largest = std::max(largest, mp100(abs(K[i][i])));
  if (largest == 0) return mp100(1);
  mp100 smallest = largest;
  for (std::size_t i = 0; i < m; ++i) {
    const mp100 e = abs(K[i][i]);
    if (e > mp100(largest * mp100("1e-40")) && e < smallest) smallest = e;  // the range: nonzero eigenvalues
  }
  return std::max(mp100(1), mp100(sqrt(mp100(largest / smallest))));
}

}  // namespace rigidref::judge::step_detail_before

#include "rigidref/detail/fp_end.hpp"
