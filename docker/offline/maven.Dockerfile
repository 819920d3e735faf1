# Stand-in for maven:<version>-eclipse-temurin-<java> where it cannot be pulled: Debian 13's OpenJDK and Maven.
ARG DEBIAN_IMAGE=lab-offline/debian:trixie
FROM ${DEBIAN_IMAGE}
ARG JAVA_MAJOR=25
# ca-certificates-java builds Java's trust store from the system bundle, local CAs included.
# Package versions are the Debian release's own (a stable release takes only fixes), so they are not pinned.
# hadolint ignore=DL3008
RUN apt-get update \
 && apt-get install -y --no-install-recommends "openjdk-${JAVA_MAJOR}-jdk-headless" maven ca-certificates-java \
 && rm -rf /var/lib/apt/lists/* \
 && java -version && mvn -version
