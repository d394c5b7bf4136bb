// The op table of `rigidref eval`: op name -> one handler per precision,
// and the op's one-line documentation (what `rigidref eval --help` lists;
// docs/eval-protocol.md is the normative spec, and a test keeps the two
// listing the same ops).
//
// An op is a struct with a static member template
//     template <class T> static ojson run(const fields& request);
// returning the "result" object (or throwing rigidref's typed errors, which
// eval.cpp maps to the protocol's error codes). make_op instantiates it for
// every scalar of rigidref::all_scalars, in that order; the precision names
// are rigidref::scalar_name<T>(), so the protocol's "precision" values and
// the type list cannot drift apart.
//
// Adding a group of ops (mat2.*, gjk.*, ...): write tools/eval/<group>_ops.cpp
// with the op structs and an add_<group>_ops(op_table&) that calls add_op,
// declare it below, call it from op_table_instance() in eval.cpp, list the
// file in tools/CMakeLists.txt and specify the ops in docs/eval-protocol.md.
#pragma once

#include "protocol/json.hpp"

#include "rigidref/scalar.hpp"

#include <array>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>

namespace rigidref::tools::eval {

inline constexpr std::size_t precision_count = std::tuple_size_v<all_scalars>;

using handler = ojson (*)(const fields&);
using handler_set = std::array<handler, precision_count>;

// What `rigidref eval --help` says of an op.
struct op_doc {
  std::string summary;  // what it computes
  std::string inputs;   // the request's fields
  std::string results;  // the result's fields
};

struct op_entry {
  handler_set handlers;
  op_doc doc;
};

using op_table = std::map<std::string, op_entry, std::less<>>;

namespace detail {

template <class Op, std::size_t... I>
handler_set make_handlers(std::index_sequence<I...>) {
  return {&Op::template run<std::tuple_element_t<I, all_scalars>>...};
}

template <std::size_t... I>
std::array<std::string_view, precision_count> make_precision_names(std::index_sequence<I...>) {
  return {scalar_name<std::tuple_element_t<I, all_scalars>>()...};
}

}  // namespace detail

template <class Op>
void add_op(op_table& table, std::string name, op_doc doc) {
  table.emplace(std::move(name),
                op_entry{detail::make_handlers<Op>(std::make_index_sequence<precision_count>{}), std::move(doc)});
}

// "float", "double", "long double", "mp50", "mp100", "exact": the index of a
// name is the index of its type in all_scalars and in a handler_set.
inline const std::array<std::string_view, precision_count>& precision_names() {
  static const auto names = detail::make_precision_names(std::make_index_sequence<precision_count>{});
  return names;
}

inline std::optional<std::size_t> precision_index(std::string_view name) {
  const auto& names = precision_names();
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] == name) return i;
  return std::nullopt;
}

// The op groups (one .cpp each).
void add_mass_ops(op_table& table);    // eval_mass.cpp: mass.*
void add_matrix_ops(op_table& table);  // eval_matrix.cpp: mat2.sqrt, mat2.polar, shape_match
void add_impulse_ops(op_table& table);  // eval_impulse.cpp: impulse.wall, impulse.pair
void add_collision_ops(op_table& table);  // eval_collision.cpp: gjk.distance, epa.penetration, sat.rectangles
void add_step_ops(op_table& table);  // step_ops.cpp: step.pair, scene.run
void add_manifold_ops(op_table& table);   // manifold_ops.cpp: contact.manifold

}  // namespace rigidref::tools::eval
