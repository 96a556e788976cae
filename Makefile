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
	bc bison flex libelf-dev libssl-dev xz-utils dkms libyaml-dev prometheus

.PHONY: all module cli deps check unit vm-test style sparse demo install \
	module-install dkms-install clean

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

vm-test: deps
	@tests/vm/run-all.sh

style:
	tests/style.sh

check: deps unit style vm-test
	@echo "make check: all tests passed"

demo: deps
	@tests/vm/demo.sh

install: cli
	$(MAKE) -C user install PREFIX=$(PREFIX) DESTDIR=$(DESTDIR)

module-install: module
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules_install
	depmod -a $(KVER)

dkms-install:
	rm -rf $(DESTDIR)/usr/src/pcieaudit-$(VERSION)
	mkdir -p $(DESTDIR)/usr/src/pcieaudit-$(VERSION)
	cp -r Kbuild kmod include $(DESTDIR)/usr/src/pcieaudit-$(VERSION)/
	sed 's/@VERSION@/$(VERSION)/' dkms.conf > $(DESTDIR)/usr/src/pcieaudit-$(VERSION)/dkms.conf
	sed -i 's/^#define PCIEAUDIT_VERSION .*/#define PCIEAUDIT_VERSION "$(VERSION)"/' \
		$(DESTDIR)/usr/src/pcieaudit-$(VERSION)/kmod/version.h
	dkms install pcieaudit/$(VERSION)

clean:
	-$(MAKE) -C $(KDIR) M=$(CURDIR) clean 2>/dev/null
	-$(MAKE) -C user clean
	-$(MAKE) -C tests/unit clean
	rm -rf build tests/vm/out
