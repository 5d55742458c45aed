import { API_KEY_PERMISSIONS } from '@console/shared';
import { describe, expect, it } from 'vitest';
import { accessByArea, permissionAreas, togglePermission } from './api-key-permissions';

describe('API key permissions', () => {
  it('groups every permission a key may have by area, each once, never staff or key management', () => {
    const areas = permissionAreas();
    const listed = areas.flatMap((a) => [a.read, a.manage].filter(Boolean));
    expect([...listed].sort()).toEqual([...API_KEY_PERMISSIONS].sort());
    expect(areas.find((a) => a.area === 'room')).toEqual({ area: 'room', read: 'room.read', manage: 'room.manage' });
    expect(areas.find((a) => a.area === 'customer')).toEqual({ area: 'customer', read: 'customer.read', manage: 'customer.manage' });
    expect(areas.find((a) => a.area === 'audit')).toEqual({ area: 'audit', read: 'audit.read' });
    expect(areas.find((a) => a.area === 'stay')).toEqual({ area: 'stay', manage: 'stay.manage' });
    expect(areas.map((a) => a.area)).not.toContain('staff');
    expect(areas.map((a) => a.area)).not.toContain('apikey');
    expect(areas[0]!.area).toBe('room');
  });

  it('managing implies reading where the pair exists', () => {
    expect(togglePermission([], 'room.manage', true)).toEqual(['room.read', 'room.manage']);
    expect(togglePermission(['room.read', 'room.manage', 'customer.read'], 'room.read', false)).toEqual(['customer.read']);
    expect(togglePermission(['room.read', 'room.manage'], 'room.manage', false)).toEqual(['room.read']);
    expect(togglePermission([], 'customer.manage', true)).toEqual(['customer.read', 'customer.manage']);
    // No pair: alone.
    expect(togglePermission([], 'stay.manage', true)).toEqual(['stay.manage']);
    expect(togglePermission(['stay.manage', 'audit.read'], 'audit.read', false)).toEqual(['stay.manage']);
  });

  it('tells what a key may do per area', () => {
    expect(accessByArea(['room.read'])).toEqual([{ area: 'room', access: 'read' }]);
    expect(accessByArea(['customer.manage', 'customer.read', 'room.read', 'room.manage', 'order.manage'])).toEqual([
      { area: 'room', access: 'manage' },
      { area: 'customer', access: 'manage' },
      { area: 'order', access: 'manage' },
    ]);
    expect(accessByArea([])).toEqual([]);
  });
});
