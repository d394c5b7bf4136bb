// The engine x op matrix of the committed summaries (engine_matrix.hpp).
#include "report/engine_matrix.hpp"

#include "report/html_escape.hpp"

#include <algorithm>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>

namespace rigidref::tools {

namespace fs = std::filesystem;

std::vector<engine_summary_row> read_engine_summaries(const fs::path& dir) {
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_regular_file() && e.path().extension() == ".txt") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  // engine op cases pass fail skipped reject worst-eps worst-line
  static const std::regex row(R"(^(\S+)\s+(\S+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\S+)\s+(\d+)\s*$)");
  std::vector<engine_summary_row> rows;
  for (const auto& file : files) {
    std::ifstream in(file);
    std::string text;
    while (std::getline(in, text)) {
      std::smatch m;
      if (!std::regex_match(text, m, row)) continue;
      rows.push_back({m[1], m[2], std::stol(m[3]), std::stol(m[4]), std::stol(m[5]), std::stol(m[6]),
                      std::stol(m[7]), m[8], std::stol(m[9]), file.filename().string()});
    }
  }
  return rows;
}

std::vector<engine_summary_row> read_engine_summaries(const fs::path& committed, const std::vector<fs::path>& more) {
  std::vector<engine_summary_row> rows;
  if (!committed.empty() && fs::is_directory(committed)) rows = read_engine_summaries(committed);
  for (const fs::path& dir : more) {
    if (!fs::is_directory(dir)) throw std::runtime_error(dir.string() + ": not a directory");
    std::vector<engine_summary_row> own = read_engine_summaries(dir);
    if (own.empty())
      throw std::runtime_error(dir.string() + ": no engine summary here (a *.txt file written by rigidref check)");
    for (engine_summary_row& r : own) {
      r.file = (dir / r.file).string();
      rows.push_back(std::move(r));
    }
  }
  return rows;
}

namespace {

// "pass / fail / skipped" and the worst error of one summary row; a cell
// holds more than one when two files report the same engine and op.
std::string cell_entry(const engine_summary_row& r) {
  std::ostringstream s;
  s << "<span class=\"counts\" title=\"" << r.cases << " cases in " << html_escape(r.file) << "\">" << r.pass
    << " / " << r.fail << " / " << r.skipped << "</span>";
  if (r.reject > 0) s << " <span class=\"reject\">(" << r.reject << " rejected by both)</span>";
  s << "<br><span class=\"worst\">"
    << (r.worst_line == 0 ? std::string("no case judged") : "worst " + html_escape(r.worst_eps) + " eps")
    << "</span>";
  return s.str();
}

// A cell's colour: every judged case passed, some failed, or none judged.
const char* cell_class(const std::vector<const engine_summary_row*>& entries) {
  long judged = 0, failed = 0;
  for (const auto* r : entries) {
    judged += r->pass + r->fail;
    failed += r->fail;
  }
  if (judged == 0) return "none";
  return failed == 0 ? "allpass" : "somefail";
}

}  // namespace

std::string engine_matrix_html(const std::vector<engine_summary_row>& rows) {
  std::vector<std::string> engines;
  std::set<std::string> ops;
  std::map<std::pair<std::string, std::string>, std::vector<const engine_summary_row*>> cells;
  for (const auto& r : rows) {
    if (std::find(engines.begin(), engines.end(), r.engine) == engines.end()) engines.push_back(r.engine);
    ops.insert(r.op);
    cells[{r.engine, r.op}].push_back(&r);
  }
  std::ostringstream s;
  s << "<table class=\"engine-matrix\"><tr><th class=\"name\">engine</th>";
  for (const auto& op : ops) s << "<th>" << html_escape(op) << "</th>";
  s << "</tr>\n";
  for (const auto& engine : engines) {
    s << "<tr><td class=\"name\">" << html_escape(engine) << "</td>";
    for (const auto& op : ops) {
      s << "<td data-engine=\"" << html_escape(engine) << "\" data-op=\"" << html_escape(op) << "\"";
      const auto c = cells.find({engine, op});
      if (c == cells.end()) {
        s << " class=\"absent\">&mdash;</td>";
        continue;
      }
      s << " class=\"" << cell_class(c->second) << "\">";
      for (std::size_t i = 0; i < c->second.size(); ++i) s << (i ? "<hr>" : "") << cell_entry(*c->second[i]);
      s << "</td>";
    }
    s << "</tr>\n";
  }
  s << "</table>\n";
  return s.str();
}

}  // namespace rigidref::tools
