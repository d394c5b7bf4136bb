# Installs rigidref into a scratch prefix, then configures, builds and runs
# tests/consumer against it with find_package(rigidref).
file(REMOVE_RECURSE "${WORK_DIR}")
execute_process(COMMAND ${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${WORK_DIR}/prefix"
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "install failed")
endif()
# The installed headers are exactly the public ones: every file of
# reference/include/, and nothing of the internal machinery
# (reference/include_private/: campaign, report and test code).
file(GLOB_RECURSE public RELATIVE "${SOURCE_DIR}/reference/include" "${SOURCE_DIR}/reference/include/*")
file(GLOB_RECURSE installed RELATIVE "${WORK_DIR}/prefix/include" "${WORK_DIR}/prefix/include/*")
list(SORT public)
list(SORT installed)
if(NOT public STREQUAL installed)
  message(FATAL_ERROR "installed headers differ from reference/include/:\n public: ${public}\n installed: ${installed}")
endif()
file(GLOB_RECURSE internal RELATIVE "${SOURCE_DIR}/reference/include_private" "${SOURCE_DIR}/reference/include_private/*")
list(LENGTH internal internal_count)
if(internal_count EQUAL 0)
  message(FATAL_ERROR "no internal headers found under ${SOURCE_DIR}/reference/include_private")
endif()
foreach(h IN LISTS internal)
  if(EXISTS "${WORK_DIR}/prefix/include/${h}")
    message(FATAL_ERROR "internal header installed: ${h}")
  endif()
endforeach()
message("installed the public headers only; none of the ${internal_count} internal ones")
# The umbrella header names every public header but the ones it documents
# as left out (mpfr.hpp, an optional dependency; protocol/, which needs
# nlohmann_json) and the internals that the public headers include
# themselves (detail/, filter.hpp). It must not include protocol/: a user
# without nlohmann_json includes the umbrella.
file(READ "${SOURCE_DIR}/reference/include/rigidref/rigidref.hpp" umbrella)
foreach(h IN LISTS public)
  if(h MATCHES "^rigidref/protocol/")
    string(FIND "${umbrella}" "#include \"${h}\"" at)
    if(NOT at EQUAL -1)
      message(FATAL_ERROR "rigidref/rigidref.hpp includes ${h}, which needs nlohmann_json")
    endif()
    continue()
  endif()
  if(h MATCHES "^rigidref/(rigidref|mpfr|filter)\\.hpp$" OR h MATCHES "/detail/")
    continue()
  endif()
  string(FIND "${umbrella}" "#include \"${h}\"" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "rigidref/rigidref.hpp does not include ${h}")
  endif()
endforeach()
# Only the protocol headers may need nlohmann_json.
foreach(h IN LISTS public)
  if(NOT h MATCHES "^rigidref/protocol/")
    file(STRINGS "${SOURCE_DIR}/reference/include/${h}" uses REGEX "#include [<\"]nlohmann/")
    if(uses)
      message(FATAL_ERROR "${h} includes nlohmann_json, which only rigidref/protocol/ may need")
    endif()
  endif()
endforeach()
# A user without nlohmann_json: find_package(rigidref) still gives
# rigidref::rigidref, without rigidref::protocol (configure only).
execute_process(COMMAND ${CMAKE_COMMAND} -S "${SOURCE_DIR}/tests/consumer" -B "${WORK_DIR}/build-no-json"
                        -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix -DCMAKE_CXX_COMPILER=${CXX}
                        -DWITH_PROTOCOL=OFF -DCMAKE_DISABLE_FIND_PACKAGE_nlohmann_json=ON
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "consumer configure without nlohmann_json failed")
endif()
# rigidref::rigidref carries no floating-point option to its users: the
# headers switch contraction off for their own code only (detail/fp_begin.hpp).
file(GLOB_RECURSE exported "${WORK_DIR}/prefix/*/rigidrefTargets*.cmake")
if(NOT exported)
  message(FATAL_ERROR "no rigidrefTargets*.cmake installed")
endif()
foreach(f IN LISTS exported)
  file(READ "${f}" text)
  if(text MATCHES "fp-contract")
    message(FATAL_ERROR "${f} passes a floating-point option to rigidref's users")
  endif()
endforeach()
execute_process(COMMAND ${CMAKE_COMMAND} -S "${SOURCE_DIR}/tests/consumer" -B "${WORK_DIR}/build"
                        -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix -DCMAKE_CXX_COMPILER=${CXX}
                        -DCMAKE_EXPORT_COMPILE_COMMANDS=ON
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "consumer configure failed")
endif()
# Two jobs: its four programs are most of this test's time, and it starts
# first (COST, tests/CMakeLists.txt), beside one other test.
execute_process(COMMAND ${CMAKE_COMMAND} --build "${WORK_DIR}/build" --parallel 2 RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "consumer build failed")
endif()
# The engine author's Catch2 suite judging Box2D's float answers with the
# installed judge (tests/consumer/judge_box2d.cpp). Box2D and Catch2 are
# installed by tools/deps.sh, so a missing program is a failure here.
if(NOT EXISTS "${WORK_DIR}/build/consumer_judge_box2d")
  message(FATAL_ERROR "consumer_judge_box2d was not built: find_package(box2d) or find_package(Catch2) failed")
endif()
execute_process(COMMAND "${WORK_DIR}/build/consumer_judge_box2d" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
message("${out}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "consumer_judge_box2d failed: the installed judge and Box2D disagree")
endif()
# The consumer's engine adapter on the installed adapter I/O: one request
# (bringing an "allowances" of its own, which the loop must drop), then a
# line that is no request; one answer line each, in order.
file(WRITE "${WORK_DIR}/requests.jsonl"
     "{\"id\":7,\"op\":\"mass.polygon\",\"vertices\":[[0,0],[2,0],[2,1],[0,1]],\"density\":3,"
     "\"allowances\":{\"epa_tolerance\":1}}\n"
     "not json\n")
execute_process(COMMAND "${WORK_DIR}/build/consumer_adapter" INPUT_FILE "${WORK_DIR}/requests.jsonl"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out)
message("${out}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "consumer adapter run failed")
endif()
string(FIND "${out}" "\n" end_of_first)
string(SUBSTRING "${out}" 0 ${end_of_first} first)
math(EXPR start_of_second "${end_of_first} + 1")
string(SUBSTRING "${out}" ${start_of_second} -1 second)
string(STRIP "${second}" second)
if(second MATCHES "\n")
  message(FATAL_ERROR "consumer adapter: more than 2 answer lines for 2 request lines")
endif()
# 2 x 1 rectangle, density 3: area 2, centroid (1, 1/2), mass 6, all exact
# from integer sums; inertia m (w^2 + h^2) / 12 = 5/2 to 1 ulp (README.md:
# rational results within 1 ulp of the correctly rounded value).
foreach(check "id;^7$" "engine;^consumer-adapter-1$" "precision;^double$" "result;area;^2(\\.0)?$"
              "result;centroid;0;^1(\\.0)?$" "result;centroid;1;^0\\.5$" "result;mass;^6(\\.0)?$"
              "result;inertia;^(2\\.5|2\\.4999999999999996|2\\.5000000000000004)$" "diagnostics;vertices_used;^4$")
  list(POP_BACK check expected)
  string(JSON value ERROR_VARIABLE problem GET "${first}" ${check})
  if(problem OR NOT value MATCHES "${expected}")
    message(FATAL_ERROR "consumer adapter: ${check} is \"${value}\", expected ${expected} ${problem}")
  endif()
endforeach()
string(JSON forged ERROR_VARIABLE absent GET "${first}" allowances)
if(NOT absent)
  message(FATAL_ERROR "consumer adapter: the request's own allowances came back: ${forged}")
endif()
string(JSON code GET "${second}" error code)
string(JSON id TYPE "${second}" id)
if(NOT code STREQUAL "parse_error" OR NOT id STREQUAL "NULL")
  message(FATAL_ERROR "consumer adapter: a line that is no request got ${second}")
endif()
message("consumer adapter: answered the request and the line that is no request")

# The user's test program built at -O2 -march=native -ffp-contract=fast and
# at -O0 -ffp-contract=off (tests/consumer/fp_contract.cpp): in the first the
# user's own code is contracted, in both rigidref's arithmetic is exact, and
# every result has the same bits in both.
if(NOT EXISTS "${WORK_DIR}/build/consumer_fp_fast")
  message("skipped: the contraction check needs GCC or clang (-ffp-contract)")
  return()
endif()
file(READ "${WORK_DIR}/build/compile_commands.json" commands)
string(REGEX MATCH "[^\n]*-o CMakeFiles/consumer_judge_box2d.dir/[^\n]*" plain_command "${commands}")
string(REGEX MATCH "[^\n]*-o CMakeFiles/consumer_fp_fast.dir/[^\n]*" fast_command "${commands}")
if(NOT plain_command OR plain_command MATCHES "fp-contract")
  message(FATAL_ERROR "consumer_judge_box2d (no flags of its own) is compiled with an -ffp-contract: ${plain_command}")
endif()
if(NOT fast_command MATCHES "-ffp-contract=fast" OR fast_command MATCHES "-ffp-contract=off")
  message(FATAL_ERROR "consumer_fp_fast is not compiled with the user's -ffp-contract=fast alone: ${fast_command}")
endif()
foreach(program consumer_fp_fast consumer_fp_off)
  execute_process(COMMAND "${WORK_DIR}/build/${program}" RESULT_VARIABLE rc OUTPUT_VARIABLE out)
  message("${program}:\n${out}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${program} failed")
  endif()
  string(REGEX MATCHALL "digest [a-z_]+ [0-9a-f]+" digests_${program} "${out}")
  if(NOT digests_${program})
    message(FATAL_ERROR "${program} printed no digest")
  endif()
endforeach()
# (consumer_fp_fast leaves out the group it does not check: the article's
# bits under clang, whose -ffp-contract=fast overrides rigidref's pragma.)
foreach(d IN LISTS digests_consumer_fp_fast)
  list(FIND digests_consumer_fp_off "${d}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "rigidref's results depend on the user's flags: ${d} at -ffp-contract=fast, "
                        "at -ffp-contract=off: ${digests_consumer_fp_off}")
  endif()
endforeach()
message("rigidref's results have the same bits at -ffp-contract=fast and off: ${digests_consumer_fp_fast}")
