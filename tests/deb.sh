#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The Debian packages: build pcieaudit-dkms and pcieaudit-cli from a copy of
# the working tree (build/deb), run lintian, install both on this machine
# (DKMS must build and install the module for the Debian kernel), run the
# CLI, then purge both and look for leftovers. DKMS signs with a throwaway
# key made here, not with /var/lib/dkms/mok.key. A failed run's packages are
# purged on exit and again at the start of the next run.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
kver=${KVER:-$("$top/tests/kernel-version.sh")}
work=$top/build/deb
log=$top/build/deb.log
pkgs=(pcieaudit-cli pcieaudit-dkms)

fail() {
	echo "deb: FAILED: $*" >&2
	if [ -s "$log" ]; then
		echo "--- last lines of $log:" >&2
		tail -n 40 "$log" >&2
	fi
	for f in /var/lib/dkms/pcieaudit/*/build/make.log; do
		[ -e "$f" ] && { echo "--- $f:" >&2; tail -n 30 "$f" >&2; }
	done
	exit 1
}

run() {
	echo "+ $*" >>"$log"
	"$@" >>"$log" 2>&1 || fail "$* (exit status $?)"
}

installed() { dpkg-query -W -f='${db:Status-Status}\n' "$1" 2>/dev/null | grep -qvx not-installed; }

purge() {
	local p present=()
	for p in "${pkgs[@]}"; do
		if installed "$p"; then
			present+=("$p")
		fi
	done
	if [ "${#present[@]}" -gt 0 ]; then
		dpkg --purge "${present[@]}" >>"$log" 2>&1
	fi
}

# Everything the packages own or make, that must be gone after a purge.
leftovers() {
	ls -d /usr/src/pcieaudit-* /var/lib/dkms/pcieaudit /usr/sbin/pcieaudit-cli \
		/usr/share/man/man8/pcieaudit-cli.8.gz \
		/usr/share/bash-completion/completions/pcieaudit-cli \
		/etc/modules-load.d/pcieaudit.conf /usr/share/doc/pcieaudit-cli \
		/usr/share/doc/pcieaudit-dkms /lib/systemd/system/pcieaudit-exporter.service \
		/lib/systemd/system/pcieaudit-exporter.socket 2>/dev/null || true
	find /lib/modules -path '*/updates/dkms/pcieaudit.ko*' 2>/dev/null || true
	grep -ls 'updates/dkms/pcieaudit' /lib/modules/*/modules.dep || true
	dkms status pcieaudit 2>/dev/null || true
}

mkdir -p "$top/build"
: >"$log"

# Clean up after a failed run; refuse to touch a pcieaudit that DKMS got
# from elsewhere (make dkms-install).
purge || fail "cannot purge ${pkgs[*]} left by an earlier run"
trap 'purge || true' EXIT
if [ -n "$(dkms status pcieaudit 2>/dev/null)" ] || ls -d /usr/src/pcieaudit-* >/dev/null 2>&1; then
	fail "pcieaudit is installed outside the packages (dkms status: '$(dkms status pcieaudit)'); remove it first: dkms remove pcieaudit/<version> --all; rm -rf /usr/src/pcieaudit-<version>"
fi

# One version everywhere: debian/changelog, kmod/version.h.
ver=$(dpkg-parsechangelog -l "$top/debian/changelog" -S Version)
base=$(sed -n 's/.*PCIEAUDIT_VERSION "\(.*\)"/\1/p' "$top/kmod/version.h")
[ "$ver" = "$base" ] || fail "debian/changelog says $ver, kmod/version.h $base"

# The source: what git tracks, and new files it does not ignore.
rm -rf "$work"
src=$work/pcieaudit-$ver
mkdir -p "$src"
git -C "$top" ls-files -z --cached --others --exclude-standard |
	tar -C "$top" --null -T - --ignore-failed-read -cf - 2>>"$log" |
	tar -C "$src" -xf - || fail "cannot copy the working tree to $src"

# The source package first, for lintian to see debian/ as a whole; then the
# binary packages.
(cd "$work" && run dpkg-source -b "pcieaudit-$ver")
(cd "$src" && DEB_BUILD_OPTIONS="parallel=$(nproc)" run dpkg-buildpackage -us -uc -b)
arch=$(dpkg --print-architecture)
dkms_deb=$work/pcieaudit-dkms_${ver}_all.deb
cli_deb=$work/pcieaudit-cli_${ver}_${arch}.deb
changes=$work/pcieaudit_${ver}_${arch}.changes
dsc=$work/pcieaudit_${ver}.dsc
for f in "$dkms_deb" "$cli_deb" "$changes" "$dsc"; do
	[ -f "$f" ] || fail "dpkg-buildpackage made no $f"
done

# lintian: no error, warning or info tag but those overridden, with a
# reason, in debian/*lintian-overrides. It warns about running as root.
if ! out=$(lintian -I --fail-on error,warning,info "$dsc" "$changes" 2>&1 |
	   { grep -vx 'running with root privileges is not recommended!' || true; }) ||
   [ -n "$out" ]; then
	echo "$out" >&2
	fail "lintian $dsc $changes"
fi

# What the packages hold.
dkms_files=$(dpkg-deb -c "$dkms_deb" | awk '{ print $6 }')
cli_files=$(dpkg-deb -c "$cli_deb" | awk '{ print $6 }')
for f in "usr/src/pcieaudit-$ver/dkms.conf" "usr/src/pcieaudit-$ver/Kbuild" \
	 etc/modules-load.d/pcieaudit.conf; do
	grep -qx "\./$f" <<<"$dkms_files" || fail "$dkms_deb: no /$f"
done
if grep -Eq '\.(o|ko|cmd)$' <<<"$dkms_files"; then
	fail "$dkms_deb ships build products"
fi
if grep -q '^\./usr/src/' <<<"$cli_files"; then
	fail "$cli_deb ships module source"
fi
for f in usr/sbin/pcieaudit-cli usr/share/man/man8/pcieaudit-cli.8.gz \
	 usr/share/bash-completion/completions/pcieaudit-cli \
	 lib/systemd/system/pcieaudit-exporter.service \
	 lib/systemd/system/pcieaudit-exporter.socket; do
	grep -qx "\./$f" <<<"$cli_files" || fail "$cli_deb: no /$f"
done

# Install: dh_dkms's postinst adds the module and builds it for the
# installed kernels that have headers.
openssl req -new -x509 -nodes -days 1 -subj "/CN=pcieaudit deb test key" \
	-newkey rsa:2048 -keyout "$work/mok.key" -outform DER -out "$work/mok.der" \
	>>"$log" 2>&1 || fail "openssl could not make a key pair"
mok_signing_key=$work/mok.key mok_certificate=$work/mok.der \
	run dpkg -i "$dkms_deb" "$cli_deb"
status=$(dkms status "pcieaudit/$ver" -k "$kver")
grep -q ": installed\$" <<<"$status" ||
	fail "dkms status for $kver after installing: '$status', expected installed"
ko=$(modinfo -k "$kver" -n pcieaudit 2>>"$log") ||
	fail "modinfo -k $kver pcieaudit: not in the kernel's module index (depmod?)"
[ "$ko" = "/lib/modules/$kver/updates/dkms/pcieaudit.ko" ] ||
	fail "modprobe would load $ko, not the DKMS module"
[ "$(modinfo -F version "$ko")" = "$ver" ] || fail "$ko: version $(modinfo -F version "$ko"), expected $ver"
[ "$(modinfo -F signer "$ko")" = "pcieaudit deb test key" ] ||
	fail "$ko: signer '$(modinfo -F signer "$ko")', expected the test key"
out=$(pcieaudit-cli --version) || fail "pcieaudit-cli --version: exit status $?"
[[ $out == "pcieaudit-cli $ver "* ]] || fail "pcieaudit-cli --version: '$out'"
[ "$(man -w pcieaudit-cli)" = /usr/share/man/man8/pcieaudit-cli.8.gz ] ||
	fail "man -w pcieaudit-cli: '$(man -w pcieaudit-cli 2>&1)'"
# The units as installed: systemd-analyze verify resolves ExecStart= and
# Documentation= (the man page) on this machine's files. Installing
# enables and starts nothing: the socket would listen on every address.
out=$(systemd-analyze verify /lib/systemd/system/pcieaudit-exporter.socket \
	/lib/systemd/system/pcieaudit-exporter.service 2>&1) && [ -z "$out" ] ||
	fail "systemd-analyze verify of the installed units: $out"
if ls /etc/systemd/system/*/pcieaudit-exporter.* >/dev/null 2>&1; then
	fail "installing enabled the exporter's units: $(ls /etc/systemd/system/*/pcieaudit-exporter.*)"
fi
if grep -v '^#' /etc/modules-load.d/pcieaudit.conf | grep -q .; then
	fail "/etc/modules-load.d/pcieaudit.conf loads the module at boot; it must be opt-in"
fi

# Purge: nothing may stay behind.
trap - EXIT
purge || fail "dpkg --purge ${pkgs[*]}"
for p in "${pkgs[@]}"; do
	! installed "$p" || fail "$p still installed after dpkg --purge"
done
left=$(leftovers)
[ -z "$left" ] || fail "left after purging: $left"

rm -rf "$work" "$log"
echo "deb: pcieaudit-dkms and pcieaudit-cli $ver built, lintian clean, installed (DKMS built for $kver), purged"
