#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Fetches one of Debian's own kernels (tests/kernels/debian-kernels.list) for
# the VM matrix and makes a root to build modules for it.
#
#   tests/kernels/debian-kernel.sh [--offline] NAME     (5.10, 6.12, 7.2, 7.3)
#   tests/kernels/debian-kernel.sh --list               names, one a line
#
# Prints the kernel's directory as the last line of stdout; logs go to stderr.
# The directory holds
#   vmlinuz, config, kernelrelease   the image, its build options, uname -r
#   package                          "SUITE PACKAGE VERSION" of the image
#   root/                            the image's packages unpacked, with
#                                    root/lib/modules/KVER/modules.dep
#   chroot/                          a minimal root of the build suite with
#                                    the kernel's headers installed by apt,
#                                    and with them the kernel's own compiler
#   kdir                             the headers' path inside chroot/
#
# Packages come through apt itself, in a private root (apt verifies the
# archive's signatures and every package's checksum), from the mirrors of
# this system's own apt sources: the archive labelled "Debian" and, for a
# -security suite, "Debian-Security". No mirror is named here. The chroot is
# made by debootstrap from the same mirror, with Debian's archive keyring.
#
# Cached in $PCIEAUDIT_CACHE/debian (default /var/cache/pcieaudit), one
# directory per image package and version; the package indexes are fetched
# again after a day. --offline uses only the cache.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
LIST=$HERE/debian-kernels.list
CACHE=${PCIEAUDIT_CACHE:-/var/cache/pcieaudit}/debian
KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg
APT_ROOT=$CACHE/apt

# shellcheck source=tests/kernels/private-apt.sh
. "$HERE/private-apt.sh"

log() { printf '[debian-kernel] %s\n' "$*" >&2; }
die() { printf '[debian-kernel] ERROR: %s\n' "$*" >&2; exit 1; }

list_entries() { sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$LIST"; }

OFFLINE=0
case ${1:-} in
--list) list_entries | awk '{ print $1 }'; exit 0 ;;
--offline) OFFLINE=1; shift ;;
esac
[[ $# -eq 1 ]] || die "usage: $0 [--offline] NAME | --list"
NAME=$1
read -r _ SUITE PATTERN < <(list_entries | awk -v n="$NAME" '$1 == n') ||
	die "no kernel '$NAME' in ${LIST##*/} (have: $(list_entries | awk '{ print $1 }' | xargs))"
BASE_SUITE=${SUITE%-backports}
BASE_SUITE=${BASE_SUITE%-security}

for t in apt-get apt-cache dpkg-deb depmod debootstrap unshare flock; do
	command -v "$t" >/dev/null || die "$t missing (make deps)"
done
[[ -r $KEYRING ]] || die "$KEYRING missing (debian-archive-keyring)"

# ---- mirrors, from the system's apt sources -------------------------------------

MAIN=$(apt_mirror Debian)
[[ -n $MAIN ]] || die "no Debian archive in this system's apt sources (apt-get indextargets)"
SECURITY=$(apt_mirror Debian-Security)
uri_of() {
	if [[ $1 == *-security ]]; then
		[[ -n $SECURITY ]] || die "$1 needs a Debian-Security source in this system's apt sources"
		printf '%s\n' "$SECURITY"
	else
		printf '%s\n' "$MAIN"
	fi
}

# ---- the private apt root -------------------------------------------------------

# wait_lock FD FILE: one writer at a time: the indexes under one lock,
# each kernel's directory under its own.
wait_lock() {
	eval "exec $1>\"\$2\""
	if ! flock -n "$1"; then
		log "waiting for $2"
		flock "$1"
	fi
}
mkdir -p "$CACHE"
wait_lock 8 "$CACHE/.lock-apt"

# Every suite of the list in one root, so one update serves every kernel.
SOURCES=$(list_entries | awk '{ print $2 }' | sort -u | while read -r s; do
	printf 'deb [signed-by=%s] %s %s main\n' "$KEYRING" "$(uri_of "$s")" "$s"
done)
apt_root_init "$APT_ROOT" "$SOURCES"
if [[ $OFFLINE == 0 ]] && apt_indexes_stale "$APT_ROOT"; then
	log "updating the package indexes"
	if ! apt_update "$APT_ROOT"; then
		[[ -f $APT_ROOT/.updated ]] || die "cannot fetch the package indexes"
		log "cannot refresh the indexes; using the cached ones"
	fi
fi
[[ -f $APT_ROOT/.updated ]] || die "no cached package indexes (run without --offline)"
exec 8>&-

# ---- which package ----------------------------------------------------------------

# versions_in PACKAGE: the package's versions in $SUITE, newest first.
versions_in() {
	apt-cache "${APT[@]}" madison "$1" |
		awk -F'|' -v s=" $SUITE/main " 'index($3, s) { gsub(/ /, "", $2); print $2 }' | sort -rV
}
IMAGE= VERSION=
for p in $(apt-cache "${APT[@]}" pkgnames linux-image- | grep -E "^$PATTERN\$" | sort -rV); do
	VERSION=$(versions_in "$p" | head -n1)
	[[ -n $VERSION ]] && { IMAGE=$p; break; }
done
[[ -n $IMAGE ]] || die "no package matching $PATTERN in $SUITE"
KVER=${IMAGE#linux-image-}
OUT=$CACHE/$IMAGE-$VERSION
if [[ ! -f $OUT/.complete ]]; then
	wait_lock 9 "$CACHE/.lock-$NAME"
fi
if [[ -f $OUT/.complete ]]; then
	log "$NAME cached: $SUITE $IMAGE $VERSION"
	printf '%s\n' "$OUT"
	exit 0
fi

# ---- the image -------------------------------------------------------------------------

log "$NAME: $SUITE $IMAGE $VERSION"
rm -rf "$OUT"
mkdir -p "$OUT/root" "$CACHE/debs"
# From about 6.19 the image package is a metapackage over binary, modules
# and base packages of the same version.
PKGS=("$IMAGE")
mapfile -t -O 1 PKGS < <(apt-cache "${APT[@]}" show "$IMAGE=$VERSION" | sed -n 's/^Depends: //p' |
	tr ',' '\n' | sed -n "s/^ *\(linux-\(binary\|modules\|base\)-$KVER\) .*/\1/p")
for p in "${PKGS[@]}"; do
	deb=$(find "$CACHE/debs" -name "${p}_${VERSION//:/%3a}_amd64.deb" | head -n1)
	if [[ -z $deb ]]; then
		[[ $OFFLINE == 0 ]] || die "$p $VERSION not cached (run without --offline)"
		log "downloading $p $VERSION"
		(cd "$CACHE/debs" && apt-get "${APT[@]}" -q download "$p=$VERSION" >&2) ||
			die "cannot download $p $VERSION"
		deb=$(find "$CACHE/debs" -name "${p}_*${VERSION#*:}_amd64.deb" | head -n1)
	fi
	[[ -s $deb ]] || die "no .deb for $p $VERSION"
	dpkg-deb -x "$deb" "$OUT/root"
done
# Older versions of these packages serve no kernel any more.
for p in "${PKGS[@]}"; do
	find "$CACHE/debs" -name "${p%"$KVER"}*_amd64.deb" ! -name "*_${VERSION#*:}_amd64.deb" -delete
done

for d in "$OUT/root/lib/modules/$KVER" "$OUT/root/usr/lib/modules/$KVER"; do
	[[ -d $d ]] && MODDIR=$d
done
[[ -n ${MODDIR:-} ]] || die "$IMAGE has no modules directory"
if [[ ! -e $OUT/root/lib/modules ]]; then
	mkdir -p "$OUT/root/lib"
	ln -s ../usr/lib/modules "$OUT/root/lib/modules"
fi
for f in "$OUT/root/boot/vmlinuz-$KVER" "$MODDIR/vmlinuz"; do
	[[ -s $f ]] && ln -sf "${f#"$OUT"/}" "$OUT/vmlinuz"
done
for f in "$OUT/root/boot/config-$KVER" "$MODDIR/config"; do
	[[ -s $f ]] && ln -sf "${f#"$OUT"/}" "$OUT/config"
done
[[ -s $OUT/vmlinuz && -s $OUT/config ]] || die "$IMAGE: no vmlinuz or config"
depmod -b "$OUT/root" "$KVER" || die "depmod failed for $KVER"
printf '%s\n' "$KVER" >"$OUT/kernelrelease"
printf '%s %s %s\n' "$SUITE" "$IMAGE" "$VERSION" >"$OUT/package"

# ---- the build root: the suite's own compiler and the kernel's headers ----------------

log "$NAME: debootstrap $BASE_SUITE (log: $OUT/chroot.log)"
CHROOT=$OUT/chroot
debootstrap --variant=minbase --keyring="$KEYRING" "$BASE_SUITE" "$CHROOT" "$(uri_of "$BASE_SUITE")" \
	>"$OUT/chroot.log" 2>&1 || { tail -n 20 "$OUT/chroot.log" >&2; die "debootstrap $BASE_SUITE failed"; }
{
	printf 'deb [signed-by=/etc/apt/debian-archive-keyring.gpg] %s %s main\n' "$(uri_of "$BASE_SUITE")" "$BASE_SUITE"
	[[ $SUITE == "$BASE_SUITE" ]] ||
		printf 'deb [signed-by=/etc/apt/debian-archive-keyring.gpg] %s %s main\n' "$(uri_of "$SUITE")" "$SUITE"
} >"$CHROOT/etc/apt/sources.list"
cp "$KEYRING" "$CHROOT/etc/apt/debian-archive-keyring.gpg"
echo 'Acquire::Check-Valid-Until "false";' >"$CHROOT/etc/apt/apt.conf.d/90pcieaudit"
cp -L /etc/resolv.conf "$CHROOT/etc/resolv.conf" 2>/dev/null || true
# Some suites' headers depend on the image, whose initramfs is not wanted
# here: update-initramfs is diverted to true.
log "$NAME: installing linux-headers-$KVER $VERSION in the chroot"
unshare --mount --propagation private chroot "$CHROOT" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
	HOME=/root LANG=C.UTF-8 /bin/sh -c '
	mount -t proc proc /proc &&
	dpkg-divert --local --rename --add /usr/sbin/update-initramfs >/dev/null &&
	ln -sf /bin/true /usr/sbin/update-initramfs &&
	apt-get -q update &&
	DEBIAN_FRONTEND=noninteractive apt-get -q install -y --no-install-recommends make binutils \
		"linux-headers-$1=$2" &&
	apt-get clean' sh "$KVER" "$VERSION" >>"$OUT/chroot.log" 2>&1 ||
	{ tail -n 20 "$OUT/chroot.log" >&2; die "cannot install the $KVER headers in the chroot"; }
KDIR=/usr/src/linux-headers-$KVER
[[ -f $CHROOT$KDIR/Makefile ]] || die "no $KDIR in the chroot"
printf '%s\n' "$KDIR" >"$OUT/kdir"

touch "$OUT/.complete"
# Other versions of this kernel are stale now.
find "$CACHE" -mindepth 1 -maxdepth 1 -name "${IMAGE}-*" ! -name "${OUT##*/}" -exec rm -rf {} +
log "$NAME ready: $KVER in $OUT"
printf '%s\n' "$OUT"
