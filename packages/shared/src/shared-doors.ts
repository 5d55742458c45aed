import { z } from 'zod';
import { ZId } from './primitives';

/** Shared doors (issue 20 §5, docs/shared-doors.md): a lock serving rooms and room groups. */

export const SHARED_DOOR_KINDS = ['entrance', 'lift', 'gym', 'parking', 'other'] as const;
export type TSharedDoorKind = (typeof SHARED_DOOR_KINDS)[number];

export const SHARED_DOOR_LIMITS = {
  /** Rooms, and groups, one door serves at most (a hotel's entrance serves them all: by group). */
  servedMax: 2000,
} as const;

/** A lock of the hotel, by its row id. */
export const ZSharedDoorLockInput = z.object({ lockId: ZId });
export type TSharedDoorLockInput = z.input<typeof ZSharedDoorLockInput>;

/**
 * Makes a lock a shared door of a kind (or changes its kind) and sets what it serves: the rooms
 * and room groups listed, exactly (an empty list serves nothing yet).
 */
export const ZSharedDoorSetInput = z.object({
  lockId: ZId,
  kind: z.enum(SHARED_DOOR_KINDS, { error: 'validation.invalid' }),
  roomIds: z.array(ZId, { error: 'validation.invalid' }).max(SHARED_DOOR_LIMITS.servedMax, { error: 'validation.invalid' }).default([]),
  groupIds: z.array(ZId, { error: 'validation.invalid' }).max(SHARED_DOOR_LIMITS.servedMax, { error: 'validation.invalid' }).default([]),
});
export type TSharedDoorSetInput = z.input<typeof ZSharedDoorSetInput>;

/** The shared doors serving a room (its own, and its group's). */
export const ZSharedDoorRoomInput = z.object({ roomId: ZId });
export type TSharedDoorRoomInput = z.input<typeof ZSharedDoorRoomInput>;
