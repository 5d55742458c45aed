/**
 * Roles of a membership (an account in a hotel) and what each may do. Services check a
 * permission, never a role, so a later issue can grant permissions per membership.
 */
export const ROLES = ['owner', 'admin', 'staff'] as const;
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
] as const;
export type TPermission = (typeof PERMISSIONS)[number];

export const ROLE_PERMISSIONS: Record<TRole, readonly TPermission[]> = {
  owner: PERMISSIONS,
  // Admins manage staff too, but never owners (modules/staff/staff.service.ts); API keys are the owners'.
  admin: PERMISSIONS.filter((p) => p !== 'apikey.manage'),
  staff: ['customer.read', 'room.read', 'stay.manage', 'credential.manage'],
};
