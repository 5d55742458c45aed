import http from 'node:http';
import { WebSocketServer, type WebSocket } from 'ws';
import type { ReaderDevice } from './device';
import { DEVICE, DeviceError, type DeviceEvent, type DeviceStatus } from './device-status';
import { delay } from './http';
import { ParamError, block, blockData, integer, key, keyType } from './params';

/**
 * Reader type 3: a WebSocket service on 127.0.0.1:39002. The client sends JSON commands
 * `{ id, cmd, ...parameters }`; the service answers each with `{ id, cmd, ok: true, data }` or
 * `{ id, cmd, ok: false, code, error, msg }`, one command at a time per connection, and pushes
 * events (`hello` on connecting, `card` when a card comes or goes, `device` when the device is
 * plugged in or out). The whole protocol is in docs/readers.md.
 */

export const TYPE3_CODE = {
  NO_CARD: 1,
  AUTH_FAILED: 2,
  NOT_AUTHENTICATED: 3,
  ACCESS_DENIED: 4,
  READ_FAILED: 5,
  WRITE_FAILED: 6,
  BAD_ACCESS_BITS: 7,
  NO_FINGER: 8,
  NO_FINGER_MODULE: 9,
  DISPENSER_EMPTY: 10,
  CARD_AT_READER: 11,
  NO_CARD_AT_READER: 12,
  NO_DISPENSER: 13,
  BIN_FULL: 14,
  DEVICE_NOT_CONNECTED: 20,
  DEVICE_NOT_OPEN: 21,
  BAD_REQUEST: 100,
} as const;

type CodeName = keyof typeof TYPE3_CODE;

const CODE_OF: Record<DeviceStatus, CodeName> = {
  no_card: 'NO_CARD',
  auth_failed: 'AUTH_FAILED',
  not_authenticated: 'NOT_AUTHENTICATED',
  access_denied: 'ACCESS_DENIED',
  read_failed: 'READ_FAILED',
  write_failed: 'WRITE_FAILED',
  bad_access_bits: 'BAD_ACCESS_BITS',
  no_finger: 'NO_FINGER',
  no_finger_module: 'NO_FINGER_MODULE',
  dispenser_empty: 'DISPENSER_EMPTY',
  card_at_reader: 'CARD_AT_READER',
  no_card_at_reader: 'NO_CARD_AT_READER',
  no_dispenser: 'NO_DISPENSER',
  bin_full: 'BIN_FULL',
  device_not_connected: 'DEVICE_NOT_CONNECTED',
};

class Refusal extends Error {
  constructor(
    readonly code: CodeName,
    message: string,
  ) {
    super(message);
  }
}

type Params = Record<string, unknown>;

export interface Type3Service {
  server: http.Server;
  /** Closes every client connection (the service "stopped"). */
  dropClients(): void;
  close(): Promise<void>;
}

export function createType3Service(device: ReaderDevice, options: { isRunning: () => boolean }): Type3Service {
  const server = http.createServer((request, response) => {
    const origin = request.headers.origin;
    const headers: Record<string, string> = { 'content-type': 'application/json', 'access-control-allow-origin': origin ?? '*', 'x-simulated': 'true' };
    if (request.method === 'OPTIONS') {
      headers['access-control-allow-methods'] = 'GET, OPTIONS';
      headers['access-control-allow-headers'] = request.headers['access-control-request-headers'] ?? 'content-type';
      if (request.headers['access-control-request-private-network'] === 'true') headers['access-control-allow-private-network'] = 'true';
      response.writeHead(204, headers).end();
      return;
    }
    response
      .writeHead(426, { ...headers, upgrade: 'websocket' })
      .end(JSON.stringify({ service: 'reader type 3 WebSocket service (simulated)', simulated: true, usage: 'connect a WebSocket; see docs/readers.md' }));
  });
  server.on('connection', (socket) => {
    if (!options.isRunning()) socket.destroy();
  });
  const wss = new WebSocketServer({ server });
  // ws re-emits the HTTP server's errors (a taken port: EADDRINUSE) on the WebSocketServer, where
  // nothing listened: an unhandled 'error' event ended the process before startReaderSim could
  // take a free port. The server's own listener (listenHttp) handles them.
  wss.on('error', () => {});

  const info = () => ({
    deviceId: device.deviceId,
    serial: device.deviceSerial,
    model: DEVICE.model,
    firmware: DEVICE.firmware,
    vid: DEVICE.vid,
    pid: DEVICE.pid,
    modules: { fingerprint: device.finger.present, dispenser: device.dispenser.present },
    simulated: true,
  });

  wss.on('connection', (socket: WebSocket) => {
    let opened: number | null = null;
    let queue: Promise<void> = Promise.resolve();
    const send = (message: unknown) => {
      if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
    };
    const onEvent = (event: DeviceEvent) =>
      send(event.type === 'card' ? { event: 'card', present: event.present, uid: event.uid } : { event: 'device', connected: event.connected });
    const unsubscribe = device.on(onEvent);
    socket.on('close', unsubscribe);

    const requireOpen = () => {
      if (!device.connected) throw new DeviceError('device_not_connected');
      if (opened !== device.generation) throw new Refusal('DEVICE_NOT_OPEN', 'device not open: send device.open first');
    };

    const COMMANDS: Record<string, (p: Params) => unknown> = {
      'device.open': () => {
        if (!device.connected) throw new DeviceError('device_not_connected');
        opened = device.generation;
        return info();
      },
      'device.close': () => {
        opened = null;
        return {};
      },
      'device.info': () => {
        if (!device.connected) throw new DeviceError('device_not_connected');
        return info();
      },
      'device.beep': (p) => {
        const ms = integer(p, 'ms', false) ?? 100;
        requireOpen();
        device.beep(ms);
        return {};
      },
      'card.request': () => {
        requireOpen();
        const card = device.request();
        return { uid: card.uid, atqa: card.atqa, sak: card.sak, type: 'MIFARE Classic 1K' };
      },
      'card.halt': () => {
        requireOpen();
        device.halt();
        return {};
      },
      'card.auth': (p) => {
        const b = block(p);
        const k = key(p)!;
        const t = keyType(p, 'keyType');
        requireOpen();
        device.authenticate(b, t, k);
        return { block: b };
      },
      'card.read': (p) => {
        const b = block(p);
        const k = key(p, 'key', false);
        const t = keyType(p, 'keyType');
        requireOpen();
        const data = k ? device.readWithKey(b, t, k) : device.read(b);
        return { block: b, data: data.toString('hex').toUpperCase() };
      },
      'card.write': (p) => {
        const b = block(p);
        const d = blockData(p);
        const k = key(p, 'key', false);
        const t = keyType(p, 'keyType');
        requireOpen();
        if (k) device.writeWithKey(b, t, k, d);
        else device.write(b, d);
        return { block: b };
      },
      'finger.capture': () => {
        requireOpen();
        const finger = device.captureFinger();
        return { template: finger.template.toString('base64'), quality: finger.quality, format: 'SIM-FP1' };
      },
      'dispenser.status': () => {
        requireOpen();
        return device.dispenserStatus();
      },
      'dispenser.dispense': () => {
        requireOpen();
        return device.dispense();
      },
      'dispenser.capture': () => {
        requireOpen();
        return device.capture();
      },
    };

    const handle = async (raw: string) => {
      let message: Params;
      try {
        const parsed: unknown = JSON.parse(raw);
        if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
        message = parsed as Params;
      } catch {
        send({ id: null, cmd: null, ok: false, code: TYPE3_CODE.BAD_REQUEST, error: 'BAD_REQUEST', msg: 'a message must be a JSON object { id, cmd, ... }' });
        return;
      }
      const id = typeof message.id === 'string' || typeof message.id === 'number' ? message.id : null;
      const cmd = typeof message.cmd === 'string' ? message.cmd : null;
      const refuse = (code: CodeName, msg: string) => {
        device.log('type3', cmd ?? '(none)', code);
        send({ id, cmd, ok: false, code: TYPE3_CODE[code], error: code, msg });
      };
      await delay(device.latency());
      const run = cmd ? COMMANDS[cmd] : undefined;
      if (!run) return refuse('BAD_REQUEST', cmd ? `unknown cmd: ${cmd}` : 'cmd is required');
      try {
        const data = run(message);
        device.log('type3', cmd!, 'ok');
        send({ id, cmd, ok: true, data });
      } catch (error) {
        if (error instanceof ParamError) return refuse('BAD_REQUEST', error.message);
        if (error instanceof Refusal) return refuse(error.code, error.message);
        if (error instanceof DeviceError) return refuse(CODE_OF[error.status], error.message);
        refuse('BAD_REQUEST', error instanceof Error ? error.message : String(error));
      }
    };

    socket.on('message', (data) => {
      const raw = Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data as ArrayBuffer).toString('utf8');
      queue = queue.then(() => handle(raw));
    });
    send({
      event: 'hello',
      service: 'reader type 3 (simulated)',
      version: 1,
      simulated: true,
      device: { connected: device.connected, deviceId: device.deviceId },
    });
  });

  return {
    server,
    dropClients() {
      for (const client of wss.clients) client.terminate();
    },
    close() {
      for (const client of wss.clients) client.terminate();
      return new Promise<void>((resolve) => {
        wss.close(() => {
          server.closeAllConnections();
          server.close(() => resolve());
        });
      });
    },
  };
}
