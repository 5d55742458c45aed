import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_OWNER, DEMO_STAFF, baseUrl, closeRedis, inContext, launchBrowser, newContext, signIn, screenshotWhileSpinning } from './support';
import { api, expectToast, text, languageRuns } from './support-board';
import { demoLock, pairedRoom, sim as lockSim } from './support-locks';
import { readerSim, useReaderType } from './support-readers';
import { closeSql, sql } from './support-stays';

/**
 * Card administration in the browser (issue 8 §1-§3), against the reader simulator and the lock
 * simulator the console runs: one reader type per language (1 in Chinese, 2 in English, 3 in
 * Arabic). Encryption management: the locks get the keys, a rotation keeps the cards written
 * before working while the new keys reach the locks, and a retired set still in use cannot be
 * deleted. A universal card for two rooms opens exactly those two at their simulated locks and not
 * a third. Room card encryption writes a card that opens its room, and writes it again after taking
 * it back. A management card is revoked from its list, and its lock refuses it from then on.
 * What a lock reads is what the reader simulator's card holds (its sector, key A and blocks).
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
  { code: 'chs', header: 'zh-CN', type: 1, prefix: 'CZ' },
  { code: 'en', header: 'en', type: 2, prefix: 'CE' },
  { code: 'Arabic', header: 'ar', type: 3, prefix: 'CA' },
] as const;

type KeySet = { id: number; name: string; fingerprint: string; isActive: boolean; issuedCards: number };
type KeyState = { roomId: number; deliveryState: string };
type Room = { roomId: number; lockId: string; name: string };
type UseAnswer = { opened: boolean; outcome: string };

const reader = () => readerSim();
const FACTORY_KEY = 'FFFFFFFFFFFF';

/** The card on the reader as a lock reads it: its UID and the hotel's sector (the one no longer under the factory key). */
async function cardOnReader() {
  const dump = await reader().card();
  const sector = dump.sectors.find((s) => s.sector > 0 && s.keyA.toUpperCase() !== FACTORY_KEY);
  if (!sector) throw new Error(`card ${dump.uid} has no sector written by the hotel`);
  return {
    uid: dump.uid,
    sector: sector.sector,
    keyA: sector.keyA,
    blocks: sector.blocks.slice(0, 3).map((data, i) => ({ block: sector.sector * 4 + i, data })),
  };
}
type LockCard = Awaited<ReturnType<typeof cardOnReader>>;

/**
 * A new room of the demo hotel with a simulated lock of its own, behind a gateway of this test's
 * own: pushing keys to its locks never waits for the demo's thirty locks behind the first gateway
 * (a gateway carries one command at a time).
 */
async function roomBehind(gatewayId: number, name: string): Promise<Room> {
  return { ...(await pairedRoom(name, { gatewayId, sortOrder: 950 })), name };
}

/** Holds a card to a room's simulated lock. */
const present = (room: Room, card: LockCard) => lockSim<UseAnswer>('POST', `/locks/${room.lockId}/use`, { card });

/**
 * Waits until the console says these rooms' locks hold the hotel's current keys (the delivery
 * engine retries a busy gateway with a growing pause); says where each one stands if they never do.
 */
async function keysOnLocks(page: Page, rooms: Room[]) {
  const started = Date.now();
  const stateOf = () =>
    sql<{ roomId: number; deliveryState: string; attempts: number; lastError: string | null }>(
      `SELECT "roomId", "deliveryState"::text AS "deliveryState", attempts, "lastError" FROM "LockCardKeys" WHERE "roomId" = ANY($1::int[])`,
      [rooms.map((r) => r.roomId)],
    );
  let said = started;
  try {
    await expect
      .poll(
        async () => {
          const states = await api<KeyState[]>(page, 'card.keyStates', undefined);
          if (Date.now() - said > 10_000) {
            said = Date.now();
            process.stderr.write(`[card-admin] waiting ${Date.now() - started} ms for keys: ${JSON.stringify(await stateOf())}\n`);
          }
          return rooms.every((r) => states.find((s) => s.roomId === r.roomId)?.deliveryState === 'on_lock');
        },
        { timeout: 150_000, interval: 500 },
      )
      .toBe(true);
  } catch (error) {
    throw new Error(`keys not on the locks after ${Date.now() - started} ms: ${JSON.stringify(await stateOf())}`, { cause: error });
  }
  if (Date.now() - started > 10_000) step(`keys on the locks of ${rooms.map((r) => r.name).join(', ')} after ${Date.now() - started} ms`);
}

const screenshot = screenshotWhileSpinning;

/** Where a long test is (on stderr, which the runner shows). */
const step = (what: string) => process.stderr.write(`[card-admin] ${new Date().toISOString().slice(11, 19)} ${what}\n`);

/** Chooses a room on a room picker by searching its name. */
async function pickRoom(page: Page, testId: string, room: Room) {
  await page.getByTestId(testId).click();
  await page.getByTestId(`${testId}-search`).fill(room.name);
  await page.getByTestId(`${testId}-option-${room.roomId}`).click();
}

/** Writes the card on the reader from the page's card writer; answers its card number. */
async function writeOnPage(page: Page): Promise<string> {
  await page.getByTestId('card-writer-write').click();
  const done = page.getByTestId('card-writer-done');
  await page
    .locator('[data-testid="card-writer-done"], [data-testid="card-writer-error"], [data-testid="card-writer-in-use"]')
    .first()
    .waitFor({ timeout: 20_000 });
  if (!(await done.isVisible())) throw new Error(`the card was not written: ${await page.getByTestId('card-writer').innerText()}`);
  return (await done.getAttribute('data-card-number'))!;
}

describe.each(languageRuns(RUNS, import.meta.url))('card administration in $header with reader type $type', ({ code, header, type, prefix }) => {
  let context: BrowserContext;
  let page: Page;
  let rooms: Room[];
  /** A shared door (an entrance behind the same gateway) serving room 1: room cards name it, so it gets the card keys too. */
  let door: { id: number; lockId: string };

  beforeAll(async () => {
    await reader().reset();
    context = await newContext(browser, { language: code });
    await useReaderType(context, type);
    page = await context.newPage();
    await signIn(page, DEMO_OWNER);
    // Three rooms with simulated locks of their own: what this language's cards open, and one they must not.
    const { gateway } = await lockSim<{ gateway: { gatewayId: number } }>('POST', '/gateways', { name: `Card admin ${header}` });
    rooms = [];
    for (const n of [1, 2, 3]) rooms.push(await roomBehind(gateway.gatewayId, `${prefix}${n}`));
    door = await demoLock(`Entrance ${prefix}`, { gatewayId: gateway.gatewayId });
    await api(page, 'sharedDoor.set', { lockId: door.id, kind: 'entrance', roomIds: [rooms[0]!.roomId], groupIds: [] }, 'mutation');
  });
  afterAll(async () => {
    await reader()
      .setServices({ running: true })
      .catch(() => undefined);
    await context?.close();
  });

  it('encryption management: the keys reach the locks; after a rotation the card written before still opens, and its key set cannot be deleted while it is in use', async () => {
    await page.goto(`${baseUrl()}/room`);
    // The menu entry is there for an owner with apiKeyAuth.
    await page.getByTestId('menu-card-encryption').click();
    await page.waitForURL('**/cardEncryption/cardEncryption');
    await page.getByTestId('card-encryption').waitFor();

    if ((await api<KeySet[]>(page, 'card.keySets', undefined)).length === 0) {
      await page.getByTestId('key-sets-empty').waitFor();
      await page.getByTestId('key-set-new').first().click();
      await page.getByTestId('key-set-new-dialog').waitFor();
      expect(await page.getByTestId('key-set-new-dialog').innerText()).toContain(text(header, 'cardAdmin.keys.firstText'));
      await page.getByTestId('key-set-new-confirm').click();
      await page.getByTestId('key-sets').waitFor();
    }
    // The new rooms' locks have no keys yet: send them, and watch each lock's state until it has them.
    await page.getByTestId('keys-sync').click();
    await keysOnLocks(page, rooms);
    for (const room of rooms) await page.locator(`[data-testid="lock-key-${room.roomId}"][data-state="on_lock"]`).waitFor();
    // Polled: another test's first card of the hotel (housekeeping's attendant card) may send the keys
    // to every lock again, and the row shows "sending" until they are back on it.
    await expect
      .poll(() => page.getByTestId(`lock-key-${rooms[0]!.roomId}`).innerText(), { timeout: 20_000 })
      .toContain(text(header, 'credentials.states.on_lock'));
    // The shared door is listed with the rooms' locks, named a shared door of its kind, and has the keys too.
    const doorRow = page.locator(`[data-testid="lock-key-door-${door.id}"][data-state="on_lock"]`);
    await doorRow.waitFor({ timeout: 30_000 });
    expect(await doorRow.getByTestId('lock-key-door-kind').innerText()).toBe(
      `${text(header, 'sharedDoors.section')} · ${text(header, 'sharedDoors.kinds.entrance')}`,
    );
    expect(await doorRow.innerText()).toContain(door.lockId);
    expect(await page.getByTestId('lock-keys-table').locator('th').first().innerText()).toBe(text(header, 'cardAdmin.locks.where'));
    // On the lock accounts page the door is in use as a shared door: no room proposed for it, not counted unpaired.
    await page.goto(`${baseUrl()}/lockAccounts`);
    await page.getByTestId('locks-search').fill(door.lockId);
    const lockRow = page.getByTestId(`lock-row-${door.id}`);
    await lockRow.getByTestId('lock-shared-door').waitFor();
    expect(await lockRow.getByTestId('lock-shared-door').innerText()).toBe(
      `${text(header, 'sharedDoors.section')} · ${text(header, 'sharedDoors.kinds.entrance')}`,
    );
    expect(await lockRow.getAttribute('data-paired')).toBe('true');
    await page.goto(`${baseUrl()}/cardEncryption/cardEncryption`);
    await page.getByTestId('lock-keys-table').waitFor();

    // A card for room 1, written before the rotation, opens it.
    await page.goto(`${baseUrl()}/cardToEncryption/cardToEncryption`);
    await pickRoom(page, 'room-card-room', rooms[0]!);
    await page.getByTestId('room-card-period').waitFor();
    await reader().placeCard();
    const oldNumber = await writeOnPage(page);
    const oldCard = await cardOnReader();
    expect(await present(rooms[0]!, oldCard)).toMatchObject({ opened: true });

    // Rotation: explained, confirmed; the old set retires with its card, the new one is in use.
    await page.goto(`${baseUrl()}/cardEncryption/cardEncryption`);
    const before = (await api<KeySet[]>(page, 'card.keySets', undefined)).find((k) => k.isActive)!;
    await page.getByTestId('key-set-new').first().click();
    const dialog = page.getByTestId('key-set-new-dialog');
    await dialog.waitFor();
    expect(await page.getByTestId('key-set-rotation-points').innerText()).toContain(text(header, 'cardAdmin.keys.rotateOldCards'));
    await page.getByTestId('key-set-name').fill(`Rotation ${header}`);
    if (code !== 'chs') await screenshot(page, `card-admin-rotate-${header}`);
    await page.getByTestId('key-set-new-confirm').click();
    await dialog.waitFor({ state: 'detached' });
    const after = (await api<KeySet[]>(page, 'card.keySets', undefined)).find((k) => k.isActive)!;
    expect(after.name).toBe(`Rotation ${header}`);
    expect(after.fingerprint).not.toBe(before.fingerprint);
    await page.locator(`[data-testid="key-set-${after.id}"][data-active="true"]`).waitFor();
    await page.locator(`[data-testid="key-set-${before.id}"][data-active="false"]`).waitFor();
    expect((await api<KeySet[]>(page, 'card.keySets', undefined)).find((k) => k.id === before.id)!.issuedCards).toBeGreaterThan(0);

    // The locks learn the new keys (followed on the page without a reload).
    await keysOnLocks(page, rooms);
    for (const room of rooms) await page.locator(`[data-testid="lock-key-${room.roomId}"][data-state="on_lock"]`).waitFor();
    if (code !== 'chs') await screenshot(page, `card-admin-encryption-${header}`);
    // Only the locks still without the current keys: these rooms' locks are not among them.
    await page.getByTestId('lock-keys-show-missing').click();
    await page.getByTestId(`lock-key-${rooms[0]!.roomId}`).waitFor({ state: 'detached' });
    await page.getByTestId('lock-keys-show-all').click();
    await page.getByTestId(`lock-key-${rooms[0]!.roomId}`).waitFor();

    // The card written before the rotation still opens; a card written now is under the new keys and opens too.
    expect(await present(rooms[0]!, oldCard)).toMatchObject({ opened: true });
    await page.goto(`${baseUrl()}/cardToEncryption/cardToEncryption`);
    await pickRoom(page, 'room-card-room', rooms[0]!);
    await reader().placeCard();
    await writeOnPage(page);
    const newCard = await cardOnReader();
    expect(newCard.keyA).not.toBe(oldCard.keyA);
    expect(await present(rooms[0]!, newCard)).toMatchObject({ opened: true });

    // The retired set is still used by the old card: deleting it is asked, then refused, and it stays.
    await page.goto(`${baseUrl()}/cardEncryption/cardEncryption`);
    const [live] = await sql<{ count: number }>(
      `SELECT count(*)::int AS count FROM "CardIssue" WHERE "keyId" = $1 AND state IN ('issued', 'reserved') AND ("validUntil" IS NULL OR "validUntil" > now())`,
      [before.id],
    );
    const count = live!.count;
    expect(count).toBeGreaterThan(0);
    await page.getByTestId(`key-set-delete-${before.id}`).click();
    await page.getByTestId('key-set-delete-dialog').waitFor();
    await page.getByTestId('key-set-delete-confirm').click();
    const refusal = page.getByTestId('key-set-delete-dialog').getByTestId('form-error');
    await refusal.waitFor();
    expect(await refusal.innerText()).toBe(text(header, 'cards.errors.keySetInUse', { count }));
    if (code !== 'chs') await screenshot(page, `card-admin-delete-refused-${header}`);
    await page.keyboard.press('Escape');
    await page.getByTestId('key-set-delete-dialog').waitFor({ state: 'detached' });
    expect((await api<KeySet[]>(page, 'card.keySets', undefined)).some((k) => k.id === before.id)).toBe(true);
    // The old card's number is still a card of the hotel in use.
    expect((await api<{ issue: { state: string } | null }>(page, 'card.lookup', { cardNumber: oldNumber })).issue?.state).toBe('issued');
  }, 420_000);

  it('a universal card for two rooms, chosen on the room list, opens exactly those two rooms and not a third', async () => {
    await keysOnLocks(page, rooms);
    await page.goto(`${baseUrl()}/room`);
    await page.getByTestId('menu-universal-cards').click();
    await page.waitForURL('**/center/personalCenter/universalCardList');
    await page.getByTestId('card-add').first().click();
    await page.waitForURL('**/center/personalCenter/addUniversalCard');
    await page.getByTestId('room-fit').waitFor();
    expect(await page.getByTestId('room-fit').getAttribute('data-fit')).toBe('none');

    // Choose the rooms: the first with the mouse, the second with the keyboard only.
    await page.getByTestId('card-rooms-choose').click();
    await page.waitForURL('**/center/personalCenter/selectRoomList?kind=universal');
    // A whole page of rooms (more than 7): whether they fit on one card depends on their lock
    // numbers, which the page asks of the server and then says, before any card is placed.
    await page.locator('[data-testid^="select-room-box-"]').nth(7).waitFor();
    await page.getByTestId('select-rooms-page').click();
    const pageIds = await page
      .locator('[data-testid^="select-room-box-"]')
      .evaluateAll((boxes) => boxes.map((b) => Number(b.getAttribute('data-testid')!.replace('select-room-box-', ''))));
    const server = await api<{ fits: boolean }>(page, 'card.roomFit', { roomIds: pageIds });
    await page.locator(`[data-testid="room-fit"][data-fit="${server.fits ? 'near' : 'far'}"]`).waitFor();
    await page.getByTestId('select-rooms-page').click();
    await page.locator('[data-testid="room-fit"][data-fit="none"]').waitFor();
    const search = page.getByTestId('select-rooms-search');
    await search.fill(rooms[0]!.name);
    await page.getByTestId(`select-room-box-${rooms[0]!.roomId}`).click();
    await search.fill(rooms[1]!.name);
    await page.locator(`[data-testid="select-room-${rooms[1]!.roomId}"]`).waitFor();
    await search.focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Space');
    await expect.poll(() => page.getByTestId('select-rooms-count').getAttribute('data-count')).toBe('2');
    expect(await page.getByTestId('room-fit').getAttribute('data-fit')).toBe('fits');
    if (code !== 'chs') await screenshot(page, `card-admin-select-rooms-${header}`);
    await page.getByTestId('select-rooms-done').click();
    await page.waitForURL('**/center/personalCenter/addUniversalCard');
    await page.getByTestId(`card-room-${rooms[0]!.roomId}`).waitFor();
    await page.getByTestId(`card-room-${rooms[1]!.roomId}`).waitFor();

    const note = `Housekeeping ${header}`;
    await page.getByTestId('card-note').fill(note);
    await reader().placeCard();
    const number = await writeOnPage(page);
    expect(await page.getByTestId('card-writer-rooms').innerText()).toContain(rooms[0]!.name);
    if (code !== 'chs') await screenshot(page, `card-admin-universal-written-${header}`);

    const card = await cardOnReader();
    expect(await present(rooms[0]!, card)).toMatchObject({ opened: true });
    expect(await present(rooms[1]!, card)).toMatchObject({ opened: true });
    expect(await present(rooms[2]!, card)).toMatchObject({ opened: false, outcome: 'wrong_room' });

    // It is listed with its note and its two rooms.
    await page.getByTestId('card-back-to-list').click();
    const row = page.getByTestId(`card-row-${number}`);
    await row.waitFor();
    expect(await row.innerText()).toContain(note);
    expect(await row.innerText()).toContain(rooms[1]!.name);
  });

  it('room card encryption writes a card that opens its room, writes it again after taking it back, and a room card for the stay', async () => {
    await keysOnLocks(page, rooms);
    const room = rooms[2]!;
    await page.goto(`${baseUrl()}/room`);
    await page.getByTestId('menu-room-card-encryption').click();
    await page.waitForURL('**/cardToEncryption/cardToEncryption');
    expect(await page.getByTestId('card-writer-write').isDisabled()).toBe(true);
    await pickRoom(page, 'room-card-room', room);
    await page.getByTestId('room-card-period').waitFor();
    await page.getByTestId('room-card-note').fill(`Engineer ${header}`);
    await reader().placeCard();
    const number = await writeOnPage(page);
    const card = await cardOnReader();
    expect(await present(room, card)).toMatchObject({ opened: true });
    expect(await present(rooms[0]!, card)).toMatchObject({ opened: false, outcome: 'wrong_room' });
    await page.getByTestId(`room-card-row-${number}`).waitFor();
    if (code !== 'chs') await screenshot(page, `card-admin-room-card-${header}`);

    // The same card again: it is still in use, so it is named, taken back after a confirmation and written again.
    await page.getByTestId('card-writer-again').click();
    await page.getByTestId('card-writer-write').click();
    await page.getByTestId('card-writer-in-use').waitFor();
    expect(await page.getByTestId('card-writer-in-use').innerText()).toContain(number);
    await page.getByTestId('card-writer-take-back').click();
    await page.getByTestId('card-writer-take-back-dialog').waitFor();
    await page.getByTestId('card-writer-take-back-confirm').click();
    await page.getByTestId('card-writer-done').waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('card-writer-done').getAttribute('data-card-number')).toBe(number);
    const rewritten = await cardOnReader();
    expect(rewritten.blocks).not.toEqual(card.blocks);
    expect(await present(room, rewritten)).toMatchObject({ opened: true });

    // A guest checks in: the page offers the stay's room card, new, and it opens the room.
    const now = Date.now();
    await api(
      page,
      'stay.checkIn',
      {
        roomId: room.roomId,
        checkInAt: new Date(now - 60_000).toISOString(),
        expectedCheckOutAt: new Date(now + 2 * 86_400_000).toISOString(),
        guests: [{ name: `Guest ${header}` }],
        idempotencyKey: `card-admin-${header}-${now}`,
      },
      'mutation',
    );
    await page.reload();
    await page.getByTestId('room-card-stay').waitFor();
    expect(await page.getByTestId('room-card-stay').innerText()).toContain(`Guest ${header}`);
    await page.getByTestId('room-card-mode-new').check();
    await reader().placeCard();
    await writeOnPage(page);
    const guestCard = await cardOnReader();
    expect(await present(room, guestCard)).toMatchObject({ opened: true });
    const [issued] = await sql<{ kind: string; stayId: number | null }>(
      `SELECT kind::text AS kind, "stayId" FROM "CardIssue" WHERE uid = $1 AND state = 'issued'`,
      [guestCard.uid],
    );
    expect(issued).toMatchObject({ kind: 'room' });
    expect(issued!.stayId).not.toBeNull();
  });

  it('a management card is revoked from its list after a confirmation, and its lock refuses it from then on', async () => {
    await keysOnLocks(page, rooms);
    const room = rooms[0]!;
    await page.goto(`${baseUrl()}/room`);
    await page.getByTestId('menu-management-cards').click();
    await page.waitForURL('**/center/personalCenter/cardList');
    await page.getByTestId('card-add').first().click();
    await page.waitForURL('**/center/personalCenter/addCard');
    await page.getByTestId('card-rooms-choose').click();
    await page.waitForURL('**/center/personalCenter/selectRoomList');
    await page.getByTestId('select-rooms-search').fill(room.name);
    await page.getByTestId(`select-room-box-${room.roomId}`).click();
    await page.getByTestId('select-rooms-done').click();
    await page.waitForURL('**/center/personalCenter/addCard');
    const note = `Night manager ${header}`;
    await page.getByTestId('card-note').fill(note);
    await reader().placeCard();
    const number = await writeOnPage(page);
    const card = await cardOnReader();
    expect(await present(room, card)).toMatchObject({ opened: true });

    await page.getByTestId('card-back-to-list').click();
    await page.waitForURL('**/center/personalCenter/cardList');
    const row = page.getByTestId(`card-row-${number}`);
    await row.waitFor();
    expect(await row.innerText()).toContain(note);
    if (code !== 'chs') await screenshot(page, `card-admin-management-list-${header}`);
    await page.getByTestId(`card-revoke-${number}`).click();
    const dialog = page.getByTestId('card-end-dialog');
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain(number);
    if (code !== 'chs') await screenshot(page, `card-admin-revoke-${header}`);
    await page.getByTestId('card-end-confirm').click();
    await expectToast(page, text(header, 'cardAdmin.list.revoked', { number }));
    await row.waitFor({ state: 'detached' });

    // The lock is told (its denylist); from then on it refuses the card.
    await expect.poll(async () => (await present(room, card)).outcome, { timeout: 30_000, interval: 1000 }).toBe('denylisted');
    await page.getByTestId('cards-scope-history').click();
    await page.locator(`[data-testid="card-row-${number}"][data-state="ended"]`).waitFor();
  });

  it.runIf(code === 'chs')('hides encryption management from a member without apiKeyAuth', async () => {
    const staffContext = await newContext(browser, { language: code });
    await inContext(staffContext, async () => {
      const staffPage = await staffContext.newPage();
      await signIn(staffPage, DEMO_STAFF);
      await staffPage.getByTestId('menu-room-card-encryption').waitFor();
      expect(await staffPage.getByTestId('menu-card-encryption').count()).toBe(0);
    });
  });
});
