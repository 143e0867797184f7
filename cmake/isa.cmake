# The ISA table. Each row: name | architecture | compiler flags (comma-separated) | emulable
# through SIMDe | optional source stem (default: the name).
#
# xsimd rows compile one portable source per op, kernels/<op>/xsimd.cpp, once per xsimd
# architecture (each with that ISA's flags, in its own namespace); the `xsimd` row compiles
# the same file without ISA flags as the xsimd::dispatch front end over the rows built here.
# An arch column may list several architectures (x86/arm).
#
# Only kernels/<op>/<isa>.cpp files are compiled with an ISA's flags, each ISA into its own
# object library and its own namespace (nnuelab::<isa>, passed as NNUELAB_ISA_NS), so no
# inline function compiled for AVX2 can be merged into code that runs on an older CPU.
# An emulable ISA that this machine's target cannot build natively (or any emulable ISA,
# for AVX-512 on an AVX2 machine) is compiled a second time, without ISA flags, against
# SIMDe's native aliases into nnuelab::<isa>_emu; the registry lists it as <isa>-emu.
include(CheckCXXCompilerFlag)

set(_avx2 "-mavx2,-mbmi,-mbmi2,-mfma,-mpopcnt")
set(_avx512bw "${_avx2},-mavx512f,-mavx512bw,-mavx512vl,-mavx512dq")
#            name          arch  flags                                          emulable
set(NNUELAB_ISA_TABLE
  "scalar|any||0"
  "sse2|x86|-msse2|0"
  "ssse3|x86|-mssse3|0"
  "sse41|x86|-msse4.1|0"
  "avx2|x86|${_avx2}|0"
  "avx512bw|x86|${_avx512bw}|1"
  "avx512vnni|x86|${_avx512bw},-mavx512vnni|1"
  "avx512vbmi2|x86|${_avx512bw},-mavx512vnni,-mavx512vbmi2|1"
  "avxvnni|x86|${_avx2},-mavxvnni|1"
  "neon|arm||1"
  "neon-dotprod|arm|-march=armv8.2-a+dotprod|1"
  "neon-i8mm|arm|-march=armv8.2-a+dotprod+i8mm|1"
  "xsimd-sse41|x86|-msse4.1|0|xsimd"
  "xsimd-avx2|x86|${_avx2}|0|xsimd"
  "xsimd-neon|arm||0|xsimd"
  "xsimd|x86/arm||0|xsimd"
)

if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$")
  set(NNUELAB_ARCH x86)
elseif(CMAKE_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64|ARM64)$")
  set(NNUELAB_ARCH arm)
else()
  set(NNUELAB_ARCH other)
endif()

# Intel's JCC erratum (Skylake to Cascade Lake, with the 2019 microcode that fixes it): a
# jump, or a macro-fused compare and jump, that crosses or ends on a 32-byte boundary is
# not kept in the decoded-uop cache, so a small loop whose jump sits there runs from the
# legacy decoders. Which loop that hits moves with every unrelated edit. On a Cascade Lake
# VM (2026-11-26) an edit that added one instruction before the 16-output chunk loop of
# avx2/sparse_blocked4_lut_acc1 left that loop's jne ending on a 32-byte boundary; the
# variant's 1536x16 calls took 4-15% longer in two A/B runs while its 32-output loop, one
# instruction longer as well but clear of the boundary, got 8% faster.
# With this option the assembler keeps every jump clear of the boundaries (prefixes
# first, nops where none fit), in every object of the build, the benchmark harness's
# timing loops included.
# On by default since 2026-11-27: on the same VM an edit that kept the sparse kernels'
# tile addresses in base registers (kernels/common/isa.h, in_register) made most AVX2
# sparse calls 3-15% faster, but without this option the 16-output loops of lut_acc1 and
# lut_x2 drew boundary jumps again and lost 6-15%; with it all but one gained 3-18%
# (README, Cascade Lake findings). A lab that compares variants cannot let an unrelated
# edit move a variant by 15% on a whole family of Intel cores. The cost is padding: the
# gate counts +2-4% instructions per call on the small activation calls, and prefixes or
# nops on AMD cores, which do not have the erratum. -DNNUELAB_JCC_ALIGN=OFF turns it off
# (the benchmark context's nnuelab_cxx_flags says which build a result came from).
option(NNUELAB_JCC_ALIGN "x86: keep jumps off 32-byte boundaries (Intel JCC erratum)" ON)
if(NNUELAB_JCC_ALIGN AND NNUELAB_ARCH STREQUAL "x86")
  if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    set(_jcc_flag -mbranches-within-32B-boundaries)
  else()
    set(_jcc_flag -Wa,-mbranches-within-32B-boundaries)
  endif()
  check_cxx_compiler_flag("${_jcc_flag}" NNUELAB_HAVE_JCC_FLAG)
  if(NNUELAB_HAVE_JCC_FLAG)
    add_compile_options(${_jcc_flag})
    set(NNUELAB_JCC_FLAGS ${_jcc_flag})
  else()
    message(WARNING "the compiler or assembler lacks ${_jcc_flag}: jumps are not kept off 32-byte boundaries")
  endif()
endif()

# Loop heads on 32-byte boundaries (x86). Where the linker happens to place a short hot
# loop decides how many 64-byte lines of the op cache one iteration spans: the naive
# ft_refresh form's inner loop (load, vpaddw, store, add, cmp, jg: 23 bytes) landed across a
# 64-byte line in the 2026-12-03 build and ran 1.6x slower on the Zen 3 than the same
# instructions aligned (1,440 against 880 ns per 1024x30 call with L2-hot rows), which
# made the register-tiled form look 1.7x faster than naive there, against 1.2x with the
# loops aligned (docs/findings/zen3.md).
# Aligned to 32, a loop of up to 32 bytes stays on one line. The cost: a few nops before
# each loop, run once per entry (the gate counts them). -DNNUELAB_LOOP_ALIGN=OFF turns it
# off (nnuelab_cxx_flags in the benchmark context says which build a result came from).
option(NNUELAB_LOOP_ALIGN "x86: align loop heads to 32 bytes (-falign-loops=32)" ON)
if(NNUELAB_LOOP_ALIGN AND NNUELAB_ARCH STREQUAL "x86")
  check_cxx_compiler_flag(-falign-loops=32 NNUELAB_HAVE_ALIGN_LOOPS)
  if(NNUELAB_HAVE_ALIGN_LOOPS)
    add_compile_options(-falign-loops=32)
    set(NNUELAB_LOOP_ALIGN_FLAGS -falign-loops=32)
  else()
    message(WARNING "the compiler lacks -falign-loops=32: loop heads are not aligned")
  endif()
endif()

find_path(NNUELAB_SIMDE_INCLUDE simde/simde-common.h)
if(NNUELAB_EMULATION AND NOT NNUELAB_SIMDE_INCLUDE)
  message(WARNING "SIMDe not found (Debian: libsimde-dev): -emu variants are not built")
endif()

# xsimd (Debian libxsimd-dev: header-only, arch-independent). Copied into the build tree so
# a cross build can use it without -I/usr/include (which would pull in the host's headers).
find_path(NNUELAB_XSIMD_SOURCE xsimd/xsimd.hpp PATHS /usr/include NO_CMAKE_FIND_ROOT_PATH)
if(NNUELAB_XSIMD_SOURCE)
  set(NNUELAB_XSIMD_INCLUDE ${PROJECT_BINARY_DIR}/third_party/xsimd-include)
  file(COPY ${NNUELAB_XSIMD_SOURCE}/xsimd DESTINATION ${NNUELAB_XSIMD_INCLUDE})
else()
  message(WARNING "xsimd not found (Debian: libxsimd-dev): xsimd variants are not built")
endif()

# NNUELAB_NATIVE_ISAS: "all" builds every ISA of the target architecture natively (as far
# as the compiler allows); "host" only those whose instructions the build machine's CPU
# has (its /proc/cpuinfo flags). Code this CPU cannot execute cannot be tested on it: the
# asan-ubsan preset uses "host" (on an AVX2 machine its native AVX-512 objects were 170 s
# of compile time that no test could run), while the -emu builds still cover every
# emulable ISA. A cross build, or a machine without /proc/cpuinfo, builds all.
set(NNUELAB_NATIVE_ISAS all CACHE STRING "Native ISA builds: all | host (only what this CPU runs)")
set_property(CACHE NNUELAB_NATIVE_ISAS PROPERTY STRINGS all host)
if(NOT NNUELAB_NATIVE_ISAS MATCHES "^(all|host)$")
  message(FATAL_ERROR "NNUELAB_NATIVE_ISAS must be all or host, not '${NNUELAB_NATIVE_ISAS}'")
endif()
set(_host_cpu_flags "")
if(NNUELAB_NATIVE_ISAS STREQUAL "host")
  if(CMAKE_CROSSCOMPILING OR NOT EXISTS /proc/cpuinfo)
    message(WARNING "NNUELAB_NATIVE_ISAS=host: no /proc/cpuinfo of the target here; building all")
  else()
    file(STRINGS /proc/cpuinfo _cpuinfo REGEX "^(flags|Features)[ \t]*:" LIMIT_COUNT 1)
    string(REGEX REPLACE "^[^:]*:" "" _host_cpu_flags "${_cpuinfo}")
    separate_arguments(_host_cpu_flags UNIX_COMMAND "${_host_cpu_flags}")
  endif()
endif()

# Whether the host CPU runs code compiled with `flags` (always true unless the mode is
# "host" and /proc/cpuinfo was read). A compiler flag names a cpuinfo flag: -mavx2 ->
# avx2, with the spellings that differ listed; armv8.2-a extensions -> their Features.
function(_nnuelab_host_runs flags out)
  set(${out} 1 PARENT_SCOPE)
  if(NOT _host_cpu_flags)
    return()
  endif()
  set(_need "")
  foreach(f IN LISTS flags)
    if(f MATCHES "^-march=armv8[.0-9]*-a(.*)$")
      string(REPLACE "+" ";" _ext "${CMAKE_MATCH_1}")
      foreach(e IN LISTS _ext)
        if(e STREQUAL "dotprod")
          list(APPEND _need asimddp)
        elseif(e)
          list(APPEND _need ${e})
        endif()
      endforeach()
    elseif(f MATCHES "^-m(.*)$")
      set(_m ${CMAKE_MATCH_1})
      if(_m STREQUAL "sse4.1")
        set(_m sse4_1)
      elseif(_m STREQUAL "bmi")
        set(_m bmi1)
      elseif(_m STREQUAL "avx512vnni")
        set(_m avx512_vnni)
      elseif(_m STREQUAL "avx512vbmi2")
        set(_m avx512_vbmi2)
      elseif(_m STREQUAL "avxvnni")
        set(_m avx_vnni)
      endif()
      list(APPEND _need ${_m})
    endif()
  endforeach()
  foreach(n IN LISTS _need)
    if(NOT n IN_LIST _host_cpu_flags)
      set(${out} 0 PARENT_SCOPE)
      return()
    endif()
  endforeach()
endfunction()

set(NNUELAB_GENERATED_DIR ${PROJECT_BINARY_DIR}/generated)
set(NNUELAB_ISA_OBJECTS "")
set(NNUELAB_BUILT_ISAS "")
set(_config "// Generated by cmake/isa.cmake: which ISA builds exist in this configuration.\n#pragma once\n")
string(APPEND _config "#define NNUELAB_COMPILER \"${CMAKE_CXX_COMPILER_ID} ${CMAKE_CXX_COMPILER_VERSION}\"\n")
string(APPEND _config "#define NNUELAB_BUILD_TYPE \"${CMAKE_BUILD_TYPE}\"\n")
string(APPEND _config "#define NNUELAB_CXX_FLAGS \"${CMAKE_CXX_FLAGS} ${CMAKE_CXX_FLAGS_${CMAKE_BUILD_TYPE}} ${NNUELAB_JCC_FLAGS} ${NNUELAB_LOOP_ALIGN_FLAGS}\"\n")
# The emulated objects' own level (NNUELAB_EMU_OPT, below), so that an "emulated" timing's
# JSON says what its objects were built with (context nnuelab_emu_opt).
string(APPEND _config "#define NNUELAB_EMU_OPT_FLAGS \"${NNUELAB_EMU_OPT}\"\n")
set(_flag_rows "")
set(_any_emu 0)

function(_nnuelab_isa_object isa ns flags emulated stem)
  file(GLOB _src CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/kernels/*/${stem}.cpp)
  if(NOT _src)
    return()
  endif()
  set(_target nnuelab_isa_${ns})
  add_library(${_target} OBJECT ${_src})
  target_include_directories(${_target} PRIVATE ${PROJECT_SOURCE_DIR} ${NNUELAB_GENERATED_DIR})
  target_compile_definitions(${_target} PRIVATE NNUELAB_ISA_NS=${ns} NNUELAB_EMULATED=${emulated}
                             NNUELAB_ISA_${ns}=1)
  if(stem STREQUAL "xsimd")
    target_include_directories(${_target} SYSTEM PRIVATE ${NNUELAB_XSIMD_INCLUDE})
  endif()
  target_compile_options(${_target} PRIVATE ${flags})
  # The header every file of the object reads first, precompiled once per object: SIMDe's
  # AVX-512 and NEON headers in an emulated object (about 2.6 s of GCC's time per file, 38
  # files), xsimd in an xsimd one (about 2.5 s per file on x86, 5 s per file for aarch64, 32
  # to 48 files). Native objects read only <immintrin.h> or <arm_neon.h>: nothing to gain.
  if(NNUELAB_PCH)
    if(emulated)
      target_precompile_headers(${_target} PRIVATE ${PROJECT_SOURCE_DIR}/kernels/common/isa.h)
    elseif(stem STREQUAL "xsimd")
      target_precompile_headers(${_target} PRIVATE ${PROJECT_SOURCE_DIR}/kernels/common/xsimd_arch.h)
    endif()
  endif()
  # GCC 12's avx512fintrin.h self-initialises a variable in _mm512_undefined_*(), which
  # -Wmaybe-uninitialized reports at every use; the warning says nothing about our code.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND isa MATCHES "^avx512")
    target_compile_options(${_target} PRIVATE -Wno-maybe-uninitialized)
  endif()
  if(emulated)
    target_include_directories(${_target} SYSTEM PRIVATE ${NNUELAB_SIMDE_INCLUDE})
    # SIMDe's 256/512-bit types are plain vector types here; GCC warns that passing them
    # without AVX changes the ABI. They never cross this object's boundary (all inline).
    target_compile_options(${_target} PRIVATE -Wno-psabi)
    # Their own optimization level (NNUELAB_EMU_OPT, after the build type's, so it wins):
    # they are timed only as "emulated" and exist to run the ISA's code through SIMDe, and
    # GCC 12's -O3 spent 3x its -O2 time on SIMDe's lane loops (avx512bw-emu affine, the
    # largest object: 95 s at -O3, 31 s at -O2, Zen 3 VM 2026-11-28) for no test's benefit.
    if(NNUELAB_EMU_OPT)
      target_compile_options(${_target} PRIVATE ${NNUELAB_EMU_OPT})
    endif()
    # In the asan-ubsan preset (libFuzzer coverage on the whole library): no comparison
    # tracing in the emulated kernels, whose SIMDe fallbacks are mostly loops over lanes
    # (a callback per compare, guiding no fuzzer). The edge counters stay, so the fuzzers
    # still see these kernels' paths.
    if(CMAKE_CXX_FLAGS MATCHES "fuzzer-no-link")
      target_compile_options(${_target} PRIVATE -fno-sanitize-coverage=trace-cmp)
    endif()
  endif()
  # (Without the precompiled header, which CMake lists among the target's objects for GCC.)
  set(NNUELAB_ISA_OBJECTS ${NNUELAB_ISA_OBJECTS} "$<FILTER:$<TARGET_OBJECTS:${_target}>,EXCLUDE,[.](gch|pch)$>"
      PARENT_SCOPE)
endfunction()

foreach(row IN LISTS NNUELAB_ISA_TABLE)
  string(REPLACE "|" ";" row "${row}")
  list(GET row 0 isa)
  list(GET row 1 arch)
  list(GET row 2 flags)
  list(GET row 3 emulable)
  set(stem ${isa})
  list(LENGTH row _cols)
  if(_cols GREATER 4)
    list(GET row 4 stem)
  endif()
  string(REPLACE "/" ";" arch "${arch}")
  string(REPLACE "," ";" flags "${flags}")
  string(REPLACE "-" "_" ns "${isa}")
  set(native 0)
  set(emu 0)
  if(arch STREQUAL "any" OR NNUELAB_ARCH IN_LIST arch)
    set(native 1)
    if(stem STREQUAL "xsimd" AND NOT NNUELAB_XSIMD_INCLUDE)
      set(native 0)
    endif()
    _nnuelab_host_runs("${flags}" _runs)
    if(native AND NOT _runs)
      set(native 0)
      list(APPEND NNUELAB_HOST_SKIPPED_ISAS ${isa})
    endif()
    foreach(f IN LISTS flags)
      if(NOT native)
        break()
      endif()
      string(MAKE_C_IDENTIFIER "NNUELAB_FLAG${f}" _var)
      check_cxx_compiler_flag("${f}" ${_var})
      if(NOT ${_var})
        message(WARNING "compiler lacks ${f}: ISA ${isa} is not built natively")
        set(native 0)
      endif()
    endforeach()
  endif()
  if(emulable AND NNUELAB_EMULATION AND NNUELAB_SIMDE_INCLUDE AND NNUELAB_ARCH STREQUAL "x86")
    set(emu 1)
  endif()
  set(each "")
  if(native)
    _nnuelab_isa_object(${isa} ${ns} "${flags}" 0 ${stem})
    string(APPEND each " M(${ns}, __VA_ARGS__)")
    list(APPEND NNUELAB_BUILT_ISAS ${isa})
  endif()
  if(emu)
    set(_any_emu 1)
    _nnuelab_isa_object(${isa} ${ns}_emu "" 1 ${stem})
    string(APPEND each " M(${ns}_emu, __VA_ARGS__)")
    list(APPEND NNUELAB_BUILT_ISAS ${isa}-emu)
  endif()
  string(APPEND _config "#define NNUELAB_NATIVE_${ns} ${native}\n")
  if(native OR emu)
    string(APPEND _config "#define NNUELAB_HAS_${ns} 1\n")
  else()
    string(APPEND _config "#define NNUELAB_HAS_${ns} 0\n")
  endif()
  string(APPEND _config "#define NNUELAB_EACH_${ns}(M, ...)${each}\n")
  string(REPLACE ";" " " _flagstr "${flags}")
  string(APPEND _flag_rows "  {\"${isa}\", \"${_flagstr}\"},\\\n")
endforeach()
string(APPEND _config "#define NNUELAB_ISA_FLAG_ROWS \\\n${_flag_rows}\n")
string(APPEND _config "#define NNUELAB_ANY_EMULATED ${_any_emu}\n")
file(CONFIGURE OUTPUT ${NNUELAB_GENERATED_DIR}/nnuelab_config.h CONTENT "${_config}")
message(STATUS "nnuelab ISA builds: ${NNUELAB_BUILT_ISAS}")
if(NNUELAB_HOST_SKIPPED_ISAS)
  message(STATUS "nnuelab: not built natively (NNUELAB_NATIVE_ISAS=host, this CPU lacks them): ${NNUELAB_HOST_SKIPPED_ISAS}")
endif()
