# What `aeskit vectors` runs, as static libraries of tools code that the
# command, the tests (tests/kat, tests/diff) and the fuzz targets (fuzz/)
# link -- the tool links no test code:
#   aeskit_vectors_lib   drive*.c, the mode driver, one entry per mode
#                        (drive.h); kat_vectors.c, the built-in known answers
#                        (data, sources named); kat_run.c, their runner
#   aeskit_vectors_json  wycheproof.c, the Wycheproof JSON runner (vectors.h)
#                        on the mode driver, with cJSON when found
# Included from tools/vectors, tests and fuzz; defined once.
# Adding a mode: its drive_<mode>.c in the list below (see drive.h).
if(NOT TARGET aeskit_vectors_lib)
  # cJSON (Debian: libcjson-dev).  AUTO: used when found natively; a cross
  # build does not pick up the host's copy unless AESKIT_WITH_CJSON=ON, nor
  # does a MemorySanitizer build (Debian's cJSON is not instrumented: MSan
  # would report its writes as uninitialised memory).  Without it the tool
  # refuses JSON files with a clear message; --builtin still works.
  set(AESKIT_WITH_CJSON AUTO CACHE STRING "Use cJSON for aeskit vectors: AUTO, ON or OFF")
  set(AESKIT_CJSON_LINK "")
  if(AESKIT_WITH_CJSON STREQUAL "ON" OR
     (AESKIT_WITH_CJSON STREQUAL "AUTO" AND NOT CMAKE_CROSSCOMPILING
      AND NOT AESKIT_SANITIZE MATCHES "memory"))
    find_package(PkgConfig QUIET)
    if(PKG_CONFIG_FOUND)
      pkg_check_modules(AESKIT_CJSON QUIET IMPORTED_TARGET GLOBAL libcjson)
    endif()
    if(AESKIT_CJSON_FOUND)
      set(AESKIT_CJSON_LINK PkgConfig::AESKIT_CJSON)
    else()
      find_path(AESKIT_CJSON_INCLUDE_DIR cJSON.h PATH_SUFFIXES cjson)
      find_library(AESKIT_CJSON_LIBRARY cjson)
      if(AESKIT_CJSON_INCLUDE_DIR AND AESKIT_CJSON_LIBRARY)
        add_library(aeskit_cjson INTERFACE)
        target_include_directories(aeskit_cjson INTERFACE ${AESKIT_CJSON_INCLUDE_DIR})
        target_link_libraries(aeskit_cjson INTERFACE ${AESKIT_CJSON_LIBRARY})
        set(AESKIT_CJSON_LINK aeskit_cjson)
      endif()
    endif()
  endif()
  if(AESKIT_CJSON_LINK)
    message(STATUS "aeskit vectors: reading Wycheproof JSON with cJSON")
  elseif(AESKIT_WITH_CJSON STREQUAL "ON")
    message(FATAL_ERROR "AESKIT_WITH_CJSON=ON but cJSON was not found (Debian: libcjson-dev)")
  else()
    message(STATUS "aeskit vectors: cJSON not found/used, JSON files will be refused (--builtin works)")
  endif()

  add_library(aeskit_vectors_lib STATIC
    ${CMAKE_CURRENT_LIST_DIR}/drive.c
    ${CMAKE_CURRENT_LIST_DIR}/drive_aead.c
    ${CMAKE_CURRENT_LIST_DIR}/drive_block.c
    ${CMAKE_CURRENT_LIST_DIR}/drive_ccm.c
    ${CMAKE_CURRENT_LIST_DIR}/drive_cfb.c
    ${CMAKE_CURRENT_LIST_DIR}/drive_ctr.c
    ${CMAKE_CURRENT_LIST_DIR}/drive_cts.c
    ${CMAKE_CURRENT_LIST_DIR}/drive_gcm.c
    ${CMAKE_CURRENT_LIST_DIR}/drive_kw.c
    ${CMAKE_CURRENT_LIST_DIR}/drive_mac.c
    ${CMAKE_CURRENT_LIST_DIR}/drive_siv.c
    ${CMAKE_CURRENT_LIST_DIR}/drive_xaes.c
    ${CMAKE_CURRENT_LIST_DIR}/drive_xts.c
    ${CMAKE_CURRENT_LIST_DIR}/kat_vectors.c
    ${CMAKE_CURRENT_LIST_DIR}/kat_run.c)
  target_include_directories(aeskit_vectors_lib PUBLIC ${CMAKE_CURRENT_LIST_DIR})
  target_link_libraries(aeskit_vectors_lib PUBLIC aeskit_static)

  add_library(aeskit_vectors_json STATIC ${CMAKE_CURRENT_LIST_DIR}/wycheproof.c)
  target_link_libraries(aeskit_vectors_json PUBLIC aeskit_vectors_lib)
  if(AESKIT_CJSON_LINK)
    target_link_libraries(aeskit_vectors_json PRIVATE ${AESKIT_CJSON_LINK})
    target_compile_definitions(aeskit_vectors_json PRIVATE AESKIT_HAVE_CJSON=1)
  endif()
endif()
