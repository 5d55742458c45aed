/**
 * Roles of a membership (an account in a hotel) and what each may do. Services check a
 * permission, never a role, so a later issue can grant permissions per membership.
 */
export const ROLES = ['owner', 'admin', 'staff', 'housekeeping', 'housekeeping_supervisor'] as const;
export type TRole = (typeof ROLES)[number];

export const PERMISSIONS = [
  'customer.read',
  'customer.manage',
  'hotel.manage',
  'staff.manage',
  'room.read',
  'room.manage',
  'stay.manage',
  'price.manage',
  'credential.manage',
  /** The hotel's lock accounts: connect, import locks, pair them with rooms, call budgets. */
  'lock.accounts',
  'order.manage',
  'apikey.manage',
  'audit.read',
  /** Housekeeping (docs/housekeeping.md): an attendant's own rooms of the day, started, done, reported. */
  'housekeeping.work',
  /** The supervisor's: make the day's tasks, assign them, inspect, shifts, rooms out of order by dates. */
  'housekeeping.manage',
] as const;
export type TPermission = (typeof PERMISSIONS)[number];

export const ROLE_PERMISSIONS: Record<TRole, readonly TPermission[]> = {
  owner: PERMISSIONS,
  // Admins manage staff too, but never owners (modules/staff/staff.service.ts); API keys are the owners'.
  admin: PERMISSIONS.filter((p) => p !== 'apikey.manage'),
  staff: ['customer.read', 'room.read', 'stay.manage', 'credential.manage'],
  // Decision 047: the attendant sees their own rooms of the day and nothing else; the supervisor the
  // day's rooms and tasks of the whole hotel (read-only room board), never stays, money or doors.
  housekeeping: ['housekeeping.work'],
  housekeeping_supervisor: ['room.read', 'housekeeping.work', 'housekeeping.manage'],
};
