# shellcheck shell=sh
# Sourced by guest-init.sh in gpu-server-expect's boot (pa_light=expect),
# with the module loaded and the first exporter (plain HTTP on
# 127.0.0.1:9862, as nobody) answering: the exporter against the module
# under idle connections, malformed requests, and TLS with basic auth.
# Everything goes to $E for expect-check.py, which judges it.

# The exporter's side of the connections to 127.0.0.1:9862 (0x2686) that
# are established, from the kernel's table.
held_connections() {
	grep -c ': 0100007F:2686 [0-9A-F]*:[0-9A-F]* 01 ' /proc/net/tcp
}

# 300 connections held open and idle (idle-conns.c) while 4 scrapers
# scrape 5 times each; each scrape's start, end (guest uptime) and wget's
# exit in idle-N.txt.
exporter_idle() {
	idle-conns 300 9862 >"$E/idle-conns.txt" 2>&1 &
	IP=$!
	i=0
	while [ ! -s "$E/idle-conns.txt" ] && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	fact exporter_idle_open "$(held_connections)"
	pids=
	for s in 1 2 3 4; do
		(
			for n in 1 2 3 4 5; do
				a=$(cut -d' ' -f1 /proc/uptime)
				wget -q -O "$E/idle-body-$s.txt" http://127.0.0.1:9862/metrics
				rc=$?
				echo "$a $(cut -d' ' -f1 /proc/uptime) $rc $n"
			done >"$E/idle-$s.txt"
		) &
		pids="$pids $!"
	done
	# shellcheck disable=SC2086 # a list of PIDs, split on purpose
	wait $pids
	# Still held after the scrapes (the exporter drops them idle for 5 s).
	fact exporter_idle_after "$(held_connections)"
	kill $IP
	wait $IP 2>/dev/null
}

# Requests no scraper sends; each reply's first line in bad-N.txt, then a
# scrape that must still be answered.
exporter_malformed() {
	long=$(head -c 20000 /dev/zero | tr '\0' a)
	printf 'GARBAGE\r\n\r\n' | nc -w 3 127.0.0.1 9862 >"$E/bad-1.txt" 2>&1
	printf 'GET /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n' |
		nc -w 3 127.0.0.1 9862 >"$E/bad-2.txt" 2>&1
	printf 'GET /%s HTTP/1.1\r\nHost: x\r\n\r\n' "$long" |
		nc -w 3 127.0.0.1 9862 >"$E/bad-3.txt" 2>&1
	printf 'GET /metrics HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n' |
		nc -w 3 127.0.0.1 9862 >"$E/bad-4.txt" 2>&1
	printf 'GET /metrics HTTP/1.1\r\nHost: x\r\nX: %s\r\n\r\n' "$long" |
		nc -w 3 127.0.0.1 9862 >"$E/bad-5.txt" 2>&1
	wget -q -O "$E/after-bad.txt" http://127.0.0.1:9862/metrics
	fact exporter_after_bad_rc $?
}

# A second exporter with the initramfs's web configuration (TLS, basic
# auth: build-initramfs.sh made the certificate and the bcrypt hash), as
# nobody. busybox wget speaks TLS 1.2 and sends the URL's credentials.
exporter_tls() {
	W=/lib/pcieaudit/web
	if [ ! -r $W/web.yml ]; then
		fact exporter_tls none
		return
	fi
	/usr/bin/pcieaudit-cli exporter --listen 127.0.0.1:9863 --user nobody \
		--interval 3600 --web-config $W/web.yml 2>"$E/tls.err" &
	TP=$!
	url=https://127.0.0.1:9863/metrics
	i=0
	while [ $i -lt 80 ]; do
		wget -q --no-check-certificate -O "$E/tls-metrics.txt" \
			"https://prometheus:pa-guest-secret@127.0.0.1:9863/metrics" \
			2>"$E/tls-wget.err" && break
		sleep 0.25
		i=$((i + 1))
	done
	fact exporter_tls_rc "$([ $i -lt 80 ] && echo 0 || echo 1)"
	wget -S --no-check-certificate -O /dev/null \
		"https://prometheus:wrong@127.0.0.1:9863/metrics" >"$E/tls-wrong.txt" 2>&1
	fact exporter_tls_wrong_rc $?
	wget -S --no-check-certificate -O /dev/null "$url" >"$E/tls-noauth.txt" 2>&1
	fact exporter_tls_noauth_rc $?
	wget -S -O /dev/null http://127.0.0.1:9863/metrics >"$E/tls-plain.txt" 2>&1
	fact exporter_tls_plain_rc $?
	kill $TP
	wait $TP
}
