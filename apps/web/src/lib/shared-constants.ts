import type * as shared from '@console/shared';

/**
 * Copies of the few constants of packages/shared that the first download needs (the URL search
 * schemas of the routes, which the router holds from the start). In packages/shared they live in
 * modules that also build zod schemas when loaded (validation.ts, primitives.ts, rooms.ts, stays.ts),
 * and a module is bundled whole: importing one of these from there would put zod (about 25 kB
 * gzipped) into every page's first download.
 *
 * They cannot drift: each is checked against packages/shared by the compiler (`satisfies typeof`
 * the shared tuple: the same values in the same order), and by shared-constants.test.ts.
 */

export const CUSTOMER_STATES = ['all', 'active', 'frozen'] as const satisfies typeof shared.CUSTOMER_STATES;
export const CUSTOMER_SORTS = ['newest', 'oldest'] as const satisfies typeof shared.CUSTOMER_SORTS;

export const ROOM_STATUSES = ['vacant', 'reserved', 'checked_in', 'dirty', 'maintain'] as const satisfies typeof shared.ROOM_STATUSES;
export const ROOM_SORTS = ['default', 'name_asc', 'name_desc', 'order', 'order_desc'] as const satisfies typeof shared.ROOM_SORTS;
export const ROOM_PAGE_SIZE_DEFAULT = 50 satisfies typeof shared.ROOM_PAGE_SIZE_DEFAULT;

export const STAY_FILTERS = [
  'all',
  'current',
  'reserved',
  'in_house',
  'expired',
  'moved',
  'checked_out',
  'ended',
  'no_show',
] as const satisfies typeof shared.STAY_FILTERS;

/** A calendar date `YYYY-MM-DD` (shape only). */
export const LOCAL_DATE_REGEX = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Lock-cloud refusals after which a credential's work waits (LOCK_ERROR_KIND `account` or `limit`):
 * for its lock account to be connected again, or for the lock cloud's call limit to lift. The
 * credential is then shown as waiting, not as failed.
 */
export const WAITING_LOCK_ERRORS = [
  'rate_limited',
  'monthly_limit',
  'auth_failed',
  'wrong_region',
  'app_refused',
  'account_disconnected',
] as const satisfies readonly shared.TLockErrorCode[];
