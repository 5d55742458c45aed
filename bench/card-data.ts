/**
 * `pnpm --filter @console/bench run card-data`: issue 8 §8, the card data of 10,000 cards computed
 * and verified, per card, against a bare DES-CBC of one 16-byte block (a ratio, in the same run).
 *   The cards: one hotel key set (the lock's list also holds an earlier set, as after a rotation),
 *   9,000 guest cards (1,000 rooms, generations, every tenth a duplicate), 700 master or staff
 *   cards (a list of up to 7 rooms, or a floor of 30 as a window), 200 "all rooms" cards and 100
 *   cancel cards; random 4- and 7-byte UIDs; validity of 1 to 14 days.
 *   Timed, per card:
 *     - encode: `encodeCard` (DES-CBC of the 40-byte payload, HMAC-SHA-256, hex of the blocks and
 *       the trailer): what the server does for each card it issues;
 *     - verify: `presentCard` at the card's lock (sector key, MAC, decryption, UID binding, the
 *       lock's checks): what a lock (and the simulator) does for each card held to it;
 *       every card must open (cancel cards: cancel_applied), else the run fails;
 *     - the baseline: node:crypto DES-CBC of one 16-byte block (createCipheriv, update, final;
 *       a new cipher each time, as the format does), the same 10,000 times; and the same with
 *       `des-ede3-cbc` and the key three times (what the format uses when the legacy provider
 *       is not loaded).
 *   The four are interleaved in rounds (in a rotating order), after a warm-up round; medians of
 *   the rounds.
 *
 * Run with `--openssl-legacy-provider` (the package script does), as the server is: single DES.
 * Environment: BENCH_CARDS (default 10000), BENCH_ROUNDS (default 9). A smoke run (BENCH_SMOKE=1):
 * 100 cards (the fewest with every kind: the mix repeats every 100 cards, the cancel card last), one
 * round, no warm-up round; every card still verified at its lock.
 */
import { createCipheriv, randomBytes } from 'node:crypto';
import os from 'node:os';
import {
  type CardDump,
  type CardKeyEntry,
  type EncodeCardInput,
  type EncodedCard,
  desImplementation,
  encodeCard,
  generateHotelCardKeys,
  presentCard,
} from '../packages/card-format/src/index.ts';
import { fmt, median, sized, SMOKE } from './lib.ts';

// A smoke run: 100 cards, the fewest with every kind (guest, duplicate, master and staff of a list or
// a floor, "all rooms", cancel: the mix repeats every 100 cards).
const CARDS = Number(process.env.BENCH_CARDS ?? sized(10_000, 100));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? sized(9, 1));
const HOTEL_TAG = 4242;
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

const keys = generateHotelCardKeys({ sector: 1 });
const earlier = generateHotelCardKeys({ sector: 1 });
const lockKeys: CardKeyEntry[] = [
  { id: 'current', keys },
  { id: 'earlier', keys: earlier, validUntil: new Date(Date.now() + 30 * DAY) },
];
const now = new Date();

function uid(): string {
  return randomBytes(Math.random() < 0.8 ? 4 : 7)
    .toString('hex')
    .toUpperCase();
}

/** The card inputs, and the lock number each is presented at. */
function cardInputs(): { input: EncodeCardInput; at: number }[] {
  const out: { input: EncodeCardInput; at: number }[] = [];
  for (let i = 0; i < CARDS; i += 1) {
    const from = new Date(Math.floor((now.getTime() - Math.random() * (DAY / 2)) / MINUTE) * MINUTE);
    const until = new Date(from.getTime() + (1 + Math.floor(Math.random() * 14)) * DAY);
    const common = { keys, hotelTag: HOTEL_TAG, uid: uid(), validFrom: from, validUntil: until, cardId: i + 1 };
    const share = i % 100;
    if (share < 90) {
      const room = 1 + (i % 1000);
      out.push({ input: { ...common, kind: 'guest', lockNumber: room, generation: 1 + Math.floor(i / 1000), duplicate: i % 10 === 9 }, at: room });
    } else if (share < 97) {
      const floor = 100 * (1 + (i % 9));
      const rooms = i % 2 === 0 ? Array.from({ length: 30 }, (_, k) => floor + 1 + k) : Array.from({ length: 1 + (i % 7) }, (_, k) => floor + 1 + 3 * k);
      out.push({ input: { ...common, kind: i % 3 === 0 ? 'staff' : 'master', rooms }, at: rooms[0]! });
    } else if (share < 99) {
      out.push({ input: { ...common, kind: 'master', rooms: 'all' }, at: 1 + (i % 1000) });
    } else {
      out.push({ input: { ...common, kind: 'cancel', rooms: 'all', cancelsCardId: 1 + ((i * 7) % CARDS) }, at: 1 + (i % 1000) });
    }
  }
  return out;
}

const cards = cardInputs();
const dumpOf = (encoded: EncodedCard, cardUid: string): CardDump => ({
  uid: cardUid,
  sector: encoded.sector,
  keyA: encoded.sectorKeyA,
  blocks: encoded.blocks,
});

let encoded: EncodedCard[] = [];

function runEncode(): void {
  encoded = cards.map((c) => encodeCard(c.input));
}

function runVerify(): void {
  for (let i = 0; i < cards.length; i += 1) {
    const { input, at } = cards[i]!;
    // Guest cards: the lock has seen an older generation of its room; nothing denylisted.
    const result = presentCard(
      dumpOf(encoded[i]!, input.uid),
      { hotelTag: HOTEL_TAG, lockNumber: at, newestGeneration: input.kind === 'guest' ? input.generation - 1 : 0, keys: lockKeys },
      now,
    );
    const wanted = input.kind === 'cancel' ? 'cancel_applied' : 'opened';
    if (result.outcome !== wanted) throw new Error(`card ${i} (${input.kind}): ${result.outcome}, expected ${wanted}`);
  }
}

const desKey = Buffer.from(keys.desKey, 'hex');
const desIv = Buffer.from(keys.desIv, 'hex');
const block = randomBytes(16);
let sink = 0;

function bareDes(algorithm: 'des-cbc' | 'des-ede3-cbc'): () => void {
  const key = algorithm === 'des-cbc' ? desKey : Buffer.concat([desKey, desKey, desKey]);
  return () => {
    for (let i = 0; i < cards.length; i += 1) {
      const cipher = createCipheriv(algorithm, key, desIv);
      cipher.setAutoPadding(false);
      sink += cipher.update(block).length + cipher.final().length;
    }
  };
}

type Path = 'encode' | 'verify' | 'des' | 'ede3';
const RUN: Record<Path, () => void> = { encode: runEncode, verify: runVerify, des: bareDes('des-cbc'), ede3: bareDes('des-ede3-cbc') };
const LABEL: Record<Path, string> = {
  des: 'bare DES-CBC of one 16-byte block (node:crypto `des-cbc`), the baseline',
  ede3: 'bare `des-ede3-cbc` (key x3) of one 16-byte block: the format without the legacy provider',
  encode: '`encodeCard`: the card data computed',
  verify: '`presentCard`: the card data read and checked at its lock',
};

function main(): void {
  if (desImplementation() !== 'des-cbc') throw new Error('run with --openssl-legacy-provider (the package script does): single DES is the baseline');
  const order: Path[] = ['encode', 'verify', 'des', 'ede3'];
  // Warm-up: every path once; none in a smoke run, which times nothing worth reading (every round
  // encodes before it verifies).
  if (!SMOKE) for (const path of order) RUN[path]();
  const times: Record<Path, number[]> = { encode: [], verify: [], des: [], ede3: [] };
  for (let round = 0; round < ROUNDS; round += 1) {
    const rotated = [...order.slice(round % order.length), ...order.slice(0, round % order.length)];
    // verify reads what encode wrote: keep encode before verify in every round.
    rotated.sort((a, b) => (a === 'encode' && b === 'verify' ? -1 : a === 'verify' && b === 'encode' ? 1 : 0));
    for (const path of rotated) {
      const start = process.hrtime.bigint();
      RUN[path]();
      times[path].push(Number(process.hrtime.bigint() - start) / 1e3 / cards.length);
    }
  }
  const base = median(times.des);
  console.log(
    `\n### Card data of ${CARDS.toLocaleString('en')} cards (${os.cpus().length} cores, Node ${process.version}, ${ROUNDS} rounds, DES: ${desImplementation()})\n`,
  );
  console.log('| path | µs per card (median) | min | max | vs bare DES-CBC |');
  console.log('|---|---:|---:|---:|---:|');
  for (const path of ['des', 'ede3', 'encode', 'verify'] as const) {
    const t = times[path];
    console.log(`| ${LABEL[path]} | ${fmt(median(t), 2)} | ${fmt(Math.min(...t), 2)} | ${fmt(Math.max(...t), 2)} | ${fmt(median(t) / base, 2)} |`);
  }
  const both = median(times.encode) + median(times.verify);
  console.log(
    `\nComputed and verified: ${fmt(both, 2)} µs per card, ${fmt(both / base, 2)}x a bare DES-CBC of one block; ${fmt((both * CARDS) / 1e3, 0)} ms for ${CARDS.toLocaleString('en')} cards. (checksum ${sink % 7})`,
  );
}

main();
