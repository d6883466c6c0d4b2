# Cross build for RISC-V RV64 Linux (Debian: gcc-riscv64-linux-gnu,
# libc6-dev-riscv64-cross, qemu-user).  Tests run under qemu-riscv64 with
# the scalar crypto extensions Zkne/Zknd and Zbc on, so the riscv64-zkn
# backend can run; qemu-user 7.2 has no riscv_hwprobe, so the library sees
# them only when the build targets them:
#   cmake -S . -B build/cross-riscv64 -G Ninja \
#         -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/riscv64-linux-gnu.cmake \
#         [-DCMAKE_C_FLAGS=-march=rv64gc_zkne_zknd_zbkc]
# Without -march the backend is built but reports "no (CPU)", and the suite
# runs on generic (scripts/check.d/30-cross.sh runs both builds).
# -DAESKIT_RISCV_QEMU_CPU=rv64 emulates a CPU without the extensions.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR riscv64)
set(AESKIT_CROSS_TRIPLE riscv64-linux-gnu)

if(NOT AESKIT_RISCV_QEMU_CPU)
  set(AESKIT_RISCV_QEMU_CPU "rv64,zbc=true,zkne=true,zknd=true")
endif()
set(AESKIT_RISCV_QEMU_CPU "${AESKIT_RISCV_QEMU_CPU}" CACHE STRING "qemu-riscv64 -cpu of the tests")
set(AESKIT_CROSS_QEMU qemu-riscv64;-cpu;${AESKIT_RISCV_QEMU_CPU})
include(${CMAKE_CURRENT_LIST_DIR}/linux-gnu-common.cmake)
