import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PROTOCOL_DOC, actionRows, actionTable, withTable } from './action-table';
import { LEGACY_ACTIONS } from './registry';

describe('the table of legacy actions in docs/legacy-protocol.md', () => {
  const rows = actionRows();

  it('names, for every action, the file that handles it, the services it calls and a test that drives it', () => {
    expect(
      rows.filter((r) => !r.handler).map((r) => r.path),
      'actions without a handler file',
    ).toEqual([]);
    expect(
      rows.filter((r) => r.services.length === 0 || r.services.some((s) => !s.file)).map((r) => r.path),
      'actions without a known service',
    ).toEqual([]);
    expect(
      rows.filter((r) => r.tests.length === 0).map((r) => r.path),
      'actions no integration test mentions',
    ).toEqual([]);
  });

  it('names its tRPC twin and the screen that uses it, found from the routers and the web routes', () => {
    const row = (p: string) => rows.find((r) => r.path === p);
    expect(row('login')).toMatchObject({ procedures: ['auth.login'], screens: ['/login'] });
    expect(row('room/openHistoryByPeople')).toMatchObject({ procedures: ['lock.recordsByPerson'], screens: ['/unlock-records'] });
    expect(row('room/tenant/update/checkIn')?.procedures).toEqual(['stay.checkIn']);
    expect(row('room/tenant/update/checkIn')?.screens).toContain('/room');
    // And the JSON API's operations that call the same services.
    expect(row('room/listNew')?.operations).toEqual(['GET /api/v1/rooms']);
    expect(row('room/tenant/update/checkIn')?.operations).toEqual(['POST /api/v1/stays']);
    // An action made of several of the console's services: the calls are followed to them (a check-out, then the bill).
    expect(row('room/checkOut')?.procedures).toEqual(expect.arrayContaining(['stay.checkOut', 'order.settle']));
    expect(row('room/checkOut')?.operations).toEqual(['POST /api/v1/stays/{stayId}/check-out']);
    expect(row('room/checkOut')?.screens.length).toBeGreaterThan(0);
    // A list the JSON API reads by keyset (listStaysAfter) is the action's list (listStays); routes files other than routes.ts count.
    expect(row('room/tenant/list')?.operations).toEqual(['GET /api/v1/stays']);
    expect(row('passenger/list')?.operations).toEqual(['GET /api/v1/guests']);
    // A screen that calls the plain client (`trpcClient.staff.setRooms.mutate`) uses the procedure too.
    expect(row('room/addStaffManageLock')?.screens).toContain('/staff');
    // Every action has a tRPC twin but the upload token (its twin is the upload route, not a procedure).
    expect(rows.filter((r) => r.procedures.length === 0).map((r) => r.path)).toEqual(['oss/token']);
    // Most actions have a twin: the legacy layer and the console call the same services.
    expect(rows.filter((r) => r.procedures.length > 0).length).toBeGreaterThan(rows.length * 0.8);
  });

  it('lists each action once', () => {
    const paths = LEGACY_ACTIONS.map((a) => a.path);
    expect(paths.length).toBe(new Set(paths).size);
  });

  it('is what the code says today (run `pnpm --filter @console/server docs:legacy` after changing an action)', () => {
    const doc = fs.readFileSync(PROTOCOL_DOC, 'utf8');
    expect(doc).toBe(withTable(doc, actionTable(rows)));
  });
});
