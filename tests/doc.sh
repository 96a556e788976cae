#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The man page and the bash completion: the page formats without a warning
# (groff -ww, man --warnings as lintian runs it), both cover every command
# and option user/cli/main.c knows and the page every exit code of
# user/core/exitcodes.h, and the completion completes; the Kubernetes example is
# sound YAML. The README and docs/ against the code (tests/doc_check.py):
# links, rules, exit codes, commands, make targets, and the samples run
# with the CLI built (make cli; make doc-test builds it). Builds nothing.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
page=$top/man/pcieaudit-cli.8
comp=$top/completion/pcieaudit-cli
errors=0

fail() {
	echo "doc: $*" >&2
	errors=$((errors + 1))
}

# Formatting.
out=$(groff -man -ww -z "$page" 2>&1) || fail "groff failed on $page"
[ -z "$out" ] || fail "groff -ww warns on $page: $out"
out=$(LC_ALL=C.UTF-8 MANROFFSEQ='' MANWIDTH=80 \
	man --warnings -E UTF-8 -l -Tutf8 -Z "$page" 2>&1 >/dev/null) ||
	fail "man failed on $page"
[ -z "$out" ] || fail "man --warnings on $page: $out"
text=$(MANWIDTH=200 man -l "$page" 2>/dev/null | col -b)

# What the CLI knows, from its sources.
commands=$(sed -n 's/^\t{ "\([a-z0-9-]*\)", pa_cmd_.*/\1/p' "$top/user/cli/main.c")
options=$(grep -o '"--[a-z][a-z-]*"' "$top/user/cli/main.c" | tr -d '"' | sort -u)
codes=$(sed -n 's/^\tPA_EXIT_[A-Z_]*[[:space:]]*= \([0-9]*\),.*/\1/p' "$top/user/core/exitcodes.h")
[ -n "$commands" ] && [ -n "$options" ] && [ -n "$codes" ] ||
	fail "cannot read the command table or the exit codes"

for c in $commands; do
	grep -Eq "^ {7}$c( |\$)" <<<"$text" || fail "man page: no entry for the command '$c'"
	grep -qw -- "$c" "$comp" || fail "completion: no command '$c'"
done
for o in $options; do
	grep -q -- "$o" <<<"$text" || fail "man page: option $o missing"
	grep -q -- "$o" "$comp" || fail "completion: option $o missing"
done
exits=$(sed -n '/^EXIT STATUS/,/^[A-Z]/p' <<<"$text")
for n in $codes; do
	grep -Eq "^ {7}$n +" <<<"$exits" || fail "man page: exit status $n undocumented"
done

# The completion: syntax, then what it offers, in a clean shell.
bash -n "$comp" || fail "bash -n $comp"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
touch "$tmp/snap.json" "$tmp/policy.yaml"
mkdir "$tmp/sysdir"
bdfs=$(ls /sys/bus/pci/devices 2>/dev/null | tr '\n' ' ' || true)

# complete LINE: prints COMPREPLY, one per line, for the cursor at the end
# of LINE, with the words split as readline splits them.
cat >"$tmp/complete.sh" <<'EOF'
set -u
source "$1"
line=$2
COMP_LINE=$line
COMP_POINT=${#line}
COMP_WORDBREAKS=$' \t\n"'"'"'><=;|&(:'
COMP_WORDS=()
w=
for ((i = 0; i < ${#line}; i++)); do
	ch=${line:i:1}
	case $ch in
	' ') [ -n "$w" ] && COMP_WORDS+=("$w"); w= ;;
	=|:) [ -n "$w" ] && COMP_WORDS+=("$w"); COMP_WORDS+=("$ch"); w= ;;
	*) w+=$ch ;;
	esac
done
# The word under the cursor: what was being typed, or a new empty one.
if [ -n "$w" ] || [ "${line: -1}" = " " ]; then
	COMP_WORDS+=("$w")
fi
COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
_pcieaudit_cli
printf '%s\n' "${COMPREPLY[@]}"
EOF

expect() {	# line, expected words (sorted, space-separated)
	local got
	got=$(cd "$tmp" && bash --norc --noprofile "$tmp/complete.sh" "$comp" "$1" |
		sort | tr '\n' ' ' | sed 's/ *$//')
	[ "$got" = "$2" ] || fail "completion of '$1': '$got', expected '$2'"
}
sorted() { tr ' ' '\n' <<<"$*" | sed '/^$/d' | sort | tr '\n' ' ' | sed 's/ *$//'; }

expect "pcieaudit-cli " "$(sorted $commands)"
expect "pcieaudit-cli --json " "$(sorted $commands)"
expect "pcieaudit-cli t" "topo"
expect "pcieaudit-cli --" "--help --json --pretty --version"
expect "pcieaudit-cli topo --" "--all --help --input --json --lspci --nccl-xml --pretty --svg --sysfs"
expect "pcieaudit-cli topo --nccl-xml sn" "snap.json"
expect "pcieaudit-cli info -" "--help --input --json --lspci --pretty --sysfs"
expect "pcieaudit-cli report --" "--help --input --json --lspci --nvml --pretty --sysfs"
expect "pcieaudit-cli p2p --" "--help --input --json --lspci --pretty --sysfs"
expect "pcieaudit-cli check --p" "--policy --pretty --previous --profile"
expect "pcieaudit-cli check --n" "--no-color"
expect "pcieaudit-cli check --e" "--exit-codes --expect"
expect "pcieaudit-cli check --exit-codes n" "nagios npd"
expect "pcieaudit-cli check --expect sn" "snap.json"
expect "pcieaudit-cli fleet --" "--exit-codes --help --json --pretty"
expect "pcieaudit-cli fleet sn" "snap.json"
expect "pcieaudit-cli check --format " "html json nfd prometheus text"
expect "pcieaudit-cli check --format=p" "prometheus"
expect "pcieaudit-cli check --profile gpudirect,v" "gpudirect,vfio"
expect "pcieaudit-cli check --policy p" "policy.yaml"
expect "pcieaudit-cli report --input sn" "snap.json"
expect "pcieaudit-cli report --lspci sn" "snap.json"
expect "pcieaudit-cli report --sysfs s" "sysdir"
expect "pcieaudit-cli p2p " "$(sorted $bdfs)"
# An address: bash replaces only what follows the last ':'.
if [ -n "$bdfs" ]; then
	first=${bdfs%% *}
	expect "pcieaudit-cli topo ${first%.*}" "$(sorted $(tr ' ' '\n' <<<"$bdfs" |
		grep "^${first%.*}" | sed 's/.*://'))"
fi

# The Kubernetes example: valid YAML, on the host network, with
# CAP_NET_ADMIN and CAP_SYS_ADMIN (the module needs both), feeding NFD.
python3 - "$top/packaging/kubernetes/pcieaudit-nfd.yaml" <<'EOF' || fail "packaging/kubernetes/pcieaudit-nfd.yaml"
import sys, yaml
ds, = yaml.safe_load_all(open(sys.argv[1]))
pod = ds["spec"]["template"]["spec"]
c, = pod["containers"]
assert ds["kind"] == "DaemonSet" and pod["hostNetwork"] is True
assert sorted(c["securityContext"]["capabilities"]["add"]) == ["NET_ADMIN", "SYS_ADMIN"]
assert "--format nfd" in " ".join(c["args"])
EOF

# The exporter's: on the host network, the two capabilities, and the
# PodMonitor and the scrape annotations pointing at the port it listens on.
python3 - "$top/packaging/kubernetes/pcieaudit-exporter.yaml" <<'EOF' || fail "packaging/kubernetes/pcieaudit-exporter.yaml"
import sys, yaml
ds, pm = yaml.safe_load_all(open(sys.argv[1]))
pod = ds["spec"]["template"]["spec"]
c, = pod["containers"]
port = c["ports"][0]
assert ds["kind"] == "DaemonSet" and pod["hostNetwork"] is True
assert sorted(c["securityContext"]["capabilities"]["add"]) == ["NET_ADMIN", "SYS_ADMIN"]
assert c["command"][:2] == ["pcieaudit-cli", "exporter"]
assert c["command"][3].endswith(":%d" % port["containerPort"])
ann = ds["spec"]["template"]["metadata"]["annotations"]
assert ann["prometheus.io/port"] == str(port["containerPort"])
assert pm["kind"] == "PodMonitor"
assert pm["spec"]["podMetricsEndpoints"][0]["port"] == port["name"]
EOF

# Packages are fetched from the mirrors of the system's own apt sources
# (tests/kernels/debian-kernel.sh): no package registry's host is written in
# the repository. debian/copyright's format URL is a document, not a mirror.
hosts=$(git -C "$top" grep -nIE \
	'(deb|ftp|security|archive|snapshot|cdn|httpredir)[.-][a-z0-9.-]*(debian|ubuntu)\.(org|net|com)|ppa\.launchpad|packages\.cloud\.google|pypi\.org|registry\.npmjs' \
	-- . ':!debian/copyright' || true)
[ -z "$hosts" ] || fail "a package registry's host is written in the repository: $hosts"

# The README and docs/: links, rules, exit codes, commands, make targets,
# samples.
python3 "$top/tests/doc_check.py" "$top/user/pcieaudit-cli" || fail "README.md and docs/ (above)"

if [ "$errors" -ne 0 ]; then
	echo "doc: FAILED ($errors)" >&2
	exit 1
fi
echo "doc: man page, bash completion, README and docs/"
