# The nodewright controller image: Node 24, the built CLI as entrypoint, non-root, nothing
# written at run time (runs with a read-only root filesystem).
#
#   docker build -t nodewright:0.1.0 .
#   docker build --build-arg BASE_IMAGE=my-registry/node:24-bookworm-slim -t nodewright:0.1.0 .
#
# BASE_IMAGE is any image with Node 24 on PATH as `node` (and npm, for the build stage): the
# public node:24 images, or one made locally where no registry is reachable.
ARG BASE_IMAGE=node:24-bookworm-slim

FROM ${BASE_IMAGE} AS build
ARG PNPM_VERSION=12.23.0
WORKDIR /src
RUN npm install --global "pnpm@${PNPM_VERSION}"
# Manifests first, so the dependency layer is reused while only sources change.
COPY package.json pnpm-lock.yaml pnpm-workspace.yaml ./
COPY packages/core/package.json packages/core/
COPY packages/cli/package.json packages/cli/
COPY providers/aws/package.json providers/aws/
COPY providers/azure/package.json providers/azure/
COPY providers/gcp/package.json providers/gcp/
COPY providers/kwok/package.json providers/kwok/
COPY conformance/package.json conformance/
RUN pnpm install --frozen-lockfile
# Only what the CLI is built from, so a change to docs or tests reuses the layers below.
COPY tsconfig.base.json ./
COPY packages packages
COPY providers providers
# tsc -b of the CLI builds the packages it references (core and the providers), not the
# conformance suite. `pnpm deploy` then copies the CLI with its dependencies (the workspace
# packages included, built) into one self-contained directory. Not with --prod: the cloud
# providers are the CLI's optional peers, installed through its devDependencies, and an image
# without them could only run KWOK. The one other devDependency, esbuild (the CLI's bundler),
# is removed. Type declarations and source maps are never loaded at run time either.
RUN pnpm exec tsc -b packages/cli && pnpm --filter @nodewright/cli deploy /out && \
    find /out/node_modules -depth -maxdepth 3 \( -name esbuild -o -name '@esbuild' -o -name 'esbuild@*' -o -name '@esbuild+*' \) \
      -exec rm -rf {} + && \
    find /out -type f \( -name '*.map' -o -name '*.d.ts' -o -name '*.d.mts' -o -name '*.d.cts' \) -delete

FROM ${BASE_IMAGE}
ARG VERSION=0.1.0
ARG REVISION=unknown
LABEL org.opencontainers.image.title="nodewright" \
      org.opencontainers.image.description="Multi-cloud Kubernetes node autoscaler (controller and CLI)" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.licenses="Apache-2.0" \
      org.opencontainers.image.source="https://github.com/nodewright/nodewright" \
      org.opencontainers.image.url="https://github.com/nodewright/nodewright"
ENV NODE_ENV=production
# Owned by root and not writable by the user the controller runs as.
COPY --from=build --chown=0:0 /out /app
WORKDIR /app
# 65532 is "nonroot" by convention; numeric, so runAsNonRoot can verify it.
USER 65532:65532
EXPOSE 8080 8081
# The controller's V8 heap flags (`nodewright controller --help`, "Memory"), given to node
# directly so the controller starts without re-executing itself.
ENTRYPOINT ["node", "--max-semi-space-size=8", "--heap-growing-percent=100", "/app/dist/bin.js"]
CMD ["--help"]
