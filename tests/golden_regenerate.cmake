# Regenerates data/golden from ../shared/articles-js and fails if it differs
# from what is committed. Skipped (the message "skipped: ...") where ../shared
# is not present.
get_filename_component(ARTICLES "${SOURCE_DIR}/../shared/articles-js" ABSOLUTE)
if(NOT EXISTS "${ARTICLES}/collision-force.html")
  message("skipped: ${ARTICLES} not present")
  return()  # ctest marks the test skipped on this message (SKIP_REGULAR_EXPRESSION)
endif()
execute_process(COMMAND ${NODE} data/generate/generate.js --check ../shared/articles-js
                WORKING_DIRECTORY ${SOURCE_DIR} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "golden data differs from what the articles' JS produces now (see above)")
endif()
