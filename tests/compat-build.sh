#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Builds pcieaudit.ko against Debian's own kernels of the test matrix
# (tests/kernels/debian-kernels.list: 5.10 to 7.3), to hold kmod/compat.h to
# its claims at both ends of the supported range. Each kernel's packages come
# through apt (signatures verified) and the module is built in a chroot of
# the kernel's own suite, with its own compiler and headers
# (tests/kernels/debian-kernel.sh, tests/vm/lib.sh's module_for).
# A kernel passes when modpost resolves every symbol against its
# Module.symvers, the build prints not one warning, and the module's
# vermagic names that kernel.
#
# A NAME may also be a test-kernel flavour of tests/kernels/ (make check
# passes `minimal`: no IOMMU API, SR-IOV or ATS). Its tree is configured and
# prepared only (build-kernel.sh --prepare), so the module is compiled
# against its options without a warning, but modpost has no vmlinux symbols
# to resolve against; booting it is make check-kernels' config-minimal run.
#
#   tests/compat-build.sh [NAME...]       (default: every kernel of the list)
set -euo pipefail

# shellcheck source-path=SCRIPTDIR source=vm/lib.sh
. "$(dirname "$0")/vm/lib.sh"

if [[ $# -gt 0 ]]; then
	NAMES=("$@")
else
	mapfile -t NAMES < <("$REPO_ROOT/tests/kernels/debian-kernel.sh" --list)
fi

mkdir -p "$OUT_DIR"
fail=0
# prepared_build FLAVOUR: pcieaudit.ko compiled against a prepared tree.
prepared_build() {
	local dir out=$OUT_DIR/compat-$1 log=$OUT_DIR/compat-$1.log
	dir=$(PCIEAUDIT_CACHE=$KERNEL_CACHE "$REPO_ROOT/tests/kernels/build-kernel.sh" --prepare "$1" |
		tail -n1) || return 1
	rm -rf "$out" && mkdir -p "$out"
	(cd "$REPO_ROOT" && module_sources | xargs cp --parents -t "$out")
	if ! make -C "$dir" M="$out" modules >"$log" 2>&1; then
		tail -n 40 "$log" >&2
		return 1
	fi
	# modpost cannot resolve the kernel's exports in a prepared tree: its
	# "undefined!" lines are expected, nothing else.
	if grep -i 'warning' "$log" | grep -Ev 'modpost: (".*" \[.*\] undefined!|suppressed [0-9]+ unresolved symbol warnings)|^WARNING: Module.symvers is missing|You may get many unresolved symbol warnings' >&2; then
		return 1
	fi
	[[ -f $out/pcieaudit.ko ]] &&
		log "PASS $1 options ($(cat "$dir/kernelrelease"), modules_prepare only): compiled without a warning; symbols are resolved where the kernel is built (make check-kernels)"
	[[ $1 != minimal ]] || unbackported_build "$dir"
}

# unbackported_build TREE: the module against TREE (a prepared object
# tree, its source beside it) as a stable point release without the 2024
# backport that made pci_dev_is_disconnected() public (Debian's own 5.10 to
# 6.1 all have it), so that compat.h's fallback is compiled too: symlink
# copies of the source and object trees, the source's linux/pci.h without
# the helper.
unbackported_build() {
	local src alt=$1-unbackported altsrc=$1-unbackported-src
	local out=$OUT_DIR/compat-unbackported log=$OUT_DIR/compat-unbackported.log
	src=$(readlink -f "$1/source")
	if [[ ! -f $alt/.pcieaudit-unbackported ]]; then
		rm -rf "$alt" "$altsrc"
		cp -as "$src" "$altsrc"
		rm "$altsrc/include/linux/pci.h"
		# The helper's whole definition, from its line to its closing brace.
		perl -0pe 's/static inline bool pci_dev_is_disconnected\(const struct pci_dev \*dev\)\n\{.*?\n\}\n//s' \
			"$src/include/linux/pci.h" >"$altsrc/include/linux/pci.h"
		if grep -q 'pci_dev_is_disconnected' "$altsrc/include/linux/pci.h"; then
			log "FAIL unbackported: pci_dev_is_disconnected() still in the copy's linux/pci.h"
			return 1
		fi
		cp -as "$1" "$alt"
		rm "$alt/Makefile" "$alt/source"
		sed "s|$src|$altsrc|" "$1/Makefile" >"$alt/Makefile"
		ln -s "$altsrc" "$alt/source"
		touch "$alt/.pcieaudit-unbackported"
	fi
	rm -rf "$out" && mkdir -p "$out"
	(cd "$REPO_ROOT" && module_sources | xargs cp --parents -t "$out")
	if ! make -C "$alt" M="$out" modules >"$log" 2>&1; then
		tail -n 40 "$log" >&2
		log "FAIL unbackported: pcieaudit.ko does not compile without pci_dev_is_disconnected() in linux/pci.h"
		return 1
	fi
	if grep -i 'warning' "$log" | grep -Ev 'modpost: (".*" \[.*\] undefined!|suppressed [0-9]+ unresolved symbol warnings)|^WARNING: Module.symvers is missing|You may get many unresolved symbol warnings' >&2; then
		return 1
	fi
	log "PASS unbackported ($(cat "$1/kernelrelease") without the public pci_dev_is_disconnected()): compat.h's fallback compiled without a warning"
}

for name in "${NAMES[@]}"; do
	if [[ -f $REPO_ROOT/tests/kernels/$name.config && $name != base ]] && ! is_debian_kernel "$name"; then
		prepared_build "$name" || { log "FAIL $name options: pcieaudit.ko does not compile, or warns"; fail=1; }
		continue
	fi
	is_debian_kernel "$name" || die "$name is not one of Debian's kernels nor a test-kernel flavour"
	dir=$(kernel_tree "$name")
	kver=$(cat "$dir/kernelrelease")
	if ! ko=$( (module_for "$name" "$dir") 2>"$OUT_DIR/compat-$name.err"); then
		cat "$OUT_DIR/compat-$name.err" >&2
		log "FAIL $kver ($(cat "$dir/package")): pcieaudit.ko does not build, or warns"
		fail=1
	elif [[ $(modinfo -F vermagic "$ko") != "$kver "* ]]; then
		log "FAIL $kver: vermagic is $(modinfo -F vermagic "$ko")"
		fail=1
	else
		log "PASS $kver ($(cat "$dir/package")): built with $(sed -n 's/^CONFIG_CC_VERSION_TEXT=//p' \
			"$(kernel_config "$name" "$dir")"), every symbol resolved, no warnings"
	fi
done
exit $fail
