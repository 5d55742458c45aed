/**
 * A small client of the simulator's control API, for tests and browser tests (e2e) that drive the
 * world around the reader: `new ReaderSimControl(sim.controlUrl)`.
 */
export class ReaderSimControl {
  constructor(readonly controlUrl: string) {}

  async call<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${this.controlUrl}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await response.json()) as T & { error?: string };
    if (!response.ok) throw new Error(`reader simulator control ${method} ${path}: ${response.status} ${json.error ?? ''}`);
    return json;
  }

  overview() {
    return this.call<{
      device: { connected: boolean; deviceId: string; serial: string };
      card: string | null;
      beeps: { count: number; lastMs: number };
      [key: string]: unknown;
    }>('GET', '');
  }

  /** Places a card (a known one by UID, a new blank one with that UID, or a new blank one); answers its dump. */
  async placeCard(uid?: string): Promise<CardDump> {
    return (await this.call<{ card: CardDump }>('POST', '/card', uid === undefined ? {} : { uid })).card;
  }

  async removeCard(): Promise<string | null> {
    return (await this.call<{ removed: string | null }>('DELETE', '/card')).removed;
  }

  async card(uid?: string): Promise<CardDump> {
    return (await this.call<{ card: CardDump }>('GET', uid ? `/cards/${uid}` : '/card')).card;
  }

  async setBlock(uid: string, block: number, data: string): Promise<CardDump> {
    return (await this.call<{ card: CardDump }>('PUT', `/cards/${uid}/blocks/${block}`, { data })).card;
  }

  setConnected(connected: boolean) {
    return this.call('PUT', '/device', { connected });
  }

  /** Starts or stops the reader software: `{ running }` for all, or `{ type1, type2, type3 }`. */
  setServices(switches: { running?: boolean; type1?: boolean; type2?: boolean; type3?: boolean }) {
    return this.call('PUT', '/services', switches);
  }

  setLatency(latencyMs: number | [number, number]) {
    return this.call('PUT', '/config', { latencyMs });
  }

  failNext(op: 'request' | 'auth' | 'read' | 'write', effect: 'fail' | 'corrupt' = 'fail', times = 1) {
    return this.call('POST', '/failures', { op, effect, times });
  }

  clearFailures() {
    return this.call('DELETE', '/failures');
  }

  finger(settings: { module?: boolean; placed?: boolean; id?: string; quality?: number }) {
    return this.call('PUT', '/finger', settings);
  }

  dispenser(settings: { present?: boolean; stock?: number; capacity?: number; bin?: number; binCapacity?: number }) {
    return this.call('PUT', '/dispenser', settings);
  }

  reset() {
    return this.call('POST', '/reset');
  }
}

export interface CardDump {
  uid: string;
  origin: 'control' | 'dispenser';
  location: 'reader' | 'wallet' | 'bin';
  onReader: boolean;
  createdAt: number;
  sectors: Array<{ sector: number; keyA: string; accessBits: string; keyB: string; conditions: string[] | null; blocks: string[] }>;
  blocks: string[];
}
