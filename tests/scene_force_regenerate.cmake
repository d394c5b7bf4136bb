# Reruns the Force Based scene in Node (data/generate/scene_force.js --check)
# and fails if data/golden/scene_force.json differs from what the articles'
# JS produces now. Skipped (the message "skipped: ...") where ../shared is not
# present.
get_filename_component(ARTICLES "${SOURCE_DIR}/../shared/articles-js" ABSOLUTE)
if(NOT EXISTS "${ARTICLES}/collision-force.html" OR NOT EXISTS "${ARTICLES}/BodyForce.js")
  message("skipped: ${ARTICLES} not present")
  return()  # ctest marks the test skipped on this message (SKIP_REGULAR_EXPRESSION)
endif()
execute_process(COMMAND ${NODE} data/generate/scene_force.js --check ../shared/articles-js
                WORKING_DIRECTORY ${SOURCE_DIR} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "data/golden/scene_force.json differs from what the articles' JS produces now (see above)")
endif()
