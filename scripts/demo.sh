#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# demo.sh - flightrec end to end (`make demo`):
#   1. start tests/progs/crashy_server under the recorder,
#   2. load it with a client (SET/GET/DEL requests over TCP on 127.0.0.1)
#      until a GET of a deleted key crashes it,
#   3. write its checkpoint,
#   4. replay the checkpoint: the crash happens again, as recorded,
#   5. run a gdb batch session on the replay and print the backtrace at the
#      crash, with the request that caused it.
#
# The recorder is the kernel module (`flightrec record`) when it is loaded
# (`make demo` runs this inside the test VM: scripts/vm.sh run -- scripts/demo.sh);
# elsewhere, or with FR_DEMO_RECORDER=ptrace, the ptrace test fixture
# tests/bin/tools/ptsnap records instead.  Output: DIR (default a new
# /tmp/flightrec-demo.*), kept for inspection.
set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
FR=${FLIGHTREC:-$TOP/user/flightrec}
SERVER=$TOP/tests/bin/progs/crashy_server
PTSNAP=$TOP/tests/bin/tools/ptsnap
OUT=${1:-$(mktemp -d /tmp/flightrec-demo.XXXXXX)}
mkdir -p "$OUT"

say() { printf '\n=== %s\n' "$*"; }
fail() { printf 'demo: %s\n' "$*" >&2; exit 1; }

for f in "$FR" "$SERVER" "$TOP/user/loader/flightrec-loader"; do
	[[ -x $f ]] || fail "$f is not built: run make first"
done

recorder=${FR_DEMO_RECORDER:-}
if [[ -z $recorder ]]; then
	if [[ -w /proc/flightrec/control ]]; then recorder=module; else recorder=ptrace; fi
fi

say "1. recording crashy_server (recorder: $recorder) into $OUT"
rm -f "$OUT/port" "$OUT"/*.flrc
case $recorder in
module)
	"$FR" record -o "$OUT" -- "$SERVER" 0 "$OUT/port" > "$OUT/server.out" 2>&1 &
	;;
ptrace)
	[[ -x $PTSNAP ]] || fail "$PTSNAP is not built: run make tests"
	# like the module's ring: intervals of 200 syscalls, the last 4 kept
	"$PTSNAP" --skip 1 --every 200 --intervals 4 -q -o "$OUT/crashy_server.flrc" \
		-- "$SERVER" 0 "$OUT/port" > "$OUT/server.out" 2>&1 &
	;;
*)
	fail "FR_DEMO_RECORDER=$recorder: module or ptrace"
	;;
esac
rec=$!
for _ in $(seq 100); do [[ -s $OUT/port ]] && break; sleep 0.1; done
[[ -s $OUT/port ]] || fail "the server did not start: $(cat "$OUT/server.out")"
port=$(cat "$OUT/port")
echo "server listening on 127.0.0.1:$port (pid $rec)"

say "2. client load: 20 connections x 25 SET/GET pairs, then the bad request"
ok=0
for c in $(seq 20); do
	exec 3<>"/dev/tcp/127.0.0.1/$port"
	for i in $(seq 25); do
		printf 'SET user%d session-%d-%d\n' "$i" "$c" "$RANDOM" >&3
		read -r reply <&3
		printf 'GET user%d\n' "$i" >&3
		read -r reply <&3
		ok=$((ok + 1))
	done
	printf 'STATS\n' >&3
	read -r stats <&3
	printf 'QUIT\n' >&3
	exec 3>&-
done
echo "$ok SET/GET pairs answered; last STATS: $stats"
exec 3<>"/dev/tcp/127.0.0.1/$port"
printf 'SET victim 42\nDEL victim\nGET victim\nQUIT\n' >&3
cat <&3 > "$OUT/client.last" || true
exec 3>&-
echo "sent: SET victim 42 / DEL victim / GET victim"

say "3. the checkpoint"
rc=0
wait "$rec" || rc=$?
echo "recorder exited with $rc (the server died of signal $((rc > 128 ? rc - 128 : 0)) when the recorder passes it on)"
ckpt=$(ls -t "$OUT"/*.flrc 2>/dev/null | head -n 1)
if [[ -z $ckpt && $recorder == module && -z ${FR_DEMO_RECORDER:-} ]]; then
	echo "demo: the module wrote no checkpoint (server log: $(cat "$OUT/server.out"))" >&2
	echo "demo: running the demo again with the ptrace recorder" >&2
	FR_DEMO_RECORDER=ptrace exec "$0" "$OUT"
fi
[[ -n $ckpt ]] || fail "no checkpoint in $OUT (server log: $(cat "$OUT/server.out"))"
ls -l "$ckpt"
if "$FR" info "$ckpt" > "$OUT/info.txt" 2>&1; then
	head -n 25 "$OUT/info.txt"
fi

say "4. replay (no binaries needed: the checkpoint holds the code pages)"
rrc=0
"$FR" replay "$ckpt" --output "$OUT/replay" --force || rrc=$?
echo "flightrec replay exited with $rrc"
[[ $rrc -eq 0 ]] || fail "replay did not reproduce the recorded end"
echo "replayed server output:"
ls -l "$OUT/replay"

say "5. gdb on the replay: backtrace at the crash"
cat > "$OUT/demo.gdb" <<'EOF'
continue
echo \n--- backtrace at the crash ---\n
bt
frame function handle_get
echo \n--- the request ---\n
print key
print requests
echo \n--- GET of a deleted key: its slot's value is NULL ---\n
continue
EOF
grc=0
"$FR" gdb "$ckpt" --symbols "$SERVER" --batch "$OUT/demo.gdb" --output "$OUT/gdb-replay" --force \
	2>&1 | tee "$OUT/gdb.txt" | grep -v '^add symbol table\|^flightrec gdb: symbols\|^Temporary breakpoint\|^Catchpoint \|^warning: ' || grc=$?
grep -q 'in handle_get' "$OUT/gdb.txt" || fail "the backtrace does not show handle_get"
grep -q 'reproduced SIGSEGV' "$OUT/gdb.txt" || fail "gdb's replay did not reach the recorded crash"

say "demo done: checkpoint $ckpt, outputs in $OUT"
