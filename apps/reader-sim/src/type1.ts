import type { FastifyInstance } from 'fastify';
import type { ReaderDevice } from './device';
import { DEVICE, DeviceError, STATUS_TEXT, type DeviceStatus } from './device-status';
import { createHttpApp, delay, paramsOf } from './http';
import { ParamError, block, blockData, integer, key, keyType, text } from './params';

/**
 * Reader type 1: an HTTP service on 127.0.0.1:13570. Every call is `POST /` with `func`,
 * `cbdata` and the function's parameters (form-encoded, JSON, or JSON as text/plain). The answer is
 * always HTTP 200 JSON `{ code, retval, func, msg, cbdata, data: { device_id, snr, ... } }`:
 * `code` 1 means the service ran the function and `retval` is the device's result (0 success);
 * `code` 0 means it could not (unknown function, a missing or malformed parameter), with `msg`.
 * The whole protocol is in docs/readers.md.
 */

/** The device's results (`retval`). */
export const TYPE1_RETVAL = {
  OK: 0,
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
  DEVICE_NOT_FOUND: 22,
} as const;

const RETVAL_OF: Record<DeviceStatus, number> = {
  no_card: TYPE1_RETVAL.NO_CARD,
  auth_failed: TYPE1_RETVAL.AUTH_FAILED,
  not_authenticated: TYPE1_RETVAL.NOT_AUTHENTICATED,
  access_denied: TYPE1_RETVAL.ACCESS_DENIED,
  read_failed: TYPE1_RETVAL.READ_FAILED,
  write_failed: TYPE1_RETVAL.WRITE_FAILED,
  bad_access_bits: TYPE1_RETVAL.BAD_ACCESS_BITS,
  no_finger: TYPE1_RETVAL.NO_FINGER,
  no_finger_module: TYPE1_RETVAL.NO_FINGER_MODULE,
  dispenser_empty: TYPE1_RETVAL.DISPENSER_EMPTY,
  card_at_reader: TYPE1_RETVAL.CARD_AT_READER,
  no_card_at_reader: TYPE1_RETVAL.NO_CARD_AT_READER,
  no_dispenser: TYPE1_RETVAL.NO_DISPENSER,
  bin_full: TYPE1_RETVAL.BIN_FULL,
  device_not_connected: TYPE1_RETVAL.DEVICE_NOT_CONNECTED,
};

type Params = Record<string, unknown>;
type Func = (p: Params) => Record<string, unknown>;

class Refusal extends Error {
  constructor(
    readonly retval: number,
    message: string,
  ) {
    super(message);
  }
}

export function createType1App(device: ReaderDevice, options: { logger?: boolean; isRunning: () => boolean }): FastifyInstance {
  /** The device generation this service opened (null: not open). */
  let opened: number | null = null;

  const info = () => ({
    device_id: device.deviceId,
    snr: device.deviceSerial,
    model: DEVICE.model,
    firmware: DEVICE.firmware,
    vid: DEVICE.vid,
    pid: DEVICE.pid,
    modules: { fingerprint: device.finger.present, dispenser: device.dispenser.present },
  });

  /** The checks before any function that works on an open device. */
  const openDevice = (p: Params) => {
    const deviceId = text(p, 'device_id')!;
    if (!device.connected) throw new DeviceError('device_not_connected');
    if (deviceId.toUpperCase() !== device.deviceId) throw new Refusal(TYPE1_RETVAL.DEVICE_NOT_FOUND, `device not found: ${deviceId}`);
    if (opened !== device.generation) throw new Refusal(TYPE1_RETVAL.DEVICE_NOT_OPEN, 'device not open: call open first');
  };

  const FUNCS: Record<string, Func> = {
    open: () => {
      if (!device.connected) throw new DeviceError('device_not_connected');
      opened = device.generation;
      return info();
    },
    close: () => {
      opened = null;
      return {};
    },
    device_info: () => {
      if (!device.connected) throw new DeviceError('device_not_connected');
      return info();
    },
    beep: (p) => {
      const ms = integer(p, 'ms', false) ?? 100;
      openDevice(p);
      device.beep(ms);
      return {};
    },
    card_request: (p) => {
      openDevice(p);
      const card = device.request();
      return { snr: card.uid, atqa: card.atqa, sak: card.sak, card_type: 'MIFARE Classic 1K' };
    },
    card_halt: (p) => {
      openDevice(p);
      device.halt();
      return {};
    },
    card_auth: (p) => {
      const b = block(p);
      const k = key(p)!;
      const t = keyType(p, 'key_type');
      openDevice(p);
      device.authenticate(b, t, k);
      return { block: b };
    },
    card_read: (p) => {
      const b = block(p);
      const k = key(p, 'key', false);
      const t = keyType(p, 'key_type');
      openDevice(p);
      const data = k ? device.readWithKey(b, t, k) : device.read(b);
      return { block: b, data: data.toString('hex').toUpperCase() };
    },
    card_write: (p) => {
      const b = block(p);
      const d = blockData(p);
      const k = key(p, 'key', false);
      const t = keyType(p, 'key_type');
      openDevice(p);
      if (k) device.writeWithKey(b, t, k, d);
      else device.write(b, d);
      return { block: b };
    },
    finger_capture: (p) => {
      openDevice(p);
      const finger = device.captureFinger();
      return { template: finger.template.toString('base64'), quality: finger.quality, format: 'SIM-FP1' };
    },
    dispenser_status: (p) => {
      openDevice(p);
      const s = device.dispenserStatus();
      return { stock: s.stock, capacity: s.capacity, bin: s.bin, bin_capacity: s.binCapacity, card_at_reader: s.cardAtReader };
    },
    dispenser_dispense: (p) => {
      openDevice(p);
      const result = device.dispense();
      return { snr: result.uid, stock: result.stock };
    },
    dispenser_capture: (p) => {
      openDevice(p);
      const result = device.capture();
      return { snr: result.uid, bin: result.bin };
    },
  };

  const app = createHttpApp(options);
  app.setErrorHandler((error, _request, reply) => {
    // A body the service could not read.
    return reply.status(200).send({
      code: 0,
      retval: -1,
      func: '',
      msg: `unreadable request: ${error instanceof Error ? error.message : String(error)}`,
      cbdata: '',
      data: {},
      simulated: true,
    });
  });
  app.get('/', async () => ({ service: 'reader type 1 (simulated)', simulated: true, usage: 'POST / with func, cbdata and parameters; see docs/readers.md' }));
  app.post('/', async (request) => {
    const p = paramsOf(request);
    const func = typeof p.func === 'string' ? p.func : '';
    const cbdata = p.cbdata === undefined ? '' : p.cbdata;
    await delay(device.latency());
    const answer = (code: 0 | 1, retval: number, msg: string, data: Record<string, unknown>) => {
      device.log('type1', func || '(none)', code === 0 ? `code 0: ${msg}` : retval === 0 ? 'ok' : `retval ${retval}`);
      return { code, retval, func, msg, cbdata, data: code === 1 ? { device_id: device.deviceId, ...data } : data, simulated: true };
    };
    const run = FUNCS[func];
    if (!run) return answer(0, -1, func ? `unknown func: ${func}` : 'func is required', {});
    try {
      return answer(1, TYPE1_RETVAL.OK, 'ok', run(p));
    } catch (error) {
      if (error instanceof ParamError) return answer(0, -1, error.message, {});
      if (error instanceof Refusal) return answer(1, error.retval, error.message, {});
      if (error instanceof DeviceError) return answer(1, RETVAL_OF[error.status], error.message || STATUS_TEXT[error.status], {});
      throw error;
    }
  });
  return app;
}
