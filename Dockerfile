# durable-agent worker. Build context: the repository root (see docker-compose.yml).
# The build stage compiles the TypeScript; the image holds the compiled JavaScript and the
# production dependencies only.
FROM node:20-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci
COPY tsconfig.json tsconfig.build.json ./
COPY scripts/build.cjs ./scripts/
COPY src ./src
RUN npm run build && node dist/client/cli/main.js bundle --out dist/workflow-bundle.js

FROM node:20-slim
ENV NODE_ENV=production
# The workflow code bundled at build time: the worker starts without webpack.
ENV AGENT_WORKFLOW_BUNDLE=/app/dist/workflow-bundle.js
WORKDIR /app

COPY package.json package-lock.json ./
RUN npm ci --omit=dev && npm cache clean --force

COPY --from=build /app/dist ./dist
RUN mkdir -p workspace && chown node:node workspace

USER node
CMD ["node", "dist/worker/main.js"]
