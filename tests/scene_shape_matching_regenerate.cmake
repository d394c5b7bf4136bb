# Reruns the ShapeMatching scene in Node (data/generate/scene_shape_matching.js
# --check) and fails if data/golden/scene_shape_matching.json differs from what
# the articles' JS produces now. Skipped (the message "skipped: ...") where
# ../shared is not present.
get_filename_component(ARTICLES "${SOURCE_DIR}/../shared/articles-js" ABSOLUTE)
foreach(f collision-shapeMatching.html WorldShapeMatching.js BodyShapeMatching.js mat2.js)
  if(NOT EXISTS "${ARTICLES}/${f}")
    message("skipped: ${ARTICLES}/${f} not present")
    return()  # ctest marks the test skipped on this message (SKIP_REGULAR_EXPRESSION)
  endif()
endforeach()
execute_process(COMMAND ${NODE} data/generate/scene_shape_matching.js --check ../shared/articles-js
                WORKING_DIRECTORY ${SOURCE_DIR} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "data/golden/scene_shape_matching.json differs from what the articles' JS produces now (see above)")
endif()
