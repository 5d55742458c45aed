import type { FastifyInstance } from 'fastify';
import type { ReaderDevice } from './device';
import { DEVICE, DeviceError, type DeviceStatus } from './device-status';
import { KEY_A, KEY_B, TYPE2_CMD, TYPE2_STATUS, decodeCommand, encodeAnswer } from './frame';
import { createHttpApp, delay, paramsOf } from './http';
import { BLOCK_BYTES, isBlockNumber } from './mifare';
import { ParamError, integer, text } from './params';

/**
 * Reader type 2: a USB bridge on 127.0.0.1:8765. `/open` (vid, pid) opens the encoder, `/write`
 * (data, timeout, readlength) sends it one command frame (frame.ts, as hex) and returns the
 * device's answer frame. Both take GET query parameters or a POST body. Answers are HTTP 200 JSON:
 * `{ ok: true, data }` or `{ ok: false, errno, error }` for the bridge's own failures. The whole
 * protocol is in docs/readers.md.
 */

export const TYPE2_ERRNO = {
  BAD_PARAMETER: 1,
  DEVICE_NOT_FOUND: 2,
  NOT_OPEN: 3,
  TIMEOUT: 4,
  DEVICE_GONE: 5,
} as const;

const STATUS_OF: Record<DeviceStatus, number> = {
  no_card: TYPE2_STATUS.NO_CARD,
  auth_failed: TYPE2_STATUS.AUTH_FAILED,
  not_authenticated: TYPE2_STATUS.NOT_AUTHENTICATED,
  access_denied: TYPE2_STATUS.ACCESS_DENIED,
  read_failed: TYPE2_STATUS.READ_FAILED,
  write_failed: TYPE2_STATUS.WRITE_FAILED,
  bad_access_bits: TYPE2_STATUS.BAD_ACCESS_BITS,
  no_finger: TYPE2_STATUS.NO_FINGER,
  no_finger_module: TYPE2_STATUS.NO_FINGER_MODULE,
  dispenser_empty: TYPE2_STATUS.DISPENSER_EMPTY,
  card_at_reader: TYPE2_STATUS.CARD_AT_READER,
  no_card_at_reader: TYPE2_STATUS.NO_CARD_AT_READER,
  no_dispenser: TYPE2_STATUS.NO_DISPENSER,
  bin_full: TYPE2_STATUS.BIN_FULL,
  // Never answered in a frame: the bridge reports the device gone instead.
  device_not_connected: TYPE2_STATUS.BAD_PARAMETER,
};

class BadParameter extends Error {}

const u16 = (n: number) => [(n >> 8) & 0xff, n & 0xff];

type Command = (data: Buffer) => Uint8Array | void;

export function createType2App(device: ReaderDevice, options: { logger?: boolean; isRunning: () => boolean }): FastifyInstance {
  /** The device generation the bridge opened (null: not open). */
  let opened: number | null = null;

  const need = (data: Buffer, length: number) => {
    if (data.length !== length) throw new BadParameter(`expected ${length} data bytes, got ${data.length}`);
  };
  const blockOf = (n: number) => {
    if (!isBlockNumber(n)) throw new BadParameter(`block ${n} is not 0-63`);
    return n;
  };

  const COMMANDS: Record<number, Command> = {
    [TYPE2_CMD.INFO]: (data) => {
      need(data, 0);
      return Buffer.from(device.deviceSerial, 'ascii');
    },
    [TYPE2_CMD.BEEP]: (data) => {
      need(data, 1);
      device.beep(data[0]! * 10);
    },
    [TYPE2_CMD.REQUEST]: (data) => {
      need(data, 0);
      const card = device.request();
      const uid = Buffer.from(card.uid, 'hex');
      return Buffer.concat([Buffer.from([uid.length]), uid, Buffer.from(card.atqa, 'hex'), Buffer.from(card.sak, 'hex')]);
    },
    [TYPE2_CMD.AUTH]: (data) => {
      need(data, 8);
      const type = data[0] === KEY_A ? 'A' : data[0] === KEY_B ? 'B' : null;
      if (!type) throw new BadParameter('key type must be 60 (key A) or 61 (key B)');
      device.authenticate(blockOf(data[1]!), type, data.subarray(2, 8));
    },
    [TYPE2_CMD.READ]: (data) => {
      need(data, 1);
      return device.read(blockOf(data[0]!));
    },
    [TYPE2_CMD.WRITE]: (data) => {
      need(data, 1 + BLOCK_BYTES);
      device.write(blockOf(data[0]!), data.subarray(1));
    },
    [TYPE2_CMD.HALT]: (data) => {
      need(data, 0);
      device.halt();
    },
    [TYPE2_CMD.FINGER_CAPTURE]: (data) => {
      need(data, 0);
      const finger = device.captureFinger();
      return Buffer.concat([Buffer.from([finger.quality]), finger.template]);
    },
    [TYPE2_CMD.DISPENSER_STATUS]: (data) => {
      need(data, 0);
      const s = device.dispenserStatus();
      return Buffer.from([...u16(s.stock), ...u16(s.capacity), ...u16(s.bin), ...u16(s.binCapacity), s.cardAtReader ? 1 : 0]);
    },
    [TYPE2_CMD.DISPENSE]: (data) => {
      need(data, 0);
      const uid = Buffer.from(device.dispense().uid, 'hex');
      return Buffer.concat([Buffer.from([uid.length]), uid]);
    },
    [TYPE2_CMD.CAPTURE]: (data) => {
      need(data, 0);
      device.capture();
    },
  };

  const CMD_NAME = Object.fromEntries(Object.entries(TYPE2_CMD).map(([name, code]) => [code, name]));

  /** The device's answer frame to one command frame. */
  const execute = (frame: Buffer): { answer: Buffer; op: string; status: number } => {
    const decoded = decodeCommand(frame);
    if ('error' in decoded) return { answer: encodeAnswer(frame[2] ?? 0, TYPE2_STATUS.BAD_FRAME), op: 'bad frame', status: TYPE2_STATUS.BAD_FRAME };
    const op = CMD_NAME[decoded.cmd] ?? `0x${decoded.cmd.toString(16)}`;
    const run = COMMANDS[decoded.cmd];
    if (!run) return { answer: encodeAnswer(decoded.cmd, TYPE2_STATUS.UNKNOWN_COMMAND), op, status: TYPE2_STATUS.UNKNOWN_COMMAND };
    try {
      const out = run(decoded.data) ?? new Uint8Array();
      return { answer: encodeAnswer(decoded.cmd, TYPE2_STATUS.OK, out), op, status: TYPE2_STATUS.OK };
    } catch (error) {
      const status = error instanceof DeviceError ? STATUS_OF[error.status] : error instanceof BadParameter ? TYPE2_STATUS.BAD_PARAMETER : null;
      if (status === null) throw error;
      return { answer: encodeAnswer(decoded.cmd, status), op, status };
    }
  };

  const fail = (errno: number, error: string) => ({ ok: false, errno, error, simulated: true });

  const app = createHttpApp(options);
  app.setErrorHandler((error, _request, reply) =>
    reply.status(200).send(fail(TYPE2_ERRNO.BAD_PARAMETER, `unreadable request: ${error instanceof Error ? error.message : String(error)}`)),
  );
  app.get('/', async () => ({
    service: 'reader type 2 USB bridge (simulated)',
    simulated: true,
    usage: '/open?vid=1047&pid=32800, then /write?data=<hex frame>&timeout=<ms>&readlength=<bytes>; see docs/readers.md',
  }));

  const open = async (p: Record<string, unknown>) => {
    const vid = integer(p, 'vid')!;
    const pid = integer(p, 'pid')!;
    await delay(device.latency());
    if (!device.connected || vid !== DEVICE.vid || pid !== DEVICE.pid) {
      device.log('type2', 'open', 'device not found');
      return fail(TYPE2_ERRNO.DEVICE_NOT_FOUND, `device not found (vid ${vid}, pid ${pid})`);
    }
    opened = device.generation;
    device.log('type2', 'open', 'ok');
    return {
      ok: true,
      data: {
        device_id: device.deviceId,
        serial: device.deviceSerial,
        vid: DEVICE.vid,
        pid: DEVICE.pid,
        product: DEVICE.model,
        manufacturer: DEVICE.manufacturer,
        simulated: true,
      },
      simulated: true,
    };
  };

  const write = async (p: Record<string, unknown>) => {
    const hex = text(p, 'data')!.replace(/\s+/g, '');
    if (!/^([0-9A-Fa-f]{2})+$/.test(hex)) throw new ParamError('data must be bytes in hex');
    const timeout = integer(p, 'timeout', false) ?? 1000;
    const readLength = integer(p, 'readlength', false) ?? 64;
    if (timeout < 1 || timeout > 60_000) throw new ParamError('timeout must be 1-60000 ms');
    if (readLength < 1 || readLength > 1024) throw new ParamError('readlength must be 1-1024 bytes');
    if (opened === null) return fail(TYPE2_ERRNO.NOT_OPEN, 'device not open: call /open first');
    if (!device.connected || opened !== device.generation) {
      device.log('type2', 'write', 'device gone');
      return fail(TYPE2_ERRNO.DEVICE_GONE, 'device disconnected: plug it in and call /open again');
    }
    const latency = device.latency();
    await delay(Math.min(latency, timeout));
    const { answer, op, status } = execute(Buffer.from(hex, 'hex'));
    if (latency > timeout) {
      device.log('type2', op, 'timeout');
      return fail(TYPE2_ERRNO.TIMEOUT, `no answer from the device within ${timeout} ms`);
    }
    device.log('type2', op, status === TYPE2_STATUS.OK ? 'ok' : `status 0x${status.toString(16).padStart(2, '0')}`);
    const read = answer.subarray(0, readLength);
    return { ok: true, data: read.toString('hex').toUpperCase(), length: read.length, simulated: true };
  };

  const guarded = (run: (p: Record<string, unknown>) => Promise<unknown>) => async (request: Parameters<typeof paramsOf>[0]) => {
    try {
      return await run(paramsOf(request));
    } catch (error) {
      if (error instanceof ParamError) return fail(TYPE2_ERRNO.BAD_PARAMETER, error.message);
      throw error;
    }
  };
  const close = async () => {
    opened = null;
    return { ok: true, simulated: true };
  };
  for (const method of ['GET', 'POST'] as const) {
    app.route({ method, url: '/open', handler: guarded(open) });
    app.route({ method, url: '/write', handler: guarded(write) });
    app.route({ method, url: '/close', handler: close });
  }
  return app;
}
