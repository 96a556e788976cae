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
for name in "${NAMES[@]}"; do
	is_debian_kernel "$name" || die "$name is not one of Debian's kernels"
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
