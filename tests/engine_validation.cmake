# ctest script: run an engine adapter on a committed validation case set,
# judge its answers with `rigidref check`, and compare the summary table with
# the committed one in data/validation/results/ (the numbers that
# derivations/engines.md reports). A difference means the engine, the
# reference or the judge changed: look, then update the findings and the file.
# Arguments: -DADAPTER= -DADAPTER_ARGS= -DCLI= -DCASES= -DEXPECTED= -DWORK=
file(MAKE_DIRECTORY "${WORK}")
get_filename_component(name "${EXPECTED}" NAME_WE)
set(answers "${WORK}/${name}.answers.jsonl")
set(summary "${WORK}/${name}.summary.txt")
separate_arguments(adapter_args UNIX_COMMAND "${ADAPTER_ARGS}")
execute_process(COMMAND "${ADAPTER}" ${adapter_args} INPUT_FILE "${CASES}" OUTPUT_FILE "${answers}"
                ERROR_VARIABLE adapter_err RESULT_VARIABLE adapter_rc)
# Exit status 3: a JavaScript adapter whose engines are not installed (its
# wrapper says to run bash tools/deps.sh); reported as skipped.
if(adapter_rc EQUAL 3)
  message(STATUS "skipped: ${adapter_err}")
  return()
endif()
if(NOT adapter_rc EQUAL 0)
  message(FATAL_ERROR "adapter ${ADAPTER} failed (${adapter_rc}): ${adapter_err}")
endif()
execute_process(COMMAND "${CLI}" check --results "${answers}" --worst 0 OUTPUT_FILE "${summary}"
                RESULT_VARIABLE check_rc)
if(NOT (check_rc EQUAL 0 OR check_rc EQUAL 1))
  message(FATAL_ERROR "rigidref check failed to run (exit ${check_rc})")
endif()
file(READ "${summary}" got)
file(READ "${EXPECTED}" want)
if(NOT got STREQUAL want)
  message(FATAL_ERROR "the summary of ${name} changed.\n--- committed (${EXPECTED}):\n${want}\n"
                      "--- now (${summary}):\n${got}")
endif()
message(STATUS "${name}: summary as committed")
