# Reruns one golden-data generator in Node with --check and fails if the
# committed file(s) in data/golden differ from what the articles' JS produces
# now. Skipped (the message "skipped: ...") where ../shared is not present.
# Used by the ctests golden_regenerate (generate.js, the default),
# golden_regenerate_scene_force and golden_regenerate_scene_shape_matching.
#   -DNODE=<node> -DSOURCE_DIR=<repository root>
#   -DGENERATOR=<file in data/generate>   (default generate.js)
#   -DNEEDS=<article file>,<...>          (what must be in ../shared/articles-js;
#                                          default collision-force.html)
#   -DGOLDEN=<what is compared, for the failure message> (default: golden data)
if(NOT GENERATOR)
  set(GENERATOR generate.js)
endif()
if(NOT NEEDS)
  set(NEEDS collision-force.html)
endif()
if(NOT GOLDEN)
  set(GOLDEN "golden data")
endif()
get_filename_component(ARTICLES "${SOURCE_DIR}/../shared/articles-js" ABSOLUTE)
string(REPLACE "," ";" NEEDS "${NEEDS}")
foreach(f IN LISTS NEEDS)
  if(NOT EXISTS "${ARTICLES}/${f}")
    message("skipped: ${ARTICLES}/${f} not present")
    return()  # ctest marks the test skipped on this message (SKIP_REGULAR_EXPRESSION)
  endif()
endforeach()
execute_process(COMMAND ${NODE} data/generate/${GENERATOR} --check ../shared/articles-js
                WORKING_DIRECTORY ${SOURCE_DIR} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${GOLDEN} differs from what the articles' JS produces now (see above)")
endif()
