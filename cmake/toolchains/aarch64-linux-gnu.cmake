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

set(AESKIT_CROSS_QEMU qemu-aarch64;-cpu;max)
include(${CMAKE_CURRENT_LIST_DIR}/linux-gnu-common.cmake)
