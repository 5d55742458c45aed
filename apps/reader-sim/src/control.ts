import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ReaderDevice } from './device';
import type { FailureOp, InjectedFailure } from './device-status';
import { HEX_BLOCK, HEX_UID, isBlockNumber } from './mifare';

/**
 * The control API under `/control/...` (its own port): JSON in and out, no authentication, never
 * part of any reader's protocol. Tests and demos use it to act in the world around the reader:
 * place, swap and remove cards, look inside them, unplug the device, stop the reader software,
 * put a finger on the sensor, fill the dispenser, and make the next write fail. Every answer
 * carries `simulated: true`.
 */

export interface ServiceSwitches {
  type1: boolean;
  type2: boolean;
  type3: boolean;
}

export interface ControlContext {
  device: ReaderDevice;
  running: ServiceSwitches;
  /** Applies `running` (drops the connections of a service switched off). */
  applyRunning(): void;
  ports: () => Record<string, number>;
  reset(): void;
}

class ControlError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

type Body = Record<string, unknown>;
const body = (value: unknown): Body => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Body) : {});

function optional<T>(b: Body, key: string, check: (v: unknown) => v is T, what: string): T | undefined {
  const value = b[key];
  if (value === undefined) return undefined;
  if (!check(value)) throw new ControlError(400, `${key}: ${what}`);
  return value;
}

const isBool = (v: unknown): v is boolean => typeof v === 'boolean';
const isString = (v: unknown): v is string => typeof v === 'string';
const isCount = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 100_000;
const isQuality = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 100;
const isUid = (v: unknown): v is string => typeof v === 'string' && HEX_UID.test(v);
const isLatency = (v: unknown): v is number | [number, number] =>
  (typeof v === 'number' && v >= 0) || (Array.isArray(v) && v.length === 2 && v.every((n) => typeof n === 'number' && n >= 0));
const isOp = (v: unknown): v is FailureOp => v === 'request' || v === 'auth' || v === 'read' || v === 'write';
const isEffect = (v: unknown): v is InjectedFailure['effect'] => v === 'fail' || v === 'corrupt';

async function handle(reply: FastifyReply, run: () => unknown) {
  try {
    const result = await run();
    return await reply.send({ simulated: true, ...(result as object) });
  } catch (error) {
    const status = error instanceof ControlError ? error.status : 400;
    return reply.status(status).send({ simulated: true, error: error instanceof Error ? error.message : String(error) });
  }
}

export function registerControlRoutes(app: FastifyInstance, ctx: ControlContext): void {
  const { device } = ctx;
  const overview = () => ({
    ports: ctx.ports(),
    device: { connected: device.connected, deviceId: device.deviceId, serial: device.deviceSerial, latencyMs: device.latencyMs },
    services: { ...ctx.running },
    card: device.cardOnReader,
    wallet: device.knownCards().length,
    dispenser: { ...device.dispenser, cardAtReader: device.cardOnReader !== null },
    finger: { ...device.finger },
    beeps: { ...device.beeps },
    failures: device.failures.map((f) => ({ ...f })),
  });
  const dumpOf = (uid: string) => {
    const dump = device.dump(uid);
    if (!dump) throw new ControlError(404, `no simulated card ${uid}`);
    return { card: dump };
  };

  app.get('/control', (_request, reply) => handle(reply, overview));

  app.put('/control/device', (request, reply) =>
    handle(reply, () => {
      const b = body(request.body);
      const connected = optional(b, 'connected', isBool, 'true or false');
      if (connected !== undefined) device.setConnected(connected);
      return overview();
    }),
  );

  app.put('/control/services', (request, reply) =>
    handle(reply, () => {
      const b = body(request.body);
      const all = optional(b, 'running', isBool, 'true or false (every service)');
      for (const type of ['type1', 'type2', 'type3'] as const) {
        const value = optional(b, type, isBool, 'true or false') ?? all;
        if (value !== undefined) ctx.running[type] = value;
      }
      ctx.applyRunning();
      return overview();
    }),
  );

  app.put('/control/config', (request, reply) =>
    handle(reply, () => {
      const latency = optional(body(request.body), 'latencyMs', isLatency, 'ms, or [min, max]');
      if (latency !== undefined) device.latencyMs = latency;
      return overview();
    }),
  );

  app.post('/control/reset', (_request, reply) =>
    handle(reply, () => {
      ctx.reset();
      return overview();
    }),
  );

  // The card in the reader's field.
  app.get('/control/card', (_request, reply) =>
    handle(reply, () => {
      const uid = device.cardOnReader;
      if (!uid) throw new ControlError(404, 'no card on the reader');
      return dumpOf(uid);
    }),
  );
  app.post('/control/card', (request, reply) =>
    handle(reply, () => {
      const uid = optional(body(request.body), 'uid', isUid, '8 or 14 hex characters (a 4- or 7-byte UID)');
      const card = device.placeCard(uid);
      return dumpOf(card.uid);
    }),
  );
  app.delete('/control/card', (_request, reply) => handle(reply, () => ({ removed: device.takeCardAway() })));

  // Every card the simulator knows.
  app.get('/control/cards', (_request, reply) => handle(reply, () => ({ cards: device.knownCards(), onReader: device.cardOnReader })));
  app.get<{ Params: { uid: string } }>('/control/cards/:uid', (request, reply) => handle(reply, () => dumpOf(request.params.uid)));
  app.delete<{ Params: { uid: string } }>('/control/cards/:uid', (request, reply) =>
    handle(reply, () => {
      if (!device.forgetCard(request.params.uid)) throw new ControlError(404, `no simulated card ${request.params.uid}`);
      return { forgotten: request.params.uid.toUpperCase() };
    }),
  );
  app.put<{ Params: { uid: string; block: string } }>('/control/cards/:uid/blocks/:block', (request, reply) =>
    handle(reply, () => {
      const block = Number(request.params.block);
      if (!isBlockNumber(block) || block === 0) throw new ControlError(400, 'block: 1-63 (block 0 holds the UID)');
      const data = optional(body(request.body), 'data', (v): v is string => isString(v) && HEX_BLOCK.test(v), '32 hex characters');
      if (data === undefined) throw new ControlError(400, 'data: 32 hex characters are required');
      if (!device.setBlockRaw(request.params.uid, block, Buffer.from(data, 'hex'))) throw new ControlError(404, `no simulated card ${request.params.uid}`);
      return dumpOf(request.params.uid);
    }),
  );

  // Failures of the next operations.
  app.get('/control/failures', (_request, reply) => handle(reply, () => ({ failures: device.failures })));
  app.post('/control/failures', (request, reply) =>
    handle(reply, () => {
      const b = body(request.body);
      const op = optional(b, 'op', isOp, 'request, auth, read or write');
      if (!op) throw new ControlError(400, 'op: request, auth, read or write is required');
      const effect = optional(b, 'effect', isEffect, 'fail or corrupt') ?? 'fail';
      if (effect === 'corrupt' && op !== 'write') throw new ControlError(400, 'effect corrupt: only for op write');
      const times = optional(b, 'times', (v): v is number => Number.isInteger(v) && (v as number) >= 1, 'a whole number from 1') ?? 1;
      device.failures.push({ op, effect, times });
      return { failures: device.failures };
    }),
  );
  app.delete('/control/failures', (_request, reply) =>
    handle(reply, () => {
      device.failures = [];
      return { failures: [] };
    }),
  );

  app.put('/control/finger', (request, reply) =>
    handle(reply, () => {
      const b = body(request.body);
      const present = optional(b, 'module', isBool, 'true or false (the device has a fingerprint module)');
      const placed = optional(b, 'placed', isBool, 'true or false (a finger on the sensor)');
      const id = optional(b, 'id', isString, 'text (the same id gives the same template)');
      const quality = optional(b, 'quality', isQuality, '0-100');
      if (present !== undefined) device.finger.present = present;
      if (placed === false) device.finger.placed = null;
      else if (placed === true || id !== undefined || quality !== undefined) {
        device.finger.placed = { id: id ?? device.finger.placed?.id ?? 'finger-1', quality: quality ?? device.finger.placed?.quality ?? 80 };
      }
      device.changed();
      return overview();
    }),
  );

  app.put('/control/dispenser', (request, reply) =>
    handle(reply, () => {
      const b = body(request.body);
      const present = optional(b, 'present', isBool, 'true or false');
      const capacity = optional(b, 'capacity', isCount, 'a whole number');
      const stock = optional(b, 'stock', isCount, 'a whole number');
      const bin = optional(b, 'bin', isCount, 'a whole number');
      const binCapacity = optional(b, 'binCapacity', isCount, 'a whole number');
      const d = device.dispenser;
      if (present !== undefined) d.present = present;
      if (capacity !== undefined) d.capacity = capacity;
      if (binCapacity !== undefined) d.binCapacity = binCapacity;
      if (stock !== undefined) {
        if (stock > d.capacity) throw new ControlError(400, `stock: at most the capacity (${d.capacity})`);
        d.stock = stock;
      }
      if (bin !== undefined) {
        if (bin > d.binCapacity) throw new ControlError(400, `bin: at most binCapacity (${d.binCapacity})`);
        d.bin = bin;
      }
      device.changed();
      return overview();
    }),
  );

  app.get('/control/calls', (_request, reply) => handle(reply, () => ({ calls: device.calls })));
}
