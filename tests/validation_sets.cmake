# ctest script: the committed validation case set is what the README's
# command writes, `rigidref cases --set <set>` with no other argument (the
# set's default count and seed), byte for byte (provenance of
# data/validation/*.jsonl).
# Arguments: -DCLI= -DSET= -DCOMMITTED= -DWORK=
file(MAKE_DIRECTORY "${WORK}")
set(fresh "${WORK}/${SET}.jsonl")
execute_process(COMMAND "${CLI}" cases --set ${SET} OUTPUT_FILE "${fresh}" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "rigidref cases failed (${rc})")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files "${fresh}" "${COMMITTED}" RESULT_VARIABLE differ)
if(differ)
  message(FATAL_ERROR "${COMMITTED} differs from `rigidref cases --set ${SET}` (regenerate it with "
                      "`build/tools/rigidref cases --set ${SET} > data/validation/${SET}.jsonl`)")
endif()
