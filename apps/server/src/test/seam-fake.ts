import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Seed } from '@seamapi/fake-seam-connect';

/**
 * Seam's own fake of its API (`@seamapi/fake-seam-connect`, MIT, by Seam) for the Seam adapter's
 * tests, each fake a child process of its own (about 100 MB; nothing of it loads into the test
 * process), stopped by `stop()` (afterAll). docs/seam.md says what the fake does and lacks.
 *
 * - `startSeamFake()`: one child, seam-fake-server.mjs: Seam's fake started as its bin starts it
 *   (seeded), OUR proxy in front of it (the `url` the adapter is given) and OUR control server.
 *   Everything under `ours` is OUR layer, not Seam's: what Seam documents and the fake lacks (a
 *   code's status life, a device offline, offline codes, battery and keypad facts, events with
 *   their documented fields, the per-device call limits as 429s, a lost answer). `seam` is Seam's
 *   own test routes (`/_fake/*`).
 * - `startSeamFakeBin()`: Seam's bin alone (`dist/server.js --seed`), untouched: what the adapter
 *   does against the fake with nothing of ours.
 */

const here = path.dirname(fileURLToPath(import.meta.url));
const SERVER_SCRIPT = path.join(here, 'seam-fake-server.mjs');

/**
 * What `--seed` makes (the fake's seedDatabase; GET /_fake/default_seed lists it), checked against
 * the fake's own declaration of its seed (a type: nothing of the fake is loaded here).
 */
export const SEAM_SEED = {
  workspaceId: 'seed_workspace_1' satisfies Seed['seed_workspace_1'],
  apiKey: 'seam_apikey1_token' satisfies Seed['seam_apikey1_token'],
  /** Workspace 2's key: a workspace without devices. */
  emptyApiKey: 'seam_apikey2_token' satisfies Seed['seam_apikey2_token'],
  connectedAccountId: 'john_connected_account_id' satisfies Seed['john_connected_account_id'],
  /** Seeded locks: `august_lock` and `schlage_lock`, each able to unlock remotely and to program online codes. */
  locks: [
    'august_device_1' satisfies Seed['august_device_1'],
    'august_device_2' satisfies Seed['august_device_2'],
    'schlage_device_id' satisfies Seed['schlage_device_1'],
  ],
  thermostat: 'ecobee_device_1' satisfies Seed['ecobee_device_1'],
} as const;

/** A device as Seam's fake keeps it (the fields the tests set and read). */
export interface FakeDevice {
  device_id: string;
  workspace_id: string;
  properties: Record<string, unknown>;
  [field: string]: unknown;
}

export interface FakeCall {
  method: string;
  path: string;
  device_id: string | null;
  /** The workspace of the API key the call carried (null: none, or a key the fake does not know). */
  workspace_id: string | null;
  /** When OUR proxy received it (ms since the epoch). */
  at: number;
  /** The HTTP status answered (0: no answer: dropped). */
  status: number;
}

/** A per-device limit of Seam's (OUR proxy's budget). */
export type SeamLimitKind = 'create' | 'update' | 'delete' | 'unlock' | 'lock';

/** What OUR proxy counted against Seam's per-device limits (and the webhooks it sent) since the last reset. */
export interface OurCounts {
  /** The calls answered 429, by limit. */
  refused: Record<SeamLimitKind, number>;
  /** The most calls of a kind one device sent within any window (a minute; those answered 429 included), and which device. */
  peak: Record<SeamLimitKind, { calls: number; device_id: string | null }>;
  limits: Record<SeamLimitKind, number>;
  windowMs: number;
  /** Webhooks POSTed (answered 2xx) and failed (any other answer, or none). */
  webhooks: { sent: number; failed: number };
}

/** OUR layer (not Seam's): changes the fake's store, and how OUR proxy answers. */
export interface OurSeamLayer {
  /** A workspace with its own API key (the fake's own route for keys answers "Not implemented!"). */
  addWorkspace(name?: string): Promise<{ workspace_id: string; api_key: string }>;
  /** A device with the flags and properties a real Seam device reports (`can_program_offline_access_codes`, `properties.battery_level`, `properties.model.*`, `errors`). */
  addDevice(device: { name: string } & Record<string, unknown>): Promise<FakeDevice>;
  /** Changes a device (`properties` merged one level). */
  updateDevice(deviceId: string, fields: Record<string, unknown>): Promise<FakeDevice>;
  /** Online or offline as Seam reports it: `properties.online`, the `device_offline` error (on the device and, as OUR proxy answers them, on its codes), the event. */
  setOnline(deviceId: string, online: boolean): Promise<FakeDevice>;
  /** A code's status life, with the events Seam sends: `status` (`setting`, `set`, ...), `errors` / `warnings` by their codes. */
  setCode(accessCodeId: string, change: { status?: string; errors?: string[]; warnings?: string[] }): Promise<Record<string, unknown>>;
  /** A code the lock let go: gone, with `access_code.removed_from_device`. */
  codeRemoved(accessCodeId: string): Promise<void>;
  /** An event with the fields the real API documents (`occurred_at`, `method`, `access_code_id`, ...). */
  addEvent(event: { event_type: string; device_id?: string } & Record<string, unknown>): Promise<Record<string, unknown>>;
  /** How OUR proxy treats a device: a slow removal, an unlock that fails or stays pending. */
  behaviour(
    deviceId: string,
    behaviour: { removal?: 'slow' | 'at_once'; unlock?: null | { status: 'pending' } | { status: 'error'; error: { type: string; message: string } } },
  ): Promise<void>;
  /** The per-device limits a minute (Seam's by default: create 10, update 10, delete 20, unlock 15, lock 15). */
  budget(limits: Partial<Record<SeamLimitKind, number>>): Promise<void>;
  /** The 429s answered and the per-device peaks since the last reset; `reset`: counted anew from now. */
  counts(reset?: boolean): Promise<OurCounts>;
  /** Every code of the device not set yet is set now (one step in OUR layer: a code deleted meanwhile is left alone). */
  settleDevice(deviceId: string): Promise<void>;
  /** Every chosen code created from now on is set on its device by itself `afterMs` later (ms, or a range [min, max]), with its event; null: only by `setCode` (the default). */
  settle(afterMs: number | [number, number] | null): Promise<void>;
  /** The workspace's webhook endpoint: every event OUR layer adds for it is POSTed there, signed with `secret` as Seam signs (Svix); no url: none. */
  webhook(workspaceId: string, url: string | null, secret?: string): Promise<void>;
  /** The next request to `path` reaches the fake, and its answer is never sent back. */
  dropNext(path: string): Promise<void>;
  /** Every call that came through OUR proxy, in order. */
  calls(): Promise<FakeCall[]>;
  /** The fake's whole store (read only). */
  state(): Promise<{ access_codes: Record<string, unknown>[]; devices: FakeDevice[]; events: Record<string, unknown>[]; acs_users: Record<string, unknown>[] }>;
  /** Hotel card systems (seam-fake-acs.mjs): a system of a workspace, its doors and encoders, what an encoder does next, the credentials. */
  acs: {
    addSystem(workspaceId: string, systemType?: string): Promise<{ acs_system_id: string }>;
    addEntrance(systemId: string, name: string): Promise<{ acs_entrance_id: string }>;
    addEncoder(systemId: string, name?: string): Promise<{ acs_encoder_id: string }>;
    /** 'success' (a card on it), 'pending', or an error type of Seam's (`no_credential_on_encoder`...). */
    encoderNext(encoderId: string, then: string): Promise<void>;
    credentials(): Promise<Record<string, unknown>[]>;
    /** The encodes left pending on an encoder (`encoderNext(id, 'pending')`) end as written: how many there were. */
    complete(encoderId: string): Promise<number>;
  };
}

export interface SeamFake {
  /** OUR proxy in front of Seam's fake: the endpoint the adapter is given. */
  url: string;
  /** Seam's fake itself. */
  fakeUrl: string;
  /** OUR control server (what `ours` calls): a browser test's process reaches it by this address. */
  controlUrl: string;
  pid: number;
  /** Seam's own test routes (`/_fake/*` of the fake). */
  seam: {
    /** Routes answering 503 (empty body) for the workspace; `[]` ends the outage. */
    simulateWorkspaceOutage(workspaceId: string, routes: string[]): Promise<void>;
    /** The owner completes a connect webview: an August account linked, with its lock "Front Door". */
    completeConnectWebview(connectWebviewId: string): Promise<void>;
  };
  ours: OurSeamLayer;
  stop(): Promise<void>;
}

async function post(base: string, route: string, body: unknown = {}): Promise<unknown> {
  const res = await fetch(`${base}${route}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await res.text();
  if (!res.ok) throw new Error(`${base}${route} answered ${res.status}: ${text}`);
  return text ? JSON.parse(text) : null;
}

/** A child that stops with SIGTERM; resolves once it exited. */
function stopper(child: ChildProcess): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
}

/** Resolves when GET /health answers 200 (the fake's readiness), rejects when the child exits first. */
async function ready(url: string, child: ChildProcess, output: () => string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Seam's fake exited (${child.exitCode}):\n${output()}`);
    const ok = await fetch(`${url}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`Seam's fake not ready after ${timeoutMs} ms:\n${output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function spawnNode(args: string[], env: NodeJS.ProcessEnv): { child: ChildProcess; output: () => string } {
  // stdin is a pipe: seam-fake-server.mjs stops when it closes (this process gone).
  const child = spawn(process.execPath, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
  const orphaned = () => child.kill('SIGTERM');
  process.once('exit', orphaned);
  child.once('exit', () => process.off('exit', orphaned));
  let text = '';
  child.stdout!.on('data', (c: Buffer) => (text += c.toString('utf8')));
  child.stderr!.on('data', (c: Buffer) => (text += c.toString('utf8')));
  return { child, output: () => text };
}

/** Seam's fake (seeded) with OUR proxy and control in front of it, in one child process. */
export async function startSeamFake(timeoutMs = 30_000): Promise<SeamFake> {
  const { child, output } = spawnNode([SERVER_SCRIPT, '--seed'], { PATH: process.env.PATH ?? '' });
  const info = await new Promise<{ fakeUrl: string; url: string; controlUrl: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Seam's fake printed no address in ${timeoutMs} ms:\n${output()}`)), timeoutMs);
    child.stdout!.on('data', () => {
      const line = output()
        .split('\n')
        .find((l) => l.startsWith('{"fakeUrl"'));
      if (line) {
        clearTimeout(timer);
        resolve(JSON.parse(line) as { fakeUrl: string; url: string; controlUrl: string });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Seam's fake exited (${code}):\n${output()}`));
    });
  });
  try {
    await ready(info.url, child, output, timeoutMs);
  } catch (error) {
    await stopper(child)();
    throw error;
  }
  const ours = (route: string, body?: unknown) => post(info.controlUrl, route, body);
  return {
    url: info.url,
    fakeUrl: info.fakeUrl,
    controlUrl: info.controlUrl,
    pid: child.pid!,
    seam: {
      simulateWorkspaceOutage: async (workspace_id, routes) => void (await post(info.fakeUrl, '/_fake/simulate_workspace_outage', { workspace_id, routes })),
      completeConnectWebview: async (connect_webview_id) => void (await post(info.fakeUrl, '/_fake/complete_connect_webview', { connect_webview_id })),
    },
    ours: {
      addWorkspace: async (name) => (await ours('/add_workspace', { name })) as { workspace_id: string; api_key: string },
      addDevice: async (device) => (await ours('/add_device', device)) as FakeDevice,
      updateDevice: async (device_id, fields) => (await ours('/device', { device_id, ...fields })) as FakeDevice,
      setOnline: async (device_id, online) => (await ours('/device/online', { device_id, online })) as FakeDevice,
      settleDevice: async (device_id) => void (await ours('/device/settle', { device_id })),
      setCode: async (access_code_id, change) => (await ours('/code', { access_code_id, ...change })) as Record<string, unknown>,
      codeRemoved: async (access_code_id) => void (await ours('/code/removed', { access_code_id })),
      addEvent: async (event) => (await ours('/event', event)) as Record<string, unknown>,
      behaviour: async (device_id, behaviour) => void (await ours('/behaviour', { device_id, ...behaviour })),
      budget: async (limits) => void (await ours('/budget', { limits })),
      counts: async (reset = false) => (await ours('/counts', { reset })) as OurCounts,
      settle: async (afterMs) => void (await ours('/settle', { afterMs })),
      webhook: async (workspace_id, url, secret) => void (await ours('/webhook', { workspace_id, url, secret })),
      dropNext: async (path) => void (await ours('/drop_next', { path })),
      calls: async () => (await ours('/calls')) as FakeCall[],
      acs: {
        addSystem: async (workspace_id, system_type) => (await ours('/acs/add_system', { workspace_id, system_type })) as { acs_system_id: string },
        addEntrance: async (acs_system_id, name) => (await ours('/acs/add_entrance', { acs_system_id, name })) as { acs_entrance_id: string },
        addEncoder: async (acs_system_id, display_name) => (await ours('/acs/add_encoder', { acs_system_id, display_name })) as { acs_encoder_id: string },
        encoderNext: async (acs_encoder_id, then) => void (await ours('/acs/encoder', { acs_encoder_id, then })),
        credentials: async () => (await ours('/acs/credentials')) as Record<string, unknown>[],
        complete: async (acs_encoder_id) => ((await ours('/acs/complete', { acs_encoder_id })) as { completed: number }).completed,
      },
      state: async () => (await ours('/state')) as Awaited<ReturnType<OurSeamLayer['state']>>,
    },
    stop: stopper(child),
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Seam's bin alone, untouched (`node dist/server.js --seed` on a free port), ready when /health answers. */
export async function startSeamFakeBin(timeoutMs = 30_000): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  // The package's exports leave out package.json: its main (dist/index.cjs) gives the folder of the bin.
  const bin = path.join(path.dirname(createRequire(import.meta.url).resolve('@seamapi/fake-seam-connect')), 'server.js');
  const port = await freePort();
  const { child, output } = spawnNode([bin, '--seed'], { PATH: process.env.PATH ?? '', PORT: String(port) });
  const url = `http://127.0.0.1:${port}`;
  try {
    await ready(url, child, output, timeoutMs);
  } catch (error) {
    await stopper(child)();
    throw error;
  }
  // The bin stops on SIGINT (its signals); SIGTERM ends it at once, which is as good for a test.
  return { url, pid: child.pid!, stop: stopper(child) };
}
