# Reruns one golden-data generator in Node with --check and fails if the
# committed file(s) in data/golden differ from what the articles' JS produces
# now. Skipped (the message "skipped: ...") when the articles' JavaScript
# folder is not configured (cmake -DRIGIDREF_ARTICLES_JS=<folder>, or the
# environment variable RIGIDREF_ARTICLES_JS at configure time).
# Used by the ctests golden_regenerate (generate.js, the default),
# golden_regenerate_scene_force and golden_regenerate_scene_shape_matching.
#   -DNODE=<node> -DSOURCE_DIR=<repository root> -DARTICLES=<articles' JS folder, may be empty>
#   -DGENERATOR=<file in data/generate>   (default generate.js)
#   -DNEEDS=<article file>,<...>          (what must be in the articles' folder;
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
if(NOT ARTICLES)
  message("skipped: the articles' JavaScript folder is not configured; to rerun the articles' own code, "
          "configure with -DRIGIDREF_ARTICLES_JS=<folder with collision-force.html, BodyForce.js, ...>")
  return()
endif()
get_filename_component(ARTICLES "${ARTICLES}" ABSOLUTE)
string(REPLACE "," ";" NEEDS "${NEEDS}")
foreach(f IN LISTS NEEDS)
  if(NOT EXISTS "${ARTICLES}/${f}")
    message("skipped: ${ARTICLES}/${f} not present")
    return()  # ctest marks the test skipped on this message (SKIP_REGULAR_EXPRESSION)
  endif()
endforeach()
execute_process(COMMAND ${NODE} data/generate/${GENERATOR} --check ${ARTICLES}
                WORKING_DIRECTORY ${SOURCE_DIR} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${GOLDEN} differs from what the articles' JS produces now (see above)")
endif()
