#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Builds a pcieaudit test kernel from Debian's linux-source-6.1.
#
#   tests/kernels/build-kernel.sh [--prepare] FLAVOUR
#
# --prepare configures the tree and runs modules_prepare only: enough to
# compile an external module against the flavour's options (no bzImage, no
# Module.symvers, so modpost cannot resolve symbols), in about a tenth of a
# build's time. make check compiles pcieaudit.ko so against `minimal`, whose
# full build only make check-kernels pays for (tests/compat-build.sh).
#
# FLAVOUR names a fragment next to this script: p2pdma, debug, minimal.
#
# Prints the output directory as the last line of stdout; everything else
# goes to stderr. The directory is the kernel's object tree (O=), so it holds
# bzImage, .config, kernelrelease and all an external module build needs:
#   make -C "$dir" M="$PWD" modules
#
# Cached: the directory is named <flavour>-<key>, the key hashing the source
# package version, the compiler, the config fragments and this script. An
# unchanged key returns at once; an interrupted build resumes where it stopped.
# The cache lives in $PCIEAUDIT_CACHE, default ~/.cache/pcieaudit/kernels
# ($XDG_CACHE_HOME honoured). Not below the repository: an external module's
# `make -C $KDIR M=<repo> clean` (tests/style.sh runs one) deletes *.o,
# .*.cmd, modules.order, ... in every directory below <repo>, and so wrecks
# any kernel build in progress there.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_ROOT=$(cd "$HERE/../.." && pwd)
CACHE=${PCIEAUDIT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pcieaudit/kernels}
SRC_PKG=linux-source-6.1
SRC_TAR=/usr/src/$SRC_PKG.tar.xz

log() { printf '[kernel] %s\n' "$*" >&2; }
die() { printf '[kernel] ERROR: %s\n' "$*" >&2; exit 1; }

usage() { die "usage: $0 [--prepare] FLAVOUR (a tests/kernels/FLAVOUR.config other than base)"; }
PREPARE=0
[[ ${1:-} == --prepare ]] && { PREPARE=1; shift; }
[[ $# -eq 1 ]] || usage
FLAVOUR=$1
[[ $FLAVOUR =~ ^[a-z0-9]+$ && $FLAVOUR != base && -f $HERE/$FLAVOUR.config ]] || usage
FRAGMENTS=("$HERE/base.config" "$HERE/$FLAVOUR.config")

# ---- inputs and cache key -------------------------------------------------------

pkg_version() { dpkg-query -W -f='${Status} ${Version}\n' "$SRC_PKG" 2>/dev/null | sed -n 's/^install ok installed //p'; }
SRC_VERSION=$(pkg_version || true)
if [[ -z $SRC_VERSION || ! -r $SRC_TAR ]]; then
	log "installing $SRC_PKG"
	apt-get install -y -qq --no-install-recommends "$SRC_PKG" >&2 ||
		{ apt-get update -qq >&2 && apt-get install -y -qq --no-install-recommends "$SRC_PKG" >&2; } ||
		die "cannot install $SRC_PKG"
	SRC_VERSION=$(pkg_version)
fi
[[ -r $SRC_TAR ]] || die "$SRC_TAR missing although $SRC_PKG $SRC_VERSION is installed"

for t in gcc make bc flex bison perl xz; do
	command -v "$t" >/dev/null || die "$t missing (build-essential bc flex bison xz-utils)"
done
for h in /usr/include/libelf.h /usr/include/openssl/ssl.h; do
	[[ -r $h ]] || die "$h missing (libelf-dev libssl-dev)"
done

# The compiler is part of the key: Kbuild warns when a module is built with
# another compiler than the kernel it is built against.
CC_VERSION=$(gcc --version | head -n1)

KEY=$({
	printf '%s %s\n' "$SRC_PKG" "$SRC_VERSION"
	printf '%s\n' "$CC_VERSION"
	((PREPARE)) && printf 'modules_prepare only\n'
	for f in "${FRAGMENTS[@]}" "$HERE/build-kernel.sh"; do
		printf '%s %s\n' "$(sha256sum <"$f" | cut -d' ' -f1)" "${f#"$REPO_ROOT"/}"
	done
} | sha256sum | cut -c1-16)
if ((PREPARE)); then
	OUT=$CACHE/$FLAVOUR-prepare-$KEY
else
	OUT=$CACHE/$FLAVOUR-$KEY
fi
STAMP=$OUT/.pcieaudit-complete

# What callers use: booting, and `make -C $OUT M=... modules`. Checked on
# every call, so a damaged tree is rebuilt rather than handed out. (With
# PCIEAUDIT_CACHE below the repository, the sweep described above deletes
# other files of finished trees; M= builds do not need those.)
NEEDED=(kernelrelease .config Makefile scripts/mod/modpost
	scripts/basic/fixdep scripts/module.lds include/generated/autoconf.h
	include/config/auto.conf tools/objtool/objtool)
((PREPARE)) || NEEDED+=(bzImage Module.symvers)
intact() {
	local f
	[[ -f $STAMP && -f $SRC_DIR/Makefile ]] || return 1
	for f in "${NEEDED[@]}"; do
		[[ -s $OUT/$f ]] || { log "cached tree lacks $f; rebuilding"; return 1; }
	done
}
SRC_DIR=$CACHE/src/$SRC_PKG-$(printf '%s' "$SRC_VERSION" | tr -c 'A-Za-z0-9._-' '_')

# Fast path: the stamp is written last, so its presence means a whole build.
if intact; then
	log "$FLAVOUR kernel cached: $OUT ($(cat "$OUT/kernelrelease"))"
	printf '%s\n' "$OUT"
	exit 0
fi

# ---- one builder at a time (2 cores; builds share the source tree) ----------

case $(realpath -m "$CACHE")/ in
"$REPO_ROOT"/*) log "warning: cache $CACHE is inside the repository; \`make M=$REPO_ROOT clean\` breaks builds in progress there" ;;
esac
mkdir -p "$CACHE"
# A --prepare tree waits for no full build (make check's compat-test runs
# while the debug kernel builds in the background); the source extraction
# below has a lock of its own.
if ((PREPARE)); then exec 9>"$CACHE/.lock-prepare"; else exec 9>"$CACHE/.lock"; fi
if ! flock -n 9; then
	log "waiting for another kernel build ($CACHE/.lock)"
	flock 9
fi
if intact 2>/dev/null; then # built by whoever held the lock
	log "$FLAVOUR kernel cached: $OUT ($(cat "$OUT/kernelrelease"))"
	printf '%s\n' "$OUT"
	exit 0
fi
rm -f "$STAMP"

# ---- source: extracted once per package version, never written to ---------

SRC=$SRC_DIR
exec 8>"$CACHE/.lock-src"
flock 8
if [[ ! -f $SRC/.pcieaudit-extracted ]]; then
	log "extracting $SRC_TAR ($SRC_PKG $SRC_VERSION)"
	rm -rf "$SRC" "$SRC.tmp"
	mkdir -p "$SRC.tmp"
	nice -n 10 tar -xJf "$SRC_TAR" -C "$SRC.tmp" --strip-components=1
	touch "$SRC.tmp/.pcieaudit-extracted"
	mv "$SRC.tmp" "$SRC"
	# Sources of older package versions only serve trees that are stale now.
	find "$CACHE/src" -mindepth 1 -maxdepth 1 ! -name "${SRC##*/}" -exec rm -rf {} +
fi
exec 8>&-

# ---- configure ----------------------------------------------------------------

JOBS=$(nproc)
# LOCALVERSION= (set, empty) stops setlocalversion from appending "+"; the
# suffix itself lives in CONFIG_LOCALVERSION, so that it sticks to the tree
# and a later `make -C $OUT M=...` needs no extra variables.
KMAKE=(nice -n 10 make -C "$SRC" O="$OUT" LOCALVERSION= -j"$JOBS")

mkdir -p "$OUT"
log "configuring $FLAVOUR in $OUT"
LOCAL_FRAGMENT=$OUT/.pcieaudit-localversion.config
printf 'CONFIG_LOCALVERSION="-pcieaudit-%s"\n# CONFIG_LOCALVERSION_AUTO is not set\n' "$FLAVOUR" >"$LOCAL_FRAGMENT"
ALL_FRAGMENTS=("${FRAGMENTS[@]}" "$LOCAL_FRAGMENT")

"${KMAKE[@]}" tinyconfig >&2
# -m: merge only; olddefconfig below resolves the result once.
(cd "$OUT" && "$SRC/scripts/kconfig/merge_config.sh" -m -O "$OUT" "$OUT/.config" "${ALL_FRAGMENTS[@]}") >&2
"${KMAKE[@]}" olddefconfig >&2

# Every option the fragments ask for must be in the final .config as asked;
# Kconfig drops unmet ones without a word. Later fragments override earlier.
declare -A WANT=()
declare -a ORDER=()
for f in "${ALL_FRAGMENTS[@]}"; do
	while IFS= read -r line; do
		if [[ $line =~ ^(CONFIG_[A-Za-z0-9_]+)=(.*)$ ]]; then
			sym=${BASH_REMATCH[1]} val=${BASH_REMATCH[2]}
		elif [[ $line =~ ^#\ (CONFIG_[A-Za-z0-9_]+)\ is\ not\ set$ ]]; then
			sym=${BASH_REMATCH[1]} val=n
		else
			continue
		fi
		[[ -n ${WANT[$sym]+x} ]] || ORDER+=("$sym")
		WANT[$sym]=$val
	done <"$f"
done
declare -A HAVE=()
while IFS= read -r line; do
	if [[ $line =~ ^(CONFIG_[A-Za-z0-9_]+)=(.*)$ ]]; then
		HAVE[${BASH_REMATCH[1]}]=${BASH_REMATCH[2]}
	fi
done <"$OUT/.config"
BAD=()
for sym in "${ORDER[@]}"; do
	want=${WANT[$sym]} have=${HAVE[$sym]:-n}
	[[ $want == "$have" ]] || BAD+=("$sym: asked $want, got $have")
done
if [[ ${#BAD[@]} -gt 0 ]]; then
	printf '[kernel]   %s\n' "${BAD[@]}" >&2
	die "${#BAD[@]} option(s) of the fragments did not survive olddefconfig (unmet dependencies, or forced on by a select); see $OUT/.config"
fi
log "all ${#ORDER[@]} requested options are set as asked"

# ---- build ----------------------------------------------------------------------

# `all` = bzImage + modules: Module.symvers (vmlinux's exports) comes from the
# modpost pass, which external module builds need.
TARGET=all
((PREPARE)) && TARGET=modules_prepare
log "building $FLAVOUR ($TARGET) with $JOBS jobs (log: $OUT/build.log)"
start=$SECONDS
if ! "${KMAKE[@]}" "$TARGET" >"$OUT/build.log" 2>&1; then
	tail -n 40 "$OUT/build.log" >&2
	die "kernel build failed; full log in $OUT/build.log"
fi
log "built in $((SECONDS - start)) s"

((PREPARE)) || cp "$OUT/arch/x86/boot/bzImage" "$OUT/bzImage"
cp "$OUT/include/config/kernel.release" "$OUT/kernelrelease"
touch "$STAMP"
intact || die "the build did not produce everything a caller needs"

# Trees of this flavour and kind with other keys are stale.
if ((PREPARE)); then
	find "$CACHE" -mindepth 1 -maxdepth 1 -name "$FLAVOUR-prepare-*" ! -name "${OUT##*/}" -exec rm -rf {} +
else
	find "$CACHE" -mindepth 1 -maxdepth 1 -name "$FLAVOUR-*" ! -name "$FLAVOUR-prepare-*" \
		! -name "${OUT##*/}" -exec rm -rf {} +
fi

log "$FLAVOUR kernel $(cat "$OUT/kernelrelease"): $OUT"
printf '%s\n' "$OUT"
