# Beatnik in one container.
#   docker build -t beatnik .
#   docker run -d -p 3000:3000 -v beatnik-data:/data --name beatnik beatnik
# The build stage runs the commands CI runs (npm ci, npm run build); the image keeps only
# production dependencies and the bundle (the server, its ranking refresh and the admin CLI).
# No secret is baked in: JWT_SECRET is generated into the data volume on first start (or passed
# with -e).

FROM node:24-bookworm-slim AS build
WORKDIR /app
# Toolchain for native addons (better-sqlite3) when no prebuilt binary can be fetched.
RUN apt-get update \
    && apt-get install -y --no-install-recommends python3 make g++ \
    && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:24-bookworm-slim
# tini is PID 1: it forwards SIGTERM/SIGINT to Node and reaps zombies, so `docker stop` lets
# in-flight requests finish and closes the database cleanly.
RUN apt-get update \
    && apt-get install -y --no-install-recommends tini \
    && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production DATA_DIR=/data PORT=3000 HOST=0.0.0.0
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# The admin CLI is in the bundle too (docker exec beatnik npm run admin -- --help): package.json
# for `npm run`, and no lifecycle scripts, so `npm run admin` runs the built CLI without its
# preadmin check for a stale build, which only a checkout of the sources needs.
COPY package.json ./
ENV npm_config_ignore_scripts=true
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "dist/server/main.js"]
