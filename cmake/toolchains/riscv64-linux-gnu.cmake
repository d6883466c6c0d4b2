# Cross build for RISC-V RV64 Linux (Debian: gcc-riscv64-linux-gnu,
# libc6-dev-riscv64-cross, qemu-user), used by scripts/check.d/55-isa.sh for
# the aeskit_isa test: aeskit has no RISC-V hardware backend, so this build
# runs the portable code, and test_isa checks the emulated Zkne/Zknd/Zbc
# instructions (enabled below) against its reference model.
#   cmake -S . -B build/cross-riscv64 -G Ninja \
#         -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/riscv64-linux-gnu.cmake
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR riscv64)
set(AESKIT_CROSS_TRIPLE riscv64-linux-gnu)

set(AESKIT_CROSS_QEMU qemu-riscv64;-cpu;rv64,zbc=true,zkne=true,zknd=true)
include(${CMAKE_CURRENT_LIST_DIR}/linux-gnu-common.cmake)
