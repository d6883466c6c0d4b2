# Cross build for IBM Z (s390x) Linux, a big-endian 64-bit target with no
# aeskit hardware backend: it exists to prove the generic backend and the
# mode code are free of byte-order assumptions (issue 5).  Debian:
# gcc-s390x-linux-gnu, libc6-dev-s390x-cross, qemu-user.
#   cmake -S . -B build/cross-s390x -G Ninja \
#         -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/s390x-linux-gnu.cmake
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR s390x)
set(AESKIT_CROSS_TRIPLE s390x-linux-gnu)

# The choice is made once, from CC at the first configure, and kept in the
# cache: re-configures started by the build itself run without CC.
if(NOT AESKIT_CROSS_CC)
  if("$ENV{CC}" MATCHES "clang")
    set(AESKIT_CROSS_CC clang CACHE STRING "Compiler of this cross build (gcc or clang)")
  else()
    set(AESKIT_CROSS_CC gcc CACHE STRING "Compiler of this cross build (gcc or clang)")
  endif()
endif()
if(AESKIT_CROSS_CC STREQUAL "clang")
  set(CMAKE_C_COMPILER clang)
  set(CMAKE_C_COMPILER_TARGET ${AESKIT_CROSS_TRIPLE})
else()
  set(CMAKE_C_COMPILER ${AESKIT_CROSS_TRIPLE}-gcc)
endif()

# See aarch64-linux-gnu.cmake for the search roots and pkg-config.
set(CMAKE_FIND_ROOT_PATH /usr/${AESKIT_CROSS_TRIPLE} /)
set(CMAKE_LIBRARY_ARCHITECTURE ${AESKIT_CROSS_TRIPLE})
set(ENV{PKG_CONFIG_LIBDIR} /usr/lib/${AESKIT_CROSS_TRIPLE}/pkgconfig:/usr/share/pkgconfig)
set(ENV{PKG_CONFIG_PATH} "")
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

set(CMAKE_CROSSCOMPILING_EMULATOR
  qemu-s390x;-L;/usr/${AESKIT_CROSS_TRIPLE};-E;LD_LIBRARY_PATH=/usr/${AESKIT_CROSS_TRIPLE}/lib)
