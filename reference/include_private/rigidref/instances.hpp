// Explicit instantiation declarations of the templates that every large
// unit of rigidref's own programs instantiates: the CLI's eval, check and
// report units and the two test programs each compiled its own copy of the
// GJK, EPA, mass, shape-matching and solver cores in five scalar types.
// With these declarations a unit calls the one copy that
// tools/instances/instances.cpp compiles (target rigidref_instances); the
// four units that gain include it first (tools/CMakeLists.txt). Not
// installed: a user's program instantiates what it uses, as before.
#pragma once

#include "rigidref/rigidref.hpp"

#include "rigidref/detail/fp_begin.hpp"

// EXTERN: `extern` for a declaration, nothing for the definition.
#define RIGIDREF_INSTANCES_OF(EXTERN, T)                                                                          \
  EXTERN template rigidref::detail::core_contact<T> rigidref::detail::core_query<T>(                               \
      std::span<const rigidref::vec2<T>>, std::span<const rigidref::vec2<T>>, const rigidref::detail::core_options&); \
  EXTERN template rigidref::gjk_result<T> rigidref::detail::distance_from_core<T>(                                 \
      const rigidref::detail::core_contact<T>&, const T&, const T&);                                               \
  EXTERN template rigidref::epa_result<T> rigidref::detail::penetration_of_cores<T>(                              \
      std::span<const rigidref::vec2<T>>, std::span<const rigidref::vec2<T>>, const T&, const T&,                  \
      const rigidref::epa_options&);                                                                               \
  EXTERN template rigidref::mass_properties<T> rigidref::detail::polygon_mass_impl<T>(                            \
      std::span<const rigidref::vec2<T>>, rigidref::polygon_check, const T&, bool);                                \
  EXTERN template rigidref::shape_match_result<T> rigidref::shape_match<T>(                                       \
      std::span<const rigidref::vec2<T>>, std::span<const rigidref::vec2<T>>, std::span<const T>);                 \
  EXTERN template rigidref::solver_result<T> rigidref::detail::solve_contacts_on<T>(                              \
      const std::vector<rigidref::solver_body<T>>&, const std::vector<rigidref::solver_contact<T>>&,               \
      const std::vector<rigidref::contact_coefficients<T>>&, const T&, const rigidref::solver_params<T>&,          \
      const std::vector<rigidref::detail::solver_row_data<T>>*);

#define RIGIDREF_INSTANCES(EXTERN)                  \
  RIGIDREF_INSTANCES_OF(EXTERN, float)              \
  RIGIDREF_INSTANCES_OF(EXTERN, double)             \
  RIGIDREF_INSTANCES_OF(EXTERN, long double)        \
  RIGIDREF_INSTANCES_OF(EXTERN, rigidref::mp50)     \
  RIGIDREF_INSTANCES_OF(EXTERN, rigidref::mp100)

RIGIDREF_INSTANCES(extern)

#include "rigidref/detail/fp_end.hpp"
