# Cross build for IBM Z (s390x) Linux, a big-endian 64-bit target with no
# aeskit hardware backend: it exists to prove the generic backend and the
# mode code are free of byte-order assumptions (issue 5).  Debian:
# gcc-s390x-linux-gnu, libc6-dev-s390x-cross, qemu-user.
#   cmake -S . -B build/cross-s390x -G Ninja \
#         -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/s390x-linux-gnu.cmake
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR s390x)
set(AESKIT_CROSS_TRIPLE s390x-linux-gnu)

set(AESKIT_CROSS_QEMU qemu-s390x)
include(${CMAKE_CURRENT_LIST_DIR}/linux-gnu-common.cmake)
