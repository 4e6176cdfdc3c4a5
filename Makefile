# htlint — two commands on a fresh Debian machine with the Swift toolchain:
#   make demo   installs what is missing, builds, runs htlint on fixtures/demo
#   make test   installs what is missing, runs the whole test suite
SHELL := /bin/bash
SWIFT ?= swift
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# Debian packages the build needs (C libraries reached through SwiftPM system-library targets).
BUILD_PACKAGES := libpcre2-dev libyaml-dev libxml2-dev libgraphviz-dev zlib1g-dev pkg-config
# Packages the live real-Apache comparison needs (tests skip it cleanly without them).
ORACLE_PACKAGES := apache2 nginx openssl curl python3-jsonschema

.PHONY: deps oracle-deps build demo test bench bench-data conformance clean

deps:
	@missing=""; for p in $(BUILD_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; fi

oracle-deps:
	@missing=""; for p in $(ORACLE_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then echo "installing:$$missing"; \
	  ( $(SUDO) apt-get update -qq && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing ) \
	  || echo "note: could not install$$missing; the live Apache comparison will be skipped"; fi

build: deps
	$(SWIFT) build

demo: deps
	$(SWIFT) build -c release --product htlint
	@echo '# The story: WordPress in /blog behind Cloudflare Flexible, with the host'"'"'s "force HTTPS" snippet.'
	@echo '$$ htlint simulate --site fixtures/story/broken/site.yml'
	-@.build/release/htlint simulate --site fixtures/story/broken/site.yml
	@echo
	@echo '$$ htlint explain --site fixtures/story/broken/site.yml https://example.org/hello-world/'
	-@.build/release/htlint explain --site fixtures/story/broken/site.yml https://example.org/hello-world/
	@echo
	@echo '# After the fixes (X-Forwarded-Proto condition, blog/$$1 with a guard, the wp-config.php fix):'
	@echo '$$ htlint simulate --site fixtures/story/fixed/site.yml'
	-@.build/release/htlint simulate --site fixtures/story/fixed/site.yml

test: deps oracle-deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	@$(MAKE) --no-print-directory check-apache-live

conformance: deps
	$(SWIFT) build --product htlint
	.build/debug/htlint conformance ../shared/conformance/cases

bench: deps bench-data
	$(SWIFT) build -c release --product htlint-bench
	.build/release/htlint-bench $(BENCH_DATA) --limit $(BENCH_DATA)/pcre_limit

clean:
	rm -rf .build

-include tools/apache-oracle/oracle.mk

BENCH_DATA ?= .build/bench-data
# Generates the ../shared/bench workloads (once), builds the limit program and htlint-bench in
# release mode, and prints the figures.
bench-data:
	@if [ ! -d ../shared/bench ]; then echo "bench: ../shared/bench is not here; nothing to measure"; exit 2; fi
	@[ -d $(BENCH_DATA)/w1 ] || python3 ../shared/bench/gen.py $(BENCH_DATA)
	@[ -x $(BENCH_DATA)/pcre_limit ] || cc -O2 -o $(BENCH_DATA)/pcre_limit ../shared/bench/pcre_limit.c -lpcre2-8
