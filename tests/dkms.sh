#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DKMS life cycle in a private tree under build/dkms: add, build, install,
# uninstall and remove for Debian's amd64, cloud-amd64 and rt-amd64 headers,
# then `make dkms-install` over an installed version. Every module must be
# signed with a throwaway key made here. Nothing outside build/dkms changes:
# no /usr/src, /var/lib/dkms or /lib/modules, no depmod.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
kver=${KVER:-$("$top/tests/kernel-version.sh")}
# The ABI of that kernel (6.1.0-57), whatever its flavour. DKMS_KERNELS
# names other kernels with headers instead, e.g. from bookworm-backports.
abi=$(sed -E 's/-(cloud-|rt-)?amd64$//' <<<"$kver")
read -r -a kernels <<<"${DKMS_KERNELS:-$abi-amd64 $abi-cloud-amd64 $abi-rt-amd64}"
work=$top/build/dkms
log=$work/log

fail() {
	echo "dkms: FAILED: $*" >&2
	if [ -s "$log" ]; then
		echo "--- last lines of $log:" >&2
		tail -n 30 "$log" >&2
	fi
	for f in "$work"/tree/pcieaudit/*/build/make.log; do
		[ -e "$f" ] && { echo "--- $f:" >&2; tail -n 30 "$f" >&2; }
	done
	exit 1
}

# Runs a command with its output in the log; a failure shows the log.
run() {
	echo "+ $*" >>"$log"
	"$@" >>"$log" 2>&1 || fail "$* (exit status $?)"
}

for k in "${kernels[@]}"; do
	[ -e "/lib/modules/$k/build/Makefile" ] ||
		fail "no headers for $k (apt-get install linux-headers-$k, or make deps)"
done

# Idempotent: whatever a failed run left is in $work.
rm -rf "$work"
mkdir -p "$work/root" "$work/tree" "$work/install"
: >"$log"

# The key pair a Secure Boot host would enrol with mokutil --import. dkms
# reads mok_signing_key and mok_certificate from /etc/dkms/framework.conf;
# set in the environment, they win over its defaults under /var/lib/dkms.
run openssl req -new -x509 -nodes -days 1 -subj "/CN=pcieaudit DKMS test key" \
	-newkey rsa:2048 -keyout "$work/mok.key" -outform DER -out "$work/mok.der"
export mok_signing_key=$work/mok.key mok_certificate=$work/mok.der
serial=$(openssl x509 -inform DER -in "$work/mok.der" -noout -serial | sed 's/^serial=//')

dkms_flags=(--dkmstree "$work/tree" --sourcetree "$work/root/usr/src"
	    --installtree "$work/install" --no-depmod)
pa_dkms() { run dkms "${dkms_flags[@]}" "$@"; }
# dkms installs only into kernels whose module directory exists.
for k in "${kernels[@]}"; do
	mkdir -p "$work/install/$k"
done

run make -s -C "$top" dkms-source DESTDIR="$work/root"
src=$(echo "$work"/root/usr/src/pcieaudit-*)
[ -f "$src/dkms.conf" ] || fail "make dkms-source staged nothing under $work/root/usr/src"
ver=${src##*/pcieaudit-}
grep -qx "PACKAGE_VERSION=\"$ver\"" "$src/dkms.conf" ||
	fail "$src/dkms.conf: PACKAGE_VERSION is not $ver"
grep -q "PCIEAUDIT_VERSION \"$ver\"" "$src/kmod/version.h" ||
	fail "$src/kmod/version.h: PCIEAUDIT_VERSION is not $ver"
if find "$src" -name '*.o' -o -name '*.ko' -o -name '.*.cmd' | grep -q .; then
	fail "$src holds build products"
fi

status() { dkms "${dkms_flags[@]}" status "pcieaudit/$ver" -k "$1" 2>>"$log"; }
expect_status() {	# kernel, state
	local got
	got=$(status "$1")
	grep -q ": $2\$" <<<"$got" || fail "dkms status for $1: '$got', expected $2"
}

# The module dkms installed for kernel $1: signed by our key, our version.
check_module() {
	local ko="$work/install/$1/updates/dkms/pcieaudit.ko" signer
	[ -f "$ko" ] || fail "dkms install left no $ko"
	[ "$(modinfo -F version "$ko")" = "$ver" ] ||
		fail "$ko: version '$(modinfo -F version "$ko")', expected $ver"
	[ "$(modinfo -F vermagic "$ko" | cut -d' ' -f1)" = "$1" ] ||
		fail "$ko: vermagic '$(modinfo -F vermagic "$ko")', expected $1"
	signer=$(modinfo -F signer "$ko")
	[ "$signer" = "pcieaudit DKMS test key" ] ||
		fail "$ko: signer '$signer', expected the test key"
	[ "$(modinfo -F sig_id "$ko")" = "PKCS#7" ] || fail "$ko: no PKCS#7 signature"
	[ "$(modinfo -F sig_key "$ko" | tr -d ':\n\t ')" = "$serial" ] ||
		fail "$ko: sig_key '$(modinfo -F sig_key "$ko")' is not the test key's serial $serial"
	verify_signature "$ko"
}

# Checks the signature itself, as the kernel would: module body, then the
# PKCS#7 blob, a 12-byte struct module_signature whose last 4 bytes are the
# blob's length (big endian), and the magic string.
verify_signature() {
	local ko=$1 magic="~Module signature appended~" size siglen body
	size=$(stat -c %s "$ko")
	[ "$(tail -c 28 "$ko" | head -c 27)" = "$magic" ] || fail "$ko: no signature trailer"
	siglen=$(tail -c 32 "$ko" | head -c 4 | od -An -tu1 |
		 awk '{ print (($1 * 256 + $2) * 256 + $3) * 256 + $4 }')
	body=$((size - 28 - 12 - siglen))
	head -c "$body" "$ko" >"$work/body"
	tail -c $((28 + 12 + siglen)) "$ko" | head -c "$siglen" >"$work/sig.p7"
	run openssl cms -verify -binary -inform DER -in "$work/sig.p7" \
		-content "$work/body" -certfile "$work/mok.der" -nointern -noverify \
		-out /dev/null
}

# add, build and install for each flavour.
pa_dkms add "pcieaudit/$ver"
for k in "${kernels[@]}"; do
	expect_status "$k" added
done
for k in "${kernels[@]}"; do
	pa_dkms build "pcieaudit/$ver" -k "$k"
	expect_status "$k" built
done
for k in "${kernels[@]}"; do
	pa_dkms install "pcieaudit/$ver" -k "$k"
	expect_status "$k" installed
	check_module "$k"
done

# Kernels Kbuild refuses are skipped, not failed (dkms exits 77).
rc=0
dkms "${dkms_flags[@]}" build "pcieaudit/$ver" -k 5.4.0-1-amd64 >>"$log" 2>&1 || rc=$?
[ "$rc" -eq 77 ] || fail "dkms build for 5.4.0-1-amd64: exit status $rc, expected 77"

# make dkms-install replaces the installed version, for one kernel.
run make -s -C "$top" dkms-install DESTDIR="$work/root" KVER="${kernels[0]}" \
	DKMS_FLAGS="${dkms_flags[*]}"
expect_status "${kernels[0]}" installed
check_module "${kernels[0]}"
for k in "${kernels[@]:1}"; do
	expect_status "$k" added
	[ ! -e "$work/install/$k/updates/dkms/pcieaudit.ko" ] ||
		fail "make dkms-install left the old module for $k"
done

# uninstall, then remove.
pa_dkms uninstall "pcieaudit/$ver" -k "${kernels[0]}"
expect_status "${kernels[0]}" built
[ ! -e "$work/install/${kernels[0]}/updates/dkms/pcieaudit.ko" ] ||
	fail "dkms uninstall left the module in place"
pa_dkms remove "pcieaudit/$ver" --all
[ -z "$(ls -A "$work/tree")" ] || fail "dkms remove left $(ls -A "$work/tree") in the DKMS tree"
if find "$work/install" -name 'pcieaudit.ko*' | grep -q .; then
	fail "modules left after dkms remove: $(find "$work/install" -name 'pcieaudit.ko*')"
fi

rm -rf "$work"
echo "dkms: add, build, install (signed), uninstall, remove for ${kernels[*]}; make dkms-install"
