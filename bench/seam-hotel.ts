/**
 * Seam in the benchmarks (issue 38; bench/README.md sections 21 and 22): what `arrivals.ts seam` and
 * `lock-calls.ts seam` share. Seam's own fake (`@seamapi/fake-seam-connect`) with OUR layer in front
 * of it (apps/server/src/test/seam-fake.ts: one child process; OUR proxy counts Seam's per-device
 * limits, sets a chosen code on its device by itself after a while, sends Seam's webhooks, logs every
 * call with its device and workspace), and hotels whose rooms' doors are devices of their own Seam
 * workspace, connected through the real services as the lock accounts page does: the workspace's API
 * key (`connectSeamLockAccount`), its locks got (`importLocks`), paired by the console's own
 * suggestions (`suggestedPairs`, `pairRooms`), its webhook's secret set (`setSeamWebhookSecret`) and
 * Seam told where to send (OUR layer) when asked.
 */
import { randomBytes } from 'node:crypto';
import { buildApp } from '../apps/server/src/app.ts';
import type { AuthedContext, Deps } from '../apps/server/src/context.ts';
import { suggestedPairs } from '../apps/server/src/modules/locks/accounts/hotel-locks.ts';
import { importLocks } from '../apps/server/src/modules/locks/accounts/import.service.ts';
import { pairRooms } from '../apps/server/src/modules/locks/accounts/pairing.service.ts';
import { connectSeamLockAccount } from '../apps/server/src/modules/locks/accounts/seam-account.service.ts';
import { setSeamWebhookSecret } from '../apps/server/src/modules/locks/accounts/seam-webhook.service.ts';
import type { FakeCall, OurCounts, SeamFake, SeamLimitKind } from '../apps/server/src/test/seam-fake.ts';
import { target } from './lib.ts';

export { startSeamFake, type SeamFake } from '../apps/server/src/test/seam-fake.ts';

/** Devices of a workspace, one a name (Seam's display name too): keypad locks taking chosen codes, unlocked from afar (control calls 16 at a time). */
export async function addDoors(fake: SeamFake, workspaceId: string, names: string[]): Promise<string[]> {
  const ids: string[] = new Array<string>(names.length);
  for (let i = 0; i < names.length; i += 16)
    await Promise.all(
      names.slice(i, i + 16).map(async (name, j) => {
        const device = await fake.ours.addDevice({
          name,
          display_name: name,
          workspace_id: workspaceId,
          can_program_online_access_codes: true,
          can_remotely_unlock: true,
        });
        ids[i + j] = device.device_id;
      }),
    );
  return ids;
}

export interface SeamHotel {
  accountId: number;
  workspaceId: string;
  /** Each room's door, Seam's `device_id`. */
  deviceOfRoom: Map<number, string>;
}

/**
 * The hotel of `ctx` given a Seam workspace of its own whose devices are its rooms' doors (named
 * `Room <room>`), connected, its locks got and paired through the services; with `webhookUrl` (the
 * console's address), its webhook set as the lock accounts page sets it and Seam told to send there.
 */
export async function connectSeamHotel(ctx: AuthedContext, fake: SeamFake, rooms: { id: number; name: string }[], webhookUrl?: string): Promise<SeamHotel> {
  const workspace = await fake.ours.addWorkspace(`Bench hotel ${ctx.actor.hotelId}`);
  await addDoors(
    fake,
    workspace.workspace_id,
    rooms.map((r) => `Room ${r.name}`),
  );
  const { id: accountId } = await connectSeamLockAccount(ctx, { apiKey: workspace.api_key, label: '' });
  const imported = await importLocks(ctx, { accountId });
  if (imported.added !== rooms.length) throw new Error(`imported ${imported.added} of ${rooms.length} Seam devices`);
  const { pairs } = await suggestedPairs(ctx);
  if (pairs.length !== rooms.length) throw new Error(`${pairs.length} pairs suggested for ${rooms.length} rooms`);
  await pairRooms(ctx, { pairs });
  if (webhookUrl) {
    const secret = `whsec_${randomBytes(24).toString('base64')}`;
    await setSeamWebhookSecret(ctx, { accountId, secret });
    await fake.ours.webhook(workspace.workspace_id, `${webhookUrl}/api/seam/webhooks/${accountId}`, secret);
  }
  const locks = await ctx.deps.prisma.room.findMany({
    where: { id: { in: rooms.map((r) => r.id) } },
    select: { id: true, lock: { select: { providerLockId: true } } },
  });
  const deviceOfRoom = new Map(locks.map((r) => [r.id, r.lock?.providerLockId ?? '']));
  return { accountId, workspaceId: workspace.workspace_id, deviceOfRoom };
}

/** The console's server in this process (the real app), listening: where Seam's webhooks come. */
export async function webhookServer(deps: Deps): Promise<{ url: string; close(): Promise<void> }> {
  const app = await buildApp(deps);
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return { url, close: () => app.close() };
}

/** Calls of OUR proxy's log since `since` (ms) for a workspace: those naming a device, by device; the others, the workspace's own. */
export function callsOfWorkspace(calls: FakeCall[], workspaceId: string, since: number) {
  const mine = calls.filter((c) => c.workspace_id === workspaceId && c.at >= since);
  const byDevice = new Map<string, number>();
  const byPath: Record<string, number> = {};
  for (const c of mine) {
    if (c.device_id) byDevice.set(c.device_id, (byDevice.get(c.device_id) ?? 0) + 1);
    byPath[c.path] = (byPath[c.path] ?? 0) + 1;
  }
  return { total: mine.length, workspace: mine.filter((c) => !c.device_id).length, byDevice, byPath };
}

const KINDS: SeamLimitKind[] = ['create', 'update', 'delete', 'unlock', 'lock'];

/**
 * What OUR proxy counted against Seam's per-device limits over the whole run, as two targets: no
 * call answered 429, and no device above a limit in any minute (the most calls of a kind one
 * device made within a minute, against its limit). True when both are met.
 */
export function limitTargets(counts: OurCounts): boolean {
  const refused = KINDS.reduce((n, k) => n + counts.refused[k], 0);
  const used = KINDS.filter((k) => counts.peak[k].calls > 0);
  console.log(
    `\nOUR proxy, Seam's per-device limits a minute (${KINDS.map((k) => `${k} ${counts.limits[k]}`).join(', ')}): 429 answered ${refused}; the most calls of one device in a minute: ${
      used.map((k) => `${k} ${counts.peak[k].calls}`).join(', ') || 'none'
    }. Webhooks sent ${counts.webhooks.sent}, failed ${counts.webhooks.failed}.`,
  );
  const none = target("No call answered 429 by Seam's per-device limits", refused === 0, `${refused} answered 429`);
  const under = target(
    "Never above Seam's per-device limits in any minute",
    used.every((k) => counts.peak[k].calls <= counts.limits[k]),
    used.map((k) => `${k} ${counts.peak[k].calls} of ${counts.limits[k]}`).join(', ') || 'no limited call',
  );
  return none && under;
}
