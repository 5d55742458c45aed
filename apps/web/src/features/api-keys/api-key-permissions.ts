import { API_KEY_PERMISSIONS, type TPermission } from '@console/shared';

export type Access = 'read' | 'manage';

/** One area of the console a key may reach, with its read and/or manage permission. */
export interface PermissionArea {
  area: string;
  read?: TPermission;
  manage?: TPermission;
}

/** The order areas are shown in: the front desk's first. */
const AREA_ORDER = ['room', 'stay', 'customer', 'credential', 'price', 'order', 'hotel', 'audit'];

/** What a key may be given (packages/shared's API_KEY_PERMISSIONS), grouped by area: `room.read` and `room.manage` are one row. */
export function permissionAreas(permissions: readonly TPermission[] = API_KEY_PERMISSIONS): PermissionArea[] {
  const areas = new Map<string, PermissionArea>();
  for (const permission of permissions) {
    const [area, access] = permission.split('.') as [string, string];
    const entry = areas.get(area) ?? { area };
    // Anything but reading (`manage`) is managing.
    if (access === 'read') entry.read = permission;
    else entry.manage = permission;
    areas.set(area, entry);
  }
  const rank = (area: string) => (AREA_ORDER.includes(area) ? AREA_ORDER.indexOf(area) : AREA_ORDER.length);
  return [...areas.values()].sort((a, b) => rank(a.area) - rank(b.area) || a.area.localeCompare(b.area));
}

/**
 * The permissions chosen after a box is ticked or cleared: managing an area implies reading it
 * (ticking manage ticks read; clearing read clears manage), where the area has both.
 */
export function togglePermission(selected: readonly TPermission[], permission: TPermission, checked: boolean): TPermission[] {
  const area = permissionAreas().find((a) => a.read === permission || a.manage === permission);
  const next = new Set(selected);
  if (checked) {
    next.add(permission);
    if (area?.manage === permission && area.read) next.add(area.read);
  } else {
    next.delete(permission);
    if (area?.read === permission && area.manage) next.delete(area.manage);
  }
  // In the order of API_KEY_PERMISSIONS, whatever the order of clicks.
  return API_KEY_PERMISSIONS.filter((p) => next.has(p));
}

/** What a key may do, per area: manage when it may manage (reading goes with it), read otherwise. */
export function accessByArea(permissions: readonly string[]): { area: string; access: Access }[] {
  return permissionAreas().flatMap(({ area, read, manage }): { area: string; access: Access }[] => {
    if (manage && permissions.includes(manage)) return [{ area, access: 'manage' }];
    if (read && permissions.includes(read)) return [{ area, access: 'read' }];
    return [];
  });
}
