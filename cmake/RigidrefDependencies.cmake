# Every dependency is a Debian package. A missing one stops configure with the
# package to install, instead of a compiler error ten minutes later.

function(rigidref_missing what debian_package)
  message(FATAL_ERROR
    "rigidref: ${what} not found.\n"
    "Install it with:  apt-get install -y ${debian_package}")
endfunction()

find_package(Boost 1.74 CONFIG QUIET)
if(NOT Boost_FOUND)
  rigidref_missing("Boost (Multiprecision, Math)" libboost-dev)
endif()

# nlohmann JSON: optional for the library (only rigidref::protocol, the
# adapter I/O headers, needs it), required for the tools and the tests.
find_package(nlohmann_json 3 CONFIG QUIET)
if(RIGIDREF_BUILD_TOOLS OR RIGIDREF_BUILD_TESTS)
  if(NOT nlohmann_json_FOUND)
    rigidref_missing("nlohmann JSON" nlohmann-json3-dev)
  endif()
  # RapidCheck: the tests' property runner, and the generators and
  # shrinking of `rigidref hunt`.
  find_package(rapidcheck CONFIG QUIET)
  if(NOT rapidcheck_FOUND)
    rigidref_missing("RapidCheck" librapidcheck-dev)
  endif()
  find_package(CLI11 CONFIG QUIET)
  if(NOT CLI11_FOUND)
    rigidref_missing("CLI11" libcli11-dev)
  endif()
  # MPFR backs the optional mpfr_float scalar; GMP is its dependency.
  find_path(MPFR_INCLUDE_DIR mpfr.h)
  find_library(MPFR_LIBRARY mpfr)
  find_library(GMP_LIBRARY gmp)
  if(NOT MPFR_INCLUDE_DIR OR NOT MPFR_LIBRARY)
    rigidref_missing("MPFR" "libmpfr-dev libgmp-dev")
  endif()
  if(NOT GMP_LIBRARY)
    rigidref_missing("GMP" libgmp-dev)
  endif()
  # md4c renders derivations/*.md for the report. Debian 12 splits it: the
  # HTML renderer's library in libmd4c-html0-dev, the headers (md4c-html.h
  # includes md4c.h) in libmd4c-dev.
  find_path(MD4C_HTML_INCLUDE_DIR md4c-html.h)
  find_library(MD4C_HTML_LIBRARY md4c-html)
  if(NOT MD4C_HTML_INCLUDE_DIR OR NOT MD4C_HTML_LIBRARY)
    rigidref_missing("md4c (Markdown to HTML)" "libmd4c-html0-dev libmd4c-dev")
  endif()
  add_library(rigidref_md4c INTERFACE)
  target_include_directories(rigidref_md4c INTERFACE ${MD4C_HTML_INCLUDE_DIR})
  target_link_libraries(rigidref_md4c INTERFACE ${MD4C_HTML_LIBRARY})
  add_library(rigidref_mpfr INTERFACE)
  target_include_directories(rigidref_mpfr INTERFACE ${MPFR_INCLUDE_DIR})
  target_link_libraries(rigidref_mpfr INTERFACE ${MPFR_LIBRARY} ${GMP_LIBRARY})
  target_compile_definitions(rigidref_mpfr INTERFACE RIGIDREF_HAVE_MPFR=1)
endif()

if(RIGIDREF_BUILD_TESTS)
  find_package(Catch2 2.13 CONFIG QUIET)
  if(NOT Catch2_FOUND)
    rigidref_missing("Catch2 2.13" catch2)
  endif()
  find_program(NODE_EXECUTABLE NAMES node nodejs)
  if(NOT NODE_EXECUTABLE)
    rigidref_missing("Node.js (golden data generation)" nodejs)
  endif()
endif()

if(RIGIDREF_BUILD_BENCH)
  find_package(benchmark CONFIG QUIET)
  if(NOT benchmark_FOUND)
    rigidref_missing("Google Benchmark" libbenchmark-dev)
  endif()
  find_package(box2d CONFIG QUIET)
  if(NOT box2d_FOUND)
    rigidref_missing("Box2D 2.4 (benchmark baseline)" libbox2d-dev)
  endif()
endif()
