# htlint — two commands on a fresh Debian machine with the Swift toolchain:
#   make demo   installs what is missing, builds, runs htlint on fixtures/demo
#   make test   installs what is missing, runs the whole test suite
SHELL := /bin/bash
SWIFT ?= swift
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# Debian packages the build needs (C libraries reached through SwiftPM system-library targets).
BUILD_PACKAGES := libpcre2-dev libyaml-dev libxml2-dev libgraphviz-dev zlib1g-dev libcurl4-openssl-dev pkg-config
# Packages the live real-Apache comparison needs (tests skip it cleanly without them).
ORACLE_PACKAGES := apache2 nginx openssl curl python3-jsonschema

.PHONY: deps oracle-deps build demo test bench bench-data conformance clean fuzz fuzz-build fuzz-smoke sanitize

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
	$(SWIFT) build -c release --product htlint
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

# Fuzzing (issue 9): libFuzzer targets in tools/fuzz, built with the toolchain's
# -sanitize=fuzzer,address. The libraries are compiled instrumented by SwiftPM in a separate
# scratch path; each entry point is linked against their objects. `make fuzz FUZZ_SECONDS=60`
# runs every target that long from the seed corpus (the fixtures' .htaccess files) plus the
# corpus it grew before; a crash leaves its input in $(FUZZ_BUILD)/artifacts and fails.
FUZZ_BUILD ?= .build/fuzz
FUZZ_SECONDS ?= 60
FUZZ_TARGETS := parser regex expander simulate
FUZZ_LIBS := HtlintDiagnostics HtlintBytes HtlintSyntax HtlintRegex HtlintApache

fuzz-build: deps
	$(SWIFT) build --scratch-path $(FUZZ_BUILD) --target HtlintApache -Xswiftc -sanitize=fuzzer,address
	@for t in $(FUZZ_TARGETS); do \
	  src=tools/fuzz/Fuzz$$(echo $${t:0:1} | tr a-z A-Z)$${t:1}.swift; \
	  echo "linking fuzz-$$t"; \
	  swiftc -sanitize=fuzzer,address -parse-as-library -I $(FUZZ_BUILD)/debug/Modules \
	    -Xcc -fmodule-map-file=Sources/CPCRE2/module.modulemap $$src \
	    $$(for l in $(FUZZ_LIBS); do ls $(FUZZ_BUILD)/debug/$$l.build/*.o; done) -lpcre2-8 \
	    -o $(FUZZ_BUILD)/fuzz-$$t 2>&1 | grep -v 'Cannot export local symbol' || true; \
	  [ -x $(FUZZ_BUILD)/fuzz-$$t ] || exit 1; \
	done

fuzz: fuzz-build
	@mkdir -p $(FUZZ_BUILD)/seed $(FUZZ_BUILD)/artifacts
	@i=0; find fixtures Tests -name '.htaccess' -o -name '*.htaccess' | sort | while read f; do \
	  i=$$((i+1)); cp "$$f" $(FUZZ_BUILD)/seed/seed-$$i; done
	@for t in $(FUZZ_TARGETS); do \
	  mkdir -p $(FUZZ_BUILD)/corpus-$$t; \
	  echo "== fuzz-$$t for $(FUZZ_SECONDS)s"; \
	  ASAN_OPTIONS=detect_leaks=0 $(FUZZ_BUILD)/fuzz-$$t -max_total_time=$(FUZZ_SECONDS) -max_len=16384 -timeout=30 \
	    -rss_limit_mb=4096 -print_final_stats=1 -artifact_prefix=$(FUZZ_BUILD)/artifacts/$$t- \
	    $(FUZZ_BUILD)/corpus-$$t $(FUZZ_BUILD)/seed 2>&1 | grep -E '^(#[0-9]+[[:space:]]+DONE|Done|stat::number_of_executed_units|stat::average_exec_per_sec|==[0-9]+==ERROR|SUMMARY|artifact_prefix|Test unit written)' ; \
	  [ $${PIPESTATUS[0]} = 0 ] || { echo "fuzz-$$t failed; input in $(FUZZ_BUILD)/artifacts"; exit 1; }; \
	done

# CI smoke: every target for 15 s (60 s of fuzzing, plus the instrumented build).
fuzz-smoke:
	@$(MAKE) --no-print-directory fuzz FUZZ_SECONDS=15

# The whole test suite once under AddressSanitizer (separate scratch path; slow).
sanitize: deps
	$(SWIFT) build --build-tests --sanitize=address --scratch-path .build/asan
	ASAN_OPTIONS=detect_leaks=0 $(SWIFT) test --skip-build --sanitize=address --scratch-path .build/asan
