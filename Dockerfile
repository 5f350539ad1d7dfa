# syntax=docker/dockerfile:1
# iapkit in a container:  docker run --rm -v "$PWD:/work" IMAGE lint catalog
#
# Two stages: the release archive is built with the official Swift image (`make dist`: the Swift runtime and
# Foundation, libyaml, yajl, zlib and libarchive linked in), then unpacked onto a slim Debian with only the runtime
# libraries it still loads (libxml2, and CA certificates for App Store Connect). The release workflow skips the
# build stage by handing the archives it already built in as the `build` context (`--build-context build=DIR`,
# with DIR/amd64/iapkit and DIR/arm64/iapkit).
ARG SWIFT_IMAGE=swift:6.3-bookworm
ARG RUNTIME_IMAGE=debian:bookworm-slim

FROM ${SWIFT_IMAGE} AS build
ARG TARGETARCH
# Debian's packages of the release the base image pins; their versions follow its security updates.
# hadolint ignore=DL3008
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      make git python3 pkg-config libarchive-dev libxml2-dev zlib1g-dev libyaml-dev libyajl-dev nettle-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
RUN scripts/dist/make-dist.sh --output /dist \
 && mkdir -p "/out/${TARGETARCH}" \
 && tar -xzf /dist/iapkit-*-linux-*.tar.gz -C "/out/${TARGETARCH}" \
 && mv "/out/${TARGETARCH}"/iapkit-* "/out/${TARGETARCH}/iapkit"

FROM ${RUNTIME_IMAGE}
ARG TARGETARCH
# Debian's packages of the release the base image pins; their versions follow its security updates.
# hadolint ignore=DL3008
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends libxml2 ca-certificates \
 && rm -rf /var/lib/apt/lists/*
COPY --from=build /out/${TARGETARCH}/iapkit /opt/iapkit
RUN ln -s /opt/iapkit/bin/iapkit /usr/local/bin/iapkit && iapkit --version
LABEL org.opencontainers.image.title="iapkit" \
      org.opencontainers.image.description="Lint, package, export and sync Apple in-app purchase catalogs" \
      org.opencontainers.image.source="https://github.com/iapkit/iapkit"
WORKDIR /work
ENTRYPOINT ["iapkit"]
CMD ["--help"]
