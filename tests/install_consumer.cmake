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
# as left out (mpfr.hpp, an optional dependency) and the internals that the
# public headers include themselves (detail/, filter.hpp).
file(READ "${SOURCE_DIR}/reference/include/rigidref/rigidref.hpp" umbrella)
foreach(h IN LISTS public)
  if(h MATCHES "^rigidref/(rigidref|mpfr|filter)\\.hpp$" OR h MATCHES "/detail/")
    continue()
  endif()
  string(FIND "${umbrella}" "#include \"${h}\"" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "rigidref/rigidref.hpp does not include ${h}")
  endif()
endforeach()
execute_process(COMMAND ${CMAKE_COMMAND} -S "${SOURCE_DIR}/tests/consumer" -B "${WORK_DIR}/build"
                        -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix -DCMAKE_CXX_COMPILER=${CXX}
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "consumer configure failed")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build "${WORK_DIR}/build" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "consumer build failed")
endif()
execute_process(COMMAND "${WORK_DIR}/build/consumer" RESULT_VARIABLE rc OUTPUT_VARIABLE out)
message("${out}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "consumer run failed")
endif()
