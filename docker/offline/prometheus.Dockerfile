# Stand-in for prom/prometheus where it cannot be pulled: Debian 12's prometheus package (2.42). Shaped like the
# upstream image so docker-compose.yml needs no change: the binary as entrypoint, data in /prometheus owned by
# nobody, and busybox's wget for the healthcheck.
ARG DEBIAN_IMAGE=lab-offline/debian:bookworm
FROM ${DEBIAN_IMAGE}
# Package versions are the Debian release's own (a stable release takes only fixes), so they are not pinned.
# hadolint ignore=DL3008
RUN apt-get update \
 && apt-get install -y --no-install-recommends prometheus busybox \
 && rm -rf /var/lib/apt/lists/* \
 && ln -s /bin/busybox /usr/local/bin/wget \
 && mkdir -p /prometheus /etc/prometheus \
 && chown nobody:nogroup /prometheus \
 && prometheus --version
USER nobody
WORKDIR /prometheus
EXPOSE 9090
ENTRYPOINT ["/usr/bin/prometheus"]
CMD ["--config.file=/etc/prometheus/prometheus.yml", "--storage.tsdb.path=/prometheus"]
