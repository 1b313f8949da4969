# syntax=docker/dockerfile:1
# The service on the official Bun image: production dependencies only, a non-root user, a
# health check on /healthz. See docs/deployment.md.
#
#   docker build -t docs-chat .                                  # serves a real network (CHAIN_NETWORK...)
#   docker build --build-arg OPTIONAL_DEPS=true -t docs-chat .   # + local embedding models (EMBEDDING_MODEL)
#
# The image holds what the service runs (src, core, adapters), never the tooling (dev/,
# examples/, test/): the local demo chain of `npm start` is not in it, so CHAIN_NETWORK & co.
# must be set. The optional dependencies are @huggingface/transformers (EMBEDDING_MODEL), the
# Chroma server bindings the chromadb client carries, and LiteSVM (unused in the image);
# without them the image is ~10x smaller.

ARG BUN_VERSION=1.4.5
ARG NODE_VERSION=20

# npm installs exactly what package-lock.json pins; the Bun image carries no npm.
FROM node:${NODE_VERSION}-bookworm-slim AS deps
ARG OPTIONAL_DEPS=false
WORKDIR /app
COPY package.json package-lock.json ./
# No install scripts: no production dependency needs one (onnxruntime's only fetches GPU builds).
RUN --mount=type=cache,target=/root/.npm \
    if [ "$OPTIONAL_DEPS" = "true" ]; then npm ci --omit=dev --ignore-scripts --no-audit --no-fund; \
    else npm ci --omit=dev --omit=optional --ignore-scripts --no-audit --no-fund; fi

FROM oven/bun:${BUN_VERSION}-slim
WORKDIR /app
# BUN_JSC_forceRAMSize: JavaScriptCore sizes its heap by the machine's memory, not the
# container's limit; told compose's 512 MB (compose.yaml), it collects sooner. Measured in
# docs/performance.md ("Memory on both runtimes"): 15 to 20 MB less RSS under the soak's load,
# the same throughput. Set it to the container's limit in bytes if you change that.
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    BUN_JSC_forceRAMSize=536870912
COPY --from=deps /app/node_modules ./node_modules
COPY package.json README.md ./
COPY docs ./docs
COPY core ./core
COPY adapters ./adapters
COPY src ./src
# The browser widget's bundles (dist/widget/), built once here rather than at every start.
RUN bun src/bundles/build.ts
# .data holds the local index and the demo chain's state: the only place the service writes.
RUN mkdir -p .data && chown bun:bun .data
USER bun
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["bun", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
STOPSIGNAL SIGTERM
CMD ["bun", "run", "src/main.ts"]
