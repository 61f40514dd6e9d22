# SPDX-License-Identifier: GPL-2.0
#
# make                    the module (module/gputelemetry.ko), navibench and,
#                         where hipcc exists, its GPU plugin (hip/)
# make KDIR=/path         against other kernel headers
# make test-modules       also the test-only modules (tests/modules)
# make lint               sparse (C=2), W=1 and kernel-doc against 6.1 and 6.12,
#                         checkpatch --strict, shellcheck (KDIR=/path: that tree)
# make check              every test suite; ends with "N passed, N failed"
# make check-full         the same, with the long form of the debug stress
# make vmtest             the kselftest suite in a VM, on 6.1 and on 6.12
# make vmtest KVER=6.12   on one kernel (a series or a Debian version)
# make vmtest-debug       the same and a randomized stress on a debug kernel
# make compile_commands.json

# The running kernel's headers by default; where they are not installed
# (a build machine running another kernel), Debian's packaged headers.
KDIR ?= $(shell scripts/kdir)
export KDIR

.PHONY: all module test-modules user hip lint check check-full vmtest vmtest-debug clean help
all: module user hip

module:
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

test-modules:
	$(MAKE) -C $(KDIR) M=$(CURDIR) GT_TEST_MODULES=m modules

user:
	$(MAKE) -C user

# The GPU plugin is optional: navibench loads it with dlopen and runs on
# the CPU without it, so a machine without ROCm builds everything else.
HIPCC := $(shell command -v hipcc 2>/dev/null)
hip:
ifneq ($(HIPCC),)
	$(MAKE) -C hip
else
	@echo "hip: hipcc not found, the GPU plugin is not built (scripts/install-deps installs it); navibench will run on the CPU"
endif

# KDIR given (command line, environment): that tree alone.
lint:
	scripts/lint $(if $(filter-out file,$(origin KDIR)),--kdir $(KDIR))

check:
	scripts/check

check-full:
	GT_CHECK_FULL=1 scripts/check

vmtest:
	scripts/vmtest --kver $(or $(KVER),all)

vmtest-debug:
	scripts/vmtest-debug

compile_commands.json:
	$(MAKE) clean
	bear --output $(CURDIR)/compile_commands.json -- $(MAKE) all

clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean
	$(MAKE) -C user clean
	$(MAKE) -C hip clean
	rm -f compile_commands.json

help:
	@sed -n '3,15s/^# //p' Makefile
