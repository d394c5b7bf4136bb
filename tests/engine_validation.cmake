# ctest script: run an engine adapter on a committed validation case set,
# judge its answers with `rigidref check`, and compare the summary table with
# the committed one in data/validation/results/ (the numbers that
# derivations/engines.md reports). A difference means the engine, the
# reference or the judge changed: look, then update the findings and the file.
# For a dynamics set (EXPECTED named *-dynamics.txt) the per-case law records
# of `rigidref check --dynamics-out` are compared too, with the committed
# <name>.jsonl next to the summary (the report's dynamics section reads it);
# for the scenes set (*-scenes.txt) those of `rigidref check --scenes-out`
# (the report's scene section).
# With the environment variable RIGIDREF_REGENERATE=1 the summary and the
# records written now replace the committed ones instead of being compared
# (tools/engine_results.sh; review the diff before committing it).
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
set(records_args "")
set(records_kind "")
if(name MATCHES "-dynamics$")
  set(records_kind dynamics)
  set(records_args --dynamics-out)
  set(table "the engine x law table of derivations/engine_dynamics.md")
elseif(name MATCHES "-scenes$")
  set(records_kind scene)
  set(records_args --scenes-out)
  set(table "README.md's scene table (tools/engine_results.sh rewrites it)")
endif()
if(records_args)
  set(records "${WORK}/${name}.jsonl")
  get_filename_component(expected_dir "${EXPECTED}" DIRECTORY)
  set(expected_records "${expected_dir}/${name}.jsonl")
  list(APPEND records_args "${records}")
endif()
execute_process(COMMAND "${CLI}" check "${answers}" --cases "${CASES}" --worst 0 ${records_args} OUTPUT_FILE "${summary}"
                RESULT_VARIABLE check_rc)
if(NOT (check_rc EQUAL 0 OR check_rc EQUAL 1))
  message(FATAL_ERROR "rigidref check failed to run (exit ${check_rc})")
endif()
if("$ENV{RIGIDREF_REGENERATE}" STREQUAL "1")
  file(COPY_FILE "${summary}" "${EXPECTED}")
  set(written "${EXPECTED}")
  if(records_args)
    file(COPY_FILE "${records}" "${expected_records}")
    string(APPEND written " and ${expected_records}")
  endif()
  message(STATUS "${name}: regenerated ${written}")
  return()
endif()
file(READ "${summary}" got)
file(READ "${EXPECTED}" want)
if(NOT got STREQUAL want)
  message(FATAL_ERROR "the summary of ${name} changed.\n--- committed (${EXPECTED}):\n${want}\n"
                      "--- now (${summary}):\n${got}")
endif()
if(records_args)
  if(NOT EXISTS "${expected_records}")
    message(FATAL_ERROR "the ${records_kind} records ${expected_records} are not committed; the ones written now "
                        "are ${records}: review them and copy them there")
  endif()
  file(READ "${records}" got_records)
  file(READ "${expected_records}" want_records)
  if(NOT got_records STREQUAL want_records)
    # The first differences, where a diff program is at hand.
    find_program(DIFF diff)
    set(differences "")
    if(DIFF)
      execute_process(COMMAND "${DIFF}" "${expected_records}" "${records}" OUTPUT_VARIABLE differences)
      string(LENGTH "${differences}" length)
      if(length GREATER 3000)
        string(SUBSTRING "${differences}" 0 3000 differences)
        string(APPEND differences "\n[...]")
      endif()
    endif()
    message(FATAL_ERROR "the ${records_kind} records of ${name} are stale: ${expected_records} (committed) differs from "
                        "${records} (now).\n${differences}\nReview the change, then copy the new file over the "
                        "committed one and update ${table}.")
  endif()
  message(STATUS "${name}: ${records_kind} records as committed")
endif()
message(STATUS "${name}: summary as committed")
