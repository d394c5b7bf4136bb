# ctest script: the C++ template adapter (tools/adapters/templates/cpp) is
# copied out of the source tree as a user would, built with its own
# CMakeLists.txt against rigidref installed into a scratch prefix, and run
# by adapter_template.cmake (the mass set passes, skipping everything fails)
# and on the fuzz corpus of the adapter conventions.
# Arguments: -DBUILD_DIR= -DSOURCE_DIR= -DWORK_DIR= -DCXX= -DCLI= -DCORPUS=<test_adapter_corpus>
file(REMOVE_RECURSE "${WORK_DIR}")
execute_process(COMMAND ${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${WORK_DIR}/prefix" OUTPUT_QUIET
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "install failed")
endif()
file(COPY "${SOURCE_DIR}/tools/adapters/templates/cpp/" DESTINATION "${WORK_DIR}/my-adapter")
execute_process(COMMAND ${CMAKE_COMMAND} -S "${WORK_DIR}/my-adapter" -B "${WORK_DIR}/my-adapter/build"
                        -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix -DCMAKE_CXX_COMPILER=${CXX}
                OUTPUT_VARIABLE out ERROR_VARIABLE out RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the C++ template does not configure against the installed rigidref:\n${out}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build "${WORK_DIR}/my-adapter/build"
                OUTPUT_VARIABLE out ERROR_VARIABLE out RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the C++ template does not build against the installed rigidref:\n${out}")
endif()
set(ADAPTER "${WORK_DIR}/my-adapter/build/my_adapter")
set(NAME template-cpp)
set(WORK "${WORK_DIR}/runs")
include("${CMAKE_CURRENT_LIST_DIR}/adapter_template.cmake")
# And the adapter conventions on the fuzz corpus (tests/adapter_corpus_test.cpp),
# as adapter_corpus_template_python and _javascript hold the other two.
execute_process(COMMAND "${CORPUS}" "${SOURCE_DIR}" "${ADAPTER}" OUTPUT_VARIABLE out ERROR_VARIABLE out
                RESULT_VARIABLE rc)
message("${out}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the C++ template breaks the adapter conventions on the fuzz corpus (exit ${rc})")
endif()
