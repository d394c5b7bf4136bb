// `rigidref eval`: the JSON Lines protocol of docs/eval-protocol.md.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <string>

namespace rigidref::tools {

// Answers every line of `in` on `out`, in order. Returns 0 (every line got
// an answer line, error answers included).
int run_eval(std::istream& in, std::ostream& out);

// The answer line (without newline) for one request line, the line
// `input_line` (from 1) of its input: parse errors name it. `rigidref check`
// computes its reference answers through the one-argument form (a request it
// built, from no input line), so they are eval's answers.
std::string answer_line(const std::string& line, std::size_t input_line);
std::string answer_line(const std::string& line);

// Every op of the table with its summary, input and result fields: the op
// list of `rigidref eval --help`, generated so that it cannot fall behind.
std::string ops_help();

}  // namespace rigidref::tools
