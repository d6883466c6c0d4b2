# Cross build for little-endian POWER Linux (Debian: gcc-powerpc64le-linux-gnu,
# libc6-dev-ppc64el-cross, qemu-user).  Tests run under qemu-ppc64le as a
# POWER9 (which has the POWER8 vector crypto the ppc64-p8 backend needs);
# binfmt need not be registered because ctest runs the emulator itself.
#   cmake -S . -B build/cross-ppc64le -G Ninja \
#         -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/powerpc64le-linux-gnu.cmake
# CC=clang selects clang --target=powerpc64le-linux-gnu with the same sysroot.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR ppc64le)
set(AESKIT_CROSS_TRIPLE powerpc64le-linux-gnu)

set(AESKIT_CROSS_QEMU qemu-ppc64le;-cpu;power9)
include(${CMAKE_CURRENT_LIST_DIR}/linux-gnu-common.cmake)
