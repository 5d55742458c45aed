import { SimClient, startLockSim, type LockSim } from '@console/lock-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CardDump, encodeCard, generateHotelCardKeys, type HotelCardKeys } from '@console/card-format';
import { type CardKeySet, type LockErrorCode, LockProviderError } from './provider';
import { simAdapter } from '../../test/ttlock-adapter';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const adapter = simAdapter;

async function expectCode(promise: Promise<unknown>, code: LockErrorCode, vendorCode?: number) {
  let error: unknown;
  try {
    await promise;
  } catch (e) {
    error = e;
  }
  if (!(error instanceof LockProviderError)) throw new Error(`expected a LockProviderError, got ${String(error)}`);
  expect({ code: error.code, vendorCode: error.vendorCode }).toEqual({ code, vendorCode: vendorCode ?? error.vendorCode });
  return error;
}

/** A guest card of lock number 101 as a desk reader reads it back. */
function guestCard(keys: HotelCardKeys, uid: string, generation = 1): CardDump {
  const now = Date.now();
  const encoded = encodeCard({
    keys,
    hotelTag: 42,
    uid,
    kind: 'guest',
    lockNumber: 101,
    generation,
    validFrom: new Date(now - HOUR),
    validUntil: new Date(now + DAY),
    cardId: 5,
  });
  return { uid, sector: encoded.sector, keyA: encoded.sectorKeyA, blocks: encoded.blocks };
}

const keySet = (id: string, keys: HotelCardKeys, validUntil: Date | null = null): CardKeySet => ({ id, keys, validUntil });

describe('TTLock adapter: room-card keys and denylists (the simulator extension)', () => {
  let sim: LockSim;
  let control: SimClient;
  let ttlock: ReturnType<typeof simAdapter>;
  const keys = generateHotelCardKeys({ sector: 2 });

  beforeAll(async () => {
    sim = await startLockSim({ latencyMs: 5 });
    control = new SimClient(sim.url);
    ttlock = adapter(sim);
  });
  afterAll(() => sim.close());

  const newLock = async (lock: Record<string, unknown> = {}) => {
    const { lockId, gatewayId } = await control.lockWithGateway(lock);
    return { lockId: String(lockId), gatewayId };
  };
  const present = async (lockId: string, dump: CardDump) => (await control.presentCard(Number(lockId), dump)).outcome;

  it('pushes the hotel tag, lock number and key sets; the lock then opens the hotel cards; reads back without key material', async () => {
    const { lockId } = await newLock();
    const card = guestCard(keys, '04A1B2C3');
    expect(await present(lockId, card)).toBe('unreadable');
    expect(await ttlock.cardSettings(lockId)).toEqual({ hotelTag: 0, lockNumber: 0, keys: [], denylist: { uids: [], cardIds: [] } });

    const previous = generateHotelCardKeys({ sector: 2 });
    const until = new Date(Math.ceil((Date.now() + 3 * DAY) / 1000) * 1000);
    await ttlock.setCardKeys(lockId, { hotelTag: 42, lockNumber: 101, keys: [keySet('k-2', keys), keySet('k-1', previous, until)] });
    expect(await ttlock.cardSettings(lockId)).toEqual({
      hotelTag: 42,
      lockNumber: 101,
      keys: [
        { id: 'k-2', validUntil: null, sector: 2 },
        { id: 'k-1', validUntil: until, sector: 2 },
      ],
      denylist: { uids: [], cardIds: [] },
    });
    expect(await present(lockId, card)).toBe('opened');
    // A card under the earlier key set opens too (rotation).
    expect(await present(lockId, guestCard(previous, '04A1B2C4'))).toBe('opened');
  });

  it('denylists a lost card and takes it off again', async () => {
    const { lockId } = await newLock();
    await ttlock.setCardKeys(lockId, { hotelTag: 42, lockNumber: 101, keys: [keySet('k-2', keys)] });
    const lost = guestCard(keys, '04aabbcc');
    expect(await present(lockId, lost)).toBe('opened');
    await ttlock.denylistCard(lockId, { uid: '04aabbcc' });
    await ttlock.denylistCard(lockId, { uid: '04AABBCC' });
    expect((await ttlock.cardSettings(lockId)).denylist).toEqual({ uids: ['04AABBCC'], cardIds: [] });
    expect(await present(lockId, lost)).toBe('denylisted');
    // The refusal's record, as the adapter reads it back, says why.
    const records = await ttlock.listRecords(lockId, { from: new Date(Date.now() - HOUR), to: new Date(Date.now() + HOUR) });
    expect(records.map((r) => [r.recordType, r.success, r.credential, r.username, r.reason])).toEqual([
      [7, true, '04AABBCC', '#C5', undefined],
      [7, false, '04AABBCC', '#C5', 'denylisted'],
    ]);
    await ttlock.undenylistCard(lockId, { uid: '04AABBCC' });
    expect(await present(lockId, lost)).toBe('opened');
    await expectCode(ttlock.undenylistCard(lockId, { uid: '04AABBCC' }), 'credential_not_found', -1021);
  });

  it('fails like every gateway write: offline lock, offline or busy gateway, no gateway, unknown lock, full denylist', async () => {
    const { lockId, gatewayId } = await newLock();
    const set = () => ttlock.setCardKeys(lockId, { hotelTag: 42, lockNumber: 101, keys: [keySet('k-2', keys)] });
    await control.control('PATCH', `/locks/${lockId}`, { online: false });
    await expectCode(set(), 'lock_offline', -3036);
    await expectCode(ttlock.denylistCard(lockId, { uid: '04000001' }), 'lock_offline', -3036);
    await control.control('PATCH', `/locks/${lockId}`, { online: true });
    await control.control('PATCH', `/gateways/${gatewayId}`, { online: false });
    await expectCode(set(), 'gateway_offline', -3002);
    await control.control('PATCH', `/gateways/${gatewayId}`, { online: true, busy: true });
    await expectCode(ttlock.undenylistCard(lockId, { uid: '04000001' }), 'gateway_busy', -3003);
    await control.control('PATCH', `/gateways/${gatewayId}`, { busy: false });
    await set();
    const { lock } = await control.control<{ lock: { lockId: number } }>('POST', '/locks', {});
    await expectCode(ttlock.setCardKeys(String(lock.lockId), { hotelTag: 42, lockNumber: 101, keys: [keySet('k-2', keys)] }), 'no_gateway', -2012);
    await expectCode(ttlock.cardSettings('1'), 'lock_not_found', -1003);
    await control.control('POST', '/failures/next', { code: -4056, op: 'lock/addHotelCardDenylist', lockId: Number(lockId) });
    await expectCode(ttlock.denylistCard(lockId, { uid: '04000001' }), 'storage_full', -4056);
    // Keys the lock would not take (the factory key) are refused with the reason.
    const refused = await expectCode(
      ttlock.setCardKeys(lockId, { hotelTag: 42, lockNumber: 101, keys: [keySet('bad', { ...keys, sectorKeyA: 'FFFFFFFFFFFF' })] }),
      'invalid_parameter',
      -3,
    );
    expect(refused.vendorMessage).toContain('sectorKeyA');
  });

  it('a real TTLock cloud has no such calls: not_supported, and no key is sent to it', async () => {
    const sent: string[] = [];
    const spy: typeof fetch = (input, init) => {
      sent.push(String(input));
      return fetch(input, init);
    };
    const real = adapter(sim, { simulated: false, fetch: spy });
    const { lockId } = await newLock();
    await expectCode(real.setCardKeys(lockId, { hotelTag: 42, lockNumber: 101, keys: [keySet('k-2', keys)] }), 'not_supported');
    await expectCode(real.denylistCard(lockId, { uid: '04000001' }), 'not_supported');
    await expectCode(real.undenylistCard(lockId, { uid: '04000001' }), 'not_supported');
    await expectCode(real.cardSettings(lockId), 'not_supported');
    expect(sent).toEqual([]);

    // A cloud that does not know the call (HTTP 404), or says "not supported" (-4043).
    const unknownPath: typeof fetch = (input, init) => fetch(String(input).replace('/v3/lock/setHotelCardKeys', '/v3/lock/noSuchCall'), init);
    await expectCode(
      adapter(sim, { fetch: unknownPath }).setCardKeys(lockId, { hotelTag: 42, lockNumber: 101, keys: [keySet('k-2', keys)] }),
      'not_supported',
      404,
    );
    await control.control('POST', `/locks/${lockId}/failures`, { code: -4043, ops: ['lock/addHotelCardDenylist'] });
    await expectCode(ttlock.denylistCard(lockId, { uid: '04000001' }), 'not_supported', -4043);
  });
});
