# Stand-in for eclipse-temurin:<version>-jre where it cannot be pulled: Debian 13's OpenJDK runtime.
ARG DEBIAN_IMAGE=lab-offline/debian:trixie
FROM ${DEBIAN_IMAGE}
ARG JAVA_MAJOR=25
# Package versions are the Debian release's own (a stable release takes only fixes), so they are not pinned.
# hadolint ignore=DL3008
RUN apt-get update \
 && apt-get install -y --no-install-recommends "openjdk-${JAVA_MAJOR}-jre-headless" \
 && rm -rf /var/lib/apt/lists/* \
 && java -version
