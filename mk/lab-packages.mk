# The lab's own packages (every folder whose package.json is named @lab/<name>) linked into the repository's
# node_modules, so code imports another package by that name (scripts/link-packages.sh). Included after runtimes.mk.
LAB_PACKAGES := $(LAB_ROOT)/node_modules/@lab/.linked

$(LAB_PACKAGES): $(wildcard $(LAB_ROOT)/*/package.json $(LAB_ROOT)/services/*/package.json $(LAB_ROOT)/agents/*/package.json) $(LAB_ROOT)/scripts/link-packages.sh
	@$(LAB_ROOT)/scripts/link-packages.sh $(LAB_ROOT)
	@touch $@
