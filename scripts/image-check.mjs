#!/usr/bin/env node
/**
 * Builds the console's image and runs the compose install (docker-compose.yml, its demo profile)
 * with a container engine alone, then checks what the image and the compose file promise. For a
 * machine where `docker compose up` cannot run (no Docker engine: podman, or a CI runner), and
 * before a release. Compose v2 still renders the file (`docker compose config`): the containers
 * are started exactly as it says (environment, commands, volumes, read-only root, healthchecks),
 * on a network of their own, under the compose service names.
 *
 *   node scripts/image-check.mjs [--no-build]
 *
 * Environment:
 *   ENGINE          podman (default) or docker
 *   COMPOSE         the Compose v2 command that renders the file (default: "docker compose")
 *   NODE_IMAGE      the build's base image (default: the Dockerfile's pinned one)
 *   IMAGE           the tag built and run (default: smart-lock-console:check)
 *   POSTGRES_IMAGE, REDIS_IMAGE   images run for the postgres and redis services (default: the
 *                   compose file's; a stand-in where no registry is reachable)
 *   RUN_OPTIONS     options added to every `run` (e.g. "--ulimit nofile=4096:4096")
 *   CHROMIUM_PATH   a browser for a screenshot of the sign-in page (default: /usr/bin/chromium, if there)
 *
 * Checks: the image runs Node 20.19+ as the tests do, holds no TypeScript, type definitions, source
 * maps or TypeScript sources, its code belongs to root and cannot be changed by the console; every
 * service becomes healthy by its own healthcheck; /readyz answers 200 with a database password
 * holding / # ? % + = (as PostgreSQL checks it over the network); the sign-in page and its scripts
 * load; the demo hotel is created and its rooms paired with simulated locks; the README's
 * create-owner command works; requests are not logged at info; `stop` ends the console cleanly
 * within its grace period; the console starts again on its volumes; the password change-me is
 * refused at start with a message. Exit 1 on any failure. Everything it starts is removed at the
 * end (the image is kept).
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ENGINE = process.env.ENGINE ?? 'podman';
const COMPOSE = (process.env.COMPOSE ?? 'docker compose').split(' ').filter(Boolean);
const IMAGE = process.env.IMAGE ?? 'smart-lock-console:check';
const RUN_OPTIONS = (process.env.RUN_OPTIONS ?? '').split(' ').filter(Boolean);
const build = !process.argv.includes('--no-build');
const id = randomBytes(3).toString('hex');
const prefix = `slcheck-${id}`;
const network = `${prefix}-net`;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'slcheck-'));
const started = [];
const volumes = new Set();
const failures = [];

function engine(args, options = {}) {
  const result = spawnSync(ENGINE, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, ...options });
  if (result.error) throw result.error;
  return result;
}

function must(args, what) {
  const result = engine(args);
  if (result.status !== 0) throw new Error(`${what}: ${ENGINE} ${args.join(' ')} exited ${result.status}\n${result.stderr}`);
  return result.stdout;
}

function check(name, ok, detail = '') {
  process.stdout.write(`${ok ? 'PASS' : 'FAIL'}  ${name}${detail ? `: ${detail}` : ''}\n`);
  if (!ok) failures.push(name);
  return ok;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Compose durations: 30s, 1m30s, 500ms. */
function seconds(duration) {
  let total = 0;
  for (const [, n, unit] of String(duration).matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)) total += Number(n) * { ms: 0.001, s: 1, m: 60, h: 3600 }[unit];
  return total;
}

/** Runs a compose service as compose would: its environment, command, volumes, read-only root, healthcheck. */
function runService(name, service, { image, env = {}, ports = [], restart = true } = {}) {
  const container = `${prefix}-${name}${restart ? '' : `-${randomBytes(2).toString('hex')}`}`;
  const args = ['run', '-d', '--name', container, '--network', network, '--network-alias', name, ...RUN_OPTIONS];
  for (const [key, value] of Object.entries({ ...service.environment, ...env })) args.push('-e', `${key}=${value ?? ''}`);
  if (service.read_only) args.push('--read-only');
  for (const dir of service.tmpfs ?? []) args.push('--tmpfs', dir);
  for (const volume of service.volumes ?? []) {
    if (volume.type !== 'volume') continue;
    volumes.add(`${prefix}-${volume.source}`);
    args.push('-v', `${prefix}-${volume.source}:${volume.target}`);
  }
  for (const port of ports) args.push('-p', port);
  if (service.stop_grace_period) args.push('--stop-timeout', String(Math.ceil(seconds(service.stop_grace_period))));
  args.push(image, ...(service.command ?? []));
  must(args, `start ${name}`);
  started.push(container);
  return container;
}

/** Runs the service's own healthcheck in its container until it passes, or gives up. */
async function healthy(container, service, timeoutMs = 180_000) {
  const test = service.healthcheck?.test;
  if (!test) return false;
  const command = test[0] === 'CMD-SHELL' ? ['sh', '-c', test[1]] : test.slice(1);
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (engine(['exec', container, ...command]).status === 0) return true;
    const state = engine(['inspect', '-f', '{{.State.Running}}', container]).stdout.trim();
    if (state !== 'true') return false;
    await sleep(1_000);
  }
  return false;
}

function logs(container) {
  const result = engine(['logs', container]);
  return `${result.stdout}${result.stderr}`;
}

async function main() {
  // ---- The image
  if (build) {
    const args = ['build', '-t', IMAGE];
    if (ENGINE === 'podman') args.push('--format', 'docker'); // keeps the HEALTHCHECK
    if (process.env.NODE_IMAGE) args.push('--build-arg', `NODE_IMAGE=${process.env.NODE_IMAGE}`);
    const t = Date.now();
    const result = spawnSync(ENGINE, [...args, root], { stdio: 'inherit' });
    if (result.status !== 0) throw new Error('the image did not build');
    process.stdout.write(`built ${IMAGE} in ${Math.round((Date.now() - t) / 1000)} s\n`);
  }
  const size = Number(must(['image', 'inspect', '-f', '{{.Size}}', IMAGE], 'image size').trim());
  const inImage = (script) => engine(['run', '--rm', ...RUN_OPTIONS, IMAGE, 'sh', '-c', script]);
  const facts = inImage(
    [
      'node -p process.version',
      'id -un',
      'du -sm /app | cut -f1',
      'find /app -type d \\( -name typescript -o -path "*/node_modules/@types" \\) | head -5 | tr "\\n" " "; echo',
      'find /app \\( -name "*.map" -o -name "*.ts" -o -name "*.tsx" -o -name "*.mts" -o -name "*.cts" \\) | head -5 | tr "\\n" " "; echo',
      'stat -c %U /app/apps/server/dist/main.js',
      'if touch /app/apps/server/dist/main.js 2>/dev/null || touch /app/new 2>/dev/null; then echo writable; else echo read-only; fi',
    ].join('; '),
  ).stdout.split('\n');
  const [version, user, appMb, typescript, sources, owner, writable] = facts;
  const [major, minor] = version.replace('v', '').split('.').map(Number);
  check('the image runs Node 20.19+ (what the tests run on)', major === 20 && minor >= 19, version);
  check('the console runs as an unprivileged user', user === 'node', user);
  check('no TypeScript or type definitions in the image', typescript.trim() === '', typescript.trim());
  check('no source maps or TypeScript sources in the image', sources.trim() === '', sources.trim());
  check('the code belongs to root and the console cannot change it', owner === 'root' && writable === 'read-only', `${owner}, ${writable}`);
  process.stdout.write(`image ${IMAGE}: ${(size / 1e6).toFixed(0)} MB in all, /app ${appMb} MB\n`);

  // ---- The compose file, rendered by Compose v2 with a .env written by scripts/compose-env.sh --demo,
  // whose database password holds every character a URL gives a meaning to.
  const envFile = path.join(work, '.env');
  const written = spawnSync('sh', [path.join(root, 'scripts/compose-env.sh'), '--demo', envFile], { encoding: 'utf8' });
  if (written.status !== 0) throw new Error(`compose-env.sh failed: ${written.stderr}`);
  const password = `${randomBytes(9).toString('base64')}/#?%+=${randomBytes(6).toString('hex')}`;
  fs.writeFileSync(envFile, fs.readFileSync(envFile, 'utf8').replace(/^POSTGRES_PASSWORD=.*$/m, `POSTGRES_PASSWORD=${password}`));
  const rendered = spawnSync(
    COMPOSE[0],
    [
      ...COMPOSE.slice(1),
      '--project-directory',
      root,
      '-f',
      path.join(root, 'docker-compose.yml'),
      '--env-file',
      envFile,
      '--profile',
      'demo',
      'config',
      '--format',
      'json',
    ],
    { encoding: 'utf8' },
  );
  if (rendered.status !== 0) throw new Error(`Compose could not render docker-compose.yml: ${rendered.stderr}`);
  const { services } = JSON.parse(rendered.stdout);
  check(
    'Compose passes the database password as written',
    services.app.environment.PGPASSWORD === password && services.postgres.environment.POSTGRES_PASSWORD === password,
  );

  must(['network', 'create', network], 'network');
  const postgres = runService('postgres', services.postgres, { image: process.env.POSTGRES_IMAGE ?? services.postgres.image });
  const redis = runService('redis', services.redis, { image: process.env.REDIS_IMAGE ?? services.redis.image });
  const lockSim = runService('lock-sim', services['lock-sim'], { image: IMAGE });
  const readerSim = runService('reader-sim', services['reader-sim'], { image: IMAGE });
  check('postgres is healthy', await healthy(postgres, services.postgres));
  check('redis is healthy', await healthy(redis, services.redis));
  check('lock-sim is healthy (its state on a volume)', await healthy(lockSim, services['lock-sim']), logs(lockSim).trim().split('\n').at(-1));
  check('reader-sim is healthy (its state on a volume)', await healthy(readerSim, services['reader-sim']));

  // ---- The console, published on this machine's loopback as the compose file says.
  const published = services.app.ports[0];
  check('the console is published on 127.0.0.1 only by default', published.host_ip === '127.0.0.1', JSON.stringify(published));
  const port = await freePort();
  const app = runService('app', services.app, { image: IMAGE, ports: [`127.0.0.1:${port}:${published.target}`] });
  const base = `http://127.0.0.1:${port}`;
  const appHealthy = await healthy(app, services.app);
  check('the console is healthy by its healthcheck (/readyz)', appHealthy, appHealthy ? '' : logs(app).slice(-3000));
  if (!appHealthy) return;
  const ready = await fetch(`${base}/readyz`).catch((error) => ({ status: 0, json: async () => String(error) }));
  check('/readyz answers 200 with the password holding / # ? % + =', ready.status === 200, JSON.stringify(await ready.json()));

  const page = await fetch(`${base}/`);
  const html = await page.text();
  const scripts = [...html.matchAll(/<script[^>]+src="([^"]+)"/g)].map((m) => m[1]);
  const assets = await Promise.all(scripts.map(async (src) => (await fetch(new URL(src, base))).status));
  check(
    'the sign-in page loads, with its scripts',
    page.status === 200 && html.includes('id="root"') && scripts.length > 0 && assets.every((s) => s === 200),
    `${page.status}, scripts ${assets.join(' ')}`,
  );
  const captcha = await fetch(`${base}/trpc/auth.captcha`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  check('the sign-in page gets its graphic code', captcha.status === 200, String(captcha.status));
  const sql = (query) =>
    engine([
      'exec',
      postgres,
      'psql',
      '-U',
      services.postgres.environment.POSTGRES_USER,
      '-d',
      services.postgres.environment.POSTGRES_DB,
      '-tAc',
      query,
    ]).stdout.trim();
  check('the demo hotel is created (13800000000 / demo1234)', sql(`SELECT count(*) FROM "Account" WHERE mobile = '13800000000'`) === '1');
  check(
    'the demo rooms are paired with simulated locks',
    Number(sql(`SELECT count(*) FROM "Room" WHERE "lockId" IS NOT NULL`)) > 0,
    logs(app).match(/paired \d+ rooms[^"]*/)?.[0] ?? 'no pairing logged',
  );
  const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (fs.existsSync(chromium)) {
    const shot = path.join(root, 'test-output', 'image-check', 'sign-in.png');
    fs.mkdirSync(path.dirname(shot), { recursive: true });
    spawnSync(
      chromium,
      [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--hide-scrollbars',
        '--window-size=1280,900',
        '--virtual-time-budget=10000',
        `--screenshot=${shot}`,
        `${base}/`,
      ],
      { encoding: 'utf8', timeout: 60_000 },
    );
    process.stdout.write(`screenshot of the sign-in page: ${shot}\n`);
  }

  const createOwner = engine([
    'exec',
    '-e',
    'OWNER_PASSWORD=check-owner-1234',
    app,
    'node',
    '--openssl-legacy-provider',
    'apps/server/dist/create-owner.js',
    '--hotel',
    'Harbour Hotel',
    '--account',
    '13812345678',
  ]);
  check(
    "the README's create-owner command works in the running console",
    createOwner.status === 0 && sql(`SELECT count(*) FROM "Account" WHERE mobile = '13812345678'`) === '1',
    `${createOwner.stdout}${createOwner.stderr}`.trim().split('\n').at(-1),
  );

  const write = (target) => engine(['exec', app, 'sh', '-c', `echo x > ${target} && rm ${target}`]).status === 0;
  check(
    'the running console cannot change its code, and writes its volumes',
    !write('/app/apps/server/dist/main.js') && !write('/app/check') && write('/app/data/uploads/.check'),
  );
  check('requests are not logged at the default level', !/"msg":"(incoming request|request completed)"/.test(logs(app)));

  // ---- Stopping, and starting again on the same volumes.
  const grace = seconds(services.app.stop_grace_period ?? '10s');
  const shutdownMs = Number(services.app.environment.SHUTDOWN_TIMEOUT_MS ?? 10_000);
  check('compose waits longer than the console takes to stop', grace * 1000 > shutdownMs, `stop_grace_period ${grace} s, SHUTDOWN_TIMEOUT_MS ${shutdownMs}`);
  const t = Date.now();
  must(['stop', '-t', String(Math.ceil(grace)), app], 'stop');
  const stoppedIn = Date.now() - t;
  const exitCode = engine(['inspect', '-f', '{{.State.ExitCode}}', app]).stdout.trim();
  check(
    'stop ends the console cleanly, within its grace period',
    exitCode === '0' && /"msg":"stopped"/.test(logs(app)),
    `exit ${exitCode} after ${stoppedIn} ms`,
  );
  must(['start', app], 'start again');
  check('the console starts again on its volumes', await healthy(app, services.app));

  // ---- The example's old placeholder password is refused at start, with a message (no restart loop of a silent failure).
  const refused = runService('app', services.app, { image: IMAGE, env: { PGPASSWORD: 'change-me' }, restart: false });
  const deadline = Date.now() + 60_000;
  while (engine(['inspect', '-f', '{{.State.Running}}', refused]).stdout.trim() === 'true' && Date.now() < deadline) await sleep(500);
  const refusedCode = engine(['inspect', '-f', '{{.State.ExitCode}}', refused]).stdout.trim();
  const refusedLog = logs(refused);
  check(
    'the password change-me is refused at start, saying what to do',
    refusedCode === '1' && refusedLog.includes('production refuses the database password "change-me"'),
    `exit ${refusedCode}: ${refusedLog.trim().split('\n').slice(0, 3).join(' | ')}`,
  );
}

try {
  await main();
} catch (error) {
  check('the check ran to its end', false, error instanceof Error ? error.message : String(error));
} finally {
  for (const container of started.reverse()) engine(['rm', '-f', '-t', '0', container]);
  engine(['network', 'rm', network]);
  for (const volume of volumes) engine(['volume', 'rm', '-f', volume]);
  fs.rmSync(work, { recursive: true, force: true });
}
process.stdout.write(failures.length ? `\n${failures.length} check(s) failed\n` : '\nevery check passed\n');
process.exit(failures.length ? 1 : 0);
