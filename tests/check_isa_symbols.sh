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
    # Global symbols (upper case, weak, unique) must be in the namespace (a function
    # template instance demangles with its return type first, and a vector return type
    # as "short __vector(4)", dropped here before the match): the linker may
    # pick them for any caller. Local ones are only reachable from this object, except a
    # static initialiser, which runs before main on every CPU. (Sanitizer builds add their
    # own module constructors, _sub_I_00099_*, and __odr_asan markers: not ours.)
    bad=$("${NM:-nm}" -C --defined-only "$obj" |
          awk '$2 ~ /^[TWVuBDRGS]$/ || $0 ~ /_GLOBAL__sub_I/ {sub(/^[^ ]+ [^ ]+ /, ""); print}' |
          sed -E 's/ __vector\([0-9]+\)//g' |
          grep -v -E "^([A-Za-z_][A-Za-z0-9_: *&]* )?nnuelab::${ns}::" | grep -v -E '^__odr_asan|^_sub_[ID]_00099_|^DW\.ref\.__gxx_personality' || true)
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
