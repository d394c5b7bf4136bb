// The JSON side of the judge: an answer line's inputs and result read into
// the typed cases and answers of rigidref/judge.hpp, which judges them.
// Everything judged lives in the library (reference/include/rigidref/judge/);
// here only the protocol's field names and forms (docs/eval-protocol.md).
#pragma once

#include "rigidref/judge/scene.hpp"
#include "rigidref/judge/step.hpp"
#include "rigidref/judge/verdict.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace rigidref::tools::check {

using json = nlohmann::json;

// A case's verdict; for step.pair also the laws' contact velocities, for
// scene.run the laws' per-frame series.
struct judged {
  judge::verdict verdict;
  std::optional<judge::step_verdict> step;
  std::optional<judge::verdict> laws;  // step.pair and scene.run: every law, judged or not
  std::optional<judge::scene_verdict> scene;
};

// Judges `result` (the engine's) for the op's inputs `request` (the fields
// of the case). Throws rigidref's typed errors (invalid_input, unsupported,
// ...) when the reference rejects the case, std::invalid_argument when the
// line cannot be judged at all (an unknown op, bad allowances). A malformed
// or unknown result field is a failing field, not an exception.
judged judge_answer(const std::string& op, const json& request, const json& result, const judge::engine& engine);

// Only the reference's verdict on the inputs: throws as judge_answer does
// when the reference rejects the case (to judge an engine's error answer).
void reference_accepts(const std::string& op, const json& request);

// The engine's declared allowances; throws std::invalid_argument.
judge::engine engine_of(const std::string& precision, const json& allowances);

}  // namespace rigidref::tools::check
