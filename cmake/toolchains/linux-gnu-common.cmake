# linux-gnu-common.cmake - the part every cross toolchain file shares.
# The including file sets CMAKE_SYSTEM_NAME, CMAKE_SYSTEM_PROCESSOR,
# AESKIT_CROSS_TRIPLE (e.g. aarch64-linux-gnu) and AESKIT_CROSS_QEMU (the
# emulator and its CPU options as a list, e.g. qemu-aarch64;-cpu;max).

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

# Libraries of the target come from the cross sysroot or, for Debian multiarch
# packages (scripts/deps-cross.sh: libcjson-dev:arm64 ...), from
# /usr/lib/<triple>; the "/" root only ever yields those target directories
# for libraries, since the host's live in /usr/lib/x86_64-linux-gnu.
set(CMAKE_FIND_ROOT_PATH /usr/${AESKIT_CROSS_TRIPLE} /)
set(CMAKE_LIBRARY_ARCHITECTURE ${AESKIT_CROSS_TRIPLE})
# pkg-config must describe the target, never the host (whose .pc files would
# hand the cross compiler x86-64 OpenSSL headers and libraries).
set(ENV{PKG_CONFIG_LIBDIR} /usr/lib/${AESKIT_CROSS_TRIPLE}/pkgconfig:/usr/share/pkgconfig)
set(ENV{PKG_CONFIG_PATH} "")
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# -L makes qemu look for the dynamic loader in the cross sysroot.  Once a
# multiarch package has brought in libc6:<arch> (scripts/deps-cross.sh), the
# loader would find that libc first in /lib/<triple>, a different build from
# the cross loader ("stack smashing detected" at start-up); LD_LIBRARY_PATH
# keeps loader and libc from the same package.
set(CMAKE_CROSSCOMPILING_EMULATOR
  ${AESKIT_CROSS_QEMU};-L;/usr/${AESKIT_CROSS_TRIPLE};-E;LD_LIBRARY_PATH=/usr/${AESKIT_CROSS_TRIPLE}/lib)
