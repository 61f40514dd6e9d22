# SPDX-License-Identifier: GPL-2.0
#
# The build, the tests and the install. `make help` lists every target and
# variable from the "##" comment above it.

## the kernel build directory to build the module against: the running
## kernel's, else the headers of Debian's default kernel pinned in
## scripts/kernels.conf (scripts/kdir)
KDIR ?= $(shell scripts/kdir)
export KDIR

## the root of what `make install` installs
PREFIX ?= /usr/local
## a staging directory `make install` writes into (packaging):
## DESTDIR/PREFIX/bin/navibench and so on
DESTDIR ?=
## navibench
BINDIR ?= $(PREFIX)/bin
## below it the GPU plugins and the systemd units
LIBDIR ?= $(PREFIX)/lib
## the GPU plugins; navibench is built to look for them there
PLUGINDIR ?= $(LIBDIR)/navibench
## the man page, in MANDIR/man1
MANDIR ?= $(PREFIX)/share/man
## the systemd units
UNITDIR ?= $(LIBDIR)/systemd/system
## the Grafana dashboard and the Prometheus alert rules, in
## DATADIR/navibench/grafana and DATADIR/navibench/prometheus
DATADIR ?= $(PREFIX)/share
## the module's source for DKMS, in DKMSDIR/gputelemetry-VERSION (dkms
## reads /usr/src only)
DKMSDIR ?= /usr/src
DKMS_VERSION := $(shell sed -n 's/^PACKAGE_VERSION="\(.*\)"$$/\1/p' dkms.conf)

.PHONY: all module test-modules user hip lint check check-quick check-full \
	vmtest vmtest-debug compile_commands.json install clean help

## the module (module/gputelemetry.ko), navibench and, where hipcc exists,
## its GPU plugin (hip/)
all: module user hip

## the module alone, against KDIR
module:
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

## the module and the test-only modules (tests/modules)
test-modules:
	$(MAKE) -C $(KDIR) M=$(CURDIR) GT_TEST_MODULES=m modules

# navibench looks for the GPU plugins in PLUGINDIR (NB_PLUGIN_LIBDIR,
# user/devices/plugin.h), so that an installed navibench finds those that
# `make install` put there. A build for another PLUGINDIR recompiles the
# loader: build/plugindir records the last one.
build/plugindir: FORCE
	@mkdir -p build
	@echo '$(PLUGINDIR)' | cmp -s - $@ || { echo '$(PLUGINDIR)' >$@; rm -f user/devices/plugin.o; }
FORCE:

## navibench (user/navibench)
user: build/plugindir
	CPPFLAGS="$(CPPFLAGS) -DNB_PLUGIN_LIBDIR='\"$(PLUGINDIR)\"'" $(MAKE) -C user

# The GPU plugin is optional: navibench loads it with dlopen and runs on
# the CPU without it, so a machine without ROCm builds everything else.
HIPCC := $(shell command -v hipcc 2>/dev/null)
## the GPU plugins (hip/), where hipcc exists (and nvcc, for NVIDIA's)
hip:
ifneq ($(HIPCC),)
	$(MAKE) -C hip
else
	@echo "hip: hipcc not found, the GPU plugin is not built (scripts/install-deps installs it); navibench will run on the CPU"
endif

## sparse (C=2), W=1 and kernel-doc against every pinned kernel,
## checkpatch --strict, shellcheck (KDIR=/path: that tree alone)
lint:
	scripts/lint $(if $(filter-out file,$(origin KDIR)),--kdir $(KDIR))

## every test suite (CI); ends with "N passed, N failed"
check:
	scripts/check

## the suites that need no VM and no kernel build, a suite per CPU at
## once: the loop after each change (scripts/check --list shows which)
check-quick:
	scripts/check --quick

## every suite, with the long form of the debug stress
check-full:
	GT_CHECK_FULL=1 scripts/check

## the kselftest suite in a VM on every pinned kernel (KVER=6.12: on one,
## a series or a Debian release)
vmtest:
	scripts/vmtest --kver $(or $(KVER),all)

## the same and a randomized stress on a debug kernel
vmtest-debug:
	scripts/vmtest-debug

## the compilation database of the module, navibench and the plugin,
## without cleaning (scripts/compile-commands)
compile_commands.json: module
	scripts/compile-commands

## navibench, the GPU plugins that were built, the man page, the systemd
## units (their ExecStart in BINDIR), the Grafana dashboard, the Prometheus
## alert rules and the module's source for DKMS, under DESTDIR and PREFIX
install: user hip
	install -D -m 755 user/navibench $(DESTDIR)$(BINDIR)/navibench
	for p in hip/libnavibench_hip.so hip/libnavibench_cuda.so; do \
		[ ! -f $$p ] || install -D -m 644 $$p $(DESTDIR)$(PLUGINDIR)/$${p#hip/} || exit; \
	done
	install -D -m 644 user/navibench.1 $(DESTDIR)$(MANDIR)/man1/navibench.1
	install -d $(DESTDIR)$(UNITDIR)
	for u in scripts/systemd/*.service scripts/systemd/*.timer; do \
		sed 's|^ExecStart=[^ ]*/navibench |ExecStart=$(BINDIR)/navibench |' $$u \
			>$(DESTDIR)$(UNITDIR)/$${u#scripts/systemd/} && \
		chmod 644 $(DESTDIR)$(UNITDIR)/$${u#scripts/systemd/} || exit; \
	done
	install -D -m 644 user/grafana/navibench.json $(DESTDIR)$(DATADIR)/navibench/grafana/navibench.json
	install -D -m 644 user/prometheus/navibench.rules.yml \
		$(DESTDIR)$(DATADIR)/navibench/prometheus/navibench.rules.yml
	d=$(DESTDIR)$(DKMSDIR)/gputelemetry-$(DKMS_VERSION); \
	install -D -m 644 -t $$d dkms.conf Kbuild && \
	install -D -m 644 -t $$d/module module/Kbuild $(filter-out %.mod.c,$(wildcard module/*.[ch])) && \
	install -D -m 644 -t $$d/module/uapi module/uapi/*.h

# What kbuild leaves in the tree, for a clean without kernel headers.
KBUILD_PRODUCTS := '*.o' '*.ko' '*.mod' '*.mod.c' '*.o.d' '.*.cmd' '.*.d' \
	'*.symtypes' modules.order Module.symvers

## removes what the build made (kernel headers not needed); build/, the
## tests' scratch builds and logs, stays
clean:
	[ ! -f $(KDIR)/Makefile ] || $(MAKE) -C $(KDIR) M=$(CURDIR) clean
	for d in module tests/modules; do \
		find $$d \( $(foreach p,$(KBUILD_PRODUCTS),-name $(p) -o) -false \) -type f -delete; \
	done
	find . -maxdepth 1 \( $(foreach p,$(KBUILD_PRODUCTS),-name $(p) -o) -false \) -type f -delete
	rm -rf .tmp_versions
	$(MAKE) -C user clean
	$(MAKE) -C hip clean
	rm -f compile_commands.json build/plugindir

## this list: every target, then every variable, from its "##" comment
help:
	@awk '/^## / { d[++n] = substr($$0, 4); next } \
		n && /^[A-Za-z_.-]+:/ { entry("targets", "make " substr($$1, 1, index($$1, ":") - 1)); next } \
		n && /^[A-Z_]+ *[?:]?=/ { entry("vars", $$0); next } \
		{ n = 0 } \
		function entry(k, name,   i) { out[k] = out[k] "  " name "\n"; \
			for (i = 1; i <= n; i++) out[k] = out[k] "      " d[i] "\n"; n = 0 } \
		END { printf "Targets:\n%s\nVariables (make VAR=VALUE), with their defaults:\n%s", out["targets"], out["vars"] }' \
		$(firstword $(MAKEFILE_LIST))
