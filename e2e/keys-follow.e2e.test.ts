import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_OWNER, baseUrl, closeRedis, launchBrowser, newContext, screenshot, signIn } from './support';
import { api, expectToast, text, languageRuns } from './support-board';
import { cardNumberOf, cardsOfStay, placeBlankCard, presentAtLock, sendCardKeys } from './support-cards';
import { closeGuestKeys, guestKeysDialog } from './support-keys';
import { pairedRoom, sim } from './support-locks';
import { readerSim, useReaderType } from './support-readers';
import { answerRoomChange, openRoomPicker, closeSql, waitForRoomStatus } from './support-stays';

/**
 * The guest's keys follow the guest (issue 17 §2, problems 3 and 4), in Chinese, English and Arabic:
 * a guest checked in with a door code is moved to another room in one action; what the guest holds
 * shows the same code going onto the new room's lock (sending, then on the lock) and coming off the
 * old one; at the simulated locks the code opens the new door and not the old one. A stay with a
 * written card is renewed: the toast, the stay card and the room's card list say "needs rewriting"
 * (never "issued"), and "write now" writes the card again with the reader simulator, after which it
 * opens to the new check-out. Each run has rooms of its own, paired with new simulated locks.
 */

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await closeRedis();
  await closeSql();
});

const RUNS = [
  { code: 'chs', header: 'zh-CN', guest: '陈思远', pin: '613947' },
  { code: 'en', header: 'en', guest: 'Nora Lindqvist', pin: '724058' },
  { code: 'Arabic', header: 'ar', guest: 'يوسف منصور', pin: '835169' },
] as const;

describe.each(languageRuns(RUNS, import.meta.url))('the keys follow the guest in $header', ({ code, header, guest, pin }) => {
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    context = await newContext(browser, { language: code });
    await useReaderType(context, 1);
    page = await context.newPage();
    await signIn(page, DEMO_OWNER);
  });
  afterAll(async () => {
    await context?.close();
  });

  /** The check-in dialog of the room page open, the guest's name typed. */
  async function startCheckIn(roomId: number) {
    await page.goto(`${baseUrl()}/room/${roomId}`);
    await page.getByTestId('room-detail').waitFor();
    await page.getByTestId('action-check-in').click();
    await page.getByTestId('check-in-dialog').waitFor();
    await page.locator('#guest-0-name').fill(guest);
  }

  it("a room change moves the guest's code: it opens the new door, and no longer the old one", async () => {
    const from = await pairedRoom(`KF-${header}-a`);
    const to = await pairedRoom(`KF-${header}-b`);
    await startCheckIn(from.roomId);
    await page.getByTestId('issuePassword').click();
    await page.getByTestId('passwordCode').fill(pin);
    await page.getByTestId('check-in-submit').click();
    await page.getByTestId('check-in-dialog').waitFor({ state: 'detached', timeout: 20_000 });
    await waitForRoomStatus(page, 'checked_in');
    // What the guest holds after the check-in: the code, once the lock has it.
    let keys = await guestKeysDialog(page, 'check_in');
    await keys.locator('[data-testid^="guest-keys-password-"][data-state="on_lock"]').waitFor({ timeout: 20_000 });
    await closeGuestKeys(page);
    expect(await sim<{ opened: boolean }>('POST', `/locks/${from.lockId}/use`, { passcode: pin })).toMatchObject({ opened: true });

    // One action: the room change. The new room's lock is slow, so "sending" is seen before "on the lock".
    await page.getByTestId('action-change-room').click();
    const dialog = page.getByTestId('change-room-dialog');
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain(text(header, 'frontDesk.stay.changeRoomDescription', { guest, room: `KF-${header}-a` }));
    await openRoomPicker(page);
    await page.getByTestId('change-room-picker-search').fill(`KF-${header}-b`);
    await page.getByRole('option', { name: new RegExp(`^KF-${header}-b`) }).click();
    // Before the move, the dialog says what moves with the guest.
    expect(await dialog.getByTestId('change-room-keys').innerText()).toContain(text(header, 'guestKeys.preview.sameCodes', { codes: pin }));
    await answerRoomChange(page);
    await screenshot(page, `keys-change-room-${header}`);
    // The new lock's answer held until the page has shown the code being moved, then let go.
    await sim('PATCH', `/locks/${to.lockId}`, { latencyMs: 600_000 });
    try {
      await page.getByTestId('change-room-submit').click();
      await dialog.waitFor({ state: 'detached', timeout: 20_000 });
      keys = await guestKeysDialog(page, 'room_change');
      expect(await keys.getByRole('heading').first().innerText()).toBe(text(header, 'guestKeys.titleRoomChange', { room: `KF-${header}-b` }));
      const row = keys.locator('[data-testid^="guest-keys-password-"]');
      await row.and(page.locator('[data-state="pending"]')).waitFor({ timeout: 10_000 });
      expect(await row.getByTestId('delivery-state').innerText()).toBe(text(header, 'credentials.states.pending'));
      await screenshot(page, `keys-moving-${header}`);
      await sim('PATCH', `/locks/${to.lockId}`, { latencyMs: null });
      await row.and(page.locator('[data-state="on_lock"]')).waitFor({ timeout: 20_000 });
      expect(await row.getByTestId('delivery-state').innerText()).toBe(text(header, 'credentials.states.on_lock'));
      expect(await row.locator('[data-testid^="guest-keys-code-"]').innerText()).toBe(pin);
      expect(await row.innerText()).toContain(text(header, 'guestKeys.sameCode', { from: `KF-${header}-a` }));
    } finally {
      await sim('PATCH', `/locks/${to.lockId}`, { latencyMs: null });
    }
    // Taken off the old room's lock, as that lock confirmed it.
    const takenOff = keys.getByTestId('guest-keys-taken-off');
    expect(await takenOff.innerText()).toContain(text(header, 'guestKeys.takenOff', { room: `KF-${header}-a` }));
    await takenOff.locator('[data-testid="delivery-state"][data-state="removed"]').waitFor({ timeout: 20_000 });
    await screenshot(page, `keys-moved-${header}`);
    await closeGuestKeys(page);

    // At the doors: the new one opens for the code, the old one no longer does.
    expect(await sim<{ opened: boolean }>('POST', `/locks/${to.lockId}/use`, { passcode: pin })).toMatchObject({ opened: true });
    expect(await sim<{ opened: boolean; outcome: string }>('POST', `/locks/${from.lockId}/use`, { passcode: pin })).toMatchObject({
      opened: false,
      outcome: 'unknown',
    });
    // The page followed the guest to the new room; its stay card shows the code on the lock.
    await page.waitForURL(new RegExp(`/room/${to.roomId}`));
    await page.locator('[data-testid^="stay-password-"][data-state="on_lock"]').waitFor();
    const stay = (await api<{ currentStay: { id: number } | null }>(page, 'room.get', { id: to.roomId })).currentStay!;
    await api(page, 'stay.checkOut', { stayId: stay.id }, 'mutation');
  });

  it('a renewal of a stay with a written card asks for the card to be written again, and "write now" does', async () => {
    await readerSim().reset();
    const room = await pairedRoom(`KR-${header}`);
    await sendCardKeys(page, room.roomId);
    await startCheckIn(room.roomId);
    await page.getByTestId('roomCards').fill('1');
    await page.getByTestId('check-in-submit').click();
    // The card is written above what the guest holds.
    const writing = page.getByTestId('card-writing-dialog');
    await writing.waitFor();
    const uid = await placeBlankCard();
    const number = cardNumberOf(uid);
    await page.getByTestId('card-write-submit').click();
    await page.getByTestId('card-write-finished').waitFor();
    await page.getByTestId('card-write-done').click();
    await writing.waitFor({ state: 'detached' });
    let keys = await guestKeysDialog(page, 'check_in');
    await keys.getByTestId(`guest-keys-card-${number}`).locator('[data-state="on_lock"]').waitFor();
    await closeGuestKeys(page);
    const stayId = (await api<{ currentStay: { id: number } | null }>(page, 'room.get', { id: room.roomId })).currentStay!.id;
    const oldEnd = (await api<{ expectedCheckOutAt: string }>(page, 'stay.get', { stayId })).expectedCheckOutAt;

    // Renewed by a day: the toast says the card must be written again, with "write now".
    await page.getByTestId('action-renew').click();
    await page.getByTestId('renew-dialog').waitFor();
    await page.getByTestId('renew-plusDay').click();
    await page.getByTestId('renew-quote').getByText(/\d/).first().waitFor();
    await page.getByTestId('renew-submit').click();
    await page.getByTestId('renew-dialog').waitFor({ state: 'detached' });
    await expectToast(page, text(header, 'guestKeys.renewalRewrite', { numbers: number }));
    const toastAction = page
      .locator('[data-sonner-toast]', { hasText: text(header, 'guestKeys.renewalRewrite', { numbers: number }) })
      .getByRole('button', { name: text(header, 'guestKeys.writeNow') });
    await toastAction.waitFor();
    // What the guest holds: the card needs rewriting, never a green "issued".
    keys = await guestKeysDialog(page, 'renewal');
    const inView = keys.getByTestId(`guest-keys-card-${number}`);
    await inView.and(page.locator('[data-rewrite="true"]')).waitFor();
    expect(await inView.getByTestId('guest-keys-needs-rewrite').innerText()).toBe(text(header, 'guestKeys.needsRewriting'));
    expect(await inView.getByTestId(`guest-keys-card-${number}-rewrite`).innerText()).toBe(text(header, 'guestKeys.writeNow'));
    await screenshot(page, `keys-renewal-${header}`);
    await closeGuestKeys(page);

    // The stay card says it too.
    const onStay = page.locator(`[data-testid="stay-card-${number}"][data-rewrite="true"]`);
    await onStay.waitFor();
    expect(await onStay.getByTestId('card-state').innerText()).toBe(text(header, 'guestKeys.needsRewriting'));
    expect(await onStay.getByTestId('card-state').getAttribute('data-state')).toBe('needs_rewrite');
    await onStay.scrollIntoViewIfNeeded();
    await screenshot(page, `keys-stay-card-rewrite-${header}`);
    // And the room's card list.
    await page.getByTestId('tab-credentials').click();
    const inList = page.locator(`[data-testid="card-row-${number}"][data-state="issued"][data-rewrite="true"]`);
    await inList.waitFor();
    expect(await inList.getByTestId('card-state').innerText()).toBe(text(header, 'guestKeys.needsRewriting'));
    expect(await inList.getByTestId(`card-${number}-rewrite`).innerText()).toBe(text(header, 'guestKeys.writeNow'));
    await inList.scrollIntoViewIfNeeded();
    await screenshot(page, `keys-card-list-rewrite-${header}`);

    // Until it is written again, the card opens only to the old check-out (written on it).
    const [before] = (await cardsOfStay(page, stayId, 'active')).filter((c) => c.cardNumber === number);
    expect([before!.validUntil, before!.needsRewrite]).toEqual([oldEnd, true]);
    // "Write now" (from the list): the same card on the reader, written again in place.
    await readerSim().placeCard(uid);
    await inList.getByTestId(`card-${number}-rewrite`).click();
    await writing.waitFor();
    expect(await page.getByTestId('card-write-prompt').innerText()).toBe(text(header, 'cards.write.placeCardNumber', { number }));
    await page.getByTestId('card-write-submit').click();
    await page.getByTestId('card-write-finished').waitFor();
    await page.getByTestId('card-write-done').click();
    await writing.waitFor({ state: 'detached' });
    // Rewritten: issued again (green), nothing left to rewrite, valid to the new check-out, and it opens.
    await page.locator(`[data-testid="card-row-${number}"][data-state="issued"][data-rewrite="false"]`).waitFor();
    await page.locator(`[data-testid="stay-card-${number}"][data-rewrite="false"]`).waitFor();
    const newEnd = (await api<{ expectedCheckOutAt: string }>(page, 'stay.get', { stayId })).expectedCheckOutAt;
    const [after] = (await cardsOfStay(page, stayId, 'active')).filter((c) => c.cardNumber === number);
    expect([after!.validUntil, after!.needsRewrite]).toEqual([newEnd, false]);
    expect(await presentAtLock(room.lockId, uid)).toMatchObject({ opened: true });
    await api(page, 'stay.checkOut', { stayId }, 'mutation');
  });
});
