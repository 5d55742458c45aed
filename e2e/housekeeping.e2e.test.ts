import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_OWNER, baseUrl, closeRedis, launchBrowser, newContext, screenshot, signIn } from './support';
import { answerOf, api, expectToast, text, waitForTileStatus, languageRuns } from './support-board';
import { placeBlankCard, presentAtLock, sendCardKeys } from './support-cards';
import { pairedRoom, sim } from './support-locks';
import { readerSim, useReaderType } from './support-readers';
import { closeSql, sql } from './support-stays';

/**
 * Housekeeping (issue 28 §2, docs/housekeeping.md, docs/housekeeping-keys.md) in Chinese, English
 * and Arabic, each run with three people in three languages: a supervisor at a desktop, an attendant
 * on a 390 px phone and the front desk's board at a desktop (run i: supervisor in language i,
 * attendant in i+1, desk in i+2, so every language has every part). The supervisor makes the day's
 * tasks, gives a floor and then one more room (its "Assign to" list) to the attendant and sets her
 * shift; the attendant's phone lists her rooms in that order with her door code; at the simulated
 * doors the code opens her rooms only and only in the shift's hours (the lock's clock moved before
 * and after refuses it), the opening is on the room's records in her name and on her task ("Entered
 * HH:mm"); a room dragged back to "not assigned" leaves her phone and her code leaves its lock. She
 * starts and marks the room done; the supervisor fails the inspection with a reason and the room is
 * back on her phone, dirty, with the reason; done again and passed: clean and ready. The desk's
 * board shows each housekeeping state as it happens, never reloaded. Then the supervisor sets the
 * hotel's stay-over rule (a bad N refused in words, every 2 days kept after a reload).
 * Each run has rooms of its own on a floor of its own, paired with new simulated locks.
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

const LANGS = [
  { code: 'chs', header: 'zh-CN' },
  { code: 'en', header: 'en' },
  { code: 'Arabic', header: 'ar' },
] as const;
const PHONE = { width: 390, height: 844 };
const HOUR = 3_600_000;

const RUNS = LANGS.map((supervisor, i) => ({
  label: `supervisor ${supervisor.header}, attendant ${LANGS[(i + 1) % 3]!.header}, desk ${LANGS[(i + 2) % 3]!.header}`,
  supervisor,
  attendant: LANGS[(i + 1) % 3]!,
  desk: LANGS[(i + 2) % 3]!,
  // A floor of its own (room names 9101, 9102 ... are floor 91; the other rooms on floor 101 and
  // up), no other file's room names (lock-accounts' 7101 ... must stay without a lock), and an
  // attendant's name in her language.
  floor: 91 + i,
  name: ['Liu Fang', 'Amira Saleh', '王秀英'][i]!,
  reason: ['镜子上有水渍', 'Hair left in the shower', 'الأرضية غير نظيفة'][i]!,
}));

/** `HH:mm` of an instant on the hotel's wall clock. */
const wallClock = (at: Date, timeZone: string) =>
  new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone }).format(at);

let demoPasswordHash = '';
let hotelId = 0;
let timeZone = 'UTC';
beforeAll(async () => {
  [{ passwordHash: demoPasswordHash }] = (await sql<{ passwordHash: string }>(`SELECT "passwordHash" FROM "Account" WHERE mobile = '13800000000'`)) as [
    { passwordHash: string },
  ];
  const [hotel] = await sql<{ id: number; timeZone: string }>(
    `SELECT h.id, h."timeZone" FROM "Hotel" h JOIN "Room" r ON r."hotelId" = h.id WHERE r.name = '101' AND r."deletedAt" IS NULL`,
  );
  hotelId = hotel!.id;
  timeZone = hotel!.timeZone;
});

/** A member of the demo hotel with a role, signing in with the demo owner's password. */
async function member(role: 'housekeeping' | 'housekeeping_supervisor', name: string, n: number) {
  const mobile = `167${String(Date.now()).slice(-6)}${String(n).padStart(2, '0')}`;
  const [account] = await sql<{ id: number }>(`INSERT INTO "Account" (mobile, "passwordHash", nickname, "updatedAt") VALUES ($1, $2, $3, now()) RETURNING id`, [
    mobile,
    demoPasswordHash,
    name,
  ]);
  const [membership] = await sql<{ id: number }>(
    `INSERT INTO "Membership" ("accountId", "hotelId", role, name, "updatedAt") VALUES ($1, $2, $3, $4, now()) RETURNING id`,
    [account!.id, hotelId, role, name],
  );
  return { membershipId: membership!.id, credentials: { account: mobile, password: 'demo1234' } };
}

const use = async (lockId: string, passcode: string) => (await sim<{ opened: boolean; outcome: string }>('POST', `/locks/${lockId}/use`, { passcode })).outcome;
/** The door tried at another moment: its lock's clock moved by `offsetMs`, then back. */
async function useAt(lockId: string, passcode: string, offsetMs: number) {
  await sim('PATCH', `/locks/${lockId}`, { clockOffsetMs: offsetMs });
  try {
    return await use(lockId, passcode);
  } finally {
    await sim('PATCH', `/locks/${lockId}`, { clockOffsetMs: 0 });
  }
}

/**
 * Waits for a room's task in a column of the supervisor's page; when it never comes, the failure says
 * what the database holds of the room (its cleanliness, guests, and every task it has, with the
 * hotel's housekeeping day) beside the page's picture: a failure seen once in CI and never again
 * (issue 37 §1) left only "not visible".
 */
async function taskIn(page: Page, column: string, room: string, roomId: number) {
  try {
    await page.getByTestId(column).getByTestId(`hk-task-${room}`).waitFor();
  } catch (error) {
    const [facts] = await sql(
      `SELECT r."cleanStatus", r."inHouseStays", h."housekeepingDay"::text AS "hotelDay", now()::text AS "now",
              (SELECT json_agg(json_build_object('day', t."day"::text, 'kind', t."kind", 'status', t."status", 'assignee', t."assigneeId", 'created', t."createdAt") ORDER BY t."id")
                 FROM "HousekeepingTask" t WHERE t."roomId" = r."id") AS "tasks"
         FROM "Room" r JOIN "Hotel" h ON h."id" = r."hotelId" WHERE r."id" = $1`,
      [roomId],
    );
    throw new Error(`room ${room}: no task in ${column}; the database: ${JSON.stringify(facts)}; ${(error as Error).message}`, { cause: error });
  }
}

/** The status a task shows on a page (its badge's `data-status`), waited for until it is `status`. */
async function waitForTask(page: Page, testId: string, status: string) {
  await page.locator(`[data-testid="${testId}"] [data-testid="task-status"][data-status="${status}"]`).waitFor({ timeout: 20_000 });
}

// One run a test run, the three languages in its three parts (decision 034); `E2E_LANGUAGES=all` runs all three.
describe.each(languageRuns(RUNS, import.meta.url, (run) => run.supervisor.header))('housekeeping with the $label', (run) => {
  const { supervisor: sup, attendant: att, desk, floor, name, reason } = run;
  const rooms = [`${floor}01`, `${floor}02`, `${floor + 10}01`, `${floor + 10}02`] as const;
  const [first, second, third, notHers] = rooms;
  let contexts: BrowserContext[] = [];
  let supPage: Page;
  let phone: Page;
  let deskPage: Page;
  let paired: Record<string, { roomId: number; lockId: string }> = {};
  let attendant: Awaited<ReturnType<typeof member>>;

  beforeAll(async () => {
    attendant = await member('housekeeping', name, LANGS.indexOf(att) * 2);
    const boss = await member('housekeeping_supervisor', `Supervisor ${sup.header}`, LANGS.indexOf(sup) * 2 + 1);
    paired = {};
    for (const room of rooms) paired[room] = await pairedRoom(room, { sortOrder: 0 });
    // Rooms waiting for a clean: each gets its departure clean when the day's tasks are made.
    await sql(`UPDATE "Room" SET "cleanStatus" = 'dirty' WHERE id = ANY($1::int[])`, [Object.values(paired).map((p) => p.roomId)]);

    const supContext = await newContext(browser, { language: sup.code });
    // The supervisor's desk has the (simulated) card reader: her card is written there.
    await useReaderType(supContext, 1);
    const phoneContext = await newContext(browser, { language: att.code, ...PHONE });
    const deskContext = await newContext(browser, { language: desk.code });
    contexts = [supContext, phoneContext, deskContext];
    supPage = await supContext.newPage();
    phone = await phoneContext.newPage();
    deskPage = await deskContext.newPage();
    await signIn(supPage, boss.credentials);
    await signIn(phone, attendant.credentials);
    await signIn(deskPage, DEMO_OWNER);
  });
  afterAll(async () => {
    for (const context of contexts) await context.close();
  });

  it('the supervisor gives a floor and a room; the phone lists them in order with her code; the doors open for her rooms in her hours only', async () => {
    // The supervisor's page: make the day's tasks.
    await supPage.goto(`${baseUrl()}/housekeeping`);
    await supPage.getByTestId('housekeeping-page').waitFor();
    expect(await supPage.locator('html').getAttribute('dir')).toBe(sup.header === 'ar' ? 'rtl' : 'ltr');
    const generated = answerOf(supPage, 'housekeeping.generate');
    await supPage.getByTestId('hk-generate').click();
    await generated;
    for (const room of rooms) await taskIn(supPage, 'hk-column-none', room, paired[room]!.roomId);

    // Her floor at once, then one more room from its own "Assign to" list.
    await supPage.getByTestId('hk-area').selectOption(`floor:${floor}`);
    await supPage.getByTestId('hk-area-member').selectOption(String(attendant.membershipId));
    await supPage.getByTestId('hk-area-assign').click();
    await expectToast(supPage, text(sup.header, 'housekeeping.assigned', { count: 2 }));
    const column = supPage.getByTestId(`hk-column-${attendant.membershipId}`);
    await column.getByTestId(`hk-task-${second}`).waitFor();
    await supPage.getByTestId(`hk-task-${third}`).getByTestId('hk-assign-select').selectOption(String(attendant.membershipId));
    await column.getByTestId(`hk-task-${third}`).waitFor();
    expect(await column.locator('[data-testid^="hk-task-"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')))).toEqual(
      [first, second, third].map((r) => `hk-task-${r}`),
    );
    // Her shift: from an hour ago for four hours, on the hotel's clock (kept within today's date).
    const now = Date.now();
    const startsAt = wallClock(new Date(now - HOUR), timeZone) > wallClock(new Date(now), timeZone) ? '00:00' : wallClock(new Date(now - HOUR), timeZone);
    const endsAt = wallClock(new Date(now + 3 * HOUR), timeZone);
    await column.locator('input[type="time"]').nth(0).fill(startsAt);
    await column.locator('input[type="time"]').nth(1).fill(endsAt);
    await column.getByRole('button', { name: text(sup.header, 'housekeeping.saveShift') }).click();
    await expectToast(supPage, text(sup.header, 'housekeeping.shiftSaved', { name }));
    await screenshot(supPage, `housekeeping-assigned-${sup.header}`);

    // Her phone: her rooms in that order, her shift, and her code once each door has it.
    await phone.goto(`${baseUrl()}/housekeeping/mine`);
    await phone.getByTestId('my-rooms-page').waitFor();
    expect(await phone.locator('html').getAttribute('dir')).toBe(att.header === 'ar' ? 'rtl' : 'ltr');
    expect(await phone.getByRole('heading', { level: 1 }).innerText()).toBe(text(att.header, 'housekeeping.myRooms'));
    await phone.getByText(text(att.header, 'housekeeping.yourShift', { start: startsAt, end: endsAt })).waitFor();
    const mine = phone.locator('li[data-testid^="my-task-"]');
    expect(await mine.evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')))).toEqual([first, second, third].map((r) => `my-task-${r}`));
    for (const room of [first, second, third])
      await phone.getByTestId(`my-task-${room}`).locator('[data-testid="room-code"][data-state="on_lock"]').waitFor({ timeout: 30_000 });
    // Her place in the round beside the room's name, apart from it (right to left: to its right).
    const place = phone.getByTestId(`my-task-${first}`).getByTestId('place-in-round');
    expect(await phone.getByTestId('place-in-round').allInnerTexts()).toEqual(['1', '2', '3']);
    const [placeBox, nameBox] = [await place.boundingBox(), await phone.getByTestId(`my-task-${first}`).locator('bdi').first().boundingBox()];
    expect(att.header === 'ar' ? placeBox!.x >= nameBox!.x + nameBox!.width : placeBox!.x + placeBox!.width <= nameBox!.x).toBe(true);
    const code = (await phone.getByTestId(`my-task-${first}`).getByTestId('room-code').locator('span').innerText()).trim();
    expect(code).toMatch(/^\d{6}$/);
    expect(await phone.getByTestId(`my-task-${first}`).getByTestId('room-code').innerText()).toContain(text(att.header, 'housekeepingKeys.yourCode'));
    await screenshot(phone, `housekeeping-phone-${att.header}`);

    // At the doors: not before her shift, not after it, not a room that is not hers; her room in her hours.
    expect(await useAt(paired[first]!.lockId, code, -2 * HOUR)).toBe('not_yet_valid');
    expect(await useAt(paired[first]!.lockId, code, 4 * HOUR)).toBe('expired');
    expect(await use(paired[notHers]!.lockId, code)).toBe('unknown');
    expect(await use(paired[first]!.lockId, code)).toBe('opened');

    // The room's records name her (the desk's room page, live), and her phone's task says when she entered, live.
    await deskPage.goto(`${baseUrl()}/room/${paired[first]!.roomId}`);
    await deskPage.getByTestId('room-detail').waitFor();
    await deskPage.getByTestId('tab-unlock').click();
    await deskPage.locator('[data-testid^="unlock-row-"]').filter({ hasText: name }).first().waitFor({ timeout: 20_000 });
    const times = phone.getByTestId(`my-task-${first}`).getByTestId('task-times');
    await times.waitFor({ timeout: 20_000 });
    const enteredAt = (await api<{ tasks: { roomName: string; enteredAt: string | null }[] }>(phone, 'housekeeping.myRooms', {})).tasks.find(
      (t) => t.roomName === first,
    )!.enteredAt!;
    const shown = await phone.evaluate(
      ([at, zone, locale]) => new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: zone }).format(new Date(at)),
      [enteredAt, timeZone, att.header] as const,
    );
    expect(await times.innerText()).toBe(text(att.header, 'housekeepingKeys.entered', { time: shown }));
    await screenshot(phone, `housekeeping-entered-${att.header}`);

    // A room dragged back to "not assigned": it leaves her phone (live), and her code leaves its lock.
    const assigned = answerOf(supPage, 'housekeeping.assign');
    // (The drag's events themselves, as the browser sends them: a pointer drag across a page that scrolls
    // between the card and the column picked whatever card was under the pointer once scrolled.)
    const dataTransfer = await supPage.evaluateHandle(() => new DataTransfer());
    await supPage.getByTestId(`hk-task-${second}`).dispatchEvent('dragstart', { dataTransfer });
    await supPage.getByTestId('hk-column-none').dispatchEvent('dragover', { dataTransfer });
    await supPage.getByTestId('hk-column-none').dispatchEvent('drop', { dataTransfer });
    await assigned;
    await supPage.getByTestId('hk-column-none').getByTestId(`hk-task-${second}`).waitFor();
    await phone.getByTestId(`my-task-${second}`).waitFor({ state: 'detached' });
    const onLock = async (lockId: string) =>
      (await sim<{ lock: { passcodes: { keyboardPwd: string; onLock: boolean }[] } }>('GET', `/locks/${lockId}`)).lock.passcodes.some(
        (p) => p.onLock && p.keyboardPwd === code,
      );
    await expect.poll(() => onLock(paired[second]!.lockId), { timeout: 30_000, interval: 250 }).toBe(false);
    expect(await use(paired[second]!.lockId, code)).toBe('unknown');
    expect(await onLock(paired[first]!.lockId)).toBe(true);
  });

  it('her card (locks that take cards only): written on the desk reader for her rooms and hours; a room taken from her refuses it at that door only', async () => {
    // The new rooms' locks hold the hotel's card keys (as the console sends them to rooms paired later).
    for (const room of rooms) await sendCardKeys(deskPage, paired[room]!.roomId);
    await readerSim().reset();
    const column = supPage.getByTestId(`hk-column-${attendant.membershipId}`);
    const line = column.getByTestId(`hk-card-${attendant.membershipId}`);
    await line.waitFor();
    expect(await line.getAttribute('data-state')).toBe('none');
    await line.getByTestId('hk-card-write').click();
    const dialog = supPage.getByTestId('hk-card-dialog');
    await dialog.waitFor();
    expect(await dialog.getByRole('heading').innerText()).toBe(text(sup.header, 'housekeeping.card.title', { name }));
    const uid = await placeBlankCard();
    await dialog.getByTestId('hk-card-dialog-write').click();
    await dialog.getByTestId('hk-card-written').waitFor({ timeout: 30_000 });
    // The rooms are the rota's (the server's), her two rooms now; not the one dragged back.
    const written = await dialog.getByTestId('hk-card-written').innerText();
    expect(written).toContain(first);
    expect(written).toContain(third);
    expect(written).not.toContain(second);
    await screenshot(supPage, `housekeeping-card-written-${sup.header}`);
    await dialog.getByRole('button', { name: text(sup.header, 'common.close') }).click();
    await column.locator(`[data-testid="hk-card-${attendant.membershipId}"][data-state="issued"]`).waitFor();

    // At the doors: her rooms open, another room's does not.
    expect((await presentAtLock(paired[first]!.lockId, uid)).outcome).toBe('opened');
    expect((await presentAtLock(paired[third]!.lockId, uid)).outcome).toBe('opened');
    expect((await presentAtLock(paired[notHers]!.lockId, uid)).outcome).toBe('wrong_room');

    // Room `third` given back to nobody: the card is refused at its door (live, once the lock has the
    // denylist), still opens her other room, and her column says to write it again and why.
    await supPage.getByTestId(`hk-task-${third}`).getByTestId('hk-assign-select').selectOption('none');
    await column.locator(`[data-testid="hk-card-${attendant.membershipId}"][data-state="rewrite"]`).waitFor({ timeout: 20_000 });
    expect(await line.getByTestId('hk-card-rewrite').innerText()).toBe(
      text(sup.header, 'housekeeping.card.needsRewrite', { reasons: text(sup.header, 'housekeeping.card.reasons.rooms_removed') }),
    );
    await expect.poll(async () => (await presentAtLock(paired[third]!.lockId, uid)).outcome, { timeout: 30_000, interval: 500 }).toBe('denylisted');
    expect((await presentAtLock(paired[first]!.lockId, uid)).outcome).toBe('opened');
    await line.scrollIntoViewIfNeeded();
    await screenshot(supPage, `housekeeping-card-rewrite-${sup.header}`);
  });

  it('done, failed with a reason: back on her phone, dirty, with the reason; done again and passed: clean and ready, live on the board', async () => {
    // The desk's board, open throughout and never reloaded.
    await deskPage.goto(`${baseUrl()}/room`);
    const tile = deskPage.getByTestId(`room-tile-${first}`);
    await tile.waitFor();
    await tile.locator('[data-testid="tile-housekeeping"][data-hk-status="todo"]').waitFor();
    // The menu names the housekeeping pages in the desk's language on the board too (not their keys).
    expect(await deskPage.getByTestId('sidebar').innerText()).toContain(text(desk.header, 'housekeeping.title'));
    expect(await deskPage.getByTestId('sidebar').innerText()).not.toContain('housekeeping.');
    await waitForTileStatus(deskPage, first, 'dirty');

    const task = phone.getByTestId(`my-task-${first}`);
    await task.getByTestId('my-start').click();
    await waitForTask(phone, `my-task-${first}`, 'in_progress');
    await tile.locator('[data-testid="tile-housekeeping"][data-hk-status="in_progress"]').waitFor();
    expect(await tile.getByTestId('tile-housekeeping').innerText()).toBe(
      text(desk.header, 'housekeeping.board.state', { status: text(desk.header, 'housekeeping.status.in_progress') }),
    );
    await task.getByTestId('my-done').click();
    await waitForTask(phone, `my-task-${first}`, 'done');
    await expectToast(phone, text(att.header, 'housekeeping.stepDone.done', { room: first }));

    // The supervisor's page sees it done (live) and fails it with the reason.
    const card = supPage.getByTestId(`hk-task-${first}`);
    await waitForTask(supPage, `hk-task-${first}`, 'done');
    await card.getByTestId('hk-fail').click();
    await card.getByTestId('hk-fail-reason').fill(reason);
    await screenshot(supPage, `housekeeping-failing-${sup.header}`);
    await card.getByTestId('hk-fail-confirm').click();
    await expectToast(supPage, text(sup.header, 'housekeeping.failedBack', { room: first }));

    // Back on her phone with the reason, to do again; the board: dirty, failed.
    await waitForTask(phone, `my-task-${first}`, 'failed');
    expect(await task.getByTestId('my-task-reason').innerText()).toBe(text(att.header, 'housekeeping.failReason', { reason }));
    expect(await task.getByTestId('task-status').innerText()).toBe(text(att.header, 'housekeeping.status.failed'));
    await task.getByTestId('my-done').waitFor();
    await screenshot(phone, `housekeeping-failed-${att.header}`);
    await tile.locator('[data-testid="tile-housekeeping"][data-hk-status="failed"]').waitFor();
    await waitForTileStatus(deskPage, first, 'dirty');

    // Done again, and passed: inspected, the room clean and ready (vacant) on the board.
    await task.getByTestId('my-done').click();
    await waitForTask(phone, `my-task-${first}`, 'done');
    await waitForTask(supPage, `hk-task-${first}`, 'done');
    await card.getByTestId('hk-pass').click();
    await expectToast(supPage, text(sup.header, 'housekeeping.passed', { room: first }));
    await waitForTask(phone, `my-task-${first}`, 'inspected');
    await tile.locator('[data-testid="tile-housekeeping"][data-hk-status="inspected"]').waitFor();
    await waitForTileStatus(deskPage, first, 'vacant');
    expect(await tile.getByTestId('tile-housekeeping').innerText()).toBe(
      text(desk.header, 'housekeeping.board.state', { status: text(desk.header, 'housekeeping.status.inspected') }),
    );
    await tile.scrollIntoViewIfNeeded();
    await screenshot(deskPage, `housekeeping-board-${desk.header}`);
  });

  it('a room marked out of order on the room board shows among the rooms out of order, with the way to it (issue 39 §11)', async () => {
    const roomId = paired[notHers]!.roomId;
    await api(deskPage, 'room.setStatus', { roomId, target: 'out_of_order' }, 'mutation');
    try {
      await supPage.goto(`${baseUrl()}/housekeeping`);
      const line = supPage.getByTestId('ooo-marked').filter({ hasText: notHers });
      await line.waitFor();
      const kind = text(sup.header, 'housekeeping.ooo.kind.out_of_order');
      expect(await line.locator('span').innerText()).toBe(text(sup.header, 'housekeeping.ooo.marked', { room: notHers, kind }));
      expect(await line.getByRole('link').getAttribute('href')).toBe(`/room/${roomId}`);
    } finally {
      await api(deskPage, 'room.setStatus', { roomId, target: 'back_in_service' }, 'mutation');
    }
  });

  it("the hotel's rule: a bad N refused in words; every 2 days from 06:30 kept after a reload", async () => {
    type Settings = { stayoverRule: string; stayoverEveryDays: number; dayStart: string };
    const before = (await api<{ settings: Settings }>(supPage, 'housekeeping.day', {})).settings;
    try {
      await supPage.goto(`${baseUrl()}/housekeeping`);
      const section = supPage.getByTestId('hk-settings');
      await section.waitFor();
      expect(await section.getByRole('heading').first().innerText()).toBe(text(sup.header, 'housekeeping.settings.title'));
      await section.getByTestId('hk-stayover-rule').selectOption('every_n_days');
      const everyDays = section.getByTestId('hk-every-days');
      const error = section.locator('#hk-every-days-error');
      // Out of 1 to 30, or not whole: refused on the page in the supervisor's language, nothing sent.
      let sent = 0;
      supPage.on('request', (r) => {
        if (r.url().includes('housekeeping.setSettings')) sent += 1;
      });
      for (const bad of ['0', '31', '1.5']) {
        await everyDays.fill(bad);
        await section.getByTestId('hk-settings-save').click();
        await error.getByRole('alert').waitFor();
        expect(await error.innerText()).toBe(text(sup.header, 'housekeeping.validation.everyDays'));
        expect(await everyDays.getAttribute('aria-invalid')).toBe('true');
      }
      expect(sent).toBe(0);
      await screenshot(supPage, `housekeeping-settings-refused-${sup.header}`);

      await everyDays.fill('2');
      await section.getByTestId('hk-day-start').fill('06:30');
      const saved = answerOf(supPage, 'housekeeping.setSettings');
      await section.getByTestId('hk-settings-save').click();
      await saved;
      await expectToast(supPage, text(sup.header, 'housekeeping.settings.saved'));
      expect(await error.innerText()).toBe('');

      // Kept: after a reload the form shows what the server holds.
      await supPage.reload();
      await supPage.getByTestId('hk-settings').waitFor();
      expect(await supPage.getByTestId('hk-stayover-rule').inputValue()).toBe('every_n_days');
      expect(await supPage.getByTestId('hk-every-days').inputValue()).toBe('2');
      expect(await supPage.getByTestId('hk-day-start').inputValue()).toBe('06:30');
      expect((await api<{ settings: Settings }>(supPage, 'housekeeping.day', {})).settings).toEqual({
        stayoverRule: 'every_n_days',
        stayoverEveryDays: 2,
        dayStart: '06:30',
      });
      await supPage.getByTestId('hk-settings').scrollIntoViewIfNeeded();
      await screenshot(supPage, `housekeeping-settings-${sup.header}`);
    } finally {
      // The demo hotel's rule as it was, for the files that run after this one.
      await api(supPage, 'housekeeping.setSettings', before, 'mutation');
    }
  });
});
