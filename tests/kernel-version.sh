#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The newest installed Debian kernel that has both an image and headers.
# Tests boot and build against it; never hard-code its version.
set -euo pipefail
for img in $(ls -1 /boot/vmlinuz-* 2>/dev/null | sort -rV); do
	kver=${img#/boot/vmlinuz-}
	if [ -e "/lib/modules/$kver/build/Makefile" ]; then
		echo "$kver"
		exit 0
	fi
done
echo "no kernel with headers installed (apt-get install linux-image-amd64 linux-headers-amd64)" >&2
exit 1
