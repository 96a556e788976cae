#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# libraries.sh [CLI]: the libraries each command maps, from the dynamic
# loader's own log (LD_DEBUG=libs), on this machine's /sys. The exporter's
# libmicrohttpd, GnuTLS and libcrypt, and Graphviz must not be looked up by
# report, check, topo or p2p (issue 28); nor NVML by report, nor by the
# others on a host without an NVIDIA function. topo --svg must look
# Graphviz up, and on an NVIDIA host report --json --nvml NVML, which shows
# the log sees a dlopen().
set -u
CLI=${1:-$(dirname "$0")/../../user/pcieaudit-cli}
FORBIDDEN='libcrypt|libmicrohttpd|libgnutls|libnvidia-ml|libgvc|libcgraph'
fail=0

looked_up() {	# the libraries the loader looked for, one line
	LD_DEBUG=libs "$CLI" "$@" 2>&1 >/dev/null |
		sed -n 's/.*find library=\([^ ;]*\).*/\1/p' | sort -u | tr '\n' ' '
}

nvidia=0
for v in /sys/bus/pci/devices/*/vendor; do
	[[ $(cat "$v") == 0x10de ]] && nvidia=1
done
for cmd in "report" "--json report" "check" "topo" "p2p --all"; do
	forbidden=$FORBIDDEN
	[[ $nvidia == 1 && $cmd != *report ]] && forbidden=${FORBIDDEN/|libnvidia-ml/}
	# shellcheck disable=SC2086  # the command's words
	libs=$(looked_up $cmd --sysfs /sys)
	if grep -Eq "$forbidden" <<<"$libs"; then
		echo "FAIL $cmd --sysfs /sys looks up: $(grep -Eo "($forbidden)[^ ]*" <<<"$libs" | tr '\n' ' ')"
		fail=1
	else
		echo "ok   $cmd --sysfs /sys: $libs"
	fi
done
if [[ -e /usr/lib/x86_64-linux-gnu/libgvc.so.6 ]]; then
	svg=$(mktemp)
	libs=$(looked_up topo --sysfs /sys --svg "$svg")
	rm -f "$svg"
	if grep -q libgvc <<<"$libs"; then
		echo "ok   topo --svg looks up Graphviz: the log sees dlopen()"
	else
		echo "FAIL topo --svg did not look up libgvc: $libs"
		fail=1
	fi
fi
if [[ $nvidia == 1 ]]; then
	libs=$(looked_up --json report --nvml --sysfs /sys)
	if grep -q libnvidia-ml <<<"$libs"; then
		echo "ok   --json report --nvml looks up NVML on this NVIDIA host"
	else
		echo "FAIL --json report --nvml did not look up libnvidia-ml: $libs"
		fail=1
	fi
fi
exit $fail
