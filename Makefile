# The lab's commands. `make test` is what CI runs (.ci/run); see README.md.
include mk/runtimes.mk
NODE := $(NODE24_BIN)/node

# Every folder with a Makefile of the same shape (setup, test, start): the services, then the load driver.
COMPONENTS := $(patsubst %/Makefile,%,$(wildcard services/*/Makefile)) load
# Tests of the shared pieces that belong to no component, run under Node 24.
SHARED_TESTS := 'js-serializers/test/*.test.js' 'dashboards/test/*.test.js' 'scripts/test/*.test.js'

.PHONY: setup system-packages native test test-components test-shared check-config test-integration

setup: system-packages $(NODE14_BIN)/node $(NODE24_BIN)/node
	@for dir in $(COMPONENTS); do $(MAKE) -s -C $$dir setup || exit 1; done

system-packages:
	@scripts/install-system-packages.sh

native: setup
	$(NODE) scripts/native.js

test: setup test-components test-shared check-config test-integration

test-components: setup
	@for dir in $(COMPONENTS); do echo "== $$dir"; $(MAKE) -s -C $$dir test || exit 1; done

test-shared: setup
	$(NODE) --test $(SHARED_TESTS)

check-config: setup
	promtool check config prometheus.yml

# Every service, the load driver and Prometheus started natively (ports shifted, so a running `make native` is left
# alone), the smoke suite, and every dashboard query against the real Prometheus.
test-integration: setup
	$(NODE) --test 'tests/integration/*.test.js'
