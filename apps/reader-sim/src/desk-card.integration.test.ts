import WebSocket from 'ws';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { decodeCard, encodeCard, generateHotelCardKeys, presentCard, type HotelCardKeys } from '../../../packages/card-format/src/index';
import { writeCardAtDesk, type CardWrite, type CardWritingApi } from '../../web/src/features/cards/card-writing';
import { ReaderError, createReader, type CardReader, type ReaderType, type WebSocketFactory } from '../../web/src/readers';
import { ReaderSimControl } from './control-client';
import { FREE_PORTS, startReaderSim, type ReaderSim } from './server';

/**
 * The desk's part in issuing a room card (apps/web/src/features/cards/card-writing.ts) with each
 * reader type against the reader simulator's MIFARE card: the card on the reader is read, its
 * data made for its UID (here by the card format itself, as the server does), the sector opened
 * with a key the card has now, written, read back, and only then confirmed. What the simulated
 * card then holds is a room card a lock opens with; a write that fails never reaches confirm.
 * (The server's reserve and confirm: apps/server/src/modules/cards/cards.integration.test.ts.)
 */

let sim: ReaderSim;
let control: ReaderSimControl;
const HOTEL_TAG = 4242;
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
  const calls = {
    reserved: [] as CardWrite[],
    confirmed: [] as { issueId: number; uid: string; blocks: { block: number; data: string }[] }[],
    voided: [] as number[],
  };
  const api: CardWritingApi<{ id: number; state: 'issued' }> = {
    async reserve(uid) {
      const encoded = encodeCard({
        keys,
        hotelTag: HOTEL_TAG,
        uid,
        kind: 'guest',
        lockNumber: 12,
        generation: 3,
        validFrom: new Date(Date.now() - 60_000),
        validUntil: new Date(Date.now() + 86_400_000),
        cardId,
      });
      const write: CardWrite = {
        issue: { id: cardId },
        sector: encoded.sector,
        blocks: encoded.blocks,
        trailer: { block: encoded.trailerBlock, data: encoded.trailer },
        openKeys: [keys.sectorKeyA, 'FFFFFFFFFFFF'],
      };
      calls.reserved.push(write);
      return write;
    },
    async confirm(input) {
      calls.confirmed.push(input);
      return { id: input.issueId, state: 'issued' };
    },
    async voidReservation({ issueId }) {
      calls.voided.push(issueId);
    },
  };
  return { api, calls };
}

/** What a lock reads from the card now on the reader (the sector's key A and blocks). */
async function cardAsLockReadsIt() {
  const dump = await control.card();
  const sector = dump.sectors[keys.sector]!;
  return { uid: dump.uid, sector: keys.sector, keyA: sector.keyA, blocks: sector.blocks.slice(0, 3).map((data, i) => ({ block: keys.sector * 4 + i, data })) };
}

describe.each([1, 2, 3] as const)('writing a room card at the desk with reader type %i', (type) => {
  let reader: CardReader;
  beforeEach(async () => {
    await control.reset();
    reader = makeReader(type);
  });

  it('writes a blank card: the read-back is confirmed, and the card opens its room at a lock', async () => {
    await control.placeCard();
    const { api, calls } = desk(101);
    const steps: string[] = [];
    const issued = await writeCardAtDesk(reader, api, (step) => steps.push(step));
    expect(issued).toEqual({ id: 101, state: 'issued' });
    expect(steps).toEqual(['reading', 'preparing', 'writing', 'confirming']);
    expect(calls.confirmed[0]!.blocks).toEqual(calls.reserved[0]!.blocks);
    const onCard = await cardAsLockReadsIt();
    expect(onCard.keyA).toBe(keys.sectorKeyA);
    expect(decodeCard(onCard, [{ id: 'k', keys }])).toMatchObject({ ok: true, card: { cardId: 101, generation: 3, hotelTag: HOTEL_TAG } });
    expect(presentCard(onCard, { hotelTag: HOTEL_TAG, lockNumber: 12, newestGeneration: 0, keys: [{ id: 'k', keys }] }, new Date())).toMatchObject({
      opened: true,
    });
    await reader.close();
  });

  it("rewrites a card written before with the hotel's key, for the next guest", async () => {
    await control.placeCard();
    await writeCardAtDesk(reader, desk(201).api);
    const { api, calls } = desk(202);
    await writeCardAtDesk(reader, api);
    expect(calls.confirmed).toHaveLength(1);
    expect(decodeCard(await cardAsLockReadsIt(), [{ id: 'k', keys }])).toMatchObject({ ok: true, card: { cardId: 202 } });
    await reader.close();
  });

  it('a write that reads back different is given up: nothing is confirmed', async () => {
    await control.placeCard();
    await control.failNext('write', 'corrupt');
    const { api, calls } = desk(301);
    const error = await writeCardAtDesk(reader, api).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReaderError);
    expect((error as ReaderError).kind).toBe('writeVerifyFailed');
    expect(calls.confirmed).toEqual([]);
    expect(calls.voided).toEqual([301]);
    await reader.close();
  });

  it('a card of another system (a key the hotel does not know) is not written, and the reader software stopped is said before anything is reserved', async () => {
    const card = await control.placeCard();
    await control.setBlock(card.uid, keys.sector * 4 + 3, `0A0B0C0D0E0FFF0780690A0B0C0D0E0F`);
    const { api, calls } = desk(401);
    expect(await writeCardAtDesk(reader, api).catch((e: ReaderError) => e.kind)).toBe('authFailed');
    expect(calls.voided).toEqual([401]);
    expect(calls.confirmed).toEqual([]);
    await reader.close();

    await control.setServices({ running: false });
    const stopped = desk(402);
    expect(await writeCardAtDesk(makeReader(type), stopped.api).catch((e: ReaderError) => e.kind)).toBe('noResponse');
    expect(stopped.calls.reserved).toEqual([]);
    await control.setServices({ running: true });
  });
});
