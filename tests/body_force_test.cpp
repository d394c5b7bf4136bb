// The BodyForce.js port (reference/include/rigidref/articles/body_force.hpp):
// one test per quirk, measuring what it breaks (derivations/solver.md
// D-BODYFORCE-1..8). Every scene is rational (angle 0, Pythagorean normals,
// the article's constants as exact decimals: g = 49/5, dt = 1/50, c = 2/5),
// so the port runs in `exact` and each expected number below is worked out
// by hand in the derivation, not taken from the code under test.
#include "support/matchers.hpp"

#include "rigidref/articles/body_force.hpp"
#include "rigidref/impulse.hpp"
#include "rigidref/internal/solver_checks.hpp"

#include <catch2/catch.hpp>

#include <cmath>

// This file's names stay apart from the other files of its test program,
// which compile as one unit (tests/CMakeLists.txt, rigidref_test_file).
namespace body_force_test {

using namespace rigidref;
using namespace rigidref::articles;
using E = exact;

namespace {

const bf_constants<E> K{};

// A square of side 2 (half 1): inertia per unit mass (4 + 4)/12 = 2/3.
bf_body<E> square(const vec2<E>& pos, const E& mass = 1) {
  return make_bf_body<E>({{-1, -1}, {1, -1}, {1, 1}, {-1, 1}}, E(2, 3), pos, E(0), mass);
}
// The right triangle (0,0), (3,0), (0,3): vertex mean (1,1), local
// (-1,-1), (2,-1), (-1,2); inertia per unit mass (3^2 + 3^2)/18 = 1.
bf_body<E> triangle(const vec2<E>& pos) {
  return make_bf_body<E>({{0, 0}, {3, 0}, {0, 3}}, E(1), pos, E(0), E(1));
}
const std::vector<bf_wall<E>> floor_wall{{{0, 0}, {0, 1}}};

}  // namespace

TEST_CASE("BodyForce port: the constants are the JS decimals", "[body_force]") {
  CHECK(K.g == E(49, 5));
  CHECK(K.dt == E(1, 50));
  CHECK(K.c == E(2, 5));
  CHECK(K.gate == E(-3, 10));
  CHECK(K.restitution == E(1, 2));
  CHECK(K.restitution2 == E(2, 5));
  CHECK(bf_constants<double>{}.c == 0.4);  // the JS double
}

// D-BODYFORCE-1: c = 0.4 scales the wall's torque, not its force.
TEST_CASE("BodyForce quirk c = 0.4: angular momentum about the contact changes by -(1 - c) r x P", "[body_force]") {
  // Triangle sunk 1/100 into the floor, edge down: the two vertices
  // (-1,-1), (2,-1) penetrate, r = (1/2, -1). v = (1/2, -2), w = 0.
  bf_body<E> b = triangle({0, E(99, 100)});
  b.vel = {E(1, 2), E(-2)};
  begin_frame(b, K);
  const auto tr = project_walls(b, floor_wall, K);
  REQUIRE(tr.size() == 1);
  CHECK(tr[0].count == 2);
  CHECK(b.r == vec2<E>{E(1, 2), E(-1)});
  REQUIRE(tr[0].impulse);
  // By hand (D-BODYFORCE-1): J = 1.5 * 2 / (1 + (1/2)^2) = 12/5; t = (1, 0);
  // B = -(1/2)/(1 + 1) = -1/4; mu_cr = 5/48 > 0.1: slide, friction -0.1 J = -6/25.
  CHECK(tr[0].rikiseki == E(12, 5));
  CHECK(tr[0].B == E(-1, 4));
  CHECK(!tr[0].stick);
  const vec2<E> P = (b.force - vec2<E>{0, -b.mass * K.g}) * K.dt;  // the impulse the frame applies
  const E A = b.torque * K.dt;                                         // the angular impulse
  CHECK(P == vec2<E>{E(-6, 25), E(12, 5)});
  CHECK(cross(b.r, P) == E(24, 25));  // r x P, the torque a rigid contact would give
  CHECK(A == E(48, 125));             // = c (r x P), by hand
  // Angular momentum about the (fixed) contact point: L_c = -m r x v + I w.
  // An impulse at the contact leaves it unchanged; here it changes by
  // A - r x P = -(1 - c) r x P = -72/125 per collision.
  CHECK(A - cross(b.r, P) == E(-72, 125));
  CHECK(A - cross(b.r, P) != 0);
}

// D-BODYFORCE-3 (and -8): the gate vel.y < -0.3. A flat box at rest cycles.
TEST_CASE("BodyForce quirk gate vel.y < -0.3: a box at rest on the floor never rests (period 3)", "[body_force]") {
  bf_constants<E> k = K;
  k.normalize = zero_normalize::keep_zero;  // see the next test
  bf_body<E> b = square({0, 1});
  const E gdt = k.g * k.dt;  // 49/250
  // By hand (D-BODYFORCE-3): frame 1 no penetration, frame 2 sunk but
  // |v_y| = g dt < 0.3 (no impulse), frame 3 |v_y| = 2 g dt = 0.392 > 0.3:
  // J = 1.5 * 2 g dt m cancels 2 g dt and the frame's gravity: v = 0, y = 1.
  const E want_vy[3] = {-gdt, -2 * gdt, E(0)};
  const E want_y[3] = {1 - gdt * k.dt, 1 - 2 * gdt * k.dt, E(1)};
  const bool want_impulse[3] = {false, false, true};
  for (int frame = 0; frame < 30; ++frame) {
    begin_frame(b, k);
    const auto tr = project_walls(b, floor_wall, k);
    integrate(b, k);
    INFO("frame " << frame + 1);
    CHECK(tr[0].impulse == want_impulse[frame % 3]);
    CHECK(b.vel.y == want_vy[frame % 3]);
    CHECK(b.pos.y == want_y[frame % 3]);
    CHECK(b.ang_vel == 0);
  }
  // Measured effect: max speed 2 g dt = 49/125 m/s, max sink 2 g dt^2 =
  // 49/6250 m, energy periodic (no drift): E - E0 = -m (g dt)^2 / 2 after frame 1.
  CHECK(2 * gdt == E(49, 125));
}

// D-BODYFORCE-8: normalize() of a zero slip.
TEST_CASE("BodyForce: a contact with no slip normalizes a zero vector (NaN in the JS)", "[body_force]") {
  bf_body<E> b = square({0, E(99, 100)});
  b.vel = {0, E(-2)};
  begin_frame(b, K);
  CHECK_THROWS_AS(project_walls(b, floor_wall, K), unsupported);
  bf_constants<E> k = K;
  k.normalize = zero_normalize::keep_zero;
  bf_body<E> c = square({0, E(99, 100)});
  c.vel = {0, E(-2)};
  begin_frame(c, k);
  const auto tr = project_walls(c, floor_wall, k);
  CHECK(tr[0].impulse);
  CHECK(tr[0].rikiseki == 3);  // 1.5 * 2 / (1/m), r x n = 0
}

// D-BODYFORCE-2: the 0.5 gravity torque when no impulse fires.
TEST_CASE("BodyForce quirk 0.5 r x (0, m g): a body on one corner spins up at half the torque, with no force", "[body_force]") {
  // A kite on its lowest vertex: vertices (1,0), (3,2), (1,4), (0,2), mean
  // (5/4, 2), local lowest vertex (-1/4, -2); placed touching (dist 0), at rest.
  bf_body<E> b = make_bf_body<E>({{1, 0}, {3, 2}, {1, 4}, {0, 2}}, E(1), {0, 2}, E(0), E(1));
  begin_frame(b, K);
  const auto tr = project_walls(b, floor_wall, K);
  CHECK(tr[0].count == 1);
  CHECK(!tr[0].impulse);
  CHECK(b.r == vec2<E>{E(-1, 4), E(-2)});
  // By hand: 0.5 * r.x * m g = 0.5 * (-1/4) * 49/5 = -49/40.
  CHECK(tr[0].gravity_torque == E(-49, 40));
  CHECK(b.force == vec2<E>{0, -b.mass * K.g});  // no normal force at all
  integrate(b, K);
  const E dw_article = b.ang_vel;
  CHECK(dw_article == E(-49, 2000));  // -49/40 * dt / I
  // A body pivoting on that corner: dw = m g r.x dt / (I + m |r|^2)
  // = (49/5)(-1/4)(1/50) / (81/16) = -98/10125; the article's is 0.5 (I + m|r|^2)/I = 81/32 times that.
  const E dw_pivot = E(1) * K.g * E(-1, 4) * K.dt / (E(1) + E(1, 16) + E(4));
  CHECK(dw_pivot == E(-98, 10125));
  CHECK(dw_article / dw_pivot == E(81, 32));  // 2.53 times the pivot's angular acceleration
  // ... and the centre falls freely (v_y = -g dt) instead of being held.
  CHECK(b.vel.y == -K.g * K.dt);
}

// D-BODYFORCE-4: the penetration is removed along y only.
TEST_CASE("BodyForce quirk y-only correction: a tilted wall keeps d (1 - n.y), a vertical wall all of it", "[body_force]") {
  SECTION("wall normal (-3/5, 4/5): penetration 1/10 -> 1/50") {
    const std::vector<bf_wall<E>> wall{{{0, 0}, {E(-3, 5), E(4, 5)}}};
    // Square at (0, 13/8): its corner (1, -1) has dist 4/5 * 13/8 - 7/5 = -1/10.
    bf_body<E> b = square({0, E(13, 8)});
    begin_frame(b, K);
    const auto tr = project_walls(b, wall, K);
    CHECK(tr[0].dist_min == E(-1, 10));
    CHECK(tr[0].y_correction == E(1, 10));
    E after = 0;
    bool first = true;
    for (const auto& v : world_shape(b)) {
      const E d = wall[0].dist(v);
      if (first || d < after) after = d;
      first = false;
    }
    CHECK(after == E(-1, 50));  // -d (1 - n.y) = -(1/10)(1/5)
    // And the one-corner torque of D-BODYFORCE-2 on a wall that is not horizontal:
    CHECK(tr[0].gravity_torque == E(49, 10));  // 0.5 * r.x * m g with r = (1, -1)
  }
  SECTION("vertical wall, x = 0, normal (1, 0): moving sideways into it, nothing pushes back") {
    const std::vector<bf_wall<E>> wall{{{0, 0}, {1, 0}}};
    bf_body<E> b = square({E(9, 10), E(5)});
    b.vel = {E(-5), 0};  // 5 m/s into the wall; vel.y = 0 > -0.3: gate closed
    begin_frame(b, K);
    const auto tr = project_walls(b, wall, K);
    CHECK(tr[0].count == 2);
    CHECK(!tr[0].impulse);
    CHECK(tr[0].dist_min == E(-1, 10));
    CHECK(b.pos.x == E(9, 10));      // not pushed out
    CHECK(b.pos.y == E(51, 10));     // lifted by the x penetration
    CHECK(b.force.x == 0);           // no wall force
    // Potential energy gained from nothing: m g d = 49/50 J in this frame.
    CHECK(b.mass * K.g * tr[0].y_correction == E(49, 50));
  }
}

// D-BODYFORCE-5: the vertices are computed once, before the wall loop.
TEST_CASE("BodyForce quirk vertices taken once: two overlapping walls correct twice", "[body_force]") {
  const std::vector<bf_wall<E>> twice{{{0, 0}, {0, 1}}, {{0, 0}, {0, 1}}};
  bf_body<E> b = square({0, E(9, 10)});  // 1/10 into the floor, at rest
  begin_frame(b, K);
  const auto tr = project_walls(b, twice, K);
  CHECK(tr[0].y_correction == E(1, 10));
  CHECK(tr[1].y_correction == E(1, 10));  // the second wall still sees the old vertices
  CHECK(b.pos.y == E(11, 10));            // lifted 1/10 above the floor
}

namespace {

// Two squares, A below (mass mA) and B above (mass mB), edge contact along
// n = (0, 1), overlap pen, B sliding at (1, -1): the contact input EPA and
// supportEdge would give, with aContact - bContact = pen n when consistent.
struct pair_scene {
  bf_body<E> a, b;
  bf_contact<E> c;
};
pair_scene pair(const E& mA, const E& mB, const E& pen, const E& offset = 0, const E& bx = E(1, 2),
               const E& cx = E(1, 4)) {
  pair_scene s{square({0, 0}, mA), square({bx, 2 - pen}, mB), {}};
  s.b.vel = {1, -1};
  s.c.n = {0, 1};
  s.c.a_contact = {cx, 1};
  s.c.b_contact = {cx + offset, 1 - pen};
  s.c.penetration = pen;
  return s;
}

}  // namespace

// D-BODYFORCE-6: projectCollision resets both bodies' force and torque.
TEST_CASE("BodyForce quirk force reset: a frame with a body-body hit has no gravity", "[body_force]") {
  pair_scene s = pair(1, 2, E(1, 10));
  const vec2<E> p0 = s.a.mass * s.a.vel + s.b.mass * s.b.vel;
  begin_frame(s.a, K);
  begin_frame(s.b, K);
  project_collision(s.a, s.b, s.c, K);
  integrate(s.a, K);
  integrate(s.b, K);
  const vec2<E> p1 = s.a.mass * s.a.vel + s.b.mass * s.b.vel;
  // The pair's impulses cancel, and nothing else acts: the momentum is
  // unchanged, where gravity should have taken (mA + mB) g dt = 147/250.
  CHECK(p1 == p0);
  const E deficit = (p1.y - p0.y) - (-(s.a.mass + s.b.mass) * K.g * K.dt);
  CHECK(deficit == E(147, 250));
  // Wall impulses of the same frame are dropped too.
  pair_scene w = pair(1, 2, E(1, 10));
  w.a.pos.y = E(99, 100);  // A also sunk 1/100 into the floor
  w.b.pos.y += E(-1, 100);
  w.a.vel = {E(1, 2), E(-2)};
  begin_frame(w.a, K);
  const auto tr = project_walls(w.a, floor_wall, K);
  REQUIRE(tr[0].impulse);
  REQUIRE(w.a.force.y > 0);  // the floor's impulse is in A's force now
  begin_frame(w.b, K);
  project_collision(w.a, w.b, w.c, K);
  CHECK(w.a.force == -w.b.force);  // only the pair's force is left
}

TEST_CASE("BodyForce quirk no approach test: overlapping bodies that separate are pulled together", "[body_force]") {
  // Both centres and the contact on the line x = 0: lever arms along n, so
  // friction does not touch the normal velocity (K_nt = 0) and the contact
  // points' normal velocities are the centres' v_y.
  pair_scene s = pair(1, 1, E(1, 10), 0, 0, 0);
  s.b.vel = {1, 3};  // B moving away from A along n
  const E un_before = s.b.vel.y - s.a.vel.y;
  begin_frame(s.a, K);
  begin_frame(s.b, K);
  const auto tr = project_collision(s.a, s.b, s.c, K);
  CHECK(tr.rikiseki > 0);  // on A along +n: towards B
  integrate(s.a, K);
  integrate(s.b, K);
  // Newton's law applied to a separating contact: u_n' = -0.4 u_n: now approaching.
  CHECK(un_before == 3);
  CHECK(s.b.vel.y - s.a.vel.y == E(-6, 5));
}

// D-BODYFORCE-6: the push-out.
TEST_CASE("BodyForce quirk push-out pen/4 + 0.01 each: half the overlap stays, the centre of mass moves", "[body_force]") {
  for (const E& pen : {E(1, 5), E(1, 100)}) {
    pair_scene s = pair(1, 2, pen);
    const vec2<E> a0 = s.a.pos, b0 = s.b.pos;
    begin_frame(s.a, K);
    begin_frame(s.b, K);
    const auto tr = project_collision(s.a, s.b, s.c, K);
    CHECK(tr.push == pen / 4 + E(1, 100));
    const E separation_gain = dot(s.c.n, (s.b.pos - b0) - (s.a.pos - a0));
    // Overlap after = pen - (pen/2 + 1/50): 2/25 of 1/5 stays; 1/100 becomes a gap of 3/200.
    const E overlap_after = pen - separation_gain;
    CHECK(overlap_after == pen / 2 - E(1, 50));
    if (pen == E(1, 5)) CHECK(overlap_after == E(2, 25));
    else CHECK(overlap_after == E(-3, 200));
    // Both move the same distance whatever the masses: the centre of mass
    // moves by (mB - mA)/(mA + mB) * push along n (a position jump with no impulse).
    const vec2<E> com_shift = (s.a.mass * (s.a.pos - a0) + s.b.mass * (s.b.pos - b0)) * (1 / (s.a.mass + s.b.mass));
    CHECK(com_shift == s.c.n * (tr.push / 3));
    CHECK(com_shift.y != 0);
  }
}

// D-BODYFORCE-7: the two displaced contact points.
TEST_CASE("BodyForce quirk displaced contact points: one point only when aContact - bContact = pen n", "[body_force]") {
  SECTION("consistent input: both at aContact - pen mA/(mA+mB) n, angular momentum conserved") {
    pair_scene s = pair(1, 3, E(1, 5));
    begin_frame(s.a, K);
    begin_frame(s.b, K);
    const vec2<E> xa = s.a.pos, xb = s.b.pos;
    const auto va = s.a.vel, vb = s.b.vel;
    const E wa = s.a.ang_vel, wb = s.b.ang_vel;
    const auto tr = project_collision(s.a, s.b, s.c, K);
    CHECK(tr.a_displaced == tr.b_displaced);
    CHECK(tr.a_displaced == vec2<E>{E(1, 4), 1 - E(1, 5) * E(1, 4)});  // pen mA/(mA+mB) = 1/20 below A's face
    integrate(s.a, K);
    integrate(s.b, K);
    const E dL = s.a.mass * cross(xa, s.a.vel - va) + s.a.inertia * (s.a.ang_vel - wa) +
                 s.b.mass * cross(xb, s.b.vel - vb) + s.b.inertia * (s.b.ang_vel - wb);
    CHECK(dL == 0);
  }
  SECTION("offset input (edge-edge closest points 1/2 apart along t): angular momentum changes by (a' - b') x P") {
    pair_scene s = pair(1, 3, E(1, 5), E(1, 2));
    begin_frame(s.a, K);
    begin_frame(s.b, K);
    const vec2<E> xa = s.a.pos, xb = s.b.pos;
    const auto va = s.a.vel, vb = s.b.vel;
    const E wa = s.a.ang_vel, wb = s.b.ang_vel;
    const auto tr = project_collision(s.a, s.b, s.c, K);
    CHECK(tr.a_displaced != tr.b_displaced);
    integrate(s.a, K);
    integrate(s.b, K);
    const vec2<E> PA = s.a.mass * (s.a.vel - va);  // the impulse on A (gravity was reset)
    const E dL = s.a.mass * cross(xa, s.a.vel - va) + s.a.inertia * (s.a.ang_vel - wa) +
                 s.b.mass * cross(xb, s.b.vel - vb) + s.b.inertia * (s.b.ang_vel - wb);
    CHECK(dL == cross(tr.a_displaced - tr.b_displaced, PA));
    CHECK(dL != 0);
  }
}

TEST_CASE("BodyForce port: the impulse of projectCollision is the article model of impulse.hpp (K_nt = 0)", "[body_force]") {
  // Consistent contact straight above A's centre and below B's: r x n = 0
  // for both, so the article's decoupled J, B equal impulse.hpp's article
  // model (D-IMPULSE-4, -5) with e = 0.4, mu = 0.5.
  pair_scene s{square({0, 0}, 1), square({0, E(19, 10)}, 2), {}};
  s.b.vel = {1, -1};
  s.c.n = {0, 1};
  s.c.a_contact = {0, 1};
  s.c.b_contact = {0, E(9, 10)};
  s.c.penetration = E(1, 10);
  contact_body<E> b1{s.a.mass, s.a.inertia, s.a.vel, 0, {0, 1 - E(1, 10) * E(1, 3)}, false};
  contact_body<E> b2{s.b.mass, s.b.inertia, s.b.vel, 0, {0, E(9, 10) + E(1, 10) * E(2, 3) - E(19, 10)}, false};
  const auto ref = impulse_pair<E>(b1, b2, s.c.n, K.restitution2, K.mu_pair, impulse_model::article);
  begin_frame(s.a, K);
  begin_frame(s.b, K);
  const auto tr = project_collision(s.a, s.b, s.c, K);
  CHECK(s.a.r == b1.r);
  CHECK(s.b.r == b2.r);
  // The port's rikiseki is the impulse on A along n: -jn (D-IMPULSE-1).
  CHECK(tr.rikiseki == -ref.jn);
  integrate(s.b, K);
  CHECK(s.b.vel == ref.body2_after.velocity);
}

TEST_CASE("BodyForce port: double and exact agree on the quirk scenes", "[body_force]") {
  // The c = 0.4 scene in double: the same impulse to rounding.
  bf_body<double> b = make_bf_body<double>({{0, 0}, {3, 0}, {0, 3}}, 1.0, {0, 0.99}, 0.0, 1.0);
  b.vel = {0.5, -2};
  begin_frame(b);
  const auto tr = project_walls(b, std::vector<bf_wall<double>>{{{0, 0}, {0, 1}}});
  CHECK(std::abs(tr[0].rikiseki - 2.4) <= 4e-16);
  CHECK(std::abs(b.torque * 0.02 - 0.384) <= 1e-15);
}

TEST_CASE("verify::body_force_quirks reports the hand-derived effects", "[body_force]") {
  const auto q = verify::body_force_quirks();
  // Each value is derived in derivations/solver.md D-BODYFORCE-n (doubles of exact results).
  CHECK(q.wall_angular_impulse == 0.384);        // 48/125
  CHECK(q.wall_rigid_angular_impulse == 0.96);   // 24/25
  CHECK(q.wall_dL_contact == -0.576);            // -72/125
  CHECK(q.rest_cycle_frames == 3);
  CHECK(q.rest_max_speed == 0.392);              // 2 g dt
  CHECK(q.rest_max_sink == 0.00784);             // 2 g dt^2
  CHECK(q.rest_energy_drift_per_second == 0);    // 150 frames = 50 whole cycles
  CHECK(q.corner_spin_ratio_vs_pivot == 2.53125);  // 81/32
  CHECK(q.tilted_wall_remaining_fraction == 0.2);  // 1 - n.y
  CHECK(q.vertical_wall_energy_gain == 0.98);      // 49/50
  CHECK(q.gravity_deficit_per_hit == 0.588);       // 147/250
  CHECK(q.pushout_overlap_left == 0.08);           // 2/25
  CHECK(q.pushout_com_shift == 0.02);              // (2-1)/3 * 3/50
  CHECK(q.offset_contact_dL != 0);
  CHECK(q.settled_corner_max_speed > 0.1);         // measured 0.53 m/s in the fifth second
}

}  // namespace body_force_test
