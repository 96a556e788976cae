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
