import WebSocket from 'ws';
import { encodeCommand } from './frame';

/**
 * Bare clients of the three protocols, for the simulator's own tests (the console's drivers are
 * tested in drivers.integration.test.ts).
 */

export function type1Client(baseUrl: string) {
  return async (func: string, params: Record<string, string | number> = {}) => {
    const body = new URLSearchParams({ func, cbdata: `cb-${func}` });
    for (const [k, v] of Object.entries(params)) body.set(k, String(v));
    const response = await fetch(`${baseUrl}/`, { method: 'POST', body });
    return (await response.json()) as {
      code: number;
      retval: number;
      func: string;
      msg: string;
      cbdata: string;
      data: Record<string, unknown>;
      simulated: boolean;
    };
  };
}

export function type2Client(baseUrl: string) {
  const get = async (path: string, params: Record<string, string | number>) => {
    const query = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]));
    const response = await fetch(`${baseUrl}${path}?${query}`);
    return (await response.json()) as { ok: boolean; errno?: number; error?: string; data?: unknown; length?: number };
  };
  return {
    open: (vid = 1047, pid = 32800) => get('/open', { vid, pid }),
    close: () => get('/close', {}),
    raw: (hex: string, timeout = 1000, readlength = 64) => get('/write', { data: hex, timeout, readlength }),
    /** Sends one command; answers the answer frame split up, or the bridge's error. */
    async command(cmd: number, data: number[] = [], timeout = 1000) {
      const answer = await get('/write', { data: encodeCommand(cmd, Buffer.from(data)).toString('hex'), timeout, readlength: 64 });
      if (!answer.ok) return { bridge: answer };
      const frame = Buffer.from(answer.data as string, 'hex');
      return { cmd: frame[2], status: frame[3]!, data: frame.subarray(4, frame.length - 2), frame };
    },
  };
}

export interface Type3Message {
  id?: number | string | null;
  cmd?: string;
  ok?: boolean;
  code?: number;
  error?: string;
  msg?: string;
  data?: Record<string, unknown>;
  event?: string;
  [key: string]: unknown;
}

/** A WebSocket client of type 3: `send(cmd, params)` answers the reply with the same id; `events` collects the rest. */
export async function type3Client(url: string) {
  const socket = new WebSocket(url);
  const events: Type3Message[] = [];
  const waiters = new Map<number, (m: Type3Message) => void>();
  const eventWaiters: Array<{ match: (m: Type3Message) => boolean; resolve: (m: Type3Message) => void }> = [];
  socket.on('message', (raw) => {
    const message = JSON.parse(String(raw)) as Type3Message;
    if (typeof message.id === 'number' && waiters.has(message.id)) {
      waiters.get(message.id)!(message);
      waiters.delete(message.id);
      return;
    }
    events.push(message);
    for (const w of [...eventWaiters]) {
      if (w.match(message)) {
        eventWaiters.splice(eventWaiters.indexOf(w), 1);
        w.resolve(message);
      }
    }
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  let id = 0;
  return {
    socket,
    events,
    send(cmd: string, params: Record<string, unknown> = {}): Promise<Type3Message> {
      const mine = ++id;
      return new Promise((resolve) => {
        waiters.set(mine, resolve);
        socket.send(JSON.stringify({ id: mine, cmd, ...params }));
      });
    },
    sendRaw(text: string): Promise<Type3Message> {
      return new Promise((resolve) => {
        eventWaiters.push({ match: (m) => m.ok === false && m.id === null, resolve });
        socket.send(text);
      });
    },
    /** The first event (already received or coming) that matches. */
    event(match: (m: Type3Message) => boolean): Promise<Type3Message> {
      const seen = events.find(match);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve) => eventWaiters.push({ match, resolve }));
    },
    close() {
      socket.close();
    },
  };
}

/** Whether a WebSocket connection to `url` fails (the service is not running). */
export function connectionFails(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new WebSocket(url);
    socket.once('open', () => {
      socket.close();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}
