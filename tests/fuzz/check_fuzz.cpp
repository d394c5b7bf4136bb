// libFuzzer target: one answer line through the judge of `rigidref check`
// (run_check, the code the CLI runs: parse the line, recompute the reference
// through eval, judge every field).
//
// Invariant (docs/eval-protocol.md 4.1, 4.3): whatever the line, the judge
// returns 0 (pass) or 1 (a failing or unreadable case), never 2 or an
// exception, and its summary ends with the line count. Only the input's first
// line is used.
#include "check/check.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string line(reinterpret_cast<const char*>(data), size);
  if (const auto nl = line.find('\n'); nl != std::string::npos) line.resize(nl);
  std::istringstream in(line + "\n");
  std::ostringstream out, err;
  rigidref::tools::check_options opts;  // results "-": read `in`
  int status = 2;
  try {
    status = rigidref::tools::run_check(opts, in, out, err);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "check_fuzz: run_check threw: %s\n  line: %s\n", e.what(), line.c_str());
    std::abort();
  }
  const std::string summary = out.str();
  if ((status != 0 && status != 1) || summary.find("\n1 lines, ") == std::string::npos) {
    std::fprintf(stderr, "check_fuzz: status %d\n  line: %s\n  summary: %s\n", status, line.c_str(), summary.c_str());
    std::abort();
  }
  return 0;
}
