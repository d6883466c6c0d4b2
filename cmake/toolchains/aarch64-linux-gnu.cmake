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

if(DEFINED ENV{CC} AND "$ENV{CC}" MATCHES "clang")
  set(CMAKE_C_COMPILER clang)
  set(CMAKE_C_COMPILER_TARGET ${AESKIT_CROSS_TRIPLE})
else()
  set(CMAKE_C_COMPILER ${AESKIT_CROSS_TRIPLE}-gcc)
endif()

set(CMAKE_FIND_ROOT_PATH /usr/${AESKIT_CROSS_TRIPLE})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64;-cpu;max;-L;/usr/${AESKIT_CROSS_TRIPLE})
