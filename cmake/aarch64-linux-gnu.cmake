# Toolchain for the aarch64 preset: Debian's cross compiler (g++-aarch64-linux-gnu), and
# qemu-aarch64 (qemu-user) as the emulator CTest runs every test binary through. binfmt is
# not registered on these machines, so the emulator is named explicitly; -L points it at
# the cross sysroot's dynamic loader and libraries. QEMU_CPU (environment) picks the CPU
# model: unset = qemu's "max" (dotprod, i8mm), cortex-a53 = plain armv8.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64 -L /usr/aarch64-linux-gnu)
