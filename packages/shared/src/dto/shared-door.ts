import { z } from 'zod';
import { SHARED_DOOR_KINDS } from '../shared-doors';
import { DELIVERY_STATES } from '../credentials';

/** The shared door a credential copy is on (a password's or face's `door`). */
export const ZCredentialDoor = z.object({ lockId: z.number(), name: z.string(), kind: z.enum(SHARED_DOOR_KINDS).nullable() });
export type TCredentialDoor = z.infer<typeof ZCredentialDoor>;

/** A shared door: its lock, kind, and the rooms and groups it serves. */
export const ZSharedDoorDto = z.object({
  lockId: z.number(),
  name: z.string(),
  kind: z.enum(SHARED_DOOR_KINDS),
  online: z.boolean().nullable(),
  battery: z.number().nullable(),
  gone: z.boolean(),
  rooms: z.array(z.object({ id: z.number(), name: z.string() })),
  groups: z.array(z.object({ id: z.number(), name: z.string() })),
  /** Live copies of stay credentials on it, by delivery state (the board's strip). */
  credentials: z.object({ onLock: z.number(), pending: z.number(), failed: z.number() }),
});
export type TSharedDoorDto = z.infer<typeof ZSharedDoorDto>;

/** A stay's credential on a shared door, with where it stands with the door (a card: its number card; copyOfId its room grant). */
export const ZStayDoorCredential = z.object({
  kind: z.enum(['password', 'face', 'card']),
  id: z.number(),
  copyOfId: z.number(),
  deliveryState: z.enum(DELIVERY_STATES),
  lastError: z.string().nullable(),
  validUntil: z.string().nullable(),
});

/** The shared doors a stay opens (its room is served by them) and its credentials on each. */
export const ZStayDoorsDto = z.object({
  stayId: z.number(),
  doors: z.array(z.object({ lockId: z.number(), name: z.string(), kind: z.enum(SHARED_DOOR_KINDS), credentials: z.array(ZStayDoorCredential) })),
});
export type TStayDoorsDto = z.infer<typeof ZStayDoorsDto>;

export const ZSharedDoorListOutput = z.object({ items: z.array(ZSharedDoorDto) });
export const ZSharedDoorGetOutput = ZSharedDoorDto;
export const ZSharedDoorSetOutput = ZSharedDoorDto;
export const ZSharedDoorUnsetOutput = z.object({ lockId: z.number(), revoked: z.number() });
export const ZSharedDoorOfStayOutput = ZStayDoorsDto;
