#!/bin/sh
# shellcheck shell=dash
# /init of smoke-test.sh's initramfs (busybox ash). Prints "SMOKE key=value"
# lines on the console for the host to judge, then powers off.

PATH=/usr/bin:/bin
export PATH
mount -t devtmpfs devtmpfs /dev 2>/dev/null
exec </dev/console >/dev/console 2>&1
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t tmpfs tmpfs /tmp
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null

fact() { echo "SMOKE $1=$2"; }

fact boot_uptime "$(cut -d' ' -f1 /proc/uptime)"
fact uname "$(uname -r)"
fact p2pdma_kallsyms "$(grep -c ' pci_p2pdma_distance_many$' /proc/kallsyms)"
fact p2pdma_config "$(zcat /proc/config.gz | grep -c '^CONFIG_PCI_P2PDMA=y$')"
# names DIR: the entries of DIR, comma-separated.
names() {
	for e in "$1"/*; do
		[ -e "$e" ] && printf '%s,' "${e##*/}"
	done
}
fact drivers "$(names /sys/bus/pci/drivers)"
# Functions actually bound, not just registered drivers.
for d in nvme e1000e; do
	fact "bound_$d" "$(find /sys/bus/pci/drivers/$d -maxdepth 1 -name '0000:*' 2>/dev/null | wc -l)"
done
fact iommu_groups "$(find /sys/kernel/iommu_groups -mindepth 1 -maxdepth 1 2>/dev/null | wc -l)"
fact iommu "$(names /sys/class/iommu)"
echo "smoke ttyS1" >/dev/ttyS1 && fact ttyS1 ok

# A dynamically linked glibc program (with its libraries copied in).
lspci -vvv >/tmp/lspci.txt 2>&1
fact lspci_rc $?
fact lspci_lines "$(wc -l </tmp/lspci.txt)"

insmod /pcieaudit.ko
fact insmod_rc $?
if [ -x /usr/bin/pcieaudit-cli ]; then
	timeout 15 pcieaudit-cli report >/tmp/report.txt 2>&1
	fact cli_rc $?
	head -n 5 /tmp/report.txt
fi
rmmod pcieaudit
fact rmmod_rc $?

[ -d /sys/kernel/debug/failslab ] && fact failslab yes
# Debug flavour: force a kmemleak scan now rather than in 10 minutes.
if [ -w /sys/kernel/debug/kmemleak ]; then
	echo scan >/sys/kernel/debug/kmemleak
	fact kmemleak_reports "$(grep -c '^unreferenced object' /sys/kernel/debug/kmemleak)"
	grep -A12 '^unreferenced object' /sys/kernel/debug/kmemleak | head -n 40
fi
fact uptime "$(cut -d' ' -f1 /proc/uptime)"
# The console only shows loglevel < 6; the host wants everything.
echo "SMOKE dmesg-begin"
dmesg
echo "SMOKE dmesg-end"
echo "SMOKE done"
poweroff -f
