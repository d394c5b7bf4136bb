// Markdown subset -> HTML (markdown_html.hpp). Block structure first
// (line by line), then inline spans within each block's text.
#include "report/markdown_html.hpp"

#include <cctype>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace rigidref::tools {
namespace {

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

// Inline spans: `code`, **bold**, *italic*, [text](url), <a id="..."></a>.
std::string inline_html(const std::string& text) {
  std::string out;
  std::size_t i = 0;
  static const std::regex anchor(R"re(^<a id="([A-Za-z0-9_.-]+)"></a>)re");
  static const std::regex link(R"re(^\[([^\]]+)\]\(([^)\s]+)\))re");
  while (i < text.size()) {
    const char c = text[i];
    std::smatch m;
    const std::string rest = text.substr(i);
    if (c == '`') {
      const std::size_t end = text.find('`', i + 1);
      if (end != std::string::npos) {
        out += "<code>" + escape(text.substr(i + 1, end - i - 1)) + "</code>";
        i = end + 1;
        continue;
      }
    } else if (c == '<' && std::regex_search(rest, m, anchor)) {
      out += "<a id=\"" + m[1].str() + "\"></a>";
      i += m.length(0);
      continue;
    } else if (c == '[' && std::regex_search(rest, m, link)) {
      std::string url = m[2].str();
      const std::size_t md = url.find(".md");
      if (md != std::string::npos && url.find("://") == std::string::npos) url.replace(md, 3, ".html");
      out += "<a href=\"" + escape(url) + "\">" + inline_html(m[1].str()) + "</a>";
      i += m.length(0);
      continue;
    } else if (c == '*' && i + 1 < text.size() && text[i + 1] == '*') {
      const std::size_t end = text.find("**", i + 2);
      if (end != std::string::npos) {
        out += "<b>" + inline_html(text.substr(i + 2, end - i - 2)) + "</b>";
        i = end + 2;
        continue;
      }
    } else if ((c == '*' || c == '_') && i + 1 < text.size() && !std::isspace(static_cast<unsigned char>(text[i + 1])) &&
               (i == 0 || !std::isalnum(static_cast<unsigned char>(text[i - 1])))) {
      const std::size_t end = text.find(c, i + 1);
      if (end != std::string::npos && end > i + 1 &&
          (end + 1 >= text.size() || !std::isalnum(static_cast<unsigned char>(text[end + 1])))) {
        out += "<i>" + inline_html(text.substr(i + 1, end - i - 1)) + "</i>";
        i = end + 1;
        continue;
      }
    }
    out += escape(std::string(1, c));
    ++i;
  }
  return out;
}

std::size_t indent_of(const std::string& line) {
  std::size_t n = 0;
  while (n < line.size() && line[n] == ' ') ++n;
  return n;
}

bool blank(const std::string& line) { return line.find_first_not_of(" \t\r") == std::string::npos; }

// "- x", "* x", "1. x": the marker's length, 0 if not a list item.
std::size_t list_marker(const std::string& line, bool& ordered) {
  const std::size_t at = indent_of(line);
  if (at + 1 < line.size() && (line[at] == '-' || line[at] == '*') && line[at + 1] == ' ') {
    ordered = false;
    return 2;
  }
  std::size_t d = at;
  while (d < line.size() && std::isdigit(static_cast<unsigned char>(line[d]))) ++d;
  if (d > at && d + 1 < line.size() && line[d] == '.' && line[d + 1] == ' ') {
    ordered = true;
    return d - at + 2;
  }
  return 0;
}

std::vector<std::string> split_row(const std::string& line) {
  std::string s = line;
  const std::size_t a = s.find('|'), b = s.rfind('|');
  s = s.substr(a + 1, b - a - 1);
  std::vector<std::string> cells;
  std::string cell;
  bool in_code = false;
  for (char c : s) {
    if (c == '`') in_code = !in_code;
    if (c == '|' && !in_code) {
      cells.push_back(cell);
      cell.clear();
    } else {
      cell += c;
    }
  }
  cells.push_back(cell);
  for (auto& x : cells) {
    const std::size_t f = x.find_first_not_of(' '), l = x.find_last_not_of(' ');
    x = f == std::string::npos ? "" : x.substr(f, l - f + 1);
  }
  return cells;
}

class renderer {
 public:
  explicit renderer(const std::string& md) {
    std::istringstream in(md);
    std::string line;
    while (std::getline(in, line)) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      lines_.push_back(line);
    }
  }

  std::string run() {
    while (at_ < lines_.size()) {
      const std::size_t before = at_;
      block();
      if (at_ == before) out_ << "<p>" << escape(lines_[at_++]) << "</p>\n";  // every block must consume a line
    }
    return out_.str();
  }

 private:
  void block() {
    const std::string& line = lines_[at_];
    bool ordered = false;
    if (blank(line)) {
      ++at_;
    } else if (line.rfind("```", 0) == 0) {
      fenced();
    } else if (line == "---" || line == "***") {
      out_ << "<hr>\n";
      ++at_;
    } else if (line[0] == '#') {
      heading();
    } else if (table_starts(at_)) {
      table();
    } else if (list_marker(line, ordered) > 0) {
      list(indent_of(line));
    } else if (indent_of(line) >= 4) {
      indented();
    } else {
      paragraph();
    }
  }

  void fenced() {
    ++at_;
    out_ << "<pre><code>";
    while (at_ < lines_.size() && lines_[at_].rfind("```", 0) != 0) out_ << escape(lines_[at_++]) << "\n";
    ++at_;
    out_ << "</code></pre>\n";
  }

  void indented() {
    out_ << "<pre><code>";
    while (at_ < lines_.size() && (indent_of(lines_[at_]) >= 4 || blank(lines_[at_]))) {
      if (blank(lines_[at_]) && (at_ + 1 >= lines_.size() || indent_of(lines_[at_ + 1]) < 4)) break;
      out_ << escape(lines_[at_].size() >= 4 ? lines_[at_].substr(4) : std::string()) << "\n";
      ++at_;
    }
    out_ << "</code></pre>\n";
  }

  void heading() {
    const std::string& line = lines_[at_++];
    std::size_t level = 0;
    while (level < line.size() && line[level] == '#') ++level;
    level = std::min<std::size_t>(level, 6);
    out_ << "<h" << level << ">" << inline_html(line.substr(std::min(line.size(), level + 1))) << "</h" << level
         << ">\n";
  }

  void table() {
    const std::vector<std::string> head = split_row(lines_[at_]);
    at_ += 2;
    out_ << "<table><thead><tr>";
    for (const auto& h : head) out_ << "<th>" << inline_html(h) << "</th>";
    out_ << "</tr></thead><tbody>\n";
    while (at_ < lines_.size() && lines_[at_].find('|') == 0) {
      out_ << "<tr>";
      for (const auto& c : split_row(lines_[at_++])) out_ << "<td>" << inline_html(c) << "</td>";
      out_ << "</tr>\n";
    }
    out_ << "</tbody></table>\n";
  }

  // At least the first line, then every line that does not start a new block
  // (a table starts only where a |--- separator line follows).
  void paragraph() {
    std::string text = lines_[at_].substr(indent_of(lines_[at_]));
    ++at_;
    bool ordered = false;
    while (at_ < lines_.size() && !blank(lines_[at_]) && lines_[at_][0] != '#' && lines_[at_] != "---" &&
           lines_[at_].rfind("```", 0) != 0 && list_marker(lines_[at_], ordered) == 0 && !table_starts(at_)) {
      const std::string& line = lines_[at_++];
      text += ' ';
      text += line.substr(indent_of(line));
    }
    out_ << "<p>" << inline_html(text) << "</p>\n";
  }

  bool table_starts(std::size_t i) const {
    return lines_[i].find('|') == 0 && i + 1 < lines_.size() && lines_[i + 1].find("|---") == 0;
  }

  // Items at `indent`; deeper markers open nested lists; continuation lines
  // (indented, not markers) join the current item; an indented block after
  // a blank line inside an item becomes code or a paragraph of that item.
  void list(std::size_t indent) {
    bool ordered = false;
    list_marker(lines_[at_], ordered);
    out_ << (ordered ? "<ol>\n" : "<ul>\n");
    while (at_ < lines_.size()) {
      const std::string& line = lines_[at_];
      bool o = false;
      const std::size_t marker = list_marker(line, o);
      if (marker == 0 || indent_of(line) != indent) break;
      std::string text = line.substr(indent + marker);
      ++at_;
      out_ << "<li>";
      while (at_ < lines_.size()) {
        const std::string& next = lines_[at_];
        bool no = false;
        if (blank(next)) {
          // A blank line ends the item unless indented content follows.
          if (at_ + 1 < lines_.size() && indent_of(lines_[at_ + 1]) > indent && !blank(lines_[at_ + 1])) {
            ++at_;
            continue;
          }
          break;
        }
        const std::size_t m = list_marker(next, no);
        if (m > 0 && indent_of(next) > indent) {
          out_ << inline_html(text);
          text.clear();
          list(indent_of(next));
          continue;
        }
        if (m > 0 || indent_of(next) <= indent) break;
        if (indent_of(next) >= indent + marker + 4) {
          out_ << inline_html(text);
          text.clear();
          out_ << "<pre><code>";
          const std::size_t base = indent_of(next);
          while (at_ < lines_.size() && indent_of(lines_[at_]) >= base && !blank(lines_[at_]))
            out_ << escape(lines_[at_++].substr(base)) << "\n";
          out_ << "</code></pre>";
          continue;
        }
        text += ' ';
        text += next.substr(indent_of(next));
        ++at_;
      }
      out_ << inline_html(text) << "</li>\n";
      if (at_ < lines_.size() && blank(lines_[at_])) {
        // Continue the list across one blank line if the next item is ours.
        bool no = false;
        if (at_ + 1 < lines_.size() && list_marker(lines_[at_ + 1], no) > 0 && indent_of(lines_[at_ + 1]) == indent)
          ++at_;
        else
          break;
      }
    }
    out_ << (ordered ? "</ol>\n" : "</ul>\n");
  }

  std::vector<std::string> lines_;
  std::size_t at_ = 0;
  std::ostringstream out_;
};

const char* page_style = R"css(
body { font-family: Georgia, 'DejaVu Serif', serif; margin: 2rem auto; max-width: 52rem; color: #222;
       line-height: 1.55; padding: 0 1rem; }
h1, h2, h3 { font-family: system-ui, sans-serif; line-height: 1.25; }
h2 { margin-top: 2.2rem; border-bottom: 1px solid #ddd; padding-bottom: 0.2rem; }
pre { background: #f6f7f9; padding: 0.7rem 1rem; overflow-x: auto; border-left: 3px solid #8aa;
      font-size: 0.92rem; line-height: 1.45; }
code { font-family: 'DejaVu Sans Mono', ui-monospace, monospace; font-size: 0.9em; }
table { border-collapse: collapse; margin: 1rem 0; font-size: 0.9rem; }
th, td { border: 1px solid #ddd; padding: 0.25rem 0.6rem; text-align: left; vertical-align: top; }
th { background: #f4f4f4; }
a:target + *, h2:target, h3:target { background: #fff6d5; }
nav { font-family: system-ui, sans-serif; font-size: 0.9rem; }
)css";

}  // namespace

std::string markdown_to_html(const std::string& markdown) { return renderer(markdown).run(); }

std::string markdown_page(const std::string& title, const std::string& markdown, const std::string& back_link) {
  std::string page = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" + escape(title) +
                     "</title>\n<style>" + page_style + "</style></head><body>\n";
  if (!back_link.empty()) page += "<nav><a href=\"" + escape(back_link) + "\">&larr; verification report</a></nav>\n";
  page += markdown_to_html(markdown);
  page += "</body></html>\n";
  return page;
}

}  // namespace rigidref::tools
