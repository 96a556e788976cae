# shellcheck shell=dash
# Sourced by every guest /init (busybox ash): build-initramfs.sh installs it
# as /lib/pcieaudit/guest-lib.sh. The start and the end all suites share;
# what they do in between is theirs.

PATH=/usr/sbin:/usr/bin:/sbin:/bin
export PATH

# The markers run-topology.sh (tests/vm/lib.sh) cuts the payload out by.
PAYLOAD_BEGIN='=====PCIEAUDIT-PAYLOAD-BEGIN-7f3a9c====='
PAYLOAD_END='=====PCIEAUDIT-PAYLOAD-END-7f3a9c====='

# guest_mount [debugfs]: the pseudo file systems, and the console as stdio.
guest_mount() {
	mount -t devtmpfs devtmpfs /dev 2>/dev/null
	exec </dev/console >/dev/console 2>&1
	mount -t proc proc /proc
	mount -t sysfs sysfs /sys
	mkdir -p /tmp /run
	mount -t tmpfs tmpfs /tmp
	if [ "${1:-}" = debugfs ]; then
		mount -t debugfs debugfs /sys/kernel/debug
	fi
}

# guest_ship: /tmp/results to the host over ttyS1 (base64 between the
# markers), then power off. Never returns.
guest_ship() {
	stty -F /dev/ttyS1 raw -echo 2>/dev/null
	{
		echo
		echo "$PAYLOAD_BEGIN"
		tar -czf - -C /tmp results | base64
		echo "$PAYLOAD_END"
	} >/dev/ttyS1
	sync
	echo "payload sent; powering off"
	poweroff -f
}

# wait_path PATH SECONDS [gone]: until PATH exists (or, with gone, has
# vanished); 1 when SECONDS pass first.
wait_path() {
	i=0
	while [ $i -lt $(($2 * 10)) ]; do
		if [ "${3:-}" = gone ]; then [ -e "$1" ] || return 0
		else [ -e "$1" ] && return 0
		fi
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}
