# shellcheck shell=bash disable=SC2034
# Shared helpers for the VM harness; sourced, never executed.
# Callers have already done `set -euo pipefail`.

VM_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_ROOT=$(cd "$VM_DIR/../.." && pwd)
OUT_DIR=${PCIEAUDIT_VM_OUT:-$VM_DIR/out}
MODULE_KO=$REPO_ROOT/pcieaudit.ko
CLI_BIN=$REPO_ROOT/user/pcieaudit-cli

# Markers around the payload on ttyS1; long and unlikely to occur in base64.
PAYLOAD_BEGIN='=====PCIEAUDIT-PAYLOAD-BEGIN-7f3a9c====='
PAYLOAD_END='=====PCIEAUDIT-PAYLOAD-END-7f3a9c====='

log() { printf '[vm] %s\n' "$*" >&2; }
die() { printf '[vm] ERROR: %s\n' "$*" >&2; exit 1; }

# The guest runs the Debian kernel that is installed, not the host's (the
# host kernel is whatever the CI box boots). KVER overrides; otherwise the
# project's tests/kernel-version.sh (newest image with headers), else the
# newest /boot/vmlinuz-* with modules. Never a hard-coded version.
detect_kver() {
	local k v best=
	if [[ -n ${KVER:-} ]]; then
		best=$KVER
	elif [[ -x $REPO_ROOT/tests/kernel-version.sh ]]; then
		best=$("$REPO_ROOT/tests/kernel-version.sh") || die "no usable kernel (tests/kernel-version.sh)"
	else
		for k in /boot/vmlinuz-*; do
			[[ -e $k ]] || continue
			v=${k#/boot/vmlinuz-}
			[[ -d /lib/modules/$v/kernel ]] || continue
			best=$(printf '%s\n%s\n' "$best" "$v" | sed '/^$/d' | sort -V | tail -n1)
		done
	fi
	[[ -n $best ]] || die "no /boot/vmlinuz-* with modules in /lib/modules; install linux-image-amd64"
	[[ -d /lib/modules/$best/kernel ]] || die "no modules for $best in /lib/modules"
	printf '%s\n' "$best"
}

# True when the artifacts under test exist (they are built by others and may
# be missing while the project is young).
have_artifacts() { [[ -f $MODULE_KO && -x $CLI_BIN ]]; }

# ---- kernels other than the installed one (a topology's TOPO_KERNEL) --------

# Both caches live outside the clone, so that CI's fresh clones reuse them:
# tests/kernels/build-kernel.sh's test kernels (see its README for what a
# cold build costs) and tests/kernels/debian-kernel.sh's Debian kernels.
KERNEL_CACHE=${PCIEAUDIT_CACHE:-/var/cache/pcieaudit}

# A kernel is named by what boots it:
#   ''/stock   the installed Debian kernel (detect_kver)
#   5.10, 7.3  Debian's own kernels (tests/kernels/debian-kernels.list)
#   p2pdma     the test kernels of tests/kernels/ (FLAVOUR.config)
is_debian_kernel() { [[ $1 =~ ^[0-9] ]]; }

# kernel_tree NAME: the kernel's directory, fetched or built first if it is
# not cached. A test kernel's is its object tree (bzImage, kernelrelease); a
# Debian kernel's holds vmlinuz, config, kernelrelease, root/ and chroot/.
kernel_tree() {
	local dir script=build-kernel.sh
	is_debian_kernel "$1" && script=debian-kernel.sh
	dir=$(PCIEAUDIT_CACHE=$KERNEL_CACHE "$REPO_ROOT/tests/kernels/$script" "$1" | tail -n1) ||
		die "tests/kernels/$script $1 failed"
	[[ -s $dir/kernelrelease ]] || die "no kernelrelease in $dir"
	printf '%s\n' "$dir"
}

# kernel_image NAME DIR, kernel_config NAME DIR: what QEMU boots and the
# build options the oracle reads.
kernel_image() { if is_debian_kernel "$1"; then printf '%s\n' "$2/vmlinuz"; else printf '%s\n' "$2/bzImage"; fi; }
kernel_config() { if is_debian_kernel "$1"; then printf '%s\n' "$2/config"; else printf '%s\n' "$2/.config"; fi; }

# The files an external module build reads, relative to the repository.
module_sources() {
	find Kbuild kmod include -type f \( -name Kbuild -o -name '*.[ch]' \) | LC_ALL=C sort
}

# kernel_make NAME DIR SRC ARGS...: make for the external module in SRC
# against the kernel NAME whose directory is DIR. A Debian kernel's module is
# built in its chroot, with the kernel's own compiler and headers: SRC is
# bound to /build there, in a mount namespace that dies with the command.
kernel_make() {
	local name=$1 dir=$2 src=$3
	shift 3
	if is_debian_kernel "$name"; then
		mkdir -p "$dir/chroot/build"
		unshare --mount --propagation private /bin/sh -ec '
			root=$1 src=$2
			shift 2
			mount --bind "$src" "$root/build"
			mount -t proc proc "$root/proc"
			exec chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@"
		' sh "$dir/chroot" "$src" \
			make -C "$(cat "$dir/kdir")" M=/build "$@"
	else
		make -C "$dir" M="$src" "$@"
	fi
}

# module_for NAME DIR: pcieaudit.ko built against kernel NAME (directory
# DIR), printed as a path. The build runs in a copy (out/kmod-NAME/: Kbuild,
# kmod/, include/) so the repository root keeps its build for the installed
# kernel; the copy is rebuilt only when one of those files, the kernel or
# the version changed.
module_for() {
	local name=$1 kdir=$2 dir=$OUT_DIR/kmod-$1 key version rev
	version=$(sed -n 's/.*PCIEAUDIT_VERSION "\(.*\)"/\1/p' "$REPO_ROOT/kmod/version.h")
	rev=$(git -C "$REPO_ROOT" rev-parse --short HEAD 2>/dev/null) && version+=+g$rev
	key=$({
		printf '%s %s %s\n' "$kdir" "$(cat "$kdir/kernelrelease")" "$version"
		cd "$REPO_ROOT" && module_sources | xargs sha256sum
	} | sha256sum | cut -c1-16)
	mkdir -p "$OUT_DIR"
	(
		flock 9
		[[ -f $dir/pcieaudit.ko && $(cat "$dir/.key" 2>/dev/null) == "$key" ]] && exit 0
		log "building pcieaudit.ko against $(cat "$kdir/kernelrelease") in ${dir#"$REPO_ROOT"/}"
		rm -rf "$dir"
		mkdir -p "$dir"
		# Sources only: the stock build's objects sit next to them.
		(cd "$REPO_ROOT" && module_sources | xargs cp --parents -t "$dir")
		if ! kernel_make "$name" "$kdir" "$dir" PCIEAUDIT_VERSION="$version" modules >"$dir.log" 2>&1; then
			tail -n 40 "$dir.log" >&2
			die "pcieaudit.ko does not build against $kdir (log: ${dir#"$REPO_ROOT"/}.log)"
		fi
		# As the style gate for Debian's kernel: not a single warning.
		if grep -i 'warning' "$dir.log" >&2; then
			die "pcieaudit.ko builds with warnings against $kdir"
		fi
		echo "$key" >"$dir/.key"
	) 9>"$OUT_DIR/kmod-$name.lock" || exit 1
	printf '%s\n' "$dir/pcieaudit.ko"
}
