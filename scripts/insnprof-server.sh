#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# insnprof-server.sh SERVER MODE, in the VM under scripts/insnprof.sh:
#
#   scripts/insnprof.sh build/p/mc-nat -- scripts/insnprof-server.sh memcached native
#   scripts/insnprof.sh build/p/mc-rec -- scripts/insnprof-server.sh memcached record
#   scripts/insnprof/report.py build/p/mc-rec build/p/mc-nat
#
# Starts SERVER (memcached, nginx or redis: the commands of
# scripts/bench-vm.sh's server section) natively or under `flightrec record`
# from its start, loads it on loopback for a warm-up (repeated until the
# ring's window, keep x interval_ms, has passed twice: the measured requests
# then find the ring full and its record and page pools serving, as a
# server that has run for a while does), then again between
# the plugin's markers (build/insnprof/mark): memcached 6,000 mc_load
# requests (1 KiB values, 9 gets to 1 set, 20 connections), nginx 3,000
# `ab -k -c 20` requests of a 4 KiB file, redis 10,000 redis-benchmark GETs
# (20 clients).  What recording adds per request is then the difference of
# the two runs divided by that count (docs/recording.md, "the data a call
# passes in").  The programs come from scripts/bench-deps.sh.
set -uo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
MARK=$TOP/build/insnprof/mark
FR=$TOP/user/flightrec

die() { echo "insnprof-server.sh: $*" >&2; exit 1; }
[[ $# -eq 2 ]] || die "usage: insnprof-server.sh memcached|nginx|redis native|record"
SRV=$1 MODE=$2
[[ $MODE == native || $MODE == record ]] || die "mode: native or record"
[[ -x $MARK ]] || die "no $MARK: run under scripts/insnprof.sh"
W=$(mktemp -d /tmp/insnprof-server.XXXXXX) || die "no work directory"

# the warm-up (srv_warm), twice the ring's window.  Until s73 one fixed run of
# the load, shorter than the window for redis (4,000 requests, 0.6 s in the
# VM without the plugin): the measured requests paid the ring's first fill,
# about 1,270 of the 4,640 instructions recording added to a GET
# (clear_page_erms, pages new from the allocator).
. "$TOP/scripts/srv-warm.sh"
warm() { srv_warm "$@" || die "warm-up failed: $*"; }

# start PIDFILE PORT CMD...: the server, ready when its port accepts
start() {
	local pidf=$1 port=$2 i
	shift 2
	if [[ $MODE == record ]]; then
		"$FR" record -o "$W/srv" -- "$@" >/dev/null 2>&1 &
	else
		"$@" >/dev/null 2>&1 &
	fi
	for ((i = 0; i < 300; i++)); do
		if [[ -s $pidf ]] && (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
			return 0
		fi
		sleep 0.1
	done
	die "$SRV did not start"
}

case $SRV in
memcached)
	start "$W/mc.pid" 11290 memcached -u root -l 127.0.0.1 -p 11290 -U 0 -m 64 \
		-P "$W/mc.pid"
	warm "$TOP/tests/bin/progs/mc_load" 11290 20 200
	"$MARK" start
	"$TOP/tests/bin/progs/mc_load" 11290 20 300
	"$MARK" stop
	pidf=$W/mc.pid
	;;
nginx)
	mkdir -p "$W/www" "$W/tmp"
	head -c 4096 /dev/urandom >"$W/www/4k"
	cat >"$W/nginx.conf" <<-EOF
	daemon off;
	master_process on;
	worker_processes 1;
	user root;
	pid $W/nginx.pid;
	error_log $W/error.log;
	events { worker_connections 1024; }
	http {
		access_log off;
		sendfile on;
		keepalive_requests 1000000;
		client_body_temp_path $W/tmp;
		proxy_temp_path $W/tmp;
		fastcgi_temp_path $W/tmp;
		uwsgi_temp_path $W/tmp;
		scgi_temp_path $W/tmp;
		server { listen 127.0.0.1:8090; root $W/www; }
	}
	EOF
	start "$W/nginx.pid" 8090 nginx -p "$W" -c "$W/nginx.conf" -e "$W/error.log"
	warm ab -k -n 1000 -c 20 http://127.0.0.1:8090/4k
	"$MARK" start
	ab -k -n 3000 -c 20 http://127.0.0.1:8090/4k 2>&1 | grep -E '^(Requests per|Failed)'
	"$MARK" stop
	pidf=$W/nginx.pid
	;;
redis)
	start "$W/redis.pid" 6390 redis-server --port 6390 --bind 127.0.0.1 --save "" \
		--appendonly no --dir "$W" --pidfile "$W/redis.pid" --logfile "$W/redis.log"
	warm redis-benchmark -h 127.0.0.1 -p 6390 -t get -n 4000 -c 20 --csv -q
	"$MARK" start
	redis-benchmark -h 127.0.0.1 -p 6390 -t get -n 10000 -c 20 --csv -q
	"$MARK" stop
	pidf=$W/redis.pid
	;;
*)
	die "server: memcached, nginx or redis"
	;;
esac
# recorded: flightrec ends with its server
kill -TERM "$(cat "$pidf")"
wait
rm -rf "$W"
