import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig } from '../apps/server/src/config';
import { REDIS_CONTAINER_COMMAND } from '../apps/server/src/infra/redis';

/**
 * docker-compose.yml, .env.example, scripts/compose-env.sh and the Dockerfile, read as Compose and
 * the image's build read them: the compose file is interpolated with a .env as Compose does it, and
 * the environment the console would get is loaded by the console's own configuration (what decides
 * whether it starts). `node scripts/image-check.mjs` builds the image and runs the whole install.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

interface Service {
  image?: string;
  build?: unknown;
  command?: string[];
  environment?: Record<string, string>;
  profiles?: string[];
  ports?: string[];
  volumes?: string[];
  read_only?: boolean;
  tmpfs?: string[];
  stop_grace_period?: string;
  healthcheck?: { test: string[] };
  logging?: { driver: string; options: Record<string, string> };
  depends_on?: Record<string, { condition: string; required?: boolean }>;
}
const composeText = read('docker-compose.yml');
const compose = parse(composeText) as { services: Record<string, Service>; volumes: Record<string, unknown> };
const dockerfile = read('Dockerfile');
const readme = read('README.md');
const composeSection = readme.slice(
  readme.indexOf('## Self-hosting with Docker Compose'),
  readme.indexOf('\n## ', readme.indexOf('## Self-hosting with Docker Compose') + 3),
);

/** A .env file as Compose reads it: KEY=VALUE lines, comments, single quotes taken literally. */
function parseDotenv(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const match = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(line);
    if (!match) continue;
    const raw = match[2]!.trim();
    env[match[1]!] = raw.startsWith("'")
      ? raw.slice(1, raw.lastIndexOf("'"))
      : raw.startsWith('"')
        ? raw.slice(1, raw.lastIndexOf('"'))
        : raw.replace(/\s+#.*$/, '');
  }
  return env;
}

/** Compose's interpolation: ${NAME}, ${NAME:-default}, ${NAME-default}, ${NAME:?error}, ${NAME?error}, $$. */
function interpolate(value: string, env: Record<string, string>): string {
  return value.replace(
    /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?)([-?])([^}]*))?\}/g,
    (whole, name: string | undefined, colon: string, op: string, arg: string) => {
      if (whole === '$$') return '$';
      const set = env[name!] !== undefined && (colon !== ':' || env[name!] !== '');
      if (set) return env[name!]!;
      if (op === '?') throw new Error(`required variable ${name} is missing a value: ${arg}`);
      return op === '-' ? arg : '';
    },
  );
}

/** The environment the console gets from the image and the compose file, with that .env. */
function appEnvironment(env: Record<string, string>, service = 'app'): Record<string, string> {
  const image = Object.fromEntries(
    [...dockerfile.matchAll(/^ENV\s+((?:.*\\\n)*.*)$/gm)].flatMap((m) => [...m[1]!.matchAll(/([A-Z_]+)=(\S+)/g)].map((kv) => [kv[1]!, kv[2]!])),
  );
  const environment = Object.fromEntries(Object.entries(compose.services[service]!.environment ?? {}).map(([k, v]) => [k, interpolate(String(v), env)]));
  return { ...image, ...environment };
}

const THE_SIX_SECRETS = ['POSTGRES_PASSWORD', 'COMPAT_DES_KEY', 'COMPAT_DES_IV', 'CARD_KEY_SECRET', 'FACE_PHOTO_SECRET', 'LOCK_CALLBACK_SECRET'];
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'compose-test-'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** .env as `sh scripts/compose-env.sh [--demo]` writes it. */
function composeEnv(...args: string[]): { env: Record<string, string>; text: string } {
  const file = path.join(scratch, `env-${Math.random().toString(36).slice(2)}`);
  const result = spawnSync('sh', [path.join(root, 'scripts/compose-env.sh'), ...args, file], { encoding: 'utf8' });
  expect(result.status, result.stderr).toBe(0);
  const text = fs.readFileSync(file, 'utf8');
  return { env: parseDotenv(text), text };
}

describe('docker-compose.yml', () => {
  it('is valid YAML with the app, its database and Redis, and the simulators only in the demo profile', () => {
    expect(Object.keys(compose.services)).toEqual(expect.arrayContaining(['app', 'postgres', 'redis', 'lock-sim', 'reader-sim']));
    expect(compose.services['lock-sim']!.profiles).toEqual(['demo']);
    expect(compose.services['reader-sim']!.profiles).toEqual(['demo']);
    expect(compose.services.app!.profiles).toBeUndefined();
  });

  it('requires the six secrets, each named with what to set, and .env.example, compose-env.sh and the README name the same six', () => {
    const required = [...composeText.matchAll(/\$\{([A-Z_]+):\?/g)].map((m) => m[1]!);
    const secrets = [...new Set(required)].filter((name) => !['SMS_PROVIDER', 'LOCK_PROVIDER'].includes(name));
    expect(secrets.sort()).toEqual([...THE_SIX_SECRETS].sort());
    for (const name of THE_SIX_SECRETS) {
      expect(composeText, name).toMatch(new RegExp(`\\$\\{${name}:\\?set ${name} in \\.env`));
      expect(read('.env.example'), name).toMatch(new RegExp(`^${name}=$`, 'm'));
      expect(composeSection, name).toContain(`\`${name}\``);
    }
    // Each of them is filled by the script, and nothing else is changed.
    const { env } = composeEnv();
    const example = parseDotenv(read('.env.example'));
    for (const [name, value] of Object.entries(example)) {
      if (THE_SIX_SECRETS.includes(name)) expect(env[name], name).toMatch(/^[0-9a-f]{8,}$/);
      else expect(env[name], name).toBe(value);
    }
  });

  it('starts as written: .env.example with its six secrets filled, and the demo with the lines it names', () => {
    const production = loadConfig(appEnvironment(composeEnv().env));
    expect(production.isProduction).toBe(true);
    expect(production.locks.provider).toBe('none');
    expect(production.seedDemo).toBe('false');

    // The demo's lines are those .env.example lists; the script writes exactly them.
    const demoLines = [...read('.env.example').matchAll(/^# {3}([A-Z_]+=.*)$/gm)].map((m) => m[1]!);
    expect(demoLines).toEqual(['LOCK_PROVIDER=sim', 'LOCK_SIM_URL=http://lock-sim:4010', 'SEED_DEMO=true']);
    const { env } = composeEnv('--demo');
    for (const line of demoLines) expect(`${line.split('=')[0]}=${env[line.split('=')[0]!]}`).toBe(line);
    const demo = loadConfig(appEnvironment(env));
    expect(demo.isProduction).toBe(true);
    expect(demo.locks.provider).toBe('sim');
    expect(demo.locks.sim.url).toBe('http://lock-sim:4010');
    expect(demo.seedDemo).toBe('true');
    // The simulator the demo's LOCK_SIM_URL names listens there.
    const lockSim = compose.services['lock-sim']!.environment!;
    expect(`http://lock-sim:${lockSim.LOCK_SIM_PORT}`).toBe(demo.locks.sim.url);
    expect(lockSim.LOCK_SIM_HOST).toBe('0.0.0.0');
  });

  it('passes the database password in parts, so any character works, and the console connects with it unchanged', () => {
    const { env } = composeEnv();
    for (const password of ['q3/Ot#x?9%Zr+1=', 'Sm9u/ZXM+Zm9v=', '%41%zz@:']) {
      const config = loadConfig(appEnvironment({ ...env, POSTGRES_PASSWORD: password }));
      const url = new URL(config.databaseUrl!);
      expect([url.hostname, url.port, decodeURIComponent(url.username), decodeURIComponent(url.password), url.pathname], password).toEqual([
        'postgres',
        '5432',
        'smartlock',
        password,
        '/smartlock',
      ]);
      expect(interpolate(compose.services.postgres!.environment!.POSTGRES_PASSWORD!, { ...env, POSTGRES_PASSWORD: password })).toBe(password);
    }
    expect(compose.services.app!.environment!.DATABASE_URL).toBeUndefined();
  });

  it("refuses the old example's password change-me, and an empty one", () => {
    const { env } = composeEnv();
    expect(() => loadConfig(appEnvironment({ ...env, POSTGRES_PASSWORD: 'change-me' }))).toThrow(/production refuses the database password "change-me"/);
    expect(() => appEnvironment({ ...env, POSTGRES_PASSWORD: '' })).toThrow(/POSTGRES_PASSWORD/);
  });

  it('publishes the console on 127.0.0.1 unless BIND_ADDRESS says otherwise, and nothing else beyond this machine', () => {
    const { env } = composeEnv('--demo');
    const withoutBind = Object.fromEntries(Object.entries(env).filter(([k]) => k !== 'BIND_ADDRESS'));
    for (const e of [env, withoutBind]) {
      expect(compose.services.app!.ports!.map((p) => interpolate(p, e))).toEqual(['127.0.0.1:3000:3000']);
    }
    expect(compose.services.app!.ports!.map((p) => interpolate(p, { ...env, BIND_ADDRESS: '0.0.0.0', PORT: '8080' }))).toEqual(['0.0.0.0:8080:3000']);
    for (const [name, service] of Object.entries(compose.services)) {
      if (name === 'app') continue;
      for (const port of service.ports ?? []) expect(port, name).toMatch(/^127\.0\.0\.1:/);
    }
    expect(compose.services.postgres!.ports).toBeUndefined();
    expect(compose.services.redis!.ports).toBeUndefined();
  });

  it('gives the console longer to stop than it takes (SHUTDOWN_TIMEOUT_MS), and rotates every log', () => {
    const seconds = (d: string) =>
      [...d.matchAll(/(\d+)(ms|s|m|h)/g)].reduce((sum, [, n, unit]) => sum + Number(n) * { ms: 0.001, s: 1, m: 60, h: 3600 }[unit as 'ms']!, 0);
    const app = compose.services.app!;
    const shutdownMs = Number(app.environment!.SHUTDOWN_TIMEOUT_MS ?? loadConfig({}).shutdownTimeoutMs);
    // Compose's default is 10 s, the console's default timeout as well: it would be killed mid-stop.
    expect(seconds(app.stop_grace_period ?? '10s') * 1000).toBeGreaterThanOrEqual(shutdownMs + 5_000);
    for (const [name, service] of Object.entries(compose.services)) {
      expect(service.logging, name).toEqual({
        driver: 'json-file',
        options: { 'max-size': expect.stringMatching(/^\d+m$/), 'max-file': expect.stringMatching(/^\d+$/) },
      });
    }
  });

  it('checks the console by /readyz, and each simulator by its own service (not the image default)', () => {
    expect(compose.services.app!.healthcheck!.test.join(' ')).toContain('http://127.0.0.1:3000/readyz');
    expect(dockerfile).toMatch(/HEALTHCHECK[\s\S]*\/readyz/);
    expect(compose.services['lock-sim']!.healthcheck!.test.join(' ')).toContain(
      `http://127.0.0.1:${compose.services['lock-sim']!.environment!.LOCK_SIM_PORT}/sim`,
    );
    expect(compose.services['reader-sim']!.healthcheck!.test.join(' ')).toContain('http://127.0.0.1:13580/control');
    // The demo console waits for its simulator, and runs without it outside the demo.
    expect(compose.services.app!.depends_on!['lock-sim']).toEqual({ condition: 'service_healthy', required: false });
  });

  it("runs every service of the console's image with a read-only root, writing only its volumes (the simulators' state included)", () => {
    for (const [name, service] of Object.entries(compose.services)) {
      if (service.image !== compose.services.app!.image) continue;
      expect(service.read_only, name).toBe(true);
      expect(service.tmpfs, name).toEqual(['/tmp']);
      for (const volume of service.volumes ?? []) {
        const [source, target] = volume.split(':');
        expect(Object.keys(compose.volumes), name).toContain(source);
        expect(target, name).toMatch(/^\/app\/data\//);
      }
    }
    const stateDirs = { 'lock-sim': 'LOCK_SIM_STATE_FILE', 'reader-sim': 'READER_SIM_STATE_FILE' } as const;
    for (const [name, variable] of Object.entries(stateDirs)) {
      const file = compose.services[name]!.environment![variable]!;
      const targets = (compose.services[name]!.volumes ?? []).map((v) => v.split(':')[1]);
      expect(targets, name).toContain(path.posix.dirname(file));
    }
    expect(compose.services.app!.volumes!.map((v) => v.split(':')[1])).toContain(appEnvironment({ ...composeEnv().env }).UPLOAD_DIR);
  });

  it("offers a Redis for a console started outside compose that runs alone and stays on this machine, like compose's own", () => {
    // `docker compose up -d redis` cannot: Compose needs the six secrets before any service starts.
    expect(readme).not.toMatch(/docker compose up -d redis/);
    expect(REDIS_CONTAINER_COMMAND).toMatch(/^docker run -d /);
    expect(REDIS_CONTAINER_COMMAND).toMatch(/ -p 127\.0\.0\.1:6379:6379 /);
    expect(REDIS_CONTAINER_COMMAND).toContain(` ${compose.services.redis!.image} ${compose.services.redis!.command!.join(' ')}`);
    expect(readme).toContain(REDIS_CONTAINER_COMMAND);
  });

  it('says in the README that it needs Compose v2.20 or newer (required: false), not compose 1.x or podman-compose', () => {
    expect(composeSection).toMatch(/Compose v2\.20 or newer/);
    expect(composeSection).toMatch(/docker-compose 1\.x/);
    expect(composeSection).toMatch(/podman-compose/);
  });
});

describe('Dockerfile', () => {
  const from = [...dockerfile.matchAll(/^FROM\s+(\S+)/gm)].map((m) => m[1]);
  const nodeImage = /^ARG NODE_IMAGE=(\S+)$/m.exec(dockerfile)?.[1] ?? '';

  it('pulls no Dockerfile frontend (no `# syntax=` line)', () => {
    expect(dockerfile).not.toMatch(/^#\s*syntax\s*=/im);
  });

  it('builds and runs on the Node the tests run on, the base image pinned by digest', () => {
    expect(from).toEqual(['${NODE_IMAGE}', '${NODE_IMAGE}']);
    const match = /^docker\.io\/library\/node:(\d+\.\d+\.\d+)-bookworm-slim@sha256:[0-9a-f]{64}$/.exec(nodeImage);
    expect(match, nodeImage).not.toBeNull();
    const engines = (JSON.parse(read('package.json')) as { engines: { node: string } }).engines.node;
    expect(semver.satisfies(match![1]!, engines), `${match![1]} vs ${engines}`).toBe(true);
    // CI and the README run Node 20 (decision 010).
    expect(semver.major(match![1]!)).toBe(20);
    expect(semver.major(process.version)).toBe(20);
  });

  it('installs the package manager at an exact version, the one the README and CI use', () => {
    const version = /^ARG PNPM_VERSION=(\S+)$/m.exec(dockerfile)?.[1] ?? '';
    expect(version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(dockerfile).toContain('npm install -g --no-fund --no-audit "pnpm@${PNPM_VERSION}"');
    expect(readme).toContain(`pnpm@${semver.major(version)}`);
  });

  it('leaves the code to root and read-only for the user the console runs as, who writes only /app/data', () => {
    const runtime = dockerfile.slice(dockerfile.lastIndexOf('FROM '));
    expect(runtime).not.toMatch(/--chown/);
    expect(runtime).toMatch(/^COPY --from=build \/out \/app$/m);
    expect(runtime).toMatch(/chown -R node:node \/app\/data$/m);
    expect(runtime).toMatch(/^USER node$/m);
  });

  it('leaves TypeScript, type definitions, source maps and local data out of the image', () => {
    expect(dockerfile).toMatch(/rm -rf node_modules\/\.pnpm\/typescript@\* node_modules\/\.pnpm\/@types\+\*/);
    expect(dockerfile).toMatch(/find \/out\/apps\/web\/dist -name '\*\.map' -type f -delete/);
    expect(dockerfile).toMatch(/find dist -name '\*\.map' -type f -delete/);
    const ignored = read('.dockerignore').split('\n');
    expect(ignored).toEqual(expect.arrayContaining(['**/node_modules', '**/dist', '**/data', '.env', '.env.*', '.git']));
  });
});
