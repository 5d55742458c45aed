import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHotelWithStaff } from '../../../test/factories';
import { type TestContext } from '../../../test/harness';
import { type SeamFake } from '../../../test/seam-fake';
import { seamTestContext, type SeamTestContext } from '../../../test/seam-context';
import { trpcClient } from '../../../test/trpc-client';

/**
 * Issue 38, connect webviews (docs/seam.md, "Linking a lock account"): a hotel links a lock brand's
 * account into its Seam workspace through Seam's own page. Against Seam's fake, whose
 * `/_fake/complete_connect_webview` is the owner completing the page (an August account with its
 * lock "Front Door" comes into the workspace).
 */
let seam: SeamTestContext;
let fake: SeamFake;
let ctx: TestContext;
const api = () => trpcClient(ctx.app);

beforeAll(async () => {
  seam = await seamTestContext();
  ({ fake, ctx } = seam);
});

afterAll(() => seam?.close());

async function seamAccount() {
  const h = await createHotelWithStaff(ctx.deps);
  const workspace = await fake.ours.addWorkspace('Linking');
  const res = await api().mutation('lockAccount.connectSeam', { apiKey: workspace.api_key, label: '' }, { token: h.ownerToken });
  expect(res.error, JSON.stringify(res.error)).toBeUndefined();
  return { ...h, accountId: res.data!.id };
}

describe("linking a lock brand's account through Seam's page", () => {
  it("gives Seam's page, says when the owner completed it, and the account's lock then comes in with the workspace's locks", async () => {
    const h = await seamAccount();
    const started = await api().mutation('lockAccount.seamLink', { accountId: h.accountId }, { token: h.ownerToken });
    expect(started.error, JSON.stringify(started.error)).toBeUndefined();
    const { linkId, url } = started.data!;
    expect(url).toMatch(/^https?:\/\//);
    const state = () => api().query('lockAccount.seamLinkState', { accountId: h.accountId, linkId }, { token: h.ownerToken });
    expect((await state()).data).toEqual({ state: 'pending' });
    const audit = await ctx.deps.prisma.auditLog.findFirstOrThrow({ where: { hotelId: h.hotel.id, action: 'lockAccount.seamLink' } });
    expect(audit.after).toMatchObject({ linkId });

    await fake.seam.completeConnectWebview(linkId);
    expect((await state()).data).toEqual({ state: 'linked' });
    const imported = await api().mutation('lockAccount.importLocks', { accountId: h.accountId }, { token: h.ownerToken });
    expect(imported.data).toMatchObject({ total: 1, added: 1 });
    expect(await ctx.deps.prisma.lock.findMany({ where: { hotelId: h.hotel.id }, select: { provider: true, name: true } })).toEqual([
      { provider: 'seam', name: 'Front Door' },
    ]);
  });

  it("is an owner's or administrator's, of their hotel's connected Seam account; a page Seam does not know, or not of this workspace, is not found", async () => {
    const h = await seamAccount();
    const other = await seamAccount();
    expect((await api().mutation('lockAccount.seamLink', { accountId: h.accountId }, { token: h.staffToken })).error?.data?.code).toBe('FORBIDDEN');
    expect((await api().mutation('lockAccount.seamLink', { accountId: h.accountId }, { token: other.ownerToken })).error?.data?.code).toBe('NOT_FOUND');
    const theirs = (await api().mutation('lockAccount.seamLink', { accountId: other.accountId }, { token: other.ownerToken })).data!;
    // Another workspace's page, asked through this hotel's account: not found, and not completed by asking.
    expect((await api().query('lockAccount.seamLinkState', { accountId: h.accountId, linkId: theirs.linkId }, { token: h.ownerToken })).error?.data?.code).toBe(
      'NOT_FOUND',
    );
    expect((await api().query('lockAccount.seamLinkState', { accountId: h.accountId, linkId: 'cw_unknown' }, { token: h.ownerToken })).error?.data?.code).toBe(
      'NOT_FOUND',
    );
    for (const linkId of ['', 'a/b', '%', 'x'.repeat(101), 'a\u0000b'])
      expect((await api().query('lockAccount.seamLinkState', { accountId: h.accountId, linkId }, { token: h.ownerToken })).error?.data?.code).toBe(
        'BAD_REQUEST',
      );
    // A disconnected account gives no page.
    await api().mutation('lockAccount.disconnect', { accountId: h.accountId }, { token: h.ownerToken });
    expect((await api().mutation('lockAccount.seamLink', { accountId: h.accountId }, { token: h.ownerToken })).error?.data?.code).toBe('PRECONDITION_FAILED');
  });
});
