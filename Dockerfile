# The console in one image: the API, the legacy /manage/* envelope, the jobs and the built web app.
# Multi-stage: build with every tool, run with production dependencies only, as a user that cannot
# change the code. What is pinned and how to refresh it: docs/decisions/022-container-image.md.
#
# Node 20.19+ is what every test runs on (decision 010), so it is what the image runs. The base is
# pinned by digest; NODE_IMAGE may name another image with the same Node (a mirror, a local build).
ARG NODE_IMAGE=docker.io/library/node:20.20.2-bookworm-slim@sha256:2cf067cfed83d5ea958367df9f966191a942351a2df77d6f0193e162b5febfc0

FROM ${NODE_IMAGE} AS build
# The package manager, at the exact version the lockfile was last written with.
ARG PNPM_VERSION=12.21.0
WORKDIR /src
# argon2 ships prebuilt binaries; the compilers are here in case a platform has none.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ ca-certificates \
 && rm -rf /var/lib/apt/lists/*
RUN npm install -g --no-fund --no-audit "pnpm@${PNPM_VERSION}"
# Dependencies first, so the layer is reused until the lockfile changes.
COPY pnpm-lock.yaml pnpm-workspace.yaml .npmrc ./
RUN pnpm fetch
COPY . .
RUN pnpm install --offline --frozen-lockfile
RUN pnpm run build
# The runtime tree: the bundled server (decision 005) with its production dependencies (no embedded
# PostgreSQL: the image always runs against a database server), the migrations, the locales and the
# web app. Left out: what only building or reading the code needs (TypeScript, type definitions,
# source maps, the sources of the workspace packages, which are inside the bundle).
# Prisma's client carries a query compiler for every database in two variants (55 MB): only those
# the bundle imports are kept. TypeScript comes in as an optional peer of @prisma/client and
# @trpc/server (pnpm installs peers), the type definitions with their packages: neither is ever loaded.
# The invoice PDF's Noto fonts come in every weight: only the regular and the bold it uses are kept.
RUN pnpm --filter @console/server deploy --prod --no-optional /out/apps/server \
 && cd /out/apps/server \
 && rm -rf src build.mjs bundle-options.cjs tsconfig.json data node_modules/@console \
 && find dist -name '*.map' -type f -delete \
 && used=$(grep -ohE "@prisma/client/runtime/query_compiler[A-Za-z0-9_.-]*" dist/*.js dist/*/*.js | sort -u | sed 's|.*/||') \
 && test -n "$used" \
 && for f in node_modules/.pnpm/@prisma+client@*/node_modules/@prisma/client/runtime/query_compiler*; do \
      case " $(echo $used) " in *" $(basename "$f") "*) ;; *) rm -f "$f" ;; esac; \
    done \
 && rm -rf node_modules/.pnpm/typescript@* node_modules/.pnpm/@types+* \
 && find node_modules/.pnpm/@expo-google-fonts+* -mindepth 4 -maxdepth 4 -type d ! -name 400Regular ! -name 700Bold -exec rm -rf {} + \
 && find node_modules/.pnpm/@expo-google-fonts+* \( -name '*.png' -o -name '*Italic*' \) -delete \
 && find node_modules/.pnpm \( -name '*.map' -o -name '*.ts' -o -name '*.mts' -o -name '*.cts' \) -type f -delete \
 && find node_modules -xtype l -delete \
 && find node_modules -type d -empty -delete \
 && cd /src \
 && mkdir -p /out/locales /out/apps/web \
 && cp -r prisma /out/prisma \
 && cp locales/*.json /out/locales/ \
 && cp -r apps/web/dist /out/apps/web/dist \
 && rm -rf /out/apps/web/dist/.vite \
 && find /out/apps/web/dist -name '*.map' -type f -delete \
 && chmod -R u=rwX,go=rX /out

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    APP_ROOT=/app \
    HOST=0.0.0.0 \
    PORT=3000 \
    UPLOAD_DIR=/app/data/uploads \
    LOCK_SIM_STATE_FILE=/app/data/lock-sim/lock-sim.json \
    READER_SIM_STATE_FILE=/app/data/reader-sim/reader-sim.json
WORKDIR /app
# The code belongs to root and is only readable by the user the console runs as; that user writes
# only under /app/data (volumes: uploaded pictures and face photos, the simulators' state).
COPY --from=build /out /app
RUN mkdir -p /app/data/uploads /app/data/lock-sim /app/data/reader-sim \
 && chown -R node:node /app/data
USER node
EXPOSE 3000
# Ready: PostgreSQL and Redis answer (/readyz), not only the process (/healthz).
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/readyz',{signal:AbortSignal.timeout(4000)}).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# DES for the legacy envelope lives in OpenSSL's legacy provider. Migrations run on start.
CMD ["node", "--openssl-legacy-provider", "apps/server/dist/main.js"]
