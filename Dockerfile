# syntax=docker/dockerfile:1.7
# The console in one image: the API, the legacy /manage/* envelope, the jobs and the built web app.
# Multi-stage: build with every tool, run with production dependencies only, as a non-root user.
ARG NODE_VERSION=26

FROM node:${NODE_VERSION}-bookworm-slim AS build
WORKDIR /src
# argon2 ships prebuilt binaries; the compilers are here in case a platform has none.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ ca-certificates \
 && rm -rf /var/lib/apt/lists/*
RUN npm install -g pnpm@12
# Dependencies first, so the layer is reused until the lockfile changes.
COPY pnpm-lock.yaml pnpm-workspace.yaml .npmrc ./
RUN pnpm fetch
COPY . .
RUN pnpm install --offline --frozen-lockfile
RUN pnpm run build
# The runtime tree: the bundled server with its production dependencies (no embedded PostgreSQL:
# the image always runs against DATABASE_URL), the migrations, the locales and the web app.
RUN pnpm --filter @console/server deploy --prod --no-optional /out/apps/server \
 && rm -rf /out/apps/server/src /out/apps/server/build.mjs /out/apps/server/tsconfig.json \
 && mkdir -p /out/locales /out/apps/web \
 && cp -r prisma /out/prisma \
 && cp locales/*.json /out/locales/ \
 && cp -r apps/web/dist /out/apps/web/dist

FROM node:${NODE_VERSION}-bookworm-slim AS runtime
ENV NODE_ENV=production \
    APP_ROOT=/app \
    HOST=0.0.0.0 \
    PORT=3000
WORKDIR /app
COPY --from=build --chown=node:node /out /app
# Uploaded pictures and photos (mount a volume here); the optional lock simulator's state.
RUN mkdir -p /app/data/uploads /app/data/lock-sim && chown -R node:node /app/data
USER node
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"]
# DES for the legacy envelope lives in OpenSSL's legacy provider. Migrations run on start.
CMD ["node", "--openssl-legacy-provider", "apps/server/dist/main.js"]
