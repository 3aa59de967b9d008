#!/bin/sh
# A protocol v1 implementation in POSIX sh, for the stderr attribution tests.
#
# For a case whose fixture is named `case-N-L`, it writes L stderr lines
# naming the case, then replies with an error (the verdict does not matter:
# where its stderr lands does). `burst-N` writes 200 lines of 1 KiB first,
# more than a pipe holds, so the child blocks until the harness reads.
# `late-N` replies first and writes its line half a second later (stderr
# written while no case is in flight). After bye it writes one line and exits.
# stderr is unbuffered in sh: each printf is one write(2).
while IFS= read -r line; do
  case "$line" in
    *'"op":"hello"'*)
      printf '%s\n' '{"op":"hello","protocol":1,"implementation":{"name":"stderr-per-case","version":"1","language":"sh"},"suites":{"chat":[1]}}'
      ;;
    *'"op":"run"'*)
      id=${line#*\"id\":}
      id=${id%%,*}
      fixture=${line#*\"fixture\":\"}
      fixture=${fixture%%\"*}
      case "$fixture" in
        case-*)
          count=${fixture##*-}
          i=1
          while [ "$i" -le "$count" ]; do
            printf '%s line %s of %s\n' "$fixture" "$i" "$count" >&2
            i=$((i + 1))
          done
          printf '{"op":"result","id":%s,"error":"%s"}\n' "$id" "$fixture"
          ;;
        burst-*)
          pad=$(printf '%01000d' 0)
          i=1
          while [ "$i" -le 200 ]; do
            printf '%s %s %s\n' "$fixture" "$i" "$pad" >&2
            i=$((i + 1))
          done
          printf '{"op":"result","id":%s,"error":"%s"}\n' "$id" "$fixture"
          ;;
        late-*)
          printf '{"op":"result","id":%s,"error":"%s"}\n' "$id" "$fixture"
          sleep 0.5
          printf '%s wrote this after its result\n' "$fixture" >&2
          ;;
      esac
      ;;
    *'"op":"bye"'*)
      printf 'shutting down after bye\n' >&2
      exit 0
      ;;
  esac
done
