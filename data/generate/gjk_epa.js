// Our replacement for the articles' missing `gjk_epa.js` ("剛体の衝突 1" is not
// available). AMD module, loaded as './gjk_epa' by BodyForce.js and
// WorldShapeMatching.js through data/generate/amd_loader.js. Our own code:
// plain 2D GJK (boolean overlap test with a simplex) and EPA (expanding
// polytope) on convex polygons given as arrays of math.Vector2.
//
// Interface, as the article code calls it:
//   let hit = Gjk.gjk(a, b);            // falsy, or the GJK simplex (an array)
//   let {p, q, dist, n} = Gjk.epa(a, b, ...hit);
// n is a math.Vector2 of unit length pointing from A toward B (the outward
// normal of the Minkowski difference A - B at its face closest to the
// origin: moving A by -n*dist, or B by +n*dist, separates them). dist is the
// penetration depth, p and q the witness points on A and on B (the article
// code ignores p, q and dist). Because n is the normalised edge direction of
// a Minkowski face, it is perpendicular (up to rounding) to an edge of A or
// of B, which is what BodyForce.js's supportEdge needs (2 + 1 or 2 + 2 points).
//
// Floating point: every step is a fixed sequence of IEEE double operations
// (+, -, *, /, Math.sqrt, comparisons), evaluated left to right, no libm, so
// reference/include/rigidref/articles/scene_force.hpp ports it bit for bit.
// Conventions that matter for that port:
//   - support(pts, d): the FIRST vertex with the largest x*dx + y*dy (strict >).
//   - gjk starts with d = (1, 0); a touching contact (no support point strictly
//     beyond the origin, or the origin exactly on a simplex vertex) is NOT a hit.
//   - epa orients the triangle counter-clockwise, takes the first edge with the
//     smallest distance (strict <), and stops when the new support point is
//     within EPA_TOL = 1e-10 of that edge's line (or after MAX_EPA rounds).
define(['./math'], function (math) {
  'use strict';

  const V = math.Vector2;
  const MAX_GJK = 64;
  const MAX_EPA = 64;
  const EPA_TOL = 1e-10;

  // Statistics for the generator (read, never needed by the article code).
  const stats = { gjkCalls: 0, gjkHits: 0, epaCalls: 0, epaRoundsMax: 0, epaLimitHit: 0 };

  function supportIndex(pts, dx, dy) {
    let best = 0;
    let bestDot = pts[0].x * dx + pts[0].y * dy;
    for (let i = 1; i < pts.length; i++) {
      const t = pts[i].x * dx + pts[i].y * dy;
      if (t > bestDot) {
        bestDot = t;
        best = i;
      }
    }
    return best;
  }

  // Support point of A - B in direction (dx, dy), with the vertices it came from.
  function support(a, b, dx, dy) {
    const i = supportIndex(a, dx, dy);
    const j = supportIndex(b, -dx, -dy);
    return { p: new V(a[i].x - b[j].x, a[i].y - b[j].y), a: a[i], b: b[j] };
  }

  function gjk(a, b) {
    stats.gjkCalls++;
    let s = support(a, b, 1, 0);
    const simplex = [s];
    let dx = -s.p.x;
    let dy = -s.p.y;
    for (let it = 0; it < MAX_GJK; it++) {
      if (dx === 0 && dy === 0) return null; // the origin is a simplex vertex: touching
      s = support(a, b, dx, dy);
      if (s.p.x * dx + s.p.y * dy <= 0) return null; // nothing beyond the origin
      simplex.push(s);
      const A = s.p;
      const aox = -A.x;
      const aoy = -A.y;
      if (simplex.length === 2) {
        // Segment [B, A]: A passed the origin along d = -B, so the origin
        // projects inside the segment; search perpendicular to it, toward
        // the origin (either side when the origin is on the segment's line).
        const B = simplex[0].p;
        const abx = B.x - A.x;
        const aby = B.y - A.y;
        let px = -aby;
        let py = abx;
        if (px * aox + py * aoy < 0) {
          px = aby;
          py = -abx;
        }
        dx = px;
        dy = py;
        continue;
      }
      // Triangle [C, B, A], A newest.
      const B = simplex[1].p;
      const C = simplex[0].p;
      const abx = B.x - A.x;
      const aby = B.y - A.y;
      const acx = C.x - A.x;
      const acy = C.y - A.y;
      let abpx = -aby; // perpendicular to AB, away from C
      let abpy = abx;
      if (abpx * acx + abpy * acy > 0) {
        abpx = aby;
        abpy = -abx;
      }
      if (abpx * aox + abpy * aoy > 0) {
        simplex.splice(0, 1); // drop C: [B, A]
        dx = abpx;
        dy = abpy;
        continue;
      }
      let acpx = -acy; // perpendicular to AC, away from B
      let acpy = acx;
      if (acpx * abx + acpy * aby > 0) {
        acpx = acy;
        acpy = -acx;
      }
      if (acpx * aox + acpy * aoy > 0) {
        simplex.splice(1, 1); // drop B: [C, A]
        dx = acpx;
        dy = acpy;
        continue;
      }
      stats.gjkHits++;
      return simplex; // the origin is inside the triangle (or on its boundary)
    }
    return null;
  }

  function epa(a, b, ...simplex) {
    stats.epaCalls++;
    if (simplex.length !== 3) throw new Error('gjk_epa.epa: expected the 3-point simplex from gjk');
    const poly = simplex.slice();
    const e1x = poly[1].p.x - poly[0].p.x;
    const e1y = poly[1].p.y - poly[0].p.y;
    const e2x = poly[2].p.x - poly[0].p.x;
    const e2y = poly[2].p.y - poly[0].p.y;
    if (e1x * e2y - e1y * e2x < 0) {
      const t = poly[1];
      poly[1] = poly[2];
      poly[2] = t;
    }
    let bi = -1;
    let bd = 0;
    let nx = 0;
    let ny = 0;
    let rounds = 0;
    for (;;) {
      rounds++;
      bi = -1;
      bd = Number.POSITIVE_INFINITY;
      for (let i = 0; i < poly.length; i++) {
        const p0 = poly[i].p;
        const p1 = poly[(i + 1) % poly.length].p;
        const ex = p1.x - p0.x;
        const ey = p1.y - p0.y;
        const len = Math.sqrt(ex * ex + ey * ey);
        const cx = ey / len; // outward normal of a counter-clockwise edge
        const cy = -ex / len;
        const dist = cx * p0.x + cy * p0.y;
        if (dist < bd) {
          bd = dist;
          bi = i;
          nx = cx;
          ny = cy;
        }
      }
      if (bi < 0) throw new Error('gjk_epa.epa: degenerate polytope');
      const s = support(a, b, nx, ny);
      const sd = s.p.x * nx + s.p.y * ny;
      if (sd - bd <= EPA_TOL) break;
      if (rounds >= MAX_EPA) {
        stats.epaLimitHit++;
        break;
      }
      poly.splice(bi + 1, 0, s);
    }
    stats.epaRoundsMax = Math.max(stats.epaRoundsMax, rounds);
    // Witness points: the closest point of the final edge to the origin, as
    // the same combination of A's and B's vertices.
    const s0 = poly[bi];
    const s1 = poly[(bi + 1) % poly.length];
    const ex = s1.p.x - s0.p.x;
    const ey = s1.p.y - s0.p.y;
    let t = -(s0.p.x * ex + s0.p.y * ey) / (ex * ex + ey * ey);
    if (!(t > 0)) t = 0;
    if (t > 1) t = 1;
    const p = new V(s0.a.x + (s1.a.x - s0.a.x) * t, s0.a.y + (s1.a.y - s0.a.y) * t);
    const q = new V(s0.b.x + (s1.b.x - s0.b.x) * t, s0.b.y + (s1.b.y - s0.b.y) * t);
    return { p, q, dist: bd, n: new V(nx, ny) };
  }

  return { gjk, epa, stats };
});
