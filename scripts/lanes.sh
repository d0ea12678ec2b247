#!/usr/bin/env bash
# Runs lanes side by side: each argument is one lane, a shell command line whose steps run in
# order (`a && b`). Each lane's output goes to its own log, printed whole if the lane fails; at the
# end a line per lane with its time and outcome, and the total. Exits non-zero if any lane failed.
set -uo pipefail
logs="$(mktemp -d "${TMPDIR:-/tmp}/giftlink-lanes.XXXXXX")"
started=$(date +%s)
pids=()
names=()
i=0
for lane in "$@"; do
  i=$((i + 1))
  name="lane$i"
  names+=("$lane")
  (
    lane_start=$(date +%s)
    bash -c "set -euo pipefail; $lane" >"$logs/$name.log" 2>&1
    rc=$?
    echo "$rc $(($(date +%s) - lane_start))" >"$logs/$name.result"
    exit $rc
  ) &
  pids+=($!)
done

failed=0
for n in "${!pids[@]}"; do
  wait "${pids[$n]}" || true
done
echo
for n in "${!names[@]}"; do
  read -r rc seconds <"$logs/lane$((n + 1)).result" || { rc=1; seconds='?'; }
  if [ "$rc" != 0 ]; then
    failed=1
    echo "==== FAILED (exit $rc, ${seconds}s): ${names[$n]} ===="
    cat "$logs/lane$((n + 1)).log"
  fi
done
echo
echo "== lanes =="
for n in "${!names[@]}"; do
  read -r rc seconds <"$logs/lane$((n + 1)).result" || { rc=1; seconds='?'; }
  printf '%-6s %5ss  %s\n' "$([ "$rc" = 0 ] && echo ok || echo FAIL)" "$seconds" "${names[$n]}"
done
echo "total: $(($(date +%s) - started))s"
rm -rf "$logs"
exit $failed
