# durable-agent worker. Build context: the repository root (see docker-compose.yml).
FROM node:20-slim

ENV NODE_ENV=production
WORKDIR /app

COPY package.json package-lock.json ./
RUN npm ci --omit=dev && npm cache clean --force

COPY tsconfig.json ./
COPY src ./src
RUN mkdir -p workspace && chown node:node workspace

USER node
CMD ["node_modules/.bin/tsx", "src/worker/main.ts"]
