# Real-Apache oracle for htlint (see tools/apache-oracle/README.md).
# Included from the main Makefile:  include tools/apache-oracle/oracle.mk
#
#   make record-fixtures     re-record fixtures/apache/*/expected.json from real Apache
#   make check-apache-live   re-record into a temp dir and compare with the committed files
#
# check-apache-live needs root, apache2, nginx, openssl and unshare. Without them it
# prints why it skips and succeeds, so it passes on ordinary non-root machines;
# under CI=true as root it always runs (a missing tool is then an error, not a skip).

ORACLE_PYTHON ?= python3
ORACLE        ?= $(ORACLE_PYTHON) tools/apache-oracle/oracle.py
ORACLE_CASES  ?= fixtures/apache
ORACLE_TOOLS  := apache2 nginx openssl unshare

.PHONY: record-fixtures check-apache-live

record-fixtures:
	$(ORACLE) record $(ORACLE_CASES)

check-apache-live:
	@if [ "$$(id -u)" != 0 ]; then \
	    echo "check-apache-live: SKIPPED (needs root to start Apache in a private network namespace)"; \
	    exit 0; \
	fi; \
	if [ "$$CI" != true ]; then \
	    for tool in $(ORACLE_TOOLS); do \
	        if ! PATH="$$PATH:/usr/sbin:/sbin" command -v $$tool >/dev/null 2>&1; then \
	            echo "check-apache-live: SKIPPED ('$$tool' not installed; apt-get install -y apache2 nginx openssl util-linux)"; \
	            exit 0; \
	        fi; \
	    done; \
	fi; \
	echo "check-apache-live: $(ORACLE) check $(ORACLE_CASES)"; \
	$(ORACLE) check $(ORACLE_CASES)
