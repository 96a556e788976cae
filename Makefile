# SPDX-License-Identifier: GPL-2.0
# Convenience wrapper. Kbuild builds the module; user/Makefile the CLI.

KVER ?= $(shell uname -r)
KDIR ?= /lib/modules/$(KVER)/build
PREFIX ?= /usr/local
DESTDIR ?=
BASE_VERSION := $(shell sed -n 's/.*PCIEAUDIT_VERSION "\(.*\)"/\1/p' kmod/version.h)
GIT_REV := $(shell git rev-parse --short HEAD 2>/dev/null)
VERSION := $(BASE_VERSION)$(if $(GIT_REV),+g$(GIT_REV))

# Debian packages, by what needs them: the CLI's build; make unit (the CLI's
# sources under cmocka); make demo (the CLI, the module for Debian's kernel,
# one QEMU TCG boot with lspci and capsh in the guest, python3's oracle);
# everything else make check runs (DEB_DEPS, a superset).
CLI_DEPS := build-essential pkg-config libnl-genl-3-dev libnl-3-dev libpci-dev \
	libjson-c-dev libyaml-dev libmicrohttpd-dev libgraphviz-dev zlib1g-dev \
	libcrypt-dev libgnutls28-dev
UNIT_DEPS := $(CLI_DEPS) libcmocka-dev
# The demo boots an installed Debian kernel (tests/vm/lib.sh's detect_kver):
# linux-image-amd64 only where none is (a container, a chroot). Such a kernel
# boots only under QEMU, with the tests' own initramfs.
DEMO_KVER := $(shell ls -d /lib/modules/*/kernel 2>/dev/null | cut -d/ -f4 | \
	while read -r v; do [ -e /boot/vmlinuz-$$v ] && echo $$v; done | sort -V | tail -n1)
DEMO_DEPS := $(CLI_DEPS) pciutils linux-headers-amd64 \
	$(if $(DEMO_KVER),,linux-image-amd64) \
	qemu-system-x86 busybox-static cpio kmod python3 libcap2-bin xz-utils zstd
DEB_DEPS := $(UNIT_DEPS) $(DEMO_DEPS) linux-image-amd64 linux-source-6.1 sparse bc bison flex \
	libelf-dev libssl-dev dkms prometheus linux-headers-cloud-amd64 \
	linux-headers-rt-amd64 debhelper dh-dkms lintian python3-yaml clang \
	libclang-rt-14-dev dwarves curl valgrind debootstrap python3-jsonschema \
	chromium python3-pil openssl apache2-utils

.PHONY: all module cli deps unit-deps demo-deps check unit vm-test style demo install \
	module-install dkms-source dkms-install dkms-test deb-test doc-test clean \
	fuzz-smoke fuzz-long compat-test stress stress-short

all: module cli

module:
	$(MAKE) -C $(KDIR) M=$(CURDIR) PCIEAUDIT_VERSION=$(VERSION) modules

cli:
	$(MAKE) -C user VERSION=$(VERSION)

# $(call install-deps,PACKAGES): installs the missing ones, a no-op when
# everything is present; without root it names them and stops, apt aside.
# INITRD=No: a kernel installed here boots only under QEMU with the tests'
# own initramfs, and building the host's cost 127 s of a fresh machine's
# 171 s install (twice: the kernel's hook, then initramfs-tools' trigger,
# which finds no initrd.img to update without it).
define install-deps
	@missing=$$(for p in $(sort $(1)); do \
		dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'ok installed' || echo $$p; \
	done); \
	if [ -n "$$missing" ] && [ "$$(id -u)" != 0 ]; then \
		echo "missing Debian packages:" $$missing >&2; \
		echo "(as root: apt-get install" $$missing")" >&2; exit 1; \
	fi; \
	if [ -n "$$missing" ]; then \
		echo "installing:" $$missing; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive INITRD=No \
			apt-get install -y -qq --no-install-recommends $$missing; \
	fi
endef

deps:
	$(call install-deps,$(DEB_DEPS))

unit-deps:
	$(call install-deps,$(UNIT_DEPS))

demo-deps:
	$(call install-deps,$(DEMO_DEPS))

unit: unit-deps
	$(MAKE) -C tests/unit run

# libFuzzer harnesses of the CLI's parsers (tests/fuzz, docs/reliability.md):
# about 25 s each in check, a million executions each in fuzz-long.
fuzz-smoke: deps
	$(MAKE) -C tests/fuzz smoke

fuzz-long: deps
	$(MAKE) -C tests/fuzz long

# Every topology on its own kernel, and the kernel matrix of tests/vm/matrix
# (Debian's 5.10, 6.12 and 7.3 besides the installed 6.1); config-minimal,
# whose kernel is a 20-CPU-minute cold build, runs in check-kernels.
vm-test: deps
	@tests/vm/run-all.sh --matrix

# Every topology on every kernel that can run it: the installed one and each
# of tests/kernels/debian-kernels.list (7.2 included), the test kernels too.
.PHONY: check-kernels
check-kernels: deps replay-test
	@tests/compat-build.sh $$(tests/kernels/debian-kernel.sh --list)
	@tests/vm/run-all.sh --all-kernels

style:
	tests/style.sh

# The protocol against its spec, Documentation/netlink/specs/pcieaudit.yaml,
# with the kernel's own ynl tools (docs/protocol.md): the spec's validity,
# the UAPI header, and the module's and the CLI's policies. The tools come
# from Debian's linux-source-6.12, fetched once into the cache.
.PHONY: ynl-check ynl-gen
ynl-check: deps
	@tree=$$(tests/ynl/fetch-ynl.sh --offline 2>/dev/null || tests/ynl/fetch-ynl.sh) && \
		python3 tests/ynl/ynl_check.py "$$tree"

# Regenerates the policy tables from the spec.
ynl-gen:
	python3 tests/ynl/gen_policies.py $(YNL_SPEC) kernel-header -o kmod/policy_gen.h
	python3 tests/ynl/gen_policies.py $(YNL_SPEC) kernel-source -o kmod/policy_gen.c
	python3 tests/ynl/gen_policies.py $(YNL_SPEC) cli -o user/sources/policy_gen.h
YNL_SPEC := Documentation/netlink/specs/pcieaudit.yaml

# pcieaudit.ko on the debug kernel (KASAN, UBSAN, lockdep, kmemleak,
# failslab) under hot-plug, rmmod/insmod and failed allocations while
# dumps run (tests/stress, docs/reliability.md section 2). stress-short is
# the same, shortened for check; the checker's selftest runs first.
stress: deps cli
	@out=$$(python3 tests/stress/check.py --selftest) || { echo "$$out"; exit 1; }
	@tests/vm/run-topology.sh tests/stress/stress.sh

# Real corpus machines replayed inside Debian's 7.3 kernel (tests/replay):
# pa_replay.ko makes a PCI domain of each capture; lspci, pcieaudit.ko and
# the offline CLI are held to the kernel's enumeration and P2PDMA verdicts.
# The machines.txt lines marked `check` replay in vm-test's p2p-noiommu boot
# (make check); this, the `kernels` ones, in a boot of its own, so in
# check-kernels; check's corpus-test holds the offline CLI to the stored
# verdicts of all.
.PHONY: replay-test
replay-test: deps cli
	@tests/vm/run-topology.sh tests/replay/replay.sh

stress-short: deps cli
	@out=$$(python3 tests/stress/check.py --selftest) || { echo "$$out"; exit 1; }
	@tests/vm/run-topology.sh tests/stress/stress-short.sh

# Security (tests/security, docs/reliability.md sections 3 and 4). On the
# host: no hardware write among the module's symbols and instructions, the
# VM checker's selftest and the monitor-event validator's (nlfuzz
# --mon-selftest). nlfuzz: the netlink fuzzer (10,000 requests;
# NLFUZZ_COUNT, NLFUZZ_SEED) with subscribers to the monitor group, the
# privilege model, configuration space before and after, hot-plug through
# QMP and rmmod under the subscribers, in a debug-kernel VM; nlfuzz-long
# sends 100,000.
.PHONY: security-test nlfuzz nlfuzz-long valgrind
# The module is built for Debian's kernel, as run-all.sh does (not uname -r).
security-test: deps
	@$(MAKE) -s module cli KVER=$$(tests/kernel-version.sh) >/dev/null
	@tests/security/no-writes.sh --selftest
	@tests/security/no-writes.sh
	@python3 tests/security/check.py --selftest
	@mkdir -p build
	@$(CC) -std=c11 -D_DEFAULT_SOURCE -O2 -Wall -Wextra -Werror -Iinclude/uapi \
		-o build/nlfuzz tests/security/nlfuzz.c
	@build/nlfuzz --mon-selftest

nlfuzz: deps
	@$(MAKE) -s module cli KVER=$$(tests/kernel-version.sh) >/dev/null
	@tests/security/run-nlfuzz.sh

nlfuzz-long: deps
	@$(MAKE) -s module cli KVER=$$(tests/kernel-version.sh) >/dev/null
	@NLFUZZ_COUNT=$${NLFUZZ_COUNT:-100000} NLFUZZ_TIMEOUT=$${NLFUZZ_TIMEOUT:-1800} \
		tests/security/run-nlfuzz.sh

# The unit tests again, without sanitizers, under valgrind (leaks included).
valgrind: deps
	$(MAKE) -C tests/unit valgrind

# pcieaudit.ko against each of Debian's kernels of tests/kernels/debian-kernels.list,
# in a chroot of its suite (fetched with apt, never installed on the host).
compat-test: deps
	@tests/compat-build.sh $(COMPAT_KERNELS)

# The kernels compat-test builds for: those of the VM matrix (check-kernels:
# all), and the minimal test kernel's options, compiled against a prepared
# tree (its full build and boot are check-kernels': docs/testing.md).
COMPAT_KERNELS ?= 5.10 6.12 7.3 minimal

dkms-test: deps
	@tests/dkms.sh

# pcieaudit-cli monitor in a VM while QMP hot-unplugs and replugs an e1000e,
# setpci changes ACS control and the module is removed (tests/monitor); on
# the stock kernel, and on 7.3 with the kernel's link tracepoints.
.PHONY: monitor-test
monitor-test: deps
	@$(MAKE) -s module cli KVER=$$(tests/kernel-version.sh) >/dev/null
	@python3 tests/monitor/check.py --selftest
	@tests/monitor/run.sh
	@tests/monitor/run.sh --kernel 7.3

# The always-on module within the PCI core's rules (tests/safety): a
# runtime-suspended port and endpoint against QEMU's trace of every config
# read, a 145-member IOMMU group dumped as a fresh socket's first request,
# resets under dumps and a rescan, a system suspend (pm_test) under ftrace.
.PHONY: safety-test
safety-test: deps
	@$(MAKE) -s module cli KVER=$$(tests/kernel-version.sh) >/dev/null
	@python3 tests/safety/check.py --selftest
	@tests/safety/run.sh

# The Prometheus exporter on the H200 guest fixture: 4 concurrent scrapers
# and malformed HTTP requests; promtool checks every body, sysfs's link
# attributes are the oracle for the link gauges. Then 300 idle connections
# from localhost while 4 scrapers each must be answered within 1 s, and the
# systemd units (systemd-analyze verify and security, socket activation);
# --web-config (TLS, client certificates, basic auth, headers, every exit-9
# refusal) with openssl's certificates, htpasswd's hashes and curl as the oracle.
.PHONY: exporter-test
exporter-test: deps cli
	@python3 tests/exporter/exporter-test.py
	@python3 tests/exporter/idle-test.py 300 1
	@python3 tests/exporter/webconfig-test.py
	@tests/exporter/systemd-test.sh

# The monitoring mixin (packaging/mixin): promtool on the alert rules and
# their tests, the dashboard against @grafana/schema (npm, into the cache),
# every metric the rules and the dashboard name against the exporter's.
.PHONY: mixin-test
mixin-test: deps
	@command -v npm >/dev/null || $(MAKE) -s mixin-npm
	@tests/mixin/mixin-test.sh

.PHONY: mixin-npm
mixin-npm:
	$(call install-deps,npm)

deb-test: deps
	@tests/deb.sh

doc-test: deps cli
	@tests/doc.sh

# Real and emulated machines' lspci captures (tests/fixtures/lspci): every
# field --lspci decodes against lspci's own decode, the check verdicts
# written down, and the incomplete captures refused or flagged; each capture
# as plain lspci -vvv text against its hex; the real GPU hosts' logs of
# ../shared (tests/real_hosts.py, skipped without them). Then fleet over
# 1,000 generated hosts with 20 planted outliers (tests/fleet, ~5 s), and
# topo --svg and check --format html over every source, by structure and in
# headless Chromium (tests/pictures, docs/pictures.md). Last, the libraries
# each command maps, from the dynamic loader's log (tests/startup).
.PHONY: corpus-test
corpus-test: cli
	@python3 tests/fixtures/lspci/compare.py
	@python3 tests/fixtures/lspci/text_vs_hex.py
	@python3 tests/real_hosts.py || [ $$? = 77 ]
	@python3 tests/fleet/fleet-test.py user/pcieaudit-cli
	@python3 tests/replay/compare.py --cli user/pcieaudit-cli --offline
	@tests/startup/libraries.sh user/pcieaudit-cli
	@python3 tests/pictures/pictures-test.py

# The debug test kernel builds in the background from the start, at low
# priority, for stress-short and nlfuzz.
.PHONY: prebuild
prebuild: deps
	@tests/kernels/prebuild.sh debug

# The H200 device machine's captures (tests/fixtures/h200): pcieaudit against
# nvidia-smi, NVML and NCCL's topology dump, field by field.
.PHONY: gpu-test
gpu-test: deps cli
	@python3 tests/gpu/compare-h200.py --selftest
	@out=$$(python3 tests/gpu/compare-h200.py user/pcieaudit-cli) || { echo "$$out"; exit 1; }; echo "$$out" | tail -n 1

check: deps prebuild unit valgrind gpu-test security-test fuzz-smoke style ynl-check doc-test corpus-test compat-test dkms-test deb-test exporter-test mixin-test monitor-test safety-test vm-test stress-short nlfuzz
	@echo "make check: all tests passed"

demo: demo-deps
	@tests/vm/demo.sh

# Performance and scale against lspci and a sysfs scraper, 64 to 1024+
# functions (tests/bench, docs/performance.md). A benchmark, not a test:
# not part of check; 30-45 minutes of TCG boots on 2 cores.
.PHONY: bench
DEB_DEPS += linux-perf strace
bench: deps
	@$(MAKE) -s module cli KVER=$$(tests/kernel-version.sh) >/dev/null
	@tests/bench/run.sh

install: cli
	$(MAKE) -C user install PREFIX=$(PREFIX) DESTDIR=$(DESTDIR)

module-install: module
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules_install
	depmod -a $(KVER)

# The module source as DKMS and the Debian package take it: sources only,
# with the version substituted. DESTDIR stages it elsewhere.
DKMS_SRC = $(DESTDIR)/usr/src/pcieaudit-$(VERSION)

dkms-source:
	rm -rf $(DKMS_SRC)
	install -d $(DKMS_SRC)/kmod $(DKMS_SRC)/include/uapi/linux
	install -m 0644 Kbuild $(DKMS_SRC)/
	install -m 0644 kmod/*.c kmod/*.h $(DKMS_SRC)/kmod/
	install -m 0644 include/uapi/linux/pcieaudit.h $(DKMS_SRC)/include/uapi/linux/
	sed 's/#MODULE_VERSION#/$(VERSION)/' dkms.conf > $(DKMS_SRC)/dkms.conf
	sed -i 's/^#define PCIEAUDIT_VERSION .*/#define PCIEAUDIT_VERSION "$(VERSION)"/' \
		$(DKMS_SRC)/kmod/version.h

# Builds and installs for KVER, replacing an earlier install of this version.
# DKMS_FLAGS: more dkms options (tests/dkms.sh gives a private tree).
dkms-install:
	if [ -n "$$(dkms status $(DKMS_FLAGS) pcieaudit/$(VERSION))" ]; then \
		dkms remove $(DKMS_FLAGS) pcieaudit/$(VERSION) --all; \
	fi
	$(MAKE) dkms-source
	dkms install $(DKMS_FLAGS) pcieaudit/$(VERSION) -k $(KVER)

clean:
	-$(MAKE) -C $(KDIR) M=$(CURDIR) clean 2>/dev/null
	-$(MAKE) -C user clean
	-$(MAKE) -C tests/unit clean
	-$(MAKE) -C tests/fuzz clean
	rm -rf build tests/vm/out
