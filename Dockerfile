# The container profile (src/main.ts) as an image: the same app and jobs as the Worker, in a Node
# process on SQLite (libSQL) or PostgreSQL. Not built in this repository's CI (no registry for base images there);
# test/node/main.test.ts runs the same process layout. See docs/container.md.
ARG NODE_IMAGE=node:22-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json ./
COPY src ./src
# The dashboard's bundle and the OpenAPI document are generated here, not held by git.
COPY scripts/generate ./scripts/generate
COPY scripts/dashboard ./scripts/dashboard
COPY scripts/openapi ./scripts/openapi
COPY scripts/container ./scripts/container
RUN npm run build:container

FROM ${NODE_IMAGE} AS runtime
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json .npmrc ./
# The bundle keeps the database drivers and @opentelemetry/api external (scripts/container/bundle.ts):
# npm ci installs the API (a peer), and the drivers are named at the versions the lockfile pins, so one
# image runs on a SQLite file, a libSQL server or PostgreSQL, and an OpenTelemetry SDK added to the
# image shares the one API copy. test/node/image-runtime.test.ts runs these lines and the bundle.
RUN npm ci --omit=dev --no-audit --no-fund \
 && npm install --no-save --omit=dev --no-audit --no-fund \
      "@libsql/client@$(node -p 'require("./package-lock.json").packages["node_modules/@libsql/client"].version')" \
      "pg@$(node -p 'require("./package-lock.json").packages["node_modules/pg"].version')" \
 && npm cache clean --force
COPY --from=build /app/dist-container/main.js ./dist-container/main.js
COPY migrations ./migrations
# The database lives on a volume, owned by the image's non-root user; replicas on one host may share it.
RUN mkdir -p /data && chown node:node /data
VOLUME /data
USER node
ENV SLOTWISE_DATABASE_URL=file:/data/slotwise.db \
    HOST=0.0.0.0 \
    PORT=8787
EXPOSE 8787
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/health`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM stops the minute timer and the server, then waits up to 30 s for runs in flight.
STOPSIGNAL SIGTERM
CMD ["node", "dist-container/main.js"]
