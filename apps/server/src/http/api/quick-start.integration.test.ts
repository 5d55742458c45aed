import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../legacy/manage/action-table';
import { createHotelWithStaff, createRooms, hours } from '../../test/factories';
import { createTestContext, type TestContext } from '../../test/harness';
import { trpcClient } from '../../test/trpc-client';

/**
 * docs/api.md's quick start, run as a newcomer would: each `sh` block of it through bash and curl
 * against a server listening on a port, with the values the text asks the reader to put in (the
 * key, the server's address, a room's id, the stay's id, dates still to come). Each answer is the
 * one the text promises.
 */
const run = promisify(execFile);
let ctx: TestContext;
let base: string;

beforeAll(async () => {
  ctx = await createTestContext({ locks: null });
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}/api/v1`;
});
afterAll(async () => {
  await ctx?.close();
});

/** The `sh` blocks of the quick start, in order. */
function quickStartBlocks(): string[] {
  const doc = fs.readFileSync(path.join(REPO_ROOT, 'docs/api.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## Quick start'), doc.indexOf('\n## ', doc.indexOf('## Quick start') + 1));
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!.replace(/^ {3}/gm, ''));
}

/** What one block prints: the JSON answers of its curl calls, one after the other. */
function answers(output: string): Record<string, unknown>[] {
  return output
    .trim()
    .replace(/\}\s*\{"/g, '}\n{"')
    .split('\n{"')
    .map((part, i) => JSON.parse(i === 0 ? part : `{"${part}`) as Record<string, unknown>);
}

describe('the quick start of docs/api.md', () => {
  it('works as written, with the values it asks for', async () => {
    const h = await createHotelWithStaff(ctx.deps);
    await ctx.deps.prisma.membership.updateMany({ where: { hotelId: h.hotel.id, accountId: h.owner.id }, data: { apiKeyAuth: true } });
    const { rooms } = await createRooms(ctx.deps, h.hotel.id, ['QS-101', 'QS-102']);
    const made = await trpcClient(ctx.app).mutation(
      'apiKey.create',
      { name: 'Quick start', permissions: ['room.read', 'stay.manage', 'credential.manage'] },
      { token: h.ownerToken },
    );
    const key = (made.data as { key: string }).key;

    const blocks = quickStartBlocks();
    expect(blocks.length).toBeGreaterThanOrEqual(6);
    const [exports, ...calls] = blocks;
    expect(exports).toContain("export KEY='slk_...'");
    const env = exports!.replace("export KEY='slk_...'", `export KEY='${key}'`).replace(/export BASE='[^']+'/, `export BASE='${base}'`);
    let stayId = 0;
    // The reader's values: their room ids for 12 and 13, their stay's id for 345, dates still to come
    // (chosen once: a reader who walks it again pastes the same).
    const [checkIn, checkOut] = [hours(48).toISOString(), hours(96).toISOString()];
    const filled = (block: string) =>
      block
        .replaceAll('"roomId": 12', `"roomId": ${rooms[0]!.id}`)
        .replaceAll('"roomId": 13', `"roomId": ${rooms[1]!.id}`)
        .replaceAll('/stays/345/', `/stays/${stayId}/`)
        .replaceAll('2027-03-24T14:00:00Z', checkIn)
        .replaceAll('2027-03-26T11:00:00Z', checkOut);
    // Twice, verbatim, on the same hotel (issue 39 §5): the writes are replayed by their keys, and every
    // answer is the first walk's (the same reservation, the same code, the same refusal).
    const walks: Record<string, unknown>[][] = [];
    for (const walk of [1, 2]) {
      const seen: string[] = [];
      const printed: Record<string, unknown>[] = [];
      for (const block of calls) {
        const { stdout } = await run('bash', ['-e', '-c', `${env}\n${filled(block)}`], { timeout: 30_000 });
        const [first, second] = answers(stdout);
        printed.push(first!);
        if (block.includes('"$BASE/hotel"')) {
          expect(first).toMatchObject({ id: h.hotel.id, timeZone: expect.any(String), currency: expect.any(String) });
          seen.push('hotel');
        } else if (block.includes('"$BASE/rooms?limit=20"')) {
          expect((first as { items: { id: number }[] }).items.map((r) => r.id)).toEqual(rooms.map((r) => r.id));
          seen.push('rooms');
        } else if (block.includes('"roomId": 12')) {
          expect(first).toMatchObject({ roomId: rooms[0]!.id, state: 'reserved' });
          if (walk === 2) expect((first as { id: number }).id).toBe(stayId);
          stayId = (first as { id: number }).id;
          seen.push('reservation');
        } else if (block.includes('by-external-id/booking-4711')) {
          expect(first).toMatchObject({ id: stayId });
          seen.push('by-external-id');
        } else if (block.includes('/codes')) {
          expect(first).toMatchObject({ kind: 'custom', code: '135790' });
          // The stay's codes under `codes`, the word of the path they were issued by.
          expect((second as { codes: { code: string; deliveryState: string }[] }).codes).toEqual([
            expect.objectContaining({ code: '135790', deliveryState: expect.stringMatching(/^(pending|on_lock)$/) }),
          ]);
          seen.push('code');
        } else if (block.includes('"roomId": 13')) {
          expect(first).toMatchObject({ type: 'urn:console:problem:conflict', status: 409, code: 'CONFLICT', errno: 100006 });
          seen.push('mistake');
        } else expect.fail(`a block the test does not know: ${block}`);
      }
      expect(seen).toEqual(['hotel', 'rooms', 'reservation', 'by-external-id', 'code', 'mistake']);
      walks.push(printed);
    }
    // The second walk answered what the first did, but for the problems' own instance and the rooms' live state.
    const stable = (answers: Record<string, unknown>[]) => answers.map(({ instance: _i, updatedAt: _u, version: _v, ...rest }) => rest);
    expect(stable(walks[1]!).slice(2)).toEqual(stable(walks[0]!).slice(2));
    expect(await ctx.deps.prisma.stay.count({ where: { hotelId: h.hotel.id } })).toBe(1);
  });
});
