#!/usr/bin/env bash
# Fails when an ISA-compiled object file defines a symbol outside nnuelab::<its ISA>:: or
# runs static initialisers. Such code was compiled with that ISA's flags; if the linker
# keeps it for scalar callers (inline functions and templates are merged by name), the
# binary dies with SIGILL on an older CPU. Arguments: object files (';'-lists accepted).
set -u
status=0 checked=0
for arg in "$@"; do
  IFS=';' read -r -a objs <<< "$arg"
  for obj in "${objs[@]}"; do
    [ -n "$obj" ] || continue
    # .../nnuelab_isa_<ns>.dir/kernels/<op>/<isa>.cpp.o -> <ns>
    ns=$(sed -n 's#.*/nnuelab_isa_\([A-Za-z0-9_]*\)\.dir/.*#\1#p' <<< "$obj")
    [ -n "$ns" ] || { echo "cannot tell the ISA of $obj"; status=1; continue; }
    checked=$((checked + 1))
    # Global symbols (upper case, weak, unique) must be in the namespace: the linker may
    # pick them for any caller. They are matched mangled, where the name comes first even
    # when a template's return type is spelled out (decltype(...) ...): _ZN7nnuelab4avx2...,
    # with the const/volatile/ref qualifiers of member functions (NK, NR, NO), local
    # entities (ZN), guard variables (GVZN), vtables and typeinfo (TVN, TIN, TSN) and TLS
    # wrappers (THN, TWN). Local symbols are only reachable from this object, except a
    # static initialiser, which runs before main on every CPU. Not ours, and no code:
    # sanitizer builds' module constructors (_sub_I_00099_*) and __odr_asan markers; the
    # typeinfo of function types (_ZTIF, _ZTSF: data UBSan's -fsanitize=function emits);
    # clang's __clang_call_terminate (two calls: __cxa_begin_catch, std::terminate).
    bad=$("${NM:-nm}" --defined-only "$obj" |
          awk '$2 ~ /^[TWVuBDRGS]$/ || $0 ~ /_GLOBAL__sub_I/ {print $3}' |
          grep -v -E "^_Z(GV|T[VISHW])?Z?N[rVKRO]*7nnuelab${#ns}${ns}[0-9A-Z]" |
          grep -v -E '^__odr_asan|^_sub_[ID]_00099_|^DW\.ref\.__gxx_personality|^_ZT[IS]F|^__clang_call_terminate$' |
          "${CXXFILT:-c++filt}" || true)
    if [ -n "$bad" ]; then
      echo "$obj (ISA namespace nnuelab::${ns}) defines symbols outside it:"
      sed 's/^/    /' <<< "$bad"
      status=1
    fi
  done
done
[ "$checked" -gt 0 ] || { echo "no ISA object files were given"; exit 1; }
[ $status -eq 0 ] && echo "checked $checked ISA object files: every symbol is inside its ISA namespace"
exit $status
