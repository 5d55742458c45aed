import { randomBytes } from 'node:crypto';
import { blankMemory, sectorDump, SECTORS, type CardMemory, type KeyType } from './mifare';
import { DEVICE, type CallLog, type DeviceEvent, type InjectedFailure } from './device-status';
import type { ReaderSimState, SimCard } from './state';

/** A card the device knows: its facts, and its memory (64 blocks of 16 bytes). */
export interface LiveCard {
  meta: Omit<SimCard, 'blocks'>;
  memory: CardMemory;
}

export const toHex = (b: Buffer) => b.toString('hex').toUpperCase();

/**
 * The device as the world around it sees it (device.ts adds what the services ask of it): its state
 * kept and restored, its events, its call log, and the control API's acts: plug it in or out, put a
 * card in its field or take it away, read a card's memory, set a block as no reader could.
 */
export class DeviceWorld {
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
  protected readonly cards = new Map<string, LiveCard>();
  protected onReader: string | null;
  /** The sector authenticated on the card in the field, and with which key. */
  protected auth: { uid: string; sector: number; keyType: KeyType } | null = null;
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

  // The world around the device (control API)

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
}
