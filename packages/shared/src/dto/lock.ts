import { z } from 'zod';
import { ZUnlockRecordPage } from './room';
import { LOCK_DRIFTS, LOCK_ITEM_KINDS } from '../locks';
import { SHARED_DOOR_KINDS } from '../shared-doors';

export const ZHotelLockDto = z.object({
  id: z.number(),
  lockId: z.string(),
  name: z.string(),
  alias: z.string(),
  mac: z.string(),
  account: z.object({ id: z.number(), username: z.string(), state: z.string() }).nullable(),
  /**
   * What the lock takes, as its platform said at the last import: a keypad, and on it chosen codes
   * set online (`onlinePasscodes`) and codes it works out itself, offline (`offlinePasscodes`); a
   * card reader, a face module; an unlock from the console (`remoteUnlock`: a gateway, bridge or hub);
   * a hotel card system's door (`encodedCards`, Seam `acs`), which takes the system's cards, encoded at the desk.
   */
  capabilities: z.object({
    keypad: z.boolean(),
    onlinePasscodes: z.boolean(),
    offlinePasscodes: z.boolean(),
    cardReader: z.boolean(),
    faceModule: z.boolean(),
    remoteUnlock: z.boolean(),
    encodedCards: z.boolean(),
  }),
  building: z.string(),
  floor: z.string(),
  battery: z.number().nullable(),
  online: z.boolean().nullable(),
  gateway: z.string().nullable(),
  gone: z.boolean(),
  room: z.object({ id: z.number(), name: z.string() }).nullable(),
  suggestedRoom: z.object({ id: z.number(), name: z.string() }).nullable(),
  /** The kind of shared door the lock is (docs/shared-doors.md): in use, though no room's; null for a room's lock or an unpaired one. */
  sharedDoor: z.enum(SHARED_DOOR_KINDS).nullable(),
});
export type THotelLockDto = z.infer<typeof ZHotelLockDto>;

export const ZRoomLockDto = z.object({
  lockId: z.string().nullable(),
  lockRowId: z.number().nullable(),
  name: z.string(),
  simulated: z.boolean(),
  online: z.boolean().nullable(),
  battery: z.number().nullable(),
  lowBattery: z.boolean(),
  gateway: z.object({ id: z.string(), name: z.string(), online: z.boolean().nullable() }).nullable(),
  lastSeenAt: z.string().nullable(),
  statusCheckedAt: z.string().nullable(),
  statusError: z.string().nullable(),
  gone: z.boolean(),
  account: z.object({ id: z.number(), username: z.string(), state: z.string() }).nullable(),
  /** The console can open it from afar (a gateway, WiFi, Seam's bridge): otherwise "open" is not offered. */
  remoteUnlock: z.boolean(),
  encodedCards: z
    .boolean()
    .describe("A hotel card system's door (Seam acs: Visionline, Salto, dormakaba): it reports no status of its own, and its cards are encoded at the desk"),
  /** The door as the lock's own sensor last said it in a status read (a Seam lock that reports it), with when it was found open; null: never said. */
  door: z
    .object({ open: z.boolean(), openedAt: z.string().nullable() })
    .nullable()
    .describe("The door as the lock's own sensor last reported it, and when it was found open (openedAt); null when the lock never said"),
});
export type TRoomLockDto = z.infer<typeof ZRoomLockDto>;

export const ZLockContentDto = z.object({
  kind: z.enum(LOCK_ITEM_KINDS),
  ref: z.string().nullable(),
  name: z.string(),
  code: z.string().nullable(),
  endAt: z.string().nullable(),
  credentialId: z.number().nullable(),
  deliveryState: z.string().nullable(),
  drift: z.enum(LOCK_DRIFTS),
});
export type TLockContentDto = z.infer<typeof ZLockContentDto>;

export const ZLockMessageDto = z.object({
  id: z.number(),
  roomId: z.number(),
  roomName: z.string(),
  kind: z.enum([
    'other',
    'low_battery',
    'lock_offline',
    'lock_online',
    'tamper',
    'wrong_codes',
    'blacklisted_card',
    'lock_gone',
    'door_open',
    'door_closed',
    'door_left_open',
  ]),
  content: z.string(),
  createdAt: z.string(),
  read: z.boolean(),
});
export type TLockMessageDto = z.infer<typeof ZLockMessageDto>;

export const ZLockManagerDto = z.object({
  id: z.number(),
  roomId: z.number(),
  accountId: z.number().nullable(),
  name: z.string(),
  mobile: z.string(),
  createdAt: z.string(),
});
export type TLockManagerDto = z.infer<typeof ZLockManagerDto>;

export const ZLockProviderOutput = z.object({ provider: z.string(), simulated: z.boolean() });
export const ZLockListOutput = z.object({
  items: z.array(ZHotelLockDto),
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
  unpaired: z.number(),
  suggestions: z.number(),
});
/** One lock of the hotel (`GET /locks/{lockId}`): as in the list, with its state as last reported. */
export const ZLockGetOutput = ZHotelLockDto.extend({
  lowBattery: z.boolean(),
  lastSeenAt: z.string().nullable(),
  statusCheckedAt: z.string().nullable(),
  statusError: z.string().nullable(),
});
export const ZLockSuggestedPairsOutput = z.object({ pairs: z.array(z.object({ roomId: z.number(), lockId: z.number() })) });
export const ZLockPairableRoomsOutput = z.object({
  items: z.array(
    z.object({ id: z.number(), name: z.string(), groupName: z.string().nullable(), lock: z.object({ id: z.number(), name: z.string() }).nullable() }),
  ),
  total: z.number(),
});
export const ZLockPairOutput = z.object({ paired: z.number() });
export const ZLockStatusOutput = ZRoomLockDto;
export const ZLockUnlockOutput = z.object({ opened: z.literal(true) });
export const ZLockContentsOutput = z.object({ items: z.array(ZLockContentDto), readAt: z.string() });
export const ZLockRemoveUnmanagedOutput = z.object({ removed: z.literal(true) });
export const ZLockMessagesOutput = z.object({ items: z.array(ZLockMessageDto), total: z.number(), unread: z.number(), page: z.number(), pageSize: z.number() });
export const ZLockUnreadMessagesOutput = z.object({ unread: z.number() });
export const ZLockMarkMessagesReadOutput = z.object({ updated: z.number() });
export const ZLockDeleteMessagesOutput = z.object({ deleted: z.number() });
export const ZLockRecordsByPersonOutput = ZUnlockRecordPage;
export const ZLockManagersOutput = z.object({ items: z.array(ZLockManagerDto) });
export const ZLockAddManagerOutput = ZLockManagerDto;
export const ZLockDeleteManagerOutput = z.object({ deleted: z.literal(true) });
