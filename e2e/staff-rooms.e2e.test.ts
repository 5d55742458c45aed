import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_OWNER, baseUrl, closeRedis, launchBrowser, readSmsOutbox, screenshot, settle, signIn } from './support';
import { LANGUAGES, api, chooseOwnPassword, withPage, languageRuns } from './support-board';

/**
 * A staff member given only some rooms sees only those (issue 9 §1), in Chinese, English and
 * Arabic. The owner makes two rooms of the language's own (SR-<code>-1 and -2) and adds a new staff
 * account by mobile with the first of them only (staff.add: its first password comes by SMS, read
 * here from the development outbox); the staff member signs in through the form with that password
 * and the room board shows SR-<code>-1 and no other room of the hotel, and opening room 2 by its
 * address finds nothing. The owner then gives it every room, and the board shows them after a reload.
 */

type Room = { id: number; name: string };
type Member = { id: number; mobile: string; created: boolean };

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await closeRedis();
});

/** A mainland mobile number no other run uses. */
const freshMobile = () => `166${String(Date.now()).slice(-6)}${String(Math.floor(Math.random() * 100)).padStart(2, '0')}`;

/** The first password in the staff member's SMS (10 letters and digits, without 0, 1, I, O, i, l, o). */
async function firstPassword(mobile: string, after: number): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const sms = (await readSmsOutbox()).find((m) => m.to === mobile && Date.parse(m.at) >= after);
    const password = sms?.text.match(/(?<![A-Za-z0-9])[A-HJ-NP-Za-km-z2-9]{10}(?![A-Za-z0-9])/)?.[0];
    if (password) return password;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no first password sent to ${mobile}`);
}

describe.each(languageRuns(LANGUAGES, import.meta.url))('a staff member limited to some rooms, in $header', ({ code, header }) => {
  it('sees only its rooms on the board, and every room once given all', async () => {
    const names = [`SR-${code}-1`, `SR-${code}-2`] as const;
    const mobile = freshMobile();
    let rooms: Room[] = [];
    let member: Member | undefined;
    const sentAt = Date.now() - 1_000;
    await withPage(browser, { language: code }, async (page) => {
      await signIn(page, DEMO_OWNER);
      rooms = await Promise.all(names.map((name) => api<Room>(page, 'room.create', { name }, 'mutation')));
      member = await api<Member>(
        page,
        'staff.add',
        { account: mobile, name: `Staff ${code}`, role: 'staff', allRooms: false, roomIds: [rooms[0]!.id] },
        'mutation',
      );
      expect(member).toMatchObject({ mobile, created: true });
    });
    const password = await firstPassword(mobile, sentAt);

    await withPage(browser, { language: code }, async (page) => {
      await signIn(page, { account: mobile, password: await chooseOwnPassword(page, mobile, password) });
      expect(await page.locator('html').getAttribute('dir')).toBe(header === 'ar' ? 'rtl' : 'ltr');
      await page.goto(`${baseUrl()}/room`);
      await page.getByTestId(`room-tile-${names[0]}`).waitFor();
      await settle(page);
      const tiles = await page.locator('[data-testid^="room-tile-"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')));
      expect(tiles).toEqual([`room-tile-${names[0]}`]);
      expect((await api<{ total: number }>(page, 'room.list', { pageSize: 20 })).total).toBe(1);
      await screenshot(page, `staff-rooms-${code}-limited`);

      // Room 2 by its address: not found, as if it did not exist.
      await page.goto(`${baseUrl()}/room/${rooms[1]!.id}`);
      await settle(page);
      expect(await page.getByTestId(`room-tile-${names[1]}`).count()).toBe(0);
      await expect(api(page, 'room.get', { id: rooms[1]!.id })).rejects.toThrow(/NOT_FOUND/);

      // Given every room by the owner, the member sees room 2 too.
      await withPage(browser, { language: code }, async (owner) => {
        await signIn(owner, DEMO_OWNER);
        await api(owner, 'staff.setRooms', { id: member!.id, allRooms: true, roomIds: [] }, 'mutation');
      });
      await page.goto(`${baseUrl()}/room?search=SR-${code}`);
      await page.getByTestId(`room-tile-${names[1]}`).waitFor();
      await page.getByTestId(`room-tile-${names[0]}`).waitFor();

      // Removed from the hotel, its session ends at once: the next request goes back to sign-in.
      await withPage(browser, { language: code }, async (owner) => {
        await signIn(owner, DEMO_OWNER);
        await api(owner, 'staff.remove', { id: member!.id }, 'mutation');
      });
      await expect(api(page, 'room.list', { pageSize: 20 })).rejects.toThrow(/UNAUTHENTICATED|100003/);
    });
  });
});
