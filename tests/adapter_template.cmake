# ctest script: a template adapter of tools/adapters/templates/ (docs/adapters.md)
# as shipped answers the mass set with its stand-in engine, and rigidref check
# passes it with no case skipped; on the collision set it answers every case
# "unsupported", and check --max-skipped 0.5 fails it for that alone, so a
# template that skips everything cannot pass.
# Arguments: -DADAPTER="program;args..." -DCLI= -DSOURCE_DIR= -DWORK= -DNAME=
#            -DMISSING=<why the adapter cannot run here> (then: skipped)
# install_template.cmake includes it after building the C++ template.
if(MISSING)
  message(STATUS "skipped: ${MISSING}")
  return()
endif()
file(MAKE_DIRECTORY "${WORK}")

# Runs the adapter on a case set, then check with the further arguments as
# options; sets <out_name>_rc and <out_name>_out in the caller.
function(check_template set_name out_name)
  set(cases "${SOURCE_DIR}/data/validation/${set_name}.jsonl")
  set(answers "${WORK}/${NAME}-${set_name}.answers.jsonl")
  execute_process(COMMAND ${ADAPTER} INPUT_FILE "${cases}" OUTPUT_FILE "${answers}" ERROR_VARIABLE adapter_err
                  RESULT_VARIABLE adapter_rc)
  if(NOT adapter_rc EQUAL 0)
    message(FATAL_ERROR "${NAME} on ${set_name}.jsonl: exit ${adapter_rc}: ${adapter_err}")
  endif()
  execute_process(COMMAND "${CLI}" check "${answers}" --cases "${cases}" --worst 3 ${ARGN}
                  OUTPUT_VARIABLE out ERROR_QUIET RESULT_VARIABLE rc)
  string(JOIN " " options ${ARGN})
  message("--- ${NAME} on ${set_name}.jsonl, rigidref check ${options}: exit ${rc}\n${out}")
  set(${out_name}_rc "${rc}" PARENT_SCOPE)
  set(${out_name}_out "${out}" PARENT_SCOPE)
endfunction()

# The mass set: every case answered, judged and passed, none skipped.
check_template(mass mass --max-skipped 0)
if(NOT mass_rc EQUAL 0)
  message(FATAL_ERROR "${NAME}: rigidref check --max-skipped 0 on the mass set exited ${mass_rc}, expected 0")
endif()
file(STRINGS "${SOURCE_DIR}/data/validation/mass.jsonl" mass_cases)
list(LENGTH mass_cases mass_count)
if(NOT mass_out MATCHES "mass\\.polygon: ${mass_count} answered, ${mass_count} judged, 0 skipped" OR
   NOT mass_out MATCHES "${mass_count} cases in the set, ${mass_count} answered, 0 without an answer")
  message(FATAL_ERROR "${NAME}: the ${mass_count} cases of the mass set were not all answered and judged")
endif()

# The collision set: all skipped, which fails once at most half may be
# skipped (exit 1), for that reason alone: the two failures counted are the
# two ops over --max-skipped, no case failed and none is without an answer.
check_template(collision skip_bounded --max-skipped 0.5)
if(NOT skip_bounded_rc EQUAL 1)
  message(FATAL_ERROR "${NAME}: on the collision set (all unsupported) check --max-skipped 0.5 exited "
                      "${skip_bounded_rc}, expected 1")
endif()
foreach(op gjk.distance epa.penetration)
  string(REPLACE "." "\\." op_re "${op}")
  if(NOT skip_bounded_out MATCHES "${op_re}: [0-9]+ answered, 0 judged, [0-9]+ skipped \\(100\\.0 %\\): more than --max-skipped 0\\.5 \\(a failure\\)")
    message(FATAL_ERROR "${NAME}: ${op} was not failed for skipping every case")
  endif()
endforeach()
if(NOT skip_bounded_out MATCHES "\n[0-9]+ lines, 2 failing\n")
  message(FATAL_ERROR "${NAME}: on the collision set more failed than the two ops that skipped everything")
endif()
message(STATUS "${NAME}: the mass set passes with nothing skipped; skipping the collision set fails --max-skipped 0.5")
