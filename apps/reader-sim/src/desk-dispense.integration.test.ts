import WebSocket from 'ws';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { decodeCard, encodeCard, generateHotelCardKeys, type HotelCardKeys } from '../../../packages/card-format/src/index';
import { DispensedCardFailure, writeDispensedCardAtDesk, type CardWrite, type CardWritingApi } from '../../web/src/features/cards/card-writing';
import { ReaderError, createReader, type CardReader, type ReaderType, type WebSocketFactory } from '../../web/src/readers';
import { ReaderSimControl } from './control-client';
import { FREE_PORTS, startReaderSim, type ReaderSim } from './server';

/**
 * A room card taken from the card dispenser at the desk (issue 8 §5;
 * apps/web/src/features/cards/card-writing.ts `writeDispensedCardAtDesk`), with each reader type
 * against the reader simulator: the dispenser puts a blank card on the reader, which is written
 * and confirmed as a card placed by hand; a card that fails is given up and pulled into the
 * dispenser's bin, never left for the desk to hand out; an empty dispenser dispenses nothing.
 */

let sim: ReaderSim;
let control: ReaderSimControl;
let keys: HotelCardKeys;

beforeAll(async () => {
  sim = await startReaderSim({ ports: FREE_PORTS });
  control = new ReaderSimControl(sim.controlUrl);
  keys = generateHotelCardKeys();
});
afterAll(() => sim.close());

const baseUrl = (type: ReaderType) => (type === 1 ? sim.urls.type1 : type === 2 ? sim.urls.type2 : sim.urls.type3);
const makeReader = (type: ReaderType) => createReader(type, { baseUrl: baseUrl(type), WebSocket: WebSocket as unknown as WebSocketFactory });

/** The server's side, with the real card format: what it reserved, confirmed and gave up. */
function desk(cardId: number) {
  const calls = { reserved: [] as string[], confirmed: [] as string[], voided: [] as number[] };
  const api: CardWritingApi<{ id: number; uid: string }> = {
    async reserve(uid) {
      const encoded = encodeCard({
        keys,
        hotelTag: 77,
        uid,
        kind: 'guest',
        lockNumber: 5,
        generation: 1,
        validFrom: new Date(Date.now() - 60_000),
        validUntil: new Date(Date.now() + 86_400_000),
        cardId,
      });
      calls.reserved.push(uid);
      return {
        issue: { id: cardId },
        sector: encoded.sector,
        blocks: encoded.blocks,
        trailer: { block: encoded.trailerBlock, data: encoded.trailer },
        openKeys: [keys.sectorKeyA, 'FFFFFFFFFFFF'],
      } satisfies CardWrite;
    },
    async confirm(input) {
      calls.confirmed.push(input.uid);
      return { id: input.issueId, uid: input.uid };
    },
    async voidReservation({ issueId }) {
      calls.voided.push(issueId);
    },
  };
  return { api, calls };
}

const dispenser = async () => (await control.overview()).dispenser as { stock: number; bin: number; cardAtReader: boolean };

describe.each([1, 2, 3] as const)('a room card from the dispenser with reader type %i', (type) => {
  let reader: CardReader;
  beforeEach(async () => {
    await control.reset();
    await control.dispenser({ stock: 5, bin: 0 });
    reader = makeReader(type);
  });

  it('dispenses a blank card onto the reader and writes it; the stock goes down by one', async () => {
    const { api, calls } = desk(11);
    const steps: string[] = [];
    const issued = await writeDispensedCardAtDesk(reader, api, (step) => steps.push(step));
    expect(steps).toEqual(['dispensing', 'reading', 'preparing', 'writing', 'confirming']);
    const dump = await control.card();
    expect(dump).toMatchObject({ uid: issued.uid, origin: 'dispenser', location: 'reader' });
    expect(calls.confirmed).toEqual([dump.uid]);
    const sector = dump.sectors[keys.sector]!;
    expect(
      decodeCard(
        { uid: dump.uid, sector: keys.sector, keyA: sector.keyA, blocks: sector.blocks.slice(0, 3).map((data, i) => ({ block: keys.sector * 4 + i, data })) },
        [{ id: 'k', keys }],
      ),
    ).toMatchObject({ ok: true, card: { cardId: 11 } });
    expect(await dispenser()).toMatchObject({ stock: 4, bin: 0, cardAtReader: true });
    await reader.close();
  });

  it('a card whose read-back differs is given up and pulled into the bin', async () => {
    await control.failNext('write', 'corrupt');
    const { api, calls } = desk(12);
    const failure = await writeDispensedCardAtDesk(reader, api).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(DispensedCardFailure);
    expect((failure as DispensedCardFailure).captured).toBe(true);
    expect(((failure as DispensedCardFailure).error as ReaderError).kind).toBe('writeVerifyFailed');
    expect(calls.voided).toEqual([12]);
    expect(calls.confirmed).toEqual([]);
    const [uid] = calls.reserved;
    expect((await control.card(uid)).location).toBe('bin');
    expect(await dispenser()).toMatchObject({ stock: 4, bin: 1, cardAtReader: false });
    await reader.close();
  });

  it('a card that cannot be pulled into a full bin is said so, and stays at the reader unissued', async () => {
    await control.dispenser({ binCapacity: 1, bin: 1 });
    await control.failNext('write', 'fail');
    const { api, calls } = desk(13);
    const failure = (await writeDispensedCardAtDesk(reader, api).catch((e: unknown) => e)) as DispensedCardFailure;
    expect(failure).toBeInstanceOf(DispensedCardFailure);
    expect(failure.captured).toBe(false);
    expect(failure.captureError).toBeInstanceOf(ReaderError);
    expect(calls.voided).toEqual([13]);
    expect(await dispenser()).toMatchObject({ stock: 4, bin: 1, cardAtReader: true });
    await reader.close();
  });

  it('an empty dispenser dispenses nothing: the reader says so, nothing is reserved', async () => {
    await control.dispenser({ stock: 0 });
    const { api, calls } = desk(14);
    const error = await writeDispensedCardAtDesk(reader, api).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReaderError);
    expect((error as ReaderError).kind).toBe('dispenserEmpty');
    expect(calls.reserved).toEqual([]);
    expect((await control.overview()).card).toBeNull();
    await reader.close();
  });

  it('a card still at the reader is not covered by another: the dispenser says it is busy', async () => {
    await control.placeCard();
    const { api, calls } = desk(15);
    expect(await writeDispensedCardAtDesk(reader, api).catch((e: ReaderError) => e.kind)).toBe('dispenserBusy');
    expect(calls.reserved).toEqual([]);
    expect(await dispenser()).toMatchObject({ stock: 5, bin: 0 });
    await reader.close();
  });
});
