# syntax=docker/dockerfile:1
# The catalog service's image: compiled JavaScript on Node 24, production dependencies only.
#   docker build -t furnished-catalog .
#   docker run -e ES_URL=... -e MONGO_URL=... -p 3000:3000 furnished-catalog     # the service
#   docker run --no-healthcheck -e ES_URL=... -e MONGO_URL=... furnished-catalog node dist/indexer/worker.js
#     (the indexer: it serves no HTTP, so the image's health check does not apply to it)
# Other commands: node dist/indexer/reindex-cli.js [--full], node dist/indexer/import-cli.js FILE,
# node dist/stack/seed.js.

FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY mappings ./mappings
COPY services ./services
COPY indexer ./indexer
COPY stack/seed.ts stack/start-demo.ts ./stack/
COPY stack/demo ./stack/demo
RUN npm run build

FROM node:24-bookworm-slim AS runtime
# The admin port (/metrics, the whole /status) listens on every interface inside the container, for
# Prometheus on the private network: publish 3000 to the public, never 9464.
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 ADMIN_HOST=0.0.0.0 ADMIN_PORT=9464
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts && npm cache clean --force
COPY bin ./bin
COPY --from=build /app/dist ./dist
# The node image's `node` user, by number (a runtime that cannot read /etc/passwd still resolves it).
# The files stay root's (no --chown): the service only reads them, so it cannot rewrite its own code.
USER 1000:1000
EXPOSE 3000 9464
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/livez').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "dist/services/main.js"]
