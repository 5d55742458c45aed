#!/usr/bin/env node
// Seam's fake for the integration tests, and OUR layer over it, in one child process (started and
// stopped by seam-fake.ts; nothing of the fake loads into the test process). docs/seam.md.
//
// 1. SEAM'S FAKE (@seamapi/fake-seam-connect, by Seam): what its bin, dist/server.js, runs, line for
//    line: createFake(), seed() when `--seed` is given, startServer() on a free port.
// 2. OUR PROXY (not Seam's), in front of the fake: the endpoint the adapter is given. It forwards
//    every request as it is and adds what Seam documents and the fake lacks:
//    - Seam's per-device call limits (create 10, update 10, delete 20, unlock 15, lock 15 a minute):
//      a call over the limit is answered 429 with Retry-After and is not forwarded; the 429s and the
//      most calls of a device in a minute are counted (/counts; seam-fake-limits.mjs);
//    - offline access codes (`is_offline_access_code`, which the fake ignores): refused on a device
//      without `can_program_offline_access_codes` or with a chosen `code`; otherwise created by the fake
//      and given a computed PIN, `set`; an update or delete of one is refused (400);
//    - a chosen code is checked as Seam documents it: digits, of a length in the device's
//      `properties.supported_code_lengths` when it has them (400 `invalid_input`);
//    - an unlock of an offline device fails its action attempt (`device_offline`); an unlock can be
//      told to fail or to stay pending (/behaviour);
//    - a slow removal (/behaviour `removal: slow`): the code goes `removing` until /code/removed;
//    - /drop_next: the next request to a path reaches the fake but its answer never comes back;
//    - a device's errors (`device_offline`) among its access codes' errors, as Seam lists them;
//    - a chosen code set on its device by itself after a while (/settle), as Seam sets it once the lock took it;
//    - Seam's webhooks: the events OUR layer adds, POSTed signed to the workspace's endpoint
//      (/webhook; seam-fake-webhooks.mjs);
//    - card systems' credentials and encoders, which the fake lacks (seam-fake-acs.mjs);
//    - a log of every call (/calls), with its device, its API key's workspace and its time.
//    Guesses (the real API's bodies are not documented): the 429 body, the 400 bodies, the PIN length.
// 3. OUR CONTROL SERVER (not Seam's): changes the fake's in-memory store, for which the fake has no
//    route (its PUT /_fake/database replaces the store and breaks it). POST, JSON body, JSON answer.
//
// Prints one JSON line once all three listen: {"fakeUrl":...,"url":...,"controlUrl":...}. Stops on
// SIGTERM or SIGINT, and when its parent closes its stdin (a test process that died).
import http from 'node:http';
import { randomInt, randomUUID } from 'node:crypto';
import { argv, exit, stdin } from 'node:process';
import { createFake } from '@seamapi/fake-seam-connect';
import { BUDGETED, createLimits } from './seam-fake-limits.mjs';
import { createAcs } from './seam-fake-acs.mjs';
import { createWebhooks } from './seam-fake-webhooks.mjs';

// 1. Seam's fake, as dist/server.js starts it.
process.on('unhandledRejection', (error) => {
  console.error('Unhandled rejection', error);
  exit(1);
});
const fake = await createFake();
if (argv.includes('--seed')) await fake.seed();
await fake.startServer({});
const db = fake.database;
const fakeUrl = new URL(fake.serverUrl);

// 2. OUR proxy.
/** Seam's documented per-device limits a minute, counted (seam-fake-limits.mjs). */
const limits = createLimits();
/** Seam's webhooks of OUR events (seam-fake-webhooks.mjs). */
const webhooks = createWebhooks();
/** OUR per-device behaviour: { removal: 'slow' | 'at_once', unlock: null | { status: 'pending' } | { status: 'error', error } } */
const behaviour = new Map();
/** Chosen codes set on their device by themselves, `afterMs` after their create (a number or [min, max]); null: only by /code. */
const settle = { afterMs: null };
const calls = [];
let dropNext = null;

const json = (status, body, headers = {}) => ({ status, headers: { 'content-type': 'application/json', ...headers }, body: Buffer.from(JSON.stringify(body)) });
const refused = (status, type, message, headers) => json(status, { ok: false, error: { type, message } }, headers);
const codeById = (id) => db.getState().access_codes.find((c) => c.access_code_id === id);
const deviceById = (id) => db.getState().devices.find((d) => d.device_id === id);

function deviceOf(path, body) {
  if (typeof body?.device_id === 'string') return body.device_id;
  if (typeof body?.access_code_id === 'string') return codeById(body.access_code_id)?.device_id ?? null;
  return null;
}

/** The workspace whose API key the request carries (`Authorization: Bearer <key>`), for the call log. */
function workspaceOf(req) {
  const token = String(req.headers.authorization ?? '').replace(/^Bearer\s+/i, '');
  return (token && db.getState().api_keys.find((k) => k.token === token)?.workspace_id) || null;
}

function forward(req, raw) {
  return new Promise((resolve, reject) => {
    const out = http.request(
      { hostname: fakeUrl.hostname, port: fakeUrl.port, method: req.method, path: req.url, headers: { ...req.headers, host: fakeUrl.host } },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 502, headers: res.headers, body: Buffer.concat(chunks) }));
      },
    );
    out.on('error', reject);
    out.end(raw);
  });
}

const pin = (length) => Array.from({ length }, (_, i) => (i === 0 ? randomInt(1, 10) : randomInt(0, 10))).join('');

/** A new action attempt in the fake's store, answered pending; `then` changes it after the answer left. */
function attemptAnswer(action_type, then) {
  const attempt = db.addActionAttempt({ action_type });
  if (then) setImmediate(() => db.updateActionAttempt({ action_attempt_id: attempt.action_attempt_id, ...then }));
  return json(200, { ok: true, action_attempt: attempt });
}

/** OUR card systems' credentials and encoders (seam-fake-acs.mjs). */
const acs = createAcs(db, { json, refused, attemptAnswer });

async function handle(req, path, body, raw, deviceId) {
  const card = acs.handle(path, body, workspaceOf(req));
  if (card) return card;
  const kind = BUDGETED[path];
  if (kind && deviceId) {
    const limited = limits.check(kind, deviceId, Date.now());
    if (limited) return limited;
  }
  if (dropNext === path) {
    dropNext = null;
    await forward(req, raw);
    return 'drop';
  }
  const device = deviceId ? deviceById(deviceId) : undefined;
  const ours = (deviceId && behaviour.get(deviceId)) || {};
  if (path === '/locks/unlock_door' && device) {
    if (device.properties?.online === false)
      return attemptAnswer('UNLOCK_DOOR', { status: 'error', error: { type: 'device_offline', message: 'Device is offline' } });
    if (ours.unlock?.status === 'pending') return attemptAnswer('UNLOCK_DOOR');
    if (ours.unlock?.status === 'error') return attemptAnswer('UNLOCK_DOOR', { status: 'error', error: ours.unlock.error });
    // The fake's `lock.unlocked` says neither how nor by which attempt: the real API's says `method: seamapi`.
    const unlocked = await forward(req, raw);
    if (unlocked.status !== 200) return unlocked;
    const { action_attempt } = JSON.parse(unlocked.body.toString('utf8'));
    const events = db
      .getState()
      .events.map((e) =>
        e.event_type === 'lock.unlocked' && e.device_id === deviceId && e.method === undefined
          ? { ...e, method: 'seamapi', action_attempt_id: action_attempt.action_attempt_id }
          : e,
      );
    db.setState({ events });
    return unlocked;
  }
  if (path === '/access_codes/create' && body?.is_offline_access_code === true && device) {
    if (device.can_program_offline_access_codes !== true) return refused(400, 'invalid_input', 'OUR layer: this device cannot program offline access codes');
    if (body.code != null) return refused(400, 'invalid_input', 'OUR layer: an offline access code cannot be chosen');
    const created = await forward(req, raw);
    if (created.status !== 200) return created;
    const { access_code } = JSON.parse(created.body.toString('utf8'));
    const code = db.updateAccessCode({
      access_code_id: access_code.access_code_id,
      is_offline_access_code: true,
      is_one_time_use: body.is_one_time_use === true,
      code: pin(9),
      status: 'set',
    });
    return json(200, { ok: true, access_code: code });
  }
  if (path === '/access_codes/create' && typeof body?.code === 'string' && device) {
    const lengths = device.properties?.supported_code_lengths;
    if (!/^\d+$/.test(body.code) || (Array.isArray(lengths) && !lengths.includes(body.code.length))) {
      const message = `OUR layer: the code must be digits, of a length in ${JSON.stringify(lengths ?? 'any')}`;
      return json(400, { ok: false, error: { type: 'invalid_input', message, validation_errors: { code: { _errors: [message] } } } });
    }
    if (settle.afterMs !== null) return settledLater(await forward(req, raw));
  }
  if ((path === '/access_codes/update' || path === '/access_codes/delete') && codeById(body?.access_code_id)?.is_offline_access_code) {
    return refused(400, 'invalid_input', 'OUR layer: offline access codes cannot be updated or deleted');
  }
  if (path === '/access_codes/delete' && device && ours.removal === 'slow' && codeById(body?.access_code_id)) {
    db.updateAccessCode({ access_code_id: body.access_code_id, status: 'removing' });
    return attemptAnswer('DELETE_ACCESS_CODE');
  }
  if (path === '/locks/list') return locksOfEveryType(req, raw);
  if (path === '/access_codes/get' || path === '/access_codes/list') return withDeviceErrors(await forward(req, raw));
  const answer = await forward(req, raw);
  acs.afterForward(path, body, answer);
  return answer;
}

/** A chosen code the fake created is set on its device `settle.afterMs` later, with its event (as /code `set`). */
function settledLater(created) {
  const id = created.status === 200 ? JSON.parse(created.body.toString('utf8')).access_code?.access_code_id : undefined;
  const [min, max] = Array.isArray(settle.afterMs) ? settle.afterMs : [settle.afterMs, settle.afterMs];
  if (id) setTimeout(() => codeById(id) && ops['/code']({ access_code_id: id, status: 'set' }), min + Math.random() * (max - min));
  return created;
}

/**
 * Seam's lock device types (`LOCK_DEVICE_TYPE` of `@seamapi/types`, device-type.js, which the fake
 * bundles): the real `locks/list` answers every one of them; the fake's own answers four (august,
 * schlage, yale, smartthings), so that a Nuki or an igloohome lock would never be listed.
 */
const SEAM_LOCK_TYPES = new Set(
  'akuvox_lock august_lock brivo_access_point butterflymx_panel avigilon_alta_entry doorking_lock genie_door igloo_lock linear_lock lockly_lock kwikset_lock nuki_lock salto_lock schlage_lock seam_relay smartthings_lock wyze_lock yale_lock two_n_intercom controlbyweb_device ttlock_lock igloohome_lock hubitat_lock four_suites_door dormakaba_oracode_door tedee_lock akiles_lock'.split(
    ' ',
  ),
);

/** `locks/list` as the real API answers it: the workspace's devices (the fake's `devices/list`, same filters) of every lock type. */
async function locksOfEveryType(req, raw) {
  // The fake's own answer first: its failures (an outage simulated, a bad key) are the answer.
  const own = await forward(req, raw);
  if (own.status !== 200) return own;
  const answer = await forward({ method: req.method, headers: req.headers, url: req.url.replace('/locks/list', '/devices/list') }, raw);
  if (answer.status !== 200) return answer;
  const parsed = JSON.parse(answer.body.toString('utf8'));
  const locks = (parsed.devices ?? []).filter((d) => SEAM_LOCK_TYPES.has(d.device_type));
  return { ...answer, body: Buffer.from(JSON.stringify({ ...parsed, locks, devices: locks })) };
}

/**
 * Seam lists a device's errors among its access codes' own (`is_device_error: true`, e.g.
 * `device_offline`): the fake does not. Added to the codes read of a device with such errors
 * (offline access codes left out: the lock computes them without its link).
 */
function withDeviceErrors(answer) {
  if (answer.status !== 200) return answer;
  const parsed = JSON.parse(answer.body.toString('utf8'));
  const decorate = (code) => {
    const device = code && !code.is_offline_access_code ? deviceById(code.device_id) : undefined;
    const errors = (device?.errors ?? []).filter((e) => e.is_device_error);
    return errors.length ? { ...code, errors: [...(code.errors ?? []).filter((e) => !e.is_device_error), ...errors] } : code;
  };
  if (parsed.access_code) parsed.access_code = decorate(parsed.access_code);
  if (Array.isArray(parsed.access_codes)) parsed.access_codes = parsed.access_codes.map(decorate);
  const body = Buffer.from(JSON.stringify(parsed));
  return { ...answer, body };
}

const readBody = (req) =>
  new Promise((resolve) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
  });

const proxy = http.createServer(async (req, res) => {
  const raw = await readBody(req);
  const path = (req.url ?? '/').split('?')[0].replace(/^\/api\//, '/');
  let body;
  try {
    body = raw.length ? JSON.parse(raw.toString('utf8')) : null;
  } catch {
    body = null;
  }
  const deviceId = deviceOf(path, body);
  const call = { method: req.method, path, device_id: deviceId, workspace_id: workspaceOf(req), at: Date.now(), status: 0 };
  calls.push(call);
  try {
    const answer = await handle(req, path, body, raw, deviceId);
    if (answer === 'drop') return void res.socket?.destroy();
    call.status = answer.status;
    const headers = { ...answer.headers, 'content-length': String(answer.body.length) };
    delete headers['transfer-encoding'];
    res.writeHead(answer.status, headers).end(answer.body);
  } catch (error) {
    call.status = 502;
    res.writeHead(502, { 'content-type': 'text/plain' }).end(`OUR proxy: ${error?.message ?? error}`);
  }
});

// 3. OUR control server.
const ERROR_TEXT = {
  failed_to_set_on_device: 'Failed to set code on device.',
  failed_to_remove_from_device: 'Failed to remove code from device.',
  duplicate_code_on_device: 'Duplicate access code detected on device.',
  delay_in_setting_on_device: 'Delay in setting code on device.',
  delay_in_removing_from_device: 'Delay in removing code from device.',
};
const CODE_EVENTS = {
  failed_to_set_on_device: 'access_code.failed_to_set_on_device',
  failed_to_remove_from_device: 'access_code.failed_to_remove_from_device',
  delay_in_setting_on_device: 'access_code.delay_in_setting_on_device',
  delay_in_removing_from_device: 'access_code.delay_in_removing_from_device',
};

/** An event as the real API documents it: with its device's workspace and connected account. */
function addEvent({ device_id, ...fields }) {
  const device = device_id ? deviceById(device_id) : undefined;
  const event = db.addEvent({
    workspace_id: device?.workspace_id ?? 'seed_workspace_1',
    ...(device ? { device_id, connected_account_id: device.connected_account_id } : {}),
    ...fields,
  });
  webhooks.send(event);
  return event;
}

const ops = {
  '/add_workspace': ({ name = 'Test workspace' }) => {
    const workspace = db.addWorkspace({ name, is_sandbox: true });
    const token = `seam_test${workspace.workspace_id.replace(/\D/g, '')}_${workspace.workspace_id}`;
    db.addApiKey({ name: `${name} key`, token, workspace_id: workspace.workspace_id });
    return { workspace_id: workspace.workspace_id, api_key: token };
  },
  // The fake's addDevice keeps only some flags: the rest (can_program_offline_access_codes, errors) is set after.
  '/add_device': ({
    workspace_id = 'seed_workspace_1',
    connected_account_id = 'john_connected_account_id',
    device_type = 'august_lock',
    name,
    properties,
    ...flags
  }) => {
    // A device id of its own, as Seam's are (UUIDs): the fake counts `device1`, `device2`... anew in each
    // process, and two test files' fakes must not add the same id to the one test database.
    const device = db.addDevice({ device_id: randomUUID(), workspace_id, connected_account_id, device_type, name, properties, ...flags });
    return db.updateDevice({ device_id: device.device_id, ...flags });
  },
  '/device': ({ device_id, ...fields }) => db.updateDevice({ device_id, ...fields }),
  '/device/online': ({ device_id, online }) => {
    const device = deviceById(device_id);
    const errors = (device?.errors ?? []).filter((e) => e.error_code !== 'device_offline');
    if (!online) errors.push({ error_code: 'device_offline', message: 'Device is offline', is_device_error: true, created_at: new Date().toISOString() });
    addEvent({ device_id, event_type: online ? 'device.connected' : 'device.disconnected' });
    return db.updateDevice({ device_id, properties: { online }, errors });
  },
  '/code': ({ access_code_id, status, errors, warnings }) => {
    const code = codeById(access_code_id);
    if (!code) throw new Error(`no access code ${access_code_id}`);
    const now = new Date().toISOString();
    const patch = { access_code_id };
    if (status) patch.status = status;
    if (errors)
      patch.errors = errors.map((error_code) => ({ error_code, message: ERROR_TEXT[error_code] ?? error_code, is_access_code_error: true, created_at: now }));
    if (warnings) patch.warnings = warnings.map((warning_code) => ({ warning_code, message: ERROR_TEXT[warning_code] ?? warning_code, created_at: now }));
    const updated = db.updateAccessCode(patch);
    const event = (event_type) => addEvent({ device_id: code.device_id, access_code_id, event_type });
    if (status === 'set') event('access_code.set_on_device');
    for (const c of [...(errors ?? []), ...(warnings ?? [])]) if (CODE_EVENTS[c]) event(CODE_EVENTS[c]);
    return updated;
  },
  // Every code of the device not set yet is set, as a lock that took what was pending: read and set
  // here in one step, so a code the console deletes meanwhile is not asked for after it is gone.
  '/device/settle': ({ device_id }) =>
    db
      .getState()
      .access_codes.filter((c) => c.device_id === device_id && c.status !== 'set')
      .map((c) => ops['/code']({ access_code_id: c.access_code_id, status: 'set' })),
  '/code/removed': ({ access_code_id }) => {
    const code = codeById(access_code_id);
    if (!code) throw new Error(`no access code ${access_code_id}`);
    db.deleteAccessCode(access_code_id);
    return addEvent({ device_id: code.device_id, access_code_id, event_type: 'access_code.removed_from_device' });
  },
  '/event': (fields) => addEvent(fields),
  '/behaviour': ({ device_id, ...fields }) => {
    behaviour.set(device_id, { ...behaviour.get(device_id), ...fields });
    return behaviour.get(device_id);
  },
  '/budget': ({ limits: given, windowMs }) => {
    Object.assign(limits.budget.limits, given ?? {});
    if (windowMs) limits.budget.windowMs = windowMs;
    return limits.budget;
  },
  '/counts': ({ reset }) => ({ ...limits.counts(reset === true), webhooks: webhooks.counts() }),
  '/settle': ({ afterMs = null }) => Object.assign(settle, { afterMs }),
  '/webhook': ({ workspace_id, url, secret }) => webhooks.set(workspace_id, url, secret),
  '/drop_next': ({ path }) => {
    dropNext = path;
    return { path };
  },
  '/calls': () => calls,
  '/state': () => JSON.parse(JSON.stringify(db.getState())),
  ...acs.ops,
};

const control = http.createServer(async (req, res) => {
  const raw = (await readBody(req)).toString('utf8');
  const op = ops[req.url ?? ''];
  res.setHeader('content-type', 'application/json');
  if (!op || req.method !== 'POST') return void res.writeHead(404).end(JSON.stringify({ error: `OUR control: no route ${req.method} ${req.url}` }));
  try {
    res.end(JSON.stringify(op(raw ? JSON.parse(raw) : {}) ?? null));
  } catch (error) {
    res.writeHead(400).end(JSON.stringify({ error: String(error?.message ?? error) }));
  }
});

const listen = (server) => new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address().port)));
const [proxyPort, controlPort] = await Promise.all([listen(proxy), listen(control)]);
// The one line seam-fake.ts waits for (stdout, as the fake's bin prints its address).
process.stdout.write(`${JSON.stringify({ fakeUrl: fake.serverUrl, url: `http://127.0.0.1:${proxyPort}`, controlUrl: `http://127.0.0.1:${controlPort}` })}\n`);

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  proxy.close();
  control.close();
  proxy.closeAllConnections();
  control.closeAllConnections();
  await fake.stopServer();
  exit(0);
}
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
stdin.on('end', stop);
stdin.resume();
