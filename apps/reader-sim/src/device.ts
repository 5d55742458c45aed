import { createHash, randomBytes } from 'node:crypto';
import {
  BLOCK_BYTES,
  CardError,
  blankMemory,
  isTrailer,
  keyMatches,
  readBlock,
  sectorDump,
  sectorOf,
  SECTORS,
  writeBlock,
  type CardMemory,
  type KeyType,
} from './mifare';
import type { ReaderSimState, SimCard } from './state';

/**
 * The simulated desk device behind all three services: one MIFARE encoder (vendor 1047, product
 * 32800) with a card field, a fingerprint module and a card dispenser. Each service (type1.ts,
 * type2.ts, type3.ts) translates its own protocol into these operations and the statuses below
 * into its own codes. Nothing here is real hardware.
 */

/** Why an operation failed, independent of any protocol. */
export type DeviceStatus =
  | 'no_card'
  | 'auth_failed'
  | 'not_authenticated'
  | 'access_denied'
  | 'read_failed'
  | 'write_failed'
  | 'bad_access_bits'
  | 'no_finger'
  | 'no_finger_module'
  | 'dispenser_empty'
  | 'card_at_reader'
  | 'no_card_at_reader'
  | 'no_dispenser'
  | 'bin_full'
  | 'device_not_connected';

export const STATUS_TEXT: Record<DeviceStatus, string> = {
  no_card: 'no card in the field',
  auth_failed: 'authentication failed: wrong key for this sector',
  not_authenticated: 'the sector of this block is not authenticated',
  access_denied: 'the access bits do not allow this (or the block is read-only)',
  read_failed: 'read failed',
  write_failed: 'write failed',
  bad_access_bits: 'the access bits are inconsistent',
  no_finger: 'no finger on the sensor',
  no_finger_module: 'the device has no fingerprint module',
  dispenser_empty: 'the card dispenser is empty',
  card_at_reader: 'a card is already at the reader',
  no_card_at_reader: 'no card at the reader to capture',
  no_dispenser: 'no card dispenser is attached',
  bin_full: 'the capture bin is full',
  device_not_connected: 'device not connected or not on',
};

export class DeviceError extends Error {
  constructor(
    readonly status: DeviceStatus,
    message: string = STATUS_TEXT[status],
  ) {
    super(message);
  }
}

export const DEVICE = {
  vid: 1047,
  pid: 32800,
  model: 'SIM-MF1 desk encoder (simulated)',
  firmware: 'SIM-1.0',
  manufacturer: 'SIMULATED',
} as const;

export type FailureOp = 'request' | 'auth' | 'read' | 'write';
/** A failure forced on the next matching operation(s): `fail` answers an error; `corrupt` (write only) answers success but stores other data. */
export interface InjectedFailure {
  op: FailureOp;
  effect: 'fail' | 'corrupt';
  times: number;
}

export type DeviceEvent = { type: 'card'; present: boolean; uid: string | null } | { type: 'device'; connected: boolean };

export interface CallLog {
  at: number;
  service: 'type1' | 'type2' | 'type3';
  op: string;
  status: 'ok' | string;
}

interface LiveCard {
  meta: Omit<SimCard, 'blocks'>;
  memory: CardMemory;
}

const toHex = (b: Buffer) => b.toString('hex').toUpperCase();

export class ReaderDevice {
  /** The device is plugged in and switched on. */
  connected = true;
  /** Goes up each time the device is unplugged: a service's handle opened before is stale. */
  generation = 0;
  latencyMs: number | [number, number];
  beeps = { count: 0, lastMs: 0 };
  failures: InjectedFailure[] = [];
  readonly calls: CallLog[] = [];
  deviceSerial: string;
  dispenser: ReaderSimState['dispenser'];
  finger: ReaderSimState['finger'];
  private readonly cards = new Map<string, LiveCard>();
  private onReader: string | null;
  /** The sector authenticated on the card in the field, and with which key. */
  private auth: { uid: string; sector: number; keyType: KeyType } | null = null;
  private readonly listeners = new Set<(event: DeviceEvent) => void>();

  constructor(
    state: ReaderSimState,
    private readonly onChange: () => void,
    latencyMs: number | [number, number] = 0,
  ) {
    this.latencyMs = latencyMs;
    this.deviceSerial = state.deviceSerial;
    this.dispenser = { ...state.dispenser };
    this.finger = { ...state.finger };
    for (const card of Object.values(state.wallet)) {
      const { blocks, ...meta } = card;
      this.cards.set(card.uid, { meta, memory: blocks.map((hex) => Buffer.from(hex, 'hex')) });
    }
    this.onReader = state.onReader && this.cards.has(state.onReader) ? state.onReader : null;
  }

  get deviceId(): string {
    return `SIM-${DEVICE.vid.toString(16).padStart(4, '0')}-${DEVICE.pid.toString(16).padStart(4, '0')}-${this.deviceSerial.slice(-4)}`.toUpperCase();
  }

  snapshot(): ReaderSimState {
    const wallet: Record<string, SimCard> = {};
    for (const [uid, card] of this.cards) wallet[uid] = { ...card.meta, blocks: card.memory.map(toHex) };
    return { version: 1, deviceSerial: this.deviceSerial, wallet, onReader: this.onReader, dispenser: { ...this.dispenser }, finger: { ...this.finger } };
  }

  /** Replaces everything with an empty state (keeps the serial number). */
  reset(state: ReaderSimState): void {
    this.cards.clear();
    this.onReader = null;
    this.auth = null;
    this.dispenser = { ...state.dispenser };
    this.finger = { ...state.finger };
    this.failures = [];
    this.beeps = { count: 0, lastMs: 0 };
    this.calls.length = 0;
    this.connected = true;
    this.generation += 1;
    this.changed();
    this.emit({ type: 'card', present: false, uid: null });
  }

  on(listener: (event: DeviceEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(event: DeviceEvent) {
    for (const listener of this.listeners) listener(event);
  }

  changed(): void {
    this.onChange();
  }

  /** The latency of one call, in ms. */
  latency(): number {
    const l = this.latencyMs;
    return Array.isArray(l) ? l[0] + Math.random() * (l[1] - l[0]) : l;
  }

  log(service: CallLog['service'], op: string, status: string): void {
    this.calls.push({ at: Date.now(), service, op, status });
    if (this.calls.length > 200) this.calls.splice(0, this.calls.length - 200);
  }

  // ---- the world around the device (control API) ----

  setConnected(connected: boolean): void {
    if (connected === this.connected) return;
    this.connected = connected;
    if (!connected) {
      this.generation += 1;
      this.auth = null;
    }
    this.emit({ type: 'device', connected });
  }

  get cardOnReader(): string | null {
    return this.onReader;
  }

  knownCards(): Array<Omit<SimCard, 'blocks'>> {
    return [...this.cards.values()].map((c) => ({ ...c.meta }));
  }

  /**
   * Puts a card in the reader's field (the card there before goes back to the wallet): a known
   * card by its UID, a new blank card with the given UID, or a new blank card with a random UID.
   */
  placeCard(uid?: string, origin: SimCard['origin'] = 'control'): Omit<SimCard, 'blocks'> {
    this.takeCardAway('wallet');
    const id = uid?.toUpperCase() ?? this.newUid();
    let card = this.cards.get(id);
    if (!card) {
      card = { meta: { uid: id, origin, location: 'reader', createdAt: Date.now() }, memory: blankMemory(Buffer.from(id, 'hex')) };
      this.cards.set(id, card);
    }
    card.meta.location = 'reader';
    this.onReader = id;
    this.auth = null;
    this.changed();
    this.emit({ type: 'card', present: true, uid: id });
    return { ...card.meta };
  }

  /** Takes the card off the reader (into the wallet, or the dispenser's bin); null when there was none. */
  takeCardAway(to: 'wallet' | 'bin' = 'wallet'): string | null {
    const uid = this.onReader;
    if (!uid) return null;
    this.cards.get(uid)!.meta.location = to;
    this.onReader = null;
    this.auth = null;
    this.changed();
    this.emit({ type: 'card', present: false, uid: null });
    return uid;
  }

  forgetCard(uid: string): boolean {
    const id = uid.toUpperCase();
    if (this.onReader === id) this.takeCardAway();
    const had = this.cards.delete(id);
    if (had) this.changed();
    return had;
  }

  dump(uid: string) {
    const card = this.cards.get(uid.toUpperCase());
    if (!card) return null;
    return {
      ...card.meta,
      onReader: this.onReader === card.meta.uid,
      sectors: Array.from({ length: SECTORS }, (_, s) => sectorDump(card.memory, s)),
      blocks: card.memory.map(toHex),
    };
  }

  /** Sets a block of a known card directly, as no reader could (block 0 excepted): for preparing tests. */
  setBlockRaw(uid: string, block: number, data: Buffer): boolean {
    const card = this.cards.get(uid.toUpperCase());
    if (!card) return false;
    card.memory[block] = Buffer.from(data);
    if (this.auth?.uid === card.meta.uid) this.auth = null;
    this.changed();
    return true;
  }

  private newUid(): string {
    for (;;) {
      const bytes = randomBytes(4);
      // 0x88 is the cascade tag of longer UIDs; 0x00000000 and FFFFFFFF are not handed out.
      if (bytes[0] === 0x88) continue;
      const uid = toHex(bytes);
      if (uid === '00000000' || uid === 'FFFFFFFF' || this.cards.has(uid)) continue;
      return uid;
    }
  }

  // ---- what the services ask of the device ----

  private requireConnected(): void {
    if (!this.connected) throw new DeviceError('device_not_connected');
  }

  private takeFailure(op: FailureOp): InjectedFailure | null {
    const index = this.failures.findIndex((f) => f.op === op);
    if (index < 0) return null;
    const failure = this.failures[index]!;
    failure.times -= 1;
    if (failure.times <= 0) this.failures.splice(index, 1);
    return { ...failure };
  }

  private cardInField(): LiveCard {
    this.requireConnected();
    const card = this.onReader ? this.cards.get(this.onReader) : undefined;
    if (!card) throw new DeviceError('no_card');
    return card;
  }

  private cardError(error: unknown): never {
    if (error instanceof CardError) throw new DeviceError(error.refusal === 'auth_failed' ? 'auth_failed' : error.refusal, error.message);
    throw error;
  }

  /** Request, anticollision and select: the UID of the card in the field. */
  request(): { uid: string; atqa: string; sak: string } {
    const card = this.cardInField();
    if (this.takeFailure('request')) throw new DeviceError('no_card', 'no answer from the card (injected failure)');
    this.auth = null;
    const block0 = card.memory[0]!;
    const uidLength = card.meta.uid.length / 2;
    const sak = uidLength === 4 ? block0[5]! : block0[7]!;
    const atqa = uidLength === 4 ? block0.subarray(6, 8) : block0.subarray(8, 10);
    return { uid: card.meta.uid, atqa: toHex(atqa), sak: sak.toString(16).padStart(2, '0').toUpperCase() };
  }

  halt(): void {
    this.requireConnected();
    this.auth = null;
  }

  /**
   * Authenticates the sector of `block` with key A or B. The simulated reader selects the card in
   * the field itself first. A wrong key fails, and the card forgets any earlier authentication.
   */
  authenticate(block: number, keyType: KeyType, key: Buffer): void {
    const card = this.cardInField();
    const sector = sectorOf(block);
    this.auth = null;
    if (this.takeFailure('auth')) throw new DeviceError('auth_failed', 'authentication failed (injected failure)');
    if (!keyMatches(card.memory, sector, keyType, key))
      throw new DeviceError('auth_failed', `authentication of sector ${sector} with key ${keyType} failed: wrong key`);
    this.auth = { uid: card.meta.uid, sector, keyType };
  }

  private authenticatedFor(card: LiveCard, block: number): KeyType {
    const auth = this.auth;
    if (!auth || auth.uid !== card.meta.uid || auth.sector !== sectorOf(block)) {
      throw new DeviceError('not_authenticated', `sector ${sectorOf(block)} is not authenticated: authenticate it before reading or writing block ${block}`);
    }
    return auth.keyType;
  }

  read(block: number): Buffer {
    const card = this.cardInField();
    const keyType = this.authenticatedFor(card, block);
    if (this.takeFailure('read')) throw new DeviceError('read_failed', 'read failed (injected failure)');
    try {
      return readBlock(card.memory, block, keyType);
    } catch (error) {
      return this.cardError(error);
    }
  }

  write(block: number, data: Buffer): void {
    const card = this.cardInField();
    const keyType = this.authenticatedFor(card, block);
    const failure = this.takeFailure('write');
    if (failure?.effect === 'fail') throw new DeviceError('write_failed', 'write failed (injected failure)');
    let stored = data;
    if (failure?.effect === 'corrupt') {
      // Reported as written, but one byte differs when read back: the general purpose byte of a
      // trailer (readable, so the read-back shows it), the last byte of a data block.
      stored = Buffer.from(data);
      const at = isTrailer(block) ? 9 : BLOCK_BYTES - 1;
      stored[at] = stored[at]! ^ 0x5a;
    }
    try {
      writeBlock(card.memory, block, keyType, stored);
    } catch (error) {
      return this.cardError(error);
    }
    this.changed();
  }

  readWithKey(block: number, keyType: KeyType, key: Buffer): Buffer {
    this.authenticate(block, keyType, key);
    return this.read(block);
  }

  writeWithKey(block: number, keyType: KeyType, key: Buffer, data: Buffer): void {
    this.authenticate(block, keyType, key);
    this.write(block, data);
  }

  beep(ms: number): void {
    this.requireConnected();
    this.beeps = { count: this.beeps.count + 1, lastMs: ms };
  }

  /** A fingerprint from the module: a template made from the placed finger's id, and its quality. */
  captureFinger(): { template: Buffer; quality: number } {
    this.requireConnected();
    if (!this.finger.present) throw new DeviceError('no_finger_module');
    const placed = this.finger.placed;
    if (!placed) throw new DeviceError('no_finger');
    return { template: createHash('sha256').update(`reader-sim finger:${placed.id}`).digest(), quality: placed.quality };
  }

  dispenserStatus() {
    this.requireConnected();
    if (!this.dispenser.present) throw new DeviceError('no_dispenser');
    return { ...this.dispenser, cardAtReader: this.onReader !== null };
  }

  /** Moves a blank card from the stacker onto the reader: a new blank card appears in the field. */
  dispense(): { uid: string; stock: number } {
    this.dispenserStatus();
    if (this.onReader) throw new DeviceError('card_at_reader');
    if (this.dispenser.stock <= 0) throw new DeviceError('dispenser_empty');
    this.dispenser.stock -= 1;
    const card = this.placeCard(undefined, 'dispenser');
    return { uid: card.uid, stock: this.dispenser.stock };
  }

  /** Pulls the card on the reader into the dispenser's bin. */
  capture(): { uid: string; bin: number } {
    this.dispenserStatus();
    if (!this.onReader) throw new DeviceError('no_card_at_reader');
    if (this.dispenser.bin >= this.dispenser.binCapacity) throw new DeviceError('bin_full');
    const uid = this.takeCardAway('bin')!;
    this.dispenser.bin += 1;
    this.changed();
    return { uid, bin: this.dispenser.bin };
  }
}
