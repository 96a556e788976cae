#!/bin/bash
# Builds the busybox initramfs that boots the installed Debian kernel for the
# VM tests. Prints the path of the cpio.gz on stdout.
#
#   build-initramfs.sh [--kernel NAME --kernel-dir DIR --module KO]
#                      [--init SCRIPT] [--prog SRC.c]... [--bin PATH]...
#                      [--tag TAG]
#
# With --kernel, the image is for another kernel than the installed one (DIR
# its directory from lib.sh's kernel_tree, KO pcieaudit.ko built against
# it). A test kernel of tests/kernels/ has every driver the topologies need
# built in, so no modules are copied; a Debian kernel's modules come from
# its unpacked packages (DIR/root), decompressed for busybox.
# --init replaces guest-init.sh as /init (suites other than the oracle's:
# stress, fuzzing); --prog compiles a C file, linked with libnl-genl, into
# /usr/bin/<name>; --bin copies a host binary and its libraries. --tag
# names the image apart (initramfs-KERNEL-TAG-KEY), so that an image with
# other binaries than its kernel's plain one (a topology's TOPO_REPLAY) does
# not delete that one, which other guests may be booting, as outdated.
#
# Cached: the output is named after a hash of every input (scripts, binaries,
# libraries, modules, pcieaudit.ko, the CLI), so it is rebuilt exactly when
# one of them changes.
set -euo pipefail

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

KNAME='' KDIR='' INIT=$VM_DIR/guest-init.sh PROGS=() EXTRA_BINS=() TAG=''
while [[ $# -gt 0 ]]; do
	case $1 in
	--kernel) KNAME=$2; shift 2 ;;
	--kernel-dir) KDIR=$2; shift 2 ;;
	--module) MODULE_KO=$2; shift 2 ;;
	--init) INIT=$(realpath "$2"); shift 2 ;;
	--prog) PROGS+=("$(realpath "$2")"); shift 2 ;;
	--bin) EXTRA_BINS+=("$(realpath "$2")"); shift 2 ;;
	--tag) TAG=$2; shift 2 ;;
	*) die "unknown argument $1" ;;
	esac
done
# MODROOT: the root the guest's modules come from; MODDIR: their directory.
MODROOT=/
if [[ -n $KNAME ]]; then
	[[ -n $KDIR && -f $MODULE_KO ]] || die "--kernel needs --kernel-dir and --module"
	KVER=$(cat "$KDIR/kernelrelease")
	MODDIR=$KDIR
	if is_debian_kernel "$KNAME"; then
		MODROOT=$KDIR/root
		MODDIR=$MODROOT/lib/modules/$KVER
	fi
else
	KVER=$(detect_kver)
	MODDIR=/lib/modules/$KVER
fi

# Drivers for the functions the topologies create (loaded in the guest by
# modalias). virtio_iommu is absent: Debian 6.1 has CONFIG_VIRTIO_IOMMU unset.
# Display stand-ins (bochs-display) are left without a driver on purpose, so
# that "driver": null is exercised.
# vfio-pci and vfio_iommu_type1 serve the VFIO-ownership check (vfio-hold.c).
GUEST_MODULES=(nvme e1000e e1000 virtio_pci virtio_net vfio-pci vfio_iommu_type1)
# Optional: left out where the kernel lacks them. qemu_fw_cfg shows QEMU's
# -fw_cfg files in /sys/firmware (expect-init.sh's golden snapshot).
OPTIONAL_MODULES=(qemu_fw_cfg)
[[ -n $KNAME && $MODROOT == / ]] && GUEST_MODULES=() OPTIONAL_MODULES=()

command -v busybox >/dev/null || die "busybox missing; apt-get install busybox-static"
BUSYBOX=$(command -v busybox)
# A dynamically linked busybox would need its libraries; insist on static.
if ldd "$BUSYBOX" >/dev/null 2>&1; then
	die "$BUSYBOX is dynamically linked; install busybox-static"
fi
for t in lspci setpci depmod cpio gzip gcc; do
	command -v "$t" >/dev/null || die "$t missing (pciutils, kmod, cpio, build-essential)"
done
PCI_IDS=/usr/share/misc/pci.ids
[[ -r $PCI_IDS ]] || PCI_IDS=/usr/share/hwdata/pci.ids
[[ -r $PCI_IDS ]] || die "pci.ids missing (pciutils / pci.ids package)"

# ---- collect the inputs -------------------------------------------------------

# The kernel's configuration as Debian installs it (/boot/config-RELEASE):
# the CLI reads CONFIG_DMA_SHARED_BUFFER there, as on a real machine;
# without it, it falls back to scanning /proc/kallsyms, which a real Debian
# system never does (a whole scan costs about 0.5 s under TCG).
if [[ -n $KNAME ]]; then
	KCONFIG=$(kernel_config "$KNAME" "$KDIR")
else
	KCONFIG=/boot/config-$KVER
fi
[[ -r $KCONFIG ]] || die "no kernel configuration $KCONFIG"

# Kernel modules: host kmod resolves dependencies (and softdeps) for us.
# deps_of NAME: absolute paths of NAME's .ko and everything it needs.
deps_of() {
	local out
	local root=()
	[[ $MODROOT == / ]] || root=(-d "$MODROOT")
	out=$(modprobe "${root[@]}" -S "$KVER" --show-depends "$1" 2>&1) || die "module $1 not found for $KVER: $out"
	awk '$1 == "insmod" { print $2 }' <<<"$out"
}
MOD_FILES=()
for m in "${GUEST_MODULES[@]}"; do
	mapfile -t -O "${#MOD_FILES[@]}" MOD_FILES < <(deps_of "$m")
	[[ ${#MOD_FILES[@]} -gt 0 ]] || die "no files for module $m"
done
for m in "${OPTIONAL_MODULES[@]}"; do
	(deps_of "$m") >/dev/null 2>&1 || continue
	mapfile -t -O "${#MOD_FILES[@]}" MOD_FILES < <(deps_of "$m")
done

# pcieaudit.ko's own dependencies (normally none outside vmlinux).
KO_DEPS=()
if [[ -f $MODULE_KO ]]; then
	IFS=, read -r -a KO_DEPS <<<"$(modinfo -F depends "$MODULE_KO")"
	for m in "${KO_DEPS[@]}"; do
		[[ -n $m ]] || continue
		[[ -z $KNAME || $MODROOT != / ]] || die "pcieaudit.ko depends on $m, which $KVER does not build in"
		mapfile -t -O "${#MOD_FILES[@]}" MOD_FILES < <(deps_of "$m")
	done
fi
[[ ${#MOD_FILES[@]} -eq 0 ]] || mapfile -t MOD_FILES < <(printf '%s\n' "${MOD_FILES[@]}" | sort -u)

# capsh (libcap2-bin): the check without CAP_SYS_ADMIN; busybox has none.
BINS=(/usr/bin/lspci /usr/bin/setpci /usr/sbin/capsh "${EXTRA_BINS[@]}")
[[ -x $CLI_BIN ]] && BINS+=("$CLI_BIN")

# The libraries the CLI opens at run time (dlopen), not in its ldd list:
# the exporter's libmicrohttpd, with what it links, and libcrypt for the
# web configuration's bcrypt hashes.
RUNTIME_LIBS=()
for l in libmicrohttpd.so.12 libcrypt.so.1; do
	# awk reads to the end: an early exit would kill ldconfig with SIGPIPE,
	# which pipefail and set -e turn into this script's silent death.
	p=$(ldconfig -p | awk -v l="$l" '$1 == l && /x86-64/ && !n++ { print $NF }')
	[[ -n $p ]] && RUNTIME_LIBS+=("$p")
done

# Shared objects of the dynamic binaries, including the loader.
mapfile -t LIBS < <(
	printf '%s\n' "${RUNTIME_LIBS[@]}"
	for b in "${BINS[@]}" "${RUNTIME_LIBS[@]}"; do
		# Not every --bin is a dynamic executable (static, data); the
		# binaries after it still need their libraries.
		{ ldd "$b" 2>/dev/null || true; } |
			awk '/=> \// { print $3 } /^[[:space:]]*\/[^ ]+ \(/ { print $1 }'
	done | sort -u
)

INPUT_FILES=("$0" "$VM_DIR/lib.sh" "$VM_DIR/guest-lib.sh" "$VM_DIR/guest-exporter.sh" "$INIT" "$VM_DIR/vfio-hold.c" "$VM_DIR/idle-conns.c" "$VM_DIR/dump-probe.c"
	"$VM_DIR/p2p-probe.c" "${PROGS[@]}" "$REPO_ROOT/include/uapi/linux/pcieaudit.h" "$BUSYBOX" "$PCI_IDS"
	"${BINS[@]}" "${LIBS[@]}" "${MOD_FILES[@]}" "$MODDIR/modules.builtin" "$KCONFIG")
[[ -f $MODDIR/modules.order ]] && INPUT_FILES+=("$MODDIR/modules.order")
[[ -f $MODULE_KO ]] && INPUT_FILES+=("$MODULE_KO")
[[ -f $MODDIR/modules.builtin.modinfo ]] && INPUT_FILES+=("$MODDIR/modules.builtin.modinfo")

# The key covers names and contents (a renamed input must miss the cache too).
# Repo files are named relative to the repo, so the key does not depend on
# where the clone lives or how this script was invoked.
KEY=$({
	printf '%s\n' "$KVER"
	for f in "${INPUT_FILES[@]}"; do
		f=$(realpath "$f")
		printf '%s %s\n' "$(sha256sum <"$f" | cut -d' ' -f1)" "${f#"$REPO_ROOT"/}"
	done
} | sha256sum | cut -c1-16)

mkdir -p "$OUT_DIR"
# One image per kernel flavour and init; the stock one keeps its plain name.
INIT_TAG=
[[ $INIT == "$VM_DIR/guest-init.sh" ]] || INIT_TAG=$(basename "$INIT" .sh)
PREFIX=initramfs-${KNAME:+$KNAME-}${INIT_TAG:+$INIT_TAG-}${TAG:+$TAG-}
IMG=$OUT_DIR/$PREFIX$KEY.cpio.gz
if [[ -s $IMG ]]; then
	log "initramfs cached: ${IMG#"$REPO_ROOT"/}"
	printf '%s\n' "$IMG"
	exit 0
fi

# ---- assemble ---------------------------------------------------------------

log "building initramfs for $KVER (key $KEY)"
STAGE=$(mktemp -d "$OUT_DIR/stage.XXXXXX")
trap 'rm -rf "$STAGE"' EXIT

mkdir -p "$STAGE"/{bin,dev,proc,sys,tmp,run,etc,root,lib/pcieaudit,usr/bin,usr/share/misc}
ln -s bin "$STAGE/sbin"
ln -s ../bin "$STAGE/usr/sbin"

cp "$BUSYBOX" "$STAGE/bin/busybox"
for a in $("$BUSYBOX" --list); do
	[[ $a == busybox ]] && continue
	ln -sf busybox "$STAGE/bin/$a"
done

for b in "${BINS[@]}"; do
	cp -L "$b" "$STAGE/usr/bin/"
done
# Static, so it needs nothing from the host's libraries.
gcc -static -O2 -Wall -Werror -o "$STAGE/usr/bin/vfio-hold" "$VM_DIR/vfio-hold.c"
gcc -static -O2 -Wall -Werror -o "$STAGE/usr/bin/idle-conns" "$VM_DIR/idle-conns.c"
# Linked like the CLI, whose libnl libraries are copied below.
# shellcheck disable=SC2046 # pkg-config output is a list of flags
gcc -std=c11 -D_DEFAULT_SOURCE -O2 -Wall -Wextra -Werror -I"$REPO_ROOT/include/uapi" \
	$(pkg-config --cflags libnl-genl-3.0) -o "$STAGE/usr/bin/dump-probe" \
	"$VM_DIR/dump-probe.c" $(pkg-config --libs libnl-genl-3.0)
# shellcheck disable=SC2046 # pkg-config output is a list of flags
gcc -std=c11 -D_DEFAULT_SOURCE -O2 -Wall -Wextra -Werror -I"$REPO_ROOT/include/uapi" \
	$(pkg-config --cflags libnl-genl-3.0) -o "$STAGE/usr/bin/p2p-probe" \
	"$VM_DIR/p2p-probe.c" $(pkg-config --libs libnl-genl-3.0)
for src in "${PROGS[@]}"; do
	# shellcheck disable=SC2046 # pkg-config output is a list of flags
	gcc -std=c11 -D_DEFAULT_SOURCE -O2 -Wall -Wextra -Werror -I"$REPO_ROOT/include/uapi" \
		$(pkg-config --cflags libnl-genl-3.0) -o "$STAGE/usr/bin/$(basename "$src" .c)" \
		"$src" $(pkg-config --libs libnl-genl-3.0)
done
for l in "${LIBS[@]}"; do
	mkdir -p "$STAGE$(dirname "$l")"
	cp -L "$l" "$STAGE$l"
done
cp -L "$PCI_IDS" "$STAGE/usr/share/misc/pci.ids"
mkdir -p "$STAGE/boot"
cp -L "$KCONFIG" "$STAGE/boot/config-$KVER"

# Modules go where the guest's modprobe looks for them, uncompressed: the
# busybox modprobe reads plain .ko files only.
GUEST_MODDIR=$STAGE/lib/modules/$KVER
for f in "${MOD_FILES[@]}"; do
	rel=${f#"$MODDIR"/}
	[[ $rel != "$f" ]] || die "module $f is not below $MODDIR"
	mkdir -p "$GUEST_MODDIR/$(dirname "$rel")"
	case $f in
	*.ko.xz) xz -dc "$f" >"$GUEST_MODDIR/${rel%.xz}" ;;
	*.ko.zst) zstd -qdc "$f" >"$GUEST_MODDIR/${rel%.zst}" ;;
	*.ko.gz) gzip -dc "$f" >"$GUEST_MODDIR/${rel%.gz}" ;;
	*) cp "$f" "$GUEST_MODDIR/$rel" ;;
	esac
done
mkdir -p "$GUEST_MODDIR"
cp "$MODDIR/modules.builtin" "$GUEST_MODDIR/"
for f in modules.order modules.builtin.modinfo; do
	[[ -f $MODDIR/$f ]] && cp "$MODDIR/$f" "$GUEST_MODDIR/"
done
depmod -b "$STAGE" "$KVER"

if [[ -f $MODULE_KO ]]; then
	cp "$MODULE_KO" "$STAGE/lib/pcieaudit/pcieaudit.ko"
	printf '%s\n' "${KO_DEPS[@]}" | sed '/^$/d' >"$STAGE/lib/pcieaudit/deps"
fi

# su needs the accounts for the unprivileged check.
cat >"$STAGE/etc/passwd" <<'EOF'
root:x:0:0:root:/root:/bin/sh
nobody:x:65534:65534:nobody:/nonexistent:/bin/sh
EOF
cat >"$STAGE/etc/group" <<'EOF'
root:x:0:
nogroup:x:65534:
EOF
printf '/bin/sh\n' >"$STAGE/etc/shells"

install -m 0755 "$INIT" "$STAGE/init"
install -D -m 0644 "$VM_DIR/guest-lib.sh" "$STAGE/lib/pcieaudit/guest-lib.sh"
install -D -m 0644 "$VM_DIR/guest-exporter.sh" "$STAGE/lib/pcieaudit/guest-exporter.sh"
# The guest exporter's web configuration (guest-exporter.sh): exporter-
# toolkit's format with a fresh self-signed certificate and a bcrypt hash
# (cost 4: TCG is slow). Test data, readable by all.
if command -v openssl >/dev/null && command -v htpasswd >/dev/null; then
	W=$STAGE/lib/pcieaudit/web
	mkdir -p "$W"
	openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
		-days 3650 -subj /CN=127.0.0.1 -keyout "$W/server.key" -out "$W/server.crt" 2>/dev/null
	printf 'tls_server_config:\n  cert_file: /lib/pcieaudit/web/server.crt\n  key_file: /lib/pcieaudit/web/server.key\nbasic_auth_users:\n  prometheus: %s\n' \
		"$(htpasswd -nbBC 4 '' pa-guest-secret | tr -d ':\n')" >"$W/web.yml"
	chmod 0644 "$W"/*
fi

TMP_IMG=$(mktemp "$OUT_DIR/initramfs.XXXXXX")
(cd "$STAGE" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) |
	gzip -6 >"$TMP_IMG"
mv "$TMP_IMG" "$IMG"
# Older images are dead weight once their inputs changed.
find "$OUT_DIR" -maxdepth 1 -name "$PREFIX${KEY//?/?}.cpio.gz" ! -name "${IMG##*/}" -delete
log "initramfs: ${IMG#"$REPO_ROOT"/} ($(du -h "$IMG" | cut -f1))"
printf '%s\n' "$IMG"
