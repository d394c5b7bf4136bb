// The rendered derivations (tools/report/markdown_html.hpp, md4c): a small
// sample checked element by element, then every derivations/*.md file:
// each anchor it defines becomes an element with that id, and each link to
// another derivation points to a rendered page that has the linked anchor.
// The anchors named here are real ones (tests/anchors_test.cpp checks that).
#include <catch2/catch.hpp>

#include "report/markdown_html.hpp"

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>

// This file's names stay apart from the other files of its test program,
// which compile as one unit (tests/CMakeLists.txt, rigidref_test_file).
namespace markdown_html_test {

namespace fs = std::filesystem;
using rigidref::tools::markdown_page;
using rigidref::tools::markdown_to_html;

namespace {

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

bool has(const std::string& html, const std::string& part) { return html.find(part) != std::string::npos; }

std::size_t count(const std::string& html, const std::string& part) {
  std::size_t n = 0;
  for (std::size_t at = html.find(part); at != std::string::npos; at = html.find(part, at + part.size())) ++n;
  return n;
}

const char* sample = R"md(# Sample <derivation>

### <a id="D-GJK-19"></a>(D-GJK-19) A heading with an anchor

| case | value |
|------|-------|
| `a|b` | 1 < 2 & "3" |
| second | **bold** |

See [the depth](epa.md#D-EPA-6) and [mass](mass.md), not [the readme](../README.md)
nor [the web](https://example.org/x.md).

In code, `<a id="D-MASS-6"></a>` stays text; so does wider_t<T> outside it.

    indented <b>code</b>
)md";

}  // namespace

TEST_CASE("markdown_to_html: table, anchor, links, escaping", "[report][markdown]") {
  const std::string html = markdown_to_html(sample);
  INFO(html);
  SECTION("the table is a table, its cells escaped") {
    CHECK(count(html, "<table>") == 1);
    CHECK(has(html, "<th>case</th>"));
    CHECK(has(html, "<th>value</th>"));
    CHECK(count(html, "<tr>") == 3);
    CHECK(has(html, "<td><code>a|b</code></td>"));
    CHECK(has(html, "<td>1 &lt; 2 &amp; &quot;3&quot;</td>"));
    CHECK(has(html, "<td><strong>bold</strong></td>"));
  }
  SECTION("the anchor in the heading is an element with its id") {
    CHECK(has(html, "<h3><a id=\"D-GJK-19\"></a>(D-GJK-19) A heading with an anchor</h3>"));
    CHECK(has(html, "<h1>Sample &lt;derivation&gt;</h1>"));
  }
  SECTION("links to sibling derivations point to the rendered pages, others are kept") {
    CHECK(has(html, "<a href=\"epa.html#D-EPA-6\">the depth</a>"));
    CHECK(has(html, "<a href=\"mass.html\">mass</a>"));
    CHECK(has(html, "<a href=\"../README.md\">the readme</a>"));
    CHECK(has(html, "<a href=\"https://example.org/x.md\">the web</a>"));
  }
  SECTION("other HTML is text, in code and out") {
    CHECK(has(html, "<code>&lt;a id=&quot;D-MASS-6&quot;&gt;&lt;/a&gt;</code>"));
    CHECK_FALSE(has(html, "id=\"D-MASS-6\""));
    CHECK(has(html, "wider_t&lt;T&gt;"));
    CHECK(has(html, "<pre><code>indented &lt;b&gt;code&lt;/b&gt;\n</code></pre>"));
    CHECK_FALSE(has(html, "<b>"));
  }
}

TEST_CASE("markdown_page: title escaped, back link, body", "[report][markdown]") {
  const std::string page = markdown_page("rigidref: a<b>.md", "# Title\n", "../report.html");
  CHECK(page.rfind("<!DOCTYPE html>", 0) == 0);
  CHECK(has(page, "<title>rigidref: a&lt;b&gt;.md</title>"));
  CHECK(has(page, "<nav><a href=\"../report.html\">"));
  CHECK(has(page, "<h1>Title</h1>"));
  CHECK(has(page, "</body></html>"));
}

TEST_CASE("every derivation renders with its anchors, and its links land", "[report][markdown]") {
  const fs::path dir = fs::path(RIGIDREF_SOURCE_DIR) / "derivations";
  const std::regex defined(R"re(<a id="(D-[A-Z]+-[0-9]+)"></a>)re");
  const std::regex sibling_md_href(R"re(href="[^"/:]*\.md[#"])re");
  const std::regex page_link(R"re(href="([a-z_]+)\.html(#([^"]*))?")re");
  std::map<std::string, std::string> rendered;  // page name (gjk.html) -> body
  std::size_t anchors = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() != ".md") continue;
    const std::string md = read(e.path());
    const std::string html = markdown_to_html(md);
    INFO(e.path().filename().string());
    for (std::sregex_iterator it(md.begin(), md.end(), defined), end; it != end; ++it) {
      INFO((*it)[1].str());
      CHECK(count(html, "<a id=\"" + (*it)[1].str() + "\"></a>") == 1);
      ++anchors;
    }
    CHECK_FALSE(std::regex_search(html, sibling_md_href));
    // A GitHub table in the Markdown (a |---| delimiter row) is a table.
    if (std::regex_search(md, std::regex(R"(\n\|[ :]*-{3,})"))) CHECK(has(html, "<table>"));
    rendered[e.path().stem().string() + ".html"] = html;
  }
  REQUIRE(rendered.size() >= 10);
  CHECK(anchors >= 100);
  std::size_t links = 0;
  for (const auto& [name, html] : rendered) {
    for (std::sregex_iterator it(html.begin(), html.end(), page_link), end; it != end; ++it) {
      const std::string target = (*it)[1].str() + ".html";
      INFO(name << " links to " << it->str());
      REQUIRE(rendered.count(target) == 1);
      if ((*it)[3].matched) CHECK(has(rendered[target], "id=\"" + (*it)[3].str() + "\""));
      ++links;
    }
  }
  CHECK(links > 0);
}

}  // namespace markdown_html_test
