import { z } from 'zod';
import { ZId, zInt, zOptionalText } from './primitives';

/**
 * Inputs of the desk card-reader registry and the card dispensers (issue 8 §3, §5), shared by
 * tRPC and the legacy `cardDispenser/*` actions. Messages are i18n keys.
 */

export const READER_LIMITS = {
  /** What a reader reports as its device id or serial number (the simulator's are 18 and 11). */
  deviceIdMax: 64,
  serialMax: 64,
  nameMax: 50,
  /** Cards a dispenser can hold; far above any real one. */
  stockMax: 100_000,
  /** Registered readers or dispensers listed at most (a hotel has a handful). */
  listMax: 500,
} as const;

/** A device id as a reader reports it: printable characters without spaces. */
export const DEVICE_ID_REGEX = /^[\x21-\x7E]+$/;

export const ZDeviceId = z
  .string({ error: 'validation.deviceIdRequired' })
  .trim()
  .min(1, { error: 'validation.deviceIdRequired' })
  .max(READER_LIMITS.deviceIdMax, { error: 'validation.deviceIdInvalid' })
  .regex(DEVICE_ID_REGEX, { error: 'validation.deviceIdInvalid' });

export const ZSerial = z
  .string({ error: 'validation.serialInvalid' })
  .trim()
  .max(READER_LIMITS.serialMax, { error: 'validation.serialInvalid' })
  .regex(/^[\x21-\x7E]*$/, { error: 'validation.serialInvalid' })
  .default('');

/** Reader type of spec §9 (`cardSenderType`): 1, 2 or 3. */
export const ZReaderType = zInt({ min: 1, max: 3 }, 'validation.kindInvalid').transform((v) => v as 1 | 2 | 3);

export const ZReaderName = zOptionalText(READER_LIMITS.nameMax);

export const ZRegisterReaderInput = z.object({ deviceId: ZDeviceId, serial: ZSerial, readerType: ZReaderType, name: ZReaderName.optional() });
export const ZReaderIdInput = z.object({ id: ZId });
export const ZRenameReaderInput = z.object({ id: ZId, name: ZReaderName });
export const ZBindReaderInput = z.object({ id: ZId, accountId: ZId });

export const DISPENSER_STATUSES = ['online', 'offline', 'empty', 'fault'] as const;
export type TDispenserStatus = (typeof DISPENSER_STATUSES)[number];

const ZCount = zInt({ min: 0, max: READER_LIMITS.stockMax }, 'validation.cardCountInvalid');

export const ZAddDispenserInput = z.object({ deviceId: ZDeviceId, name: ZReaderName });
export const ZDispenserIdInput = z.object({ id: ZId });
export const ZRenameDispenserInput = z.object({ id: ZId, name: ZReaderName });
/**
 * A status check of a dispenser, as the browser read it from the reader service that drives it:
 * `online` with the stock (and capacity); `offline` when the service or the dispenser did not
 * answer; `fault` when it answered with a failure. `online` with no card left is kept as `empty`.
 */
export const ZDispenserStatusInput = z
  .object({
    id: ZId,
    status: z.enum(DISPENSER_STATUSES, { error: 'validation.stateInvalid' }),
    stock: ZCount.optional(),
    capacity: ZCount.optional(),
  })
  .refine((v) => v.status !== 'online' || v.stock !== undefined, { error: 'validation.cardCountInvalid', path: ['stock'], when: (p) => p.issues.length === 0 });
