# SPDX-License-Identifier: GPL-2.0
# Convenience wrapper. Kbuild builds the module; user/Makefile the CLI.

KVER ?= $(shell uname -r)
KDIR ?= /lib/modules/$(KVER)/build
PREFIX ?= /usr/local
DESTDIR ?=
BASE_VERSION := $(shell sed -n 's/.*PCIEAUDIT_VERSION "\(.*\)"/\1/p' kmod/version.h)
GIT_REV := $(shell git rev-parse --short HEAD 2>/dev/null)
VERSION := $(BASE_VERSION)$(if $(GIT_REV),+g$(GIT_REV))

# Debian packages the build, the tests and the demo need.
DEB_DEPS := build-essential pkg-config libnl-genl-3-dev libnl-3-dev libpci-dev \
	libcmocka-dev libjson-c-dev pciutils linux-headers-amd64 linux-image-amd64 \
	linux-source-6.1 qemu-system-x86 busybox-static cpio kmod sparse python3 \
	bc bison flex libelf-dev libssl-dev xz-utils dkms libyaml-dev prometheus \
	linux-headers-cloud-amd64 linux-headers-rt-amd64 debhelper dh-dkms lintian \
	python3-yaml clang libclang-rt-14-dev dwarves curl

.PHONY: all module cli deps check unit vm-test style sparse demo install \
	module-install dkms-source dkms-install dkms-test deb-test doc-test clean \
	fuzz-smoke fuzz-long compat-test

all: module cli

module:
	$(MAKE) -C $(KDIR) M=$(CURDIR) PCIEAUDIT_VERSION=$(VERSION) modules

cli:
	$(MAKE) -C user VERSION=$(VERSION)

# Installs missing Debian packages; a no-op when everything is present.
deps:
	@missing=$$(for p in $(DEB_DEPS); do \
		dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'ok installed' || echo $$p; \
	done); \
	if [ -n "$$missing" ]; then \
		echo "installing:" $$missing; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
			apt-get install -y -qq --no-install-recommends $$missing; \
	fi

unit: deps
	$(MAKE) -C tests/unit run

# libFuzzer harnesses of the CLI's parsers (tests/fuzz, docs/reliability.md):
# about 25 s each in check, a million executions each in fuzz-long.
fuzz-smoke: deps
	$(MAKE) -C tests/fuzz smoke

fuzz-long: deps
	$(MAKE) -C tests/fuzz long

vm-test: deps
	@tests/vm/run-all.sh

style:
	tests/style.sh

# pcieaudit.ko against Debian's 5.10 and 6.12 headers (fetched, not installed).
compat-test: deps
	@tests/compat-build.sh

dkms-test: deps
	@tests/dkms.sh

deb-test: deps
	@tests/deb.sh

doc-test: deps
	@tests/doc.sh

check: deps unit fuzz-smoke style doc-test compat-test dkms-test deb-test vm-test
	@echo "make check: all tests passed"

demo: deps
	@tests/vm/demo.sh

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
