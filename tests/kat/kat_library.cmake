# The known-answer vectors and their runner, as a static library shared by
# the KAT test (tests/kat) and `aeskit vectors --builtin` (tools/vectors).
# Included from both places; defined once.
if(NOT TARGET aeskit_kat)
  add_library(aeskit_kat STATIC
    ${CMAKE_CURRENT_LIST_DIR}/kat_vectors.c
    ${CMAKE_CURRENT_LIST_DIR}/kat_run.c)
  target_include_directories(aeskit_kat PUBLIC ${CMAKE_CURRENT_LIST_DIR})
  target_link_libraries(aeskit_kat PUBLIC aeskit_static)
endif()
