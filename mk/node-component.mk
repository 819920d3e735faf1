# setup, test and start of a Node component on one pinned Node line, with that line's own npm. The including Makefile
# includes runtimes.mk, then sets NODE_BIN (one of runtimes.mk's) and ENTRY, and may set NODE_FLAGS (options for
# start) and TEST.
include $(LAB_ROOT)/mk/lab-packages.mk
COMPONENT_NODE := $(NODE_BIN)/node
TEST ?= node --test

.PHONY: setup test start
setup: node_modules/.installed $(LAB_PACKAGES)

node_modules/.installed: package-lock.json $(COMPONENT_NODE)
	PATH="$(NODE_BIN):$$PATH" npm ci --no-audit --no-fund --loglevel=error
	touch $@

test: setup
	PATH="$(NODE_BIN):$$PATH" $(TEST)

start: setup
	exec $(COMPONENT_NODE) $(NODE_FLAGS) $(ENTRY)
