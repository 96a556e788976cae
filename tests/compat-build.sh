#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Builds pcieaudit.ko against the headers of kernels other than the running
# Debian 12 one, to hold kmod/compat.h to its claims at both ends of the
# supported range. The headers are Debian's own packages, fetched from the
# archive (checksums from the signed-by-apt Packages index are verified),
# unpacked into a private root and never installed:
#   bullseye            5.10 (the floor Kbuild accepts)
#   bookworm-backports  6.12 (the next Debian LTS kernel)
# A target passes when modpost resolves every symbol against that kernel's
# Module.symvers and the build prints not one warning.
#
#   tests/compat-build.sh [--offline]
#
# Downloads are cached in $PCIEAUDIT_CACHE/headers (default
# /var/cache/pcieaudit); --offline uses only the cache.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_ROOT=$(cd "$HERE/.." && pwd)
CACHE=${PCIEAUDIT_CACHE:-/var/cache/pcieaudit}/headers
MIRROR=${PCIEAUDIT_DEBIAN_MIRROR:-http://deb.debian.org/debian}
OFFLINE=0
[[ ${1:-} == --offline ]] && OFFLINE=1

# suite | header package pattern (an ERE matched against the whole name)
TARGETS=(
	'bullseye|linux-headers-5\.10\.0-[0-9]+-amd64'
	'bookworm-backports|linux-headers-6\.12\.[0-9]+\+deb12-amd64'
)

log() { printf '[compat] %s\n' "$*" >&2; }
die() { printf '[compat] ERROR: %s\n' "$*" >&2; exit 1; }

for t in curl xz dpkg-deb gcc make pahole; do
	command -v "$t" >/dev/null || die "$t missing (make deps)"
done
mkdir -p "$CACHE"

# index SUITE: path of the suite's Packages file, fetched once a day.
index() {
	local f=$CACHE/$1.Packages
	if [[ $OFFLINE == 0 && ( ! -s $f || -n $(find "$f" -mmin +1440) ) ]]; then
		if curl -fsS -m 120 "$MIRROR/dists/$1/main/binary-amd64/Packages.xz" | xz -d >"$f.tmp"; then
			mv "$f.tmp" "$f"
		else
			rm -f "$f.tmp"
			[[ -s $f ]] || die "cannot fetch the $1 index from $MIRROR"
			log "cannot refresh the $1 index; using the cached one"
		fi
	fi
	[[ -s $f ]] || die "no cached $1 index (run without --offline)"
	printf '%s\n' "$f"
}

# field INDEX PACKAGE FIELD: a field of a package's stanza.
field() {
	awk -v RS= -v p="$2" 'index($0, "Package: " p "\n") == 1' "$1" |
		sed -n "s/^$3: //p" | head -n1
}

# fetch INDEX PACKAGE: the verified .deb in the cache.
fetch() {
	local idx=$1 pkg=$2 file sha deb
	file=$(field "$idx" "$pkg" Filename)
	sha=$(field "$idx" "$pkg" SHA256)
	[[ -n $file && -n $sha ]] || die "$pkg is not in ${idx##*/}"
	deb=$CACHE/${file##*/}
	if [[ ! -s $deb ]]; then
		[[ $OFFLINE == 0 ]] || die "$pkg not cached (run without --offline)"
		log "fetching ${file##*/}"
		curl -fsS -m 600 -o "$deb.tmp" "$MIRROR/$file" || die "cannot fetch $file"
		mv "$deb.tmp" "$deb"
	fi
	echo "$sha  $deb" | sha256sum -c --quiet - >&2 || { rm -f "$deb"; die "checksum mismatch: $deb"; }
	printf '%s\n' "$deb"
}

fail=0
for target in "${TARGETS[@]}"; do
	suite=${target%%|*} pattern=${target#*|}
	idx=$(index "$suite")
	pkg=$(sed -n 's/^Package: //p' "$idx" | grep -E "^$pattern\$" | sort -V | tail -n1)
	[[ -n $pkg ]] || die "no package matching $pattern in $suite"
	version=$(field "$idx" "$pkg" Version)
	# The flavour's headers need the common headers and kbuild's host tools.
	mapfile -t deps < <(field "$idx" "$pkg" Depends | tr ',' '\n' |
		sed -n 's/^ *\(linux-\(headers\|kbuild\)-[^ ]*\).*/\1/p')
	root=$CACHE/$pkg-$version
	if [[ ! -f $root/.unpacked ]]; then
		rm -rf "$root"
		mkdir -p "$root"
		for p in "$pkg" "${deps[@]}"; do
			dpkg-deb -x "$(fetch "$idx" "$p")" "$root"
		done
		# The flavour's Makefile includes the common tree by absolute path.
		sed -i "s#^include /usr/src/#include $root/usr/src/#" "$root/usr/src/$pkg/Makefile"
		touch "$root/.unpacked"
	fi
	kdir=$root/usr/src/$pkg
	kver=${pkg#linux-headers-}

	work=$(mktemp -d)
	(cd "$REPO_ROOT" && find Kbuild kmod include -type f \( -name Kbuild -o -name '*.[ch]' \) \
		-exec cp --parents -t "$work" {} +)
	log "$kver ($suite $version): building"
	# CC: the headers name the compiler they were built with (gcc-10 for
	# bullseye), which bookworm lacks; gcc-12 builds the module fine.
	if ! make -C "$kdir" M="$work" CC=gcc modules >"$work/build.log" 2>&1; then
		tail -n 30 "$work/build.log" >&2
		log "FAIL $kver: pcieaudit.ko does not build"
		fail=1
	elif grep -i 'warning' "$work/build.log" >&2; then
		log "FAIL $kver: the build warns"
		fail=1
	elif [[ $(modinfo -F vermagic "$work/pcieaudit.ko") != "$kver "* ]]; then
		log "FAIL $kver: vermagic is $(modinfo -F vermagic "$work/pcieaudit.ko")"
		fail=1
	else
		log "PASS $kver: pcieaudit.ko built, every symbol resolved, no warnings"
	fi
	rm -rf "$work"
done
exit $fail
