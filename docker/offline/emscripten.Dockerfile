# Stand-in for emscripten/emsdk where it cannot be pulled: Debian 12's emscripten package (3.1.6, the version the
# upstream tag names), with cmake, make and curl as the wasm-runner build stage uses them.
ARG DEBIAN_IMAGE=lab-offline/debian:bookworm
FROM ${DEBIAN_IMAGE}
# Debian's emscripten runs its JS tools under Debian's node, which finds node-acorn here.
ENV NODE_PATH=/usr/share/nodejs
SHELL ["/bin/bash", "-o", "pipefail", "-c"]
# Package versions are the Debian release's own (a stable release takes only fixes), so they are not pinned.
# hadolint ignore=DL3008
RUN apt-get update \
 && apt-get install -y --no-install-recommends emscripten node-acorn cmake make curl ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && emcc --version | head -n1
