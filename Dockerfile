# durable-agent worker image. Build context: the repository root (see docker-compose.yml).
# The build stage compiles the TypeScript and bundles the workflow code once; the image holds the
# compiled package with its production dependencies only, and runs it with plain node: nothing is
# compiled or bundled when a container starts.
FROM node:20-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci
COPY tsconfig.json tsconfig.build.json ./
COPY scripts/build.cjs ./scripts/
COPY src ./src
# --build-arg BUNDLE_FLAGS=--encrypted-failures for workers that encrypt payloads.
ARG BUNDLE_FLAGS=""
RUN npm run build && node dist/cli/main.js bundle --out dist/workflow-bundle.js $BUNDLE_FLAGS

FROM node:20-slim
ENV NODE_ENV=production \
    AGENT_WORKFLOW_BUNDLE=/app/dist/workflow-bundle.js \
    AGENT_HEALTH_FILE=/tmp/durable-agent-worker.health
WORKDIR /app

COPY package.json package-lock.json ./
# The link lets an agents module under /app (mounted or copied to /app/agents) load this package
# by name, `require('durable-agent')` or `import 'durable-agent'`, with its own package.json or not.
RUN npm ci --omit=dev && npm cache clean --force && ln -s .. node_modules/durable-agent

COPY --from=build /app/dist ./dist
COPY bin/durable-agent.cjs ./bin/
RUN mkdir -p workspace agents && chown node:node workspace

USER node
# Your agents: mount them at /app/agents (docker-compose.yml does) or COPY them there in an image
# FROM this one; AGENT_MODULE names the module that exports `agents`.
CMD ["node", "bin/durable-agent.cjs", "worker"]
