# ctest script: the committed validation case set is what `rigidref cases`
# writes for its recorded arguments (provenance of data/validation/*.jsonl).
# Arguments: -DCLI= -DSET= -DCOUNT= -DSEED= -DCOMMITTED= -DWORK=
file(MAKE_DIRECTORY "${WORK}")
set(fresh "${WORK}/${SET}.jsonl")
execute_process(COMMAND "${CLI}" cases --set ${SET} --count ${COUNT} --seed ${SEED} OUTPUT_FILE "${fresh}"
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "rigidref cases failed (${rc})")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files "${fresh}" "${COMMITTED}" RESULT_VARIABLE differ)
if(differ)
  message(FATAL_ERROR "${COMMITTED} differs from `rigidref cases --set ${SET} --count ${COUNT} --seed ${SEED}`")
endif()
