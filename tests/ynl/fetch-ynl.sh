#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Fetches the kernel's own YNL tools for make ynl-check (docs/protocol.md):
# the newest linux-source-6.12 of bookworm-backports, of which only
# tools/net/ynl and the genetlink schemas Documentation/netlink/*.yaml are
# kept.
#
#   tests/ynl/fetch-ynl.sh [--offline]
#
# Prints the tree's directory as the last line of stdout; logs go to stderr.
# The directory holds tools/net/ynl/, Documentation/netlink/*.yaml and
# "package" ("SUITE PACKAGE VERSION").
#
# Packages come through apt itself in a private root, as in
# tests/kernels/debian-kernel.sh: apt verifies the archive's signatures and
# the package's checksum, and the mirror is the one of this system's own apt
# sources labelled "Debian". No mirror is named here.
#
# Cached in $PCIEAUDIT_CACHE/ynl (default /var/cache/pcieaudit); the package
# index is fetched again after a day. --offline uses only the cache.
set -euo pipefail

CACHE=${PCIEAUDIT_CACHE:-/var/cache/pcieaudit}/ynl
KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg
APT_ROOT=$CACHE/apt
SUITE=bookworm-backports
PATTERN='linux-source-6\.12'

# shellcheck source=tests/kernels/private-apt.sh
. "$(dirname "${BASH_SOURCE[0]}")/../kernels/private-apt.sh"

log() { printf '[fetch-ynl] %s\n' "$*" >&2; }
die() { printf '[fetch-ynl] ERROR: %s\n' "$*" >&2; exit 1; }

OFFLINE=0
case ${1:-} in
--offline) OFFLINE=1; shift ;;
esac
[[ $# -eq 0 ]] || die "usage: $0 [--offline]"

for t in apt-get apt-cache dpkg-deb tar flock; do
	command -v "$t" >/dev/null || die "$t missing (make deps)"
done
[[ -r $KEYRING ]] || die "$KEYRING missing (debian-archive-keyring)"

mkdir -p "$CACHE"
exec 8>"$CACHE/.lock"
flock 8

# The tree of the newest version already extracted, when offline.
newest_tree() {
	find "$CACHE" -mindepth 2 -maxdepth 2 -name package -printf '%h\n' 2>/dev/null |
		sort -V | tail -n 1
}

if [[ $OFFLINE == 1 ]]; then
	tree=$(newest_tree)
	[[ -n $tree && -d $tree/tools/net/ynl ]] || die "no cached YNL tree (run without --offline)"
	printf '%s\n' "$tree"
	exit 0
fi

MAIN=$(apt_mirror Debian)
[[ -n $MAIN ]] || die "no Debian archive in this system's apt sources (apt-get indextargets)"

apt_root_init "$APT_ROOT" "deb [signed-by=$KEYRING] $MAIN $SUITE main"
if apt_indexes_stale "$APT_ROOT"; then
	log "updating the package index of $SUITE"
	if ! apt_update "$APT_ROOT"; then
		tree=$(newest_tree)
		[[ -n $tree ]] || die "cannot fetch the package index"
		log "cannot refresh the index; using the cached tree"
		printf '%s\n' "$tree"
		exit 0
	fi
fi

# The newest linux-source-6.12 the suite has.
read -r PKG VERSION < <(apt-cache "${APT[@]}" search --names-only "^$PATTERN\$" |
	awk '{ print $1 }' | while read -r p; do
		apt-cache "${APT[@]}" madison "$p" | awk -v p="$p" '{ print p, $3 }'
	done | sort -k2,2V | tail -n 1) || die "no $PATTERN in $SUITE"
TREE=$CACHE/$PKG-$VERSION
if [[ -f $TREE/package && -d $TREE/tools/net/ynl ]]; then
	log "cached: $PKG $VERSION"
	printf '%s\n' "$TREE"
	exit 0
fi

log "downloading $PKG $VERSION"
WORK=$CACHE/tmp
rm -rf "$WORK" "$TREE"
mkdir -p "$WORK/deb" "$TREE"
(cd "$WORK" && apt-get "${APT[@]}" -q download "$PKG=$VERSION" >&2) ||
	die "cannot download $PKG $VERSION"
dpkg-deb -x "$WORK"/"$PKG"_*.deb "$WORK/deb"
TARBALL=$(find "$WORK/deb/usr/src" -maxdepth 1 -name 'linux-source-*.tar.*' | head -n 1)
[[ -n $TARBALL ]] || die "no source tarball in $PKG"
TOP=$(basename "$TARBALL"); TOP=${TOP%.tar.*}
log "extracting tools/net/ynl and Documentation/netlink/*.yaml from ${TARBALL##*/}"
tar -xaf "$TARBALL" -C "$WORK" --wildcards \
	"$TOP/tools/net/ynl" "$TOP/Documentation/netlink/*.yaml"
mv "$WORK/$TOP/tools" "$WORK/$TOP/Documentation" "$TREE/"
printf '%s %s %s\n' "$SUITE" "$PKG" "$VERSION" >"$TREE/package"
rm -rf "$WORK"
[[ -f $TREE/tools/net/ynl/ynl-gen-c.py || -f $TREE/tools/net/ynl/pyynl/ynl_gen_c.py ]] ||
	die "no ynl-gen-c in the extracted tree"
printf '%s\n' "$TREE"
