# Cross build for AArch64 Linux (Debian: gcc-aarch64-linux-gnu,
# libc6-dev-arm64-cross, qemu-user).  Tests run under qemu-aarch64 with every
# optional feature of the emulated CPU ("-cpu max": AES, PMULL, SHA3, ...);
# binfmt need not be registered because ctest runs the emulator itself.
#   cmake -S . -B build/cross-aarch64 -G Ninja \
#         -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/aarch64-linux-gnu.cmake
# CC=clang selects clang --target=aarch64-linux-gnu with the same sysroot.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(AESKIT_CROSS_TRIPLE aarch64-linux-gnu)

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
  qemu-aarch64;-cpu;max;-L;/usr/${AESKIT_CROSS_TRIPLE};-E;LD_LIBRARY_PATH=/usr/${AESKIT_CROSS_TRIPLE}/lib)
