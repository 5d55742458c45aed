import type { TPermission } from '@console/shared';
import type { Actor } from './context';
import { AppError } from './errors';

/** What only a signed-in member may do for their own account (password, sign-out, profile): never an API key. */
export function requireSession(actor: Actor): void {
  if (actor.apiKeyId !== undefined) throw new AppError('FORBIDDEN');
}

/**
 * The one permission check every service calls; FORBIDDEN when the actor's role lacks it, or
 * (`wholeHotel`) when the actor is limited to some rooms: what names or changes every room of the
 * hotel (its staff, its rooms' creation, its audit log) is for members of all rooms only.
 */
export function requirePermission(actor: Actor, permission: TPermission, options: { wholeHotel?: boolean } = {}): void {
  if (!actor.permissions.has(permission)) throw new AppError('FORBIDDEN');
  if (options.wholeHotel && !actor.allRooms) throw new AppError('FORBIDDEN');
}
