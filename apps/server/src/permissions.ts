import type { TPermission } from '@console/shared';
import type { Actor } from './context';
import { AppError } from './errors';

/** The one permission check every service calls; FORBIDDEN when the actor's role lacks it. */
export function requirePermission(actor: Actor, permission: TPermission): void {
  if (!actor.permissions.has(permission)) throw new AppError('FORBIDDEN');
}
