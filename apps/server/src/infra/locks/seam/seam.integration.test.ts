import net from 'node:net';
import { ceilToZoneHour, floorToZoneHour } from '@console/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEAM_SEED, startSeamFake, startSeamFakeBin, type SeamFake } from '../../../test/seam-fake';
import { LockProviderError, type LockErrorCode } from '../provider';
import { SeamProvider, type SeamAccountOptions } from './seam-provider';

/**
 * The Seam adapter against Seam's own fake (`@seamapi/fake-seam-connect`, a child process), and
 * against OUR layer in front of it (`fake.ours.*`, test/seam-fake-server.mjs) where the fake lacks
 * what Seam documents: docs/seam.md has the table of which is which.
 */

const HOUR = 3_600_000;
const MINUTE = 60_000;
const SHANGHAI = 'Asia/Shanghai';

async function failure(promise: Promise<unknown>): Promise<LockProviderError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof LockProviderError) return error;
    throw error;
  }
  throw new Error('expected a LockProviderError, the call succeeded');
}

async function expectCode(promise: Promise<unknown>, code: LockErrorCode, vendorCode?: string | number) {
  const error = await failure(promise);
  expect({ code: error.code, vendorCode: error.vendorCode }).toEqual({ code, vendorCode: vendorCode ?? error.vendorCode });
  return error;
}

describe("Seam adapter against Seam's fake", () => {
  let fake: SeamFake;
  let seam: SeamProvider;
  const adapter = (options: Partial<SeamAccountOptions> = {}) =>
    new SeamProvider({ apiKey: SEAM_SEED.apiKey, endpoint: fake.url, simulated: true, actionAttempt: { intervalMs: 10 }, ...options });
  let rooms = 0;
  /** A lock of its own for each test: its own codes, its own per-device call budget. */
  const newLock = async (fields: Record<string, unknown> = {}) =>
    (await fake.ours.addDevice({ name: `Room ${++rooms}`, can_remotely_unlock: true, can_program_online_access_codes: true, ...fields })).device_id;
  const hours = (fromNow: number, length: number) => ({ startAt: new Date(Date.now() + fromNow), endAt: new Date(Date.now() + fromNow + length) });
  const callsTo = async (path: string, deviceId: string) => (await fake.ours.calls()).filter((c) => c.path === path && c.device_id === deviceId);
  const floorMinute = (d: Date) => new Date(Math.floor(d.getTime() / MINUTE) * MINUTE);
  const ceilMinute = (d: Date) => new Date(Math.ceil(d.getTime() / MINUTE) * MINUTE);

  beforeAll(async () => {
    fake = await startSeamFake();
    seam = adapter();
  });
  afterAll(() => fake?.stop());

  it('is the Seam provider, simulated when told', () => {
    expect(seam.name).toBe('seam');
    expect(seam.simulated).toBe(true);
    expect(adapter({ simulated: false }).simulated).toBe(false);
  });

  it("lists the workspace's locks (no thermostat) with capabilities from Seam's flags and keypad facts, battery 0-1 as 0-100, no gateways", async () => {
    const bare = await newLock({ properties: { battery_level: 0.42, model: { has_built_in_keypad: false, can_connect_accessory_keypad: true } } });
    const algo = await newLock({
      can_remotely_unlock: false,
      can_program_online_access_codes: false,
      can_program_offline_access_codes: true,
      properties: { accessory_keypad: { is_connected: true } },
    });
    const pooled = await newLock({ properties: { supports_backup_access_code_pool: true } });
    const locks = new Map((await seam.listLocks()).map((l) => [l.lockId, l]));
    expect(locks.get('august_device_1')).toEqual({
      lockId: 'august_device_1',
      name: 'Fake August Lock 1',
      alias: 'Smart Device',
      mac: '',
      battery: 100,
      hasGateway: false,
      capabilities: {
        keypad: true,
        cardReader: false,
        fingerprint: false,
        faceModule: false,
        remoteUnlock: true,
        doorSensor: false,
        onlinePasscodes: true,
        offlinePasscodes: false,
        keypadWithoutZero: false,
        backupCodePool: false,
        offlineFirstUse: false,
        encodedCards: false,
      },
      building: '',
      floor: '',
    });
    expect([...locks.keys()]).toEqual(expect.arrayContaining([...SEAM_SEED.locks, bare, algo]));
    expect(locks.has(SEAM_SEED.thermostat)).toBe(false);
    // A lock whose accessory keypad is not connected takes no code, whatever its flags say.
    expect(locks.get(bare)).toMatchObject({
      battery: 42,
      capabilities: { keypad: false, onlinePasscodes: false, offlinePasscodes: false, remoteUnlock: true },
    });
    // Offline codes with no first use to make (not an igloohome lock: see first-use-seam.integration.test.ts).
    expect(locks.get(algo)?.capabilities).toMatchObject({
      keypad: true,
      onlinePasscodes: false,
      offlinePasscodes: true,
      remoteUnlock: false,
      offlineFirstUse: false,
      encodedCards: false,
    });
    // Seam keeps backup codes on it (the console keeps this on the lock's row and sends it with each code).
    expect(locks.get(pooled)?.capabilities).toMatchObject({ onlinePasscodes: true, backupCodePool: true });
    expect(await seam.listGateways()).toEqual([]);
    await expectCode(seam.gatewayLocks('any'), 'not_supported');
  });

  it("tells a lock's detail and status (online as Seam reports it: OUR layer takes it offline); an unknown lock is lock_not_found", async () => {
    const lockId = await newLock({ properties: { battery_level: 0.07 } });
    expect(await seam.lockDetail(lockId)).toMatchObject({ lockId, name: `Room ${rooms}`, battery: 7, hasGateway: false });
    expect(await seam.lockStatus(lockId)).toEqual({ lockId, name: 'Smart Device', mac: '', battery: 7, online: true, gateway: null, lastSeenAt: null });
    await fake.ours.setOnline(lockId, false);
    expect(await seam.lockStatus(lockId)).toMatchObject({ online: false });
    // Every lock's status from one listing (the status cycle's read): the same status.
    const statuses = (await seam.lockStatuses())!;
    expect(statuses.find((s) => s.lockId === lockId)).toEqual({ ...(await seam.lockStatus(lockId)), online: false });
    expect(statuses.length).toBe((await seam.listLocks()).length);
    await expectCode(seam.lockDetail('no_such_device'), 'lock_not_found', 'device_not_found');
    await expectCode(seam.lockStatus('no_such_device'), 'lock_not_found', 'device_not_found');
  });

  it("puts chosen codes on a lock to the minute and lists a lock's own codes only (the fake lists every device's)", async () => {
    const lockId = await newLock();
    const other = await newLock();
    const validity = hours(-90_500, 2 * HOUR + 10_500);
    const { ref } = await seam.addCustomPasscode(lockId, { code: '480613', name: 'Room 202 guest #P12', ...validity });
    const { ref: staff } = await seam.addCustomPasscode(lockId, { code: '5709124', name: 'Staff', startAt: new Date(), endAt: null });
    await seam.addCustomPasscode(other, { code: '111222', name: 'Elsewhere', ...validity });
    expect(await seam.listPasscodes(lockId)).toEqual([
      { ref, code: '480613', name: 'Room 202 guest #P12', origin: 'custom', startAt: floorMinute(validity.startAt), endAt: ceilMinute(validity.endAt) },
      { ref: staff, code: '5709124', name: 'Staff', origin: 'custom', startAt: expect.any(Date), endAt: null },
    ]);
    // What the fake answers for the same device: codes of other devices too.
    const raw = await fetch(`${fake.fakeUrl}/access_codes/list`, {
      method: 'POST',
      headers: { authorization: `Bearer ${SEAM_SEED.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ device_id: lockId }),
    });
    expect(((await raw.json()) as { access_codes: { device_id: string }[] }).access_codes.some((c) => c.device_id === other)).toBe(true);
    // Seam's ongoing codes start at once: a permanent code that starts later has no Seam form.
    await expectCode(
      seam.addCustomPasscode(lockId, { code: '246810', name: 'Later', startAt: new Date(Date.now() + HOUR), endAt: null }),
      'not_supported',
      'ongoing',
    );
  });

  it('refuses a duplicate code; two identical creates at once make one code, each sent once', async () => {
    const lockId = await newLock();
    const input = { code: '735151', name: 'Guest', ...hours(0, HOUR) };
    const both = await Promise.allSettled([seam.addCustomPasscode(lockId, input), seam.addCustomPasscode(lockId, input)]);
    expect(both.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = both.find((r): r is PromiseRejectedResult => r.status === 'rejected')!.reason as LockProviderError;
    expect({ code: refused.code, vendorCode: refused.vendorCode, kind: refused.kind }).toEqual({
      code: 'duplicate_code',
      vendorCode: 'duplicate_access_code',
      kind: 'permanent',
    });
    expect((await seam.listPasscodes(lockId)).map((p) => p.code)).toEqual(['735151']);
    expect((await callsTo('/access_codes/create', lockId)).map((c) => c.status).sort()).toEqual([200, 409]);
    await expectCode(seam.addCustomPasscode(lockId, input), 'duplicate_code', 'duplicate_access_code');
  });

  it('a create whose answer is lost (OUR layer drops it) is `network` and reached Seam once: the SDK sends nothing again', async () => {
    const lockId = await newLock();
    await fake.ours.dropNext('/access_codes/create');
    await expectCode(seam.addCustomPasscode(lockId, { code: '602214', name: 'Guest', ...hours(0, HOUR) }), 'network');
    expect(await callsTo('/access_codes/create', lockId)).toHaveLength(1);
    // It was made: the delivery engine finds it by listing (the adopt path).
    expect((await seam.listPasscodes(lockId)).map((p) => p.code)).toEqual(['602214']);
  });

  it('changes a validity with both ends (POST), or to permanent; a ref unknown or of another lock is credential_not_found', async () => {
    const lockId = await newLock();
    const other = await newLock();
    const { ref } = await seam.addCustomPasscode(lockId, { code: '480613', name: 'Guest', ...hours(0, HOUR) });
    const { ref: theirs } = await seam.addCustomPasscode(other, { code: '480613', name: 'Guest', ...hours(0, HOUR) });
    const longer = hours(-HOUR, 5 * HOUR + 30_000);
    await seam.changePasscodeValidity(lockId, ref, longer);
    expect(await seam.listPasscodes(lockId)).toMatchObject([{ ref, startAt: floorMinute(longer.startAt), endAt: ceilMinute(longer.endAt) }]);
    expect((await callsTo('/access_codes/update', lockId)).map((c) => [c.method, c.status])).toEqual([['POST', 200]]);
    await seam.changePasscodeValidity(lockId, ref, { startAt: new Date(), endAt: null });
    expect(await seam.listPasscodes(lockId)).toMatchObject([{ ref, endAt: null }]);
    expect((await fake.ours.state()).access_codes.find((c) => c.access_code_id === ref)).toMatchObject({ type: 'ongoing' });
    await expectCode(seam.changePasscodeValidity(lockId, 'access_code_none', longer), 'credential_not_found', 'not_found');
    await expectCode(seam.changePasscodeValidity(lockId, theirs, longer), 'credential_not_found', 'device_id');
    await expectCode(seam.deletePasscode(lockId, theirs), 'credential_not_found', 'device_id');
    expect(await seam.listPasscodes(other)).toHaveLength(1);
  });

  it("follows a code's state on the lock (OUR layer moves it): accepted, setting with a warning, on the lock, failed", async () => {
    const lockId = await newLock();
    const { ref } = await seam.addCustomPasscode(lockId, { code: '480613', name: 'Guest', ...hours(0, HOUR) });
    expect(await seam.passcodeState(lockId, ref)).toEqual({ state: 'setting', error: null, warnings: [], vendorStatus: 'unset' });
    await fake.ours.setCode(ref, { status: 'setting', warnings: ['delay_in_setting_on_device'] });
    expect(await seam.passcodeState(lockId, ref)).toEqual({
      state: 'setting',
      error: null,
      warnings: [{ code: 'lock_busy', vendorCode: 'delay_in_setting_on_device', vendorMessage: 'Delay in setting code on device.' }],
      vendorStatus: 'setting',
    });
    await fake.ours.setCode(ref, { status: 'set', warnings: [] });
    expect(await seam.passcodeState(lockId, ref)).toMatchObject({ state: 'on_lock', error: null, warnings: [], vendorStatus: 'set' });

    const { ref: refused } = await seam.addCustomPasscode(lockId, { code: '271828', name: 'Guest 2', ...hours(0, HOUR) });
    await fake.ours.setCode(refused, { status: 'setting', errors: ['failed_to_set_on_device'] });
    expect(await seam.passcodeState(lockId, refused)).toMatchObject({
      state: 'failed',
      error: { code: 'failed_on_lock', vendorCode: 'failed_to_set_on_device', vendorMessage: 'Failed to set code on device.' },
    });
    // A lock that went offline while setting: still setting, the trouble kept.
    const { ref: waiting } = await seam.addCustomPasscode(lockId, { code: '314159', name: 'Guest 3', ...hours(0, HOUR) });
    await fake.ours.setCode(waiting, { status: 'setting', errors: ['device_offline'] });
    expect(await seam.passcodeState(lockId, waiting)).toMatchObject({ state: 'setting', error: { code: 'lock_offline', vendorCode: 'device_offline' } });
    expect(await seam.passcodeState(await newLock(), ref)).toMatchObject({ state: 'gone' });
  });

  it('removes a code: at once (the fake), or removing until the lock lets it go (OUR slow removal); then gone', async () => {
    const lockId = await newLock();
    const { ref } = await seam.addCustomPasscode(lockId, { code: '480613', name: 'Guest', ...hours(0, HOUR) });
    const { ref: slow } = await seam.addCustomPasscode(lockId, { code: '271828', name: 'Guest 2', ...hours(0, HOUR) });
    await seam.deletePasscode(lockId, ref);
    expect(await seam.passcodeState(lockId, ref)).toEqual({ state: 'gone', error: null, warnings: [], vendorStatus: null });
    await expectCode(seam.deletePasscode(lockId, ref), 'credential_not_found', 'not_found');

    await fake.ours.behaviour(lockId, { removal: 'slow' });
    await seam.deletePasscode(lockId, slow);
    expect(await seam.passcodeState(lockId, slow)).toMatchObject({ state: 'removing', vendorStatus: 'removing' });
    expect((await seam.listPasscodes(lockId)).map((p) => p.ref)).toEqual([slow]);
    await fake.ours.codeRemoved(slow);
    expect(await seam.passcodeState(lockId, slow)).toMatchObject({ state: 'gone' });
    expect(await seam.listPasscodes(lockId)).toEqual([]);
  });

  it('makes offline codes (OUR layer computes them) where the lock can, to whole hours; they are never changed or deleted', async () => {
    const lockId = await newLock({ can_remotely_unlock: false, can_program_online_access_codes: false, can_program_offline_access_codes: true });
    const validity = hours(10 * MINUTE, 2 * HOUR);
    const { ref, code } = await seam.getRandomPasscode(lockId, { type: 'period', name: 'Guest', timeZone: SHANGHAI, ...validity });
    expect(code).toMatch(/^\d{9}$/);
    expect(await seam.listPasscodes(lockId)).toEqual([
      { ref, code, name: 'Guest', origin: 'random', startAt: floorToZoneHour(validity.startAt, SHANGHAI), endAt: ceilToZoneHour(validity.endAt, SHANGHAI) },
    ]);
    expect(await seam.passcodeState(lockId, ref)).toMatchObject({ state: 'on_lock', error: null });
    await expectCode(seam.changePasscodeValidity(lockId, ref, hours(0, 4 * HOUR)), 'not_changeable', 'is_offline_access_code');
    await expectCode(seam.deletePasscode(lockId, ref), 'offline_kept', 'is_offline_access_code');
    expect([...(await callsTo('/access_codes/update', lockId)), ...(await callsTo('/access_codes/delete', lockId))]).toEqual([]);

    const once = await seam.getRandomPasscode(lockId, { type: 'one_time', name: 'Once', timeZone: SHANGHAI, startAt: validity.startAt, endAt: null });
    expect((await seam.listPasscodes(lockId)).find((p) => p.ref === once.ref)?.endAt).toEqual(
      ceilToZoneHour(new Date(validity.startAt.getTime() + 6 * HOUR), SHANGHAI),
    );
    await expectCode(seam.getRandomPasscode(lockId, { type: 'permanent', name: 'x', timeZone: SHANGHAI, startAt: new Date(), endAt: null }), 'not_supported');
    await expectCode(seam.addCustomPasscode(lockId, { code: '480613', name: 'x', ...validity }), 'not_supported', 'can_program_online_access_codes');
    const online = await newLock();
    await expectCode(
      seam.getRandomPasscode(online, { type: 'period', name: 'x', timeZone: SHANGHAI, ...validity }),
      'not_supported',
      'can_program_offline_access_codes',
    );
    expect(await callsTo('/access_codes/create', online)).toEqual([]);
  });

  it('unlocks and waits for the action attempt; refuses a lock that cannot unlock remotely or is offline before sending; maps failed attempts', async () => {
    const lockId = await newLock();
    await seam.unlock(lockId);
    expect((await callsTo('/locks/unlock_door', lockId)).map((c) => c.status)).toEqual([200]);

    const keypadOnly = await newLock({ can_remotely_unlock: false });
    await expectCode(seam.unlock(keypadOnly), 'not_supported', 'can_remotely_unlock');
    const offline = await newLock();
    await fake.ours.setOnline(offline, false);
    const refused = await expectCode(seam.unlock(offline), 'lock_offline', 'device_offline');
    expect(refused.retryable).toBe(true);
    expect([...(await callsTo('/locks/unlock_door', keypadOnly)), ...(await callsTo('/locks/unlock_door', offline))]).toEqual([]);

    await fake.ours.behaviour(lockId, { unlock: { status: 'error', error: { type: 'device_offline', message: 'Device is offline' } } });
    await expectCode(seam.unlock(lockId), 'lock_offline', 'device_offline');
    await fake.ours.behaviour(lockId, { unlock: { status: 'error', error: { type: 'uncategorized_error', message: 'The lock jammed' } } });
    await expectCode(seam.unlock(lockId), 'provider_error', 'uncategorized_error');
    await fake.ours.behaviour(lockId, { unlock: { status: 'pending' } });
    await expectCode(adapter({ actionAttempt: { intervalMs: 10, timeoutMs: 100 } }).unlock(lockId), 'lock_busy', 'action_attempt_pending');
    await expectCode(seam.unlock('no_such_device'), 'lock_not_found', 'device_not_found');
  });

  it("reads records from the lock's events (OUR layer adds them with their documented fields): its own, in the range, oldest first", async () => {
    const lockId = await newLock();
    const other = await newLock();
    const { ref } = await seam.addCustomPasscode(lockId, { code: '480613', name: 'Chen Jie #P12', ...hours(-HOUR, 3 * HOUR) });
    const t0 = Date.now() - 10 * MINUTE;
    const at = (minutes: number) => new Date(t0 + minutes * MINUTE).toISOString();
    const event = (device_id: string, event_type: string, minutes: number, fields: Record<string, unknown> = {}) =>
      fake.ours.addEvent({ device_id, event_type, occurred_at: at(minutes), ...fields });
    await event(lockId, 'lock.unlocked', -1, { method: 'keycode', access_code_id: ref }); // before the range
    await event(lockId, 'lock.unlocked', 1, { method: 'keycode', access_code_id: ref });
    await event(lockId, 'lock.access_denied', 2, { access_code_id: ref });
    await event(lockId, 'lock.locked', 3, { method: 'manual' }); // not an opening
    await event(lockId, 'lock.unlocked', 4, { method: 'manual' });
    await event(other, 'lock.unlocked', 5, { method: 'keycode' });
    await seam.unlock(lockId); // the fake's own event, with `method: seamapi` from OUR layer

    const records = await seam.listRecords(lockId, { from: new Date(t0), to: new Date(Date.now() + MINUTE) });
    expect(records.map((r) => [r.recordType, r.success, r.username, r.credential])).toEqual([
      [4, true, 'Chen Jie #P12', '480613'],
      [4, false, 'Chen Jie #P12', '480613'],
      [-1, true, '', ''],
      [12, true, '', ''],
    ]);
    expect(records[0]).toMatchObject({ lockId, recordId: expect.stringMatching(/^seam:event/), lockDate: new Date(at(1)), battery: null });
    expect(new Set(records.map((r) => r.recordId)).size).toBe(4);
    expect(await seam.listRecords(lockId, { from: new Date(t0), to: new Date(t0 + 90_000) })).toHaveLength(1);
  });

  it('maps failures: auth, a bad parameter, the per-device call limit (OUR 429), an outage, no answer', async () => {
    const auth = await expectCode(adapter({ apiKey: 'seam_wrong_token' }).listLocks(), 'auth_failed', 'unauthorized');
    expect(auth.kind).toBe('account');

    const sixDigits = await newLock({ properties: { supported_code_lengths: [6] } });
    await expectCode(seam.addCustomPasscode(sixDigits, { code: '12345', name: 'x', ...hours(0, HOUR) }), 'invalid_parameter', 'invalid_input');

    // Seam's documented limit: 10 creates a minute per device; the 11th is 429, never sent on.
    const busy = await newLock();
    for (let i = 0; i < 10; i++) await seam.addCustomPasscode(busy, { code: String(400_000 + i), name: `Guest ${i}`, ...hours(0, HOUR) });
    const before = Date.now();
    const limited = await expectCode(seam.addCustomPasscode(busy, { code: '499999', name: 'Guest 11', ...hours(0, HOUR) }), 'rate_limited');
    expect(limited.kind).toBe('limit');
    expect(limited.retryAt!.getTime()).toBeGreaterThan(before);
    expect(limited.retryAt!.getTime()).toBeLessThanOrEqual(Date.now() + 61_000);
    expect((await callsTo('/access_codes/create', busy)).map((c) => c.status)).toEqual([...Array(10).fill(200), 429]);
    expect(await seam.listPasscodes(busy)).toHaveLength(10);

    // A workspace of its own, so that its outage (Seam's own /_fake route: 503, empty body) touches no other test.
    const workspace = await fake.ours.addWorkspace('Outage hotel');
    await fake.ours.addDevice({ name: 'Outage room', workspace_id: workspace.workspace_id });
    const hotel = adapter({ apiKey: workspace.api_key });
    expect(await hotel.listLocks()).toHaveLength(1);
    await fake.seam.simulateWorkspaceOutage(workspace.workspace_id, ['/locks/list']);
    const down = await expectCode(hotel.listLocks(), 'cloud_error', 503);
    expect(down.retryable).toBe(true);
    await fake.seam.simulateWorkspaceOutage(workspace.workspace_id, []);
    expect(await hotel.listLocks()).toHaveLength(1);

    // A port nothing listens on any more: no answer at all.
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as net.AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    await expectCode(adapter({ endpoint: `http://127.0.0.1:${port}` }).listLocks(), 'network');
  });

  it('has no card numbers, room-card keys, denylists, faces or door sensor on a Seam lock', async () => {
    const lockId = SEAM_SEED.locks[0];
    const validity = hours(0, HOUR);
    await expectCode(seam.addCard(lockId, { cardNumber: '3661413478', name: 'Guest', reversed: false, ...validity }), 'not_supported');
    // A card of Seam's is a card system's (card-encode.integration.test.ts): one the system does not have is gone.
    await expectCode(seam.deleteCard(lockId, 'no-such-user/no-such-credential'), 'credential_not_found');
    expect(await seam.listCards(lockId)).toEqual([]);
    await expectCode(seam.setCardKeys(lockId, { hotelTag: 1, lockNumber: 1, keys: [] }), 'not_supported');
    await expectCode(seam.denylistCard(lockId, { cardId: 1 }), 'not_supported');
    await expectCode(seam.undenylistCard(lockId, { uid: '04A1B2C3' }), 'not_supported');
    await expectCode(seam.cardSettings(lockId), 'not_supported');
    await expectCode(seam.faceFeatureData(lockId, { bytes: Buffer.alloc(4), contentType: 'image/png', fileName: 'f.png' }), 'not_supported');
    await expectCode(seam.addFace(lockId, { featureData: 'ab', name: 'Guest', ...validity }), 'not_supported');
    await expectCode(seam.deleteFace(lockId, '1'), 'not_supported');
    expect(await seam.listFaces(lockId)).toEqual([]);
    expect(await seam.doorSensor(lockId)).toBeNull();
  });
});

describe("Seam adapter against Seam's bin alone (nothing of ours)", () => {
  it('lists the seeded locks, puts a code on one and unlocks it', async () => {
    const bin = await startSeamFakeBin();
    try {
      const seam = new SeamProvider({ apiKey: SEAM_SEED.apiKey, endpoint: bin.url, actionAttempt: { intervalMs: 10 } });
      expect((await seam.listLocks()).map((l) => l.lockId).sort()).toEqual([...SEAM_SEED.locks].sort());
      const { ref } = await seam.addCustomPasscode('august_device_1', {
        code: '480613',
        name: 'Guest',
        startAt: new Date(),
        endAt: new Date(Date.now() + HOUR),
      });
      expect(await seam.passcodeState('august_device_1', ref)).toMatchObject({ state: 'setting', vendorStatus: 'unset' });
      await seam.unlock('august_device_1');
      await expectCode(seam.lockDetail('no_such_device'), 'lock_not_found', 'device_not_found');
    } finally {
      await bin.stop();
    }
  });
});
