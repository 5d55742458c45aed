import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_OWNER, baseUrl, captchaAnswer, closeRedis, launchBrowser, screenshot, signIn, visit } from './support';
import {
  LANGUAGES,
  answerOf,
  api,
  cutNetwork,
  digits,
  expectToast,
  fieldAndAdornment,
  overlaps,
  restoreNetwork,
  roomByName,
  text,
  waitForTileStatus,
  withPage,
  languageRuns,
} from './support-board';

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await closeRedis();
});

/**
 * What each language's run may change. Rooms 301-309 and 110 are this file's (305 stays dirty for
 * the front-desk test); customers 21-23 are frozen and unfrozen here.
 */
const FIXTURES = {
  chs: { bulk: ['301', '302'], single: '303', breakfast: '301', customer: '15000000021', apply: ['306', '309'], reservations: ['302', '303'] },
  en: { bulk: ['304', '306'], single: '307', breakfast: '304', customer: '15000000022', apply: ['301', '308'], reservations: ['306', '307'] },
  Arabic: { bulk: ['308', '309'], single: '110', breakfast: '308', customer: '15000000023', apply: ['302', '110'], reservations: ['309', '110'] },
} as const;

type StayRow = { id: number; guests: { id: number; name: string }[] };
async function inHouseGuestId(page: Page): Promise<number> {
  const stays = await api<{ items: StayRow[] }>(page, 'stay.list', { state: 'in_house', pageSize: 20 });
  const guest = stays.items.flatMap((s) => s.guests)[0];
  if (!guest) throw new Error('no guest in house');
  return guest.id;
}

describe.each(languageRuns(LANGUAGES, import.meta.url))('board and lists in $header', ({ code, header }) => {
  const fixtures = FIXTURES[code];

  it('shows what failed and a retry on every list and detail while the network is down, and the list once a retry works', async () => {
    await withPage(browser, { language: code }, async (page) => {
      await signIn(page);
      const guestId = await inHouseGuestId(page);
      const pages = [
        { slug: 'board', path: '/room', what: 'common.rooms', loaded: 'room-tiles', empty: 'room-board-empty', procedure: 'room.list' },
        {
          slug: 'customers',
          path: '/customer/customer',
          what: 'customer.listWhat',
          loaded: 'customer-table',
          empty: 'customer-empty',
          procedure: 'customer.list',
        },
        { slug: 'stays', path: '/room/tenant', what: 'stays.listWhat', loaded: 'stay-list-table', empty: 'stay-list-empty', procedure: 'stay.list' },
        {
          slug: 'breakfast',
          path: '/room/breakfast',
          what: 'stays.breakfastWhat',
          loaded: 'breakfast-table',
          empty: 'breakfast-empty',
          procedure: 'stay.breakfast',
        },
        { slug: 'groups', path: '/room/category', what: 'roomSetup.groupsWhat', loaded: 'group-table', empty: 'group-empty', procedure: 'roomGroup.list' },
        {
          slug: 'templates',
          path: '/room/priceTemplate',
          what: 'roomSetup.templatesWhat',
          loaded: 'template-table',
          empty: 'template-empty',
          procedure: 'price.templates',
        },
        {
          slug: 'guest',
          path: `/room/thetouristsDetails?id=${guestId}`,
          what: 'stays.guestWhat',
          loaded: 'guest-detail',
          empty: 'guest-not-found',
          procedure: 'stay.guest',
        },
      ];
      for (const list of pages) {
        await cutNetwork(page);
        await page.goto(`${baseUrl()}${list.path}`);
        const error = page.getByTestId('load-error');
        await error.waitFor();
        expect(await error.textContent()).toContain(text(header, 'common.loadFailed', { what: text(header, list.what) }));
        expect(await error.textContent()).toContain(text(header, 'common.loadFailedNoAnswer'));
        // Never the "nothing here yet" of a list that loaded.
        expect(await page.getByTestId(list.empty).count()).toBe(0);
        expect(await page.locator('h1').count()).toBe(1);
        await screenshot(page, `load-error-${list.slug}-${header}`);

        if (list.slug === 'board') {
          // A retry that fails again keeps the error (and still no empty board).
          const failed = page.waitForEvent('requestfailed', (r) => r.url().includes('room.list'));
          await page.getByTestId('load-error-retry').click();
          await failed;
          await page.getByTestId('load-error-retry').and(page.locator(':enabled')).waitFor();
          expect(await error.isVisible()).toBe(true);
          expect(await page.getByTestId(list.empty).count()).toBe(0);
        }

        await restoreNetwork(page);
        const answered = answerOf(page, list.procedure);
        await page.getByTestId('load-error-retry').click();
        await answered;
        await page.getByTestId(list.loaded).or(page.getByTestId(list.empty)).first().waitFor();
        await error.waitFor({ state: 'detached' });
      }
      // Those lists that always have rows here did load them.
      await page.goto(`${baseUrl()}/room/category`);
      await page.getByTestId('group-table').waitFor();

      // A refresh that fails while rooms are shown: a slim banner over them, the rooms kept.
      await page.goto(`${baseUrl()}/room`);
      await page.getByTestId('room-tiles').waitFor();
      await cutNetwork(page);
      await page.getByTestId('room-refresh').click();
      const banner = page.getByTestId('load-error');
      await banner.waitFor();
      expect(await banner.textContent()).toContain(text(header, 'common.refreshFailed', { what: text(header, 'common.rooms') }));
      expect(await page.getByTestId('room-tiles').isVisible()).toBe(true);
      await screenshot(page, `load-error-banner-board-${header}`);
      await restoreNetwork(page);
      const refreshed = answerOf(page, 'room.list');
      await banner.getByTestId('load-error-retry').click();
      await refreshed;
      await banner.waitFor({ state: 'detached' });

      // The customer drawer: the list is there, the details fail, then load on retry.
      await page.goto(`${baseUrl()}/customer/customer?search=15000000003`);
      await page.waitForFunction(() => document.querySelectorAll('[data-testid^="customer-row-"]').length === 1);
      const id = (await page.locator('[data-testid^="customer-row-"]').first().getAttribute('data-testid'))!.replace('customer-row-', '');
      await cutNetwork(page);
      await page.getByTestId(`view-${id}`).click();
      const drawer = page.getByTestId('customer-drawer');
      await drawer.getByTestId('load-error').waitFor();
      expect(await drawer.getByTestId('load-error').textContent()).toContain(text(header, 'common.loadFailed', { what: text(header, 'customer.detailWhat') }));
      await screenshot(page, `load-error-customer-drawer-${header}`);
      await restoreNetwork(page);
      const detail = answerOf(page, 'customer.get');
      await drawer.getByTestId('load-error-retry').click();
      await detail;
      await drawer.getByText('guest3@example.com').waitFor();
      expect(await drawer.getByTestId('load-error').count()).toBe(0);
    });
  });

  it('marks a dirty room clean from its menu, and several at once after a confirm', async () => {
    await withPage(browser, { language: code }, async (page) => {
      await signIn(page);
      const names = [...fixtures.bulk, fixtures.single];
      const rooms = await Promise.all(names.map((name) => roomByName(page, name)));
      await api(page, 'room.setStatusMany', { roomIds: rooms.map((r) => r.id), target: 'dirty' }, 'mutation');
      await page.goto(`${baseUrl()}/room`);
      for (const name of names) await waitForTileStatus(page, name, 'dirty');

      // One room: "Mark clean" in its menu.
      await page.getByTestId(`room-actions-${fixtures.single}`).click();
      await page.getByTestId('room-action-mark-clean').waitFor();
      await screenshot(page, `board-menu-mark-clean-${header}`);
      const single = answerOf(page, 'room.setStatusMany');
      await page.getByTestId('room-action-mark-clean').click();
      await single;
      await waitForTileStatus(page, fixtures.single, 'vacant');
      await expectToast(page, text(header, 'frontDesk.board.markedClean', { count: 1, rooms: fixtures.single }));
      // A clean room has no such item.
      await page.getByTestId(`room-actions-${fixtures.single}`).click();
      await page.getByTestId('room-action-details').waitFor();
      expect(await page.getByTestId('room-action-mark-clean').count()).toBe(0);
      await page.keyboard.press('Escape');

      // Several: pick them, confirm, one call for all.
      await page.getByTestId('select-rooms').click();
      await page.getByTestId('selection-bar').waitFor();
      for (const name of fixtures.bulk) await page.getByTestId(`room-tile-${name}`).click();
      await page.waitForFunction(() => document.querySelector('[data-testid="selection-count"]')?.getAttribute('data-count') === '2');
      expect(new URL(page.url()).pathname).toBe('/room');
      expect(await page.getByTestId('selection-count').textContent()).toBe(
        text(header, 'frontDesk.board.selectedCount', { count: 2, number: digits(header, 2) }),
      );
      await screenshot(page, `board-selection-${header}`);
      await page.getByTestId('bulk-mark-clean').click();
      const confirm = page.getByTestId('mark-clean-confirm');
      await confirm.waitFor();
      expect(await confirm.textContent()).toContain(text(header, 'frontDesk.board.markCleanTitle', { count: 2, number: digits(header, 2) }));
      await screenshot(page, `board-mark-clean-confirm-${header}`);
      const bulk = answerOf(page, 'room.setStatusMany');
      await confirm.getByTestId('confirm-action').click();
      const sent = JSON.parse((await bulk).request().postData() ?? '{}') as Record<string, { roomIds: number[]; target: string }>;
      const input = Object.values(sent)[0]!;
      expect(input.target).toBe('clean');
      expect([...input.roomIds].sort()).toEqual(
        rooms
          .slice(0, 2)
          .map((r) => r.id)
          .sort(),
      );
      for (const name of fixtures.bulk) await waitForTileStatus(page, name, 'vacant');
      await confirm.waitFor({ state: 'detached' });
      await page.getByTestId('selection-bar').waitFor({ state: 'detached' });
      await screenshot(page, `board-cleaned-${header}`);
    });
  });

  it("takes a reservation's arrival and its cancellation from the board's menu", async () => {
    await withPage(browser, { language: code }, async (page) => {
      await signIn(page);
      const [arriving, cancelled] = await Promise.all(fixtures.reservations.map((name) => roomByName(page, name)));
      // Clean rooms: the arrival asks nothing more than its own form.
      await api(page, 'room.setStatusMany', { roomIds: [arriving!.id, cancelled!.id], target: 'clean' }, 'mutation');
      const start = Date.now() + 86_400_000;
      const reserve = (room: { id: number; name: string }) =>
        api<{ id: number }>(
          page,
          'stay.checkIn',
          {
            roomId: room.id,
            checkInAt: new Date(start).toISOString(),
            expectedCheckOutAt: new Date(start + 86_400_000).toISOString(),
            guests: [{ name: `Reserved ${room.name}` }],
            idempotencyKey: `e2e-reserve-${header}-${room.name}-${start}`,
            acknowledge: ['room_dirty'],
          },
          'mutation',
        );
      const [arrivingStay] = await Promise.all([reserve(arriving!), reserve(cancelled!)]);
      await page.goto(`${baseUrl()}/room`);
      // Reserved from tomorrow: free tonight, the reservation shown on the tile.
      for (const room of [arriving!, cancelled!]) {
        await waitForTileStatus(page, room.name, 'vacant');
        await page.getByTestId(`room-tile-${room.name}`).getByTestId('room-reservation').waitFor();
      }

      // A reservation offers arrival and cancellation, never a check-out.
      await page.getByTestId(`room-actions-${arriving!.name}`).click();
      await page.getByTestId('room-action-arrive').waitFor();
      expect(await page.getByTestId('room-action-cancel-reservation').isVisible()).toBe(true);
      expect(await page.getByTestId('room-action-check-out').count()).toBe(0);
      expect((await page.getByTestId('room-action-arrive').textContent())?.trim()).toBe(text(header, 'frontDesk.board.arriveAction'));
      await screenshot(page, `board-menu-reservation-${header}`);
      await page.getByTestId('room-action-arrive').click();
      await page.getByTestId('arrive-dialog').waitFor();
      const arrived = answerOf(page, 'stay.arrive');
      await page.getByTestId('arrive-submit').click();
      await arrived;
      await waitForTileStatus(page, arriving!.name, 'checked_in');

      await page.getByTestId(`room-actions-${cancelled!.name}`).click();
      await page.getByTestId('room-action-cancel-reservation').click();
      await page.getByTestId('cancel-reservation-confirm').waitFor();
      await page.getByTestId('cancel-reason').selectOption('guest_request');
      const cancelledAnswer = answerOf(page, 'stay.cancelReservation');
      await page.getByTestId('cancel-reservation-submit').click();
      await cancelledAnswer;
      await page.waitForFunction((name) => !document.querySelector(`[data-testid="room-tile-${name}"] [data-testid="room-reservation"]`), cancelled!.name);
      await api(page, 'stay.checkOut', { stayId: arrivingStay.id }, 'mutation');
    });
  });

  it('lights one menu entry per page and gives every page one h1 that names it', async () => {
    await withPage(browser, { language: code }, async (page) => {
      await signIn(page);
      const room = await roomByName(page, '101');
      const guestId = await inHouseGuestId(page);
      const routes = [
        { path: '/room', menu: 'room-board', title: 'route.roomBoard' },
        { path: `/room/${room.id}`, menu: 'room-board', title: null },
        { path: '/room/tenant', menu: 'stays', title: 'route.stays' },
        { path: `/room/thetouristsDetails?id=${guestId}`, menu: 'stays', title: 'route.guestDetail' },
        { path: '/room/breakfast', menu: 'breakfast', title: 'route.breakfast' },
        { path: '/room/category', menu: 'room-groups', title: 'route.roomGroups' },
        { path: '/room/priceTemplate', menu: 'price-templates', title: 'route.priceTemplates' },
        { path: '/customer/customer', menu: 'customer-list', title: 'route.customers' },
        { path: '/user/changePsw', menu: null, title: 'changePassword.title' },
      ];
      // Moved to by the router, as a clerk goes from page to page (a load of the console each was a
      // tenth of this file's time).
      for (const route of routes) {
        await visit(page, route.path);
        // The page moved to is drawn once its own heading is (the router keeps the page left on screen
        // while the next one's code loads, and that page may draw its heading again meanwhile).
        const heading = route.title ? text(header, route.title) : room.name;
        await page
          .waitForFunction(
            ({ heading, exact }) =>
              [...document.querySelectorAll('h1')].some((h) => (exact ? h.textContent?.trim() === heading : h.textContent?.includes(heading))),
            { heading, exact: route.title !== null },
            { timeout: 15_000 },
          )
          .catch(() => undefined);
        await page.waitForLoadState('networkidle');
        const lit = await page.locator('aside [aria-current="page"]').evaluateAll((links) => links.map((l) => l.getAttribute('data-testid')));
        expect(lit, route.path).toEqual(route.menu ? [`menu-${route.menu}`] : []);
        // What the eye sees: menu links drawn with a background of their own, once the entry left behind
        // has faded out (its colour eases over a moment after the router moves; the final state is what counts).
        const drawn = () =>
          page
            .locator('aside nav a')
            .evaluateAll((links) => links.filter((l) => getComputedStyle(l).backgroundColor !== 'rgba(0, 0, 0, 0)' && !l.matches(':hover')).length);
        const want = route.menu ? 1 : 0;
        await page
          .waitForFunction(
            (n) =>
              [...document.querySelectorAll('aside nav a')].filter((l) => getComputedStyle(l).backgroundColor !== 'rgba(0, 0, 0, 0)' && !l.matches(':hover'))
                .length === n,
            want,
            { timeout: 5_000 },
          )
          .catch(() => undefined);
        expect(await drawn(), route.path).toBe(want);
        const headings = await page.locator('h1').allTextContents();
        expect(headings, route.path).toHaveLength(1);
        if (route.title) expect(headings[0]!.trim(), route.path).toBe(text(header, route.title));
        else expect(headings[0]!.trim().length).toBeGreaterThan(0);
        if (route.path === '/room/tenant') await screenshot(page, `menu-one-entry-${header}`);
      }
    });
    // The public pages too.
    await withPage(browser, { language: code }, async (page) => {
      for (const route of [
        { path: '/login', title: 'login.title' },
        { path: '/find', title: 'find.title' },
        { path: '/404', title: 'notFound.title' },
      ]) {
        await page.goto(`${baseUrl()}${route.path}`);
        await page.locator('h1').first().waitFor();
        const headings = await page.locator('h1').allTextContents();
        expect(headings, route.path).toEqual([text(header, route.title)]);
      }
    });
  });

  it("opens a room's menu and the account menu from the keyboard, the first item focused, and Escape gives the focus back", async () => {
    await withPage(browser, { language: code }, async (page) => {
      await signIn(page, DEMO_OWNER, '/room');
      await page.getByTestId('room-tiles').waitFor();
      const focused = (testId: string) => page.waitForFunction((id) => document.activeElement?.getAttribute('data-testid') === id, testId);
      // The menus load on first use: the first Enter on a room's button opens its menu all the same.
      const actions = `room-actions-${fixtures.single}`;
      await page.getByTestId(actions).focus();
      await page.keyboard.press('Enter');
      await focused('room-action-details');
      await page.keyboard.press('Escape');
      await page.getByTestId('room-action-details').waitFor({ state: 'detached' });
      await focused(actions);
      // Then by the pointer, as before.
      await page.getByTestId(actions).click();
      await page.getByTestId('room-action-details').waitFor();
      await page.keyboard.press('Escape');
      await page.getByTestId('room-action-details').waitFor({ state: 'detached' });
      // The menu gives the focus back to its button as it closes: until then a key would still go there.
      await focused(actions);
      // The account menu, with the down arrow.
      await page.getByTestId('user-menu').focus();
      await page.keyboard.press('ArrowDown');
      await page.getByTestId('sign-out').waitFor();
      await page.waitForFunction(() => document.activeElement?.getAttribute('role') === 'menuitem');
      await page.keyboard.press('Escape');
      await focused('user-menu');
    });
  });

  it('asks before recording more breakfasts than guests, and records them once confirmed', async () => {
    await withPage(browser, { language: code }, async (page) => {
      await signIn(page);
      const room = await roomByName(page, fixtures.breakfast);
      const now = Date.now();
      const guest = `Breakfast ${header}`;
      const stay = await api<{ id: number }>(
        page,
        'stay.checkIn',
        {
          roomId: room.id,
          checkInAt: new Date(now).toISOString(),
          expectedCheckOutAt: new Date(now + 2 * 86_400_000).toISOString(),
          breakfast: true,
          guests: [{ name: guest }],
          idempotencyKey: `e2e-breakfast-${header}-${now}`,
          acknowledge: ['room_dirty'],
        },
        'mutation',
      );
      await page.goto(`${baseUrl()}/room/breakfast`);
      await page.getByTestId('breakfast-list').waitFor();
      await page.getByTestId('breakfast-next-day').click();
      const row = page.getByTestId(`breakfast-row-${stay.id}`);
      await row.waitFor();
      await page.getByTestId(`serve-${stay.id}`).click();
      const dialog = page.getByTestId('serve-dialog');
      await dialog.waitFor();
      await page.getByTestId('serve-count').fill('3');
      const asked = answerOf(page, 'stay.serveBreakfast', false);
      await page.getByTestId('serve-submit').click();
      expect((await asked).status()).toBe(412);
      const warning = page.getByTestId('serve-warning');
      await warning.waitFor();
      expect(await warning.textContent()).toContain(fixtures.breakfast);
      expect(await page.getByTestId('serve-count').getAttribute('aria-invalid')).toBe('true');
      expect((await page.getByTestId('serve-submit').textContent())?.trim()).toBe(text(header, 'stays.serveAnyway'));
      // Nothing was recorded yet.
      const date = new URL(page.url()).searchParams.get('date')!;
      const before = await api<{ rows: { stayId: number; servedAt: string | null }[] }>(page, 'stay.breakfast', { date });
      expect(before.rows.find((r) => r.stayId === stay.id)?.servedAt).toBeNull();
      await screenshot(page, `breakfast-warning-${header}`);

      const served = answerOf(page, 'stay.serveBreakfast');
      await page.getByTestId('serve-submit').click();
      const sent = Object.values(JSON.parse((await served).request().postData() ?? '{}') as Record<string, { guests: number; acknowledge: string[] }>)[0]!;
      expect(sent).toMatchObject({ guests: 3, acknowledge: ['more_than_guests'] });
      await dialog.waitFor({ state: 'detached' });
      await page.waitForFunction((id) => document.querySelector(`[data-testid="breakfast-row-${id}"]`)?.getAttribute('data-served') === 'true', stay.id);
      expect(await page.getByTestId(`served-guests-${stay.id}`).textContent()).toContain(digits(header, 3));
      await screenshot(page, `breakfast-served-${header}`);
      await api(page, 'stay.checkOut', { stayId: stay.id }, 'mutation');
    });
  });

  it('says whether a customer was frozen or unfrozen', async () => {
    await withPage(browser, { language: code }, async (page) => {
      await signIn(page);
      const found = await api<{ items: { id: number; nickname: string }[] }>(page, 'customer.list', { search: fixtures.customer });
      const customer = found.items[0]!;
      await page.goto(`${baseUrl()}/customer/customer?search=${fixtures.customer}`);
      await page.getByTestId(`customer-row-${customer.id}`).waitFor();

      await page.getByTestId(`freeze-${customer.id}`).click();
      await page.getByTestId('customer-confirm').getByTestId('confirm-action').click();
      await expectToast(page, text(header, 'customer.frozenSucceeded', { name: customer.nickname }));
      await page.waitForFunction((id) => document.querySelector(`[data-testid="customer-row-${id}"]`)?.getAttribute('data-frozen') === 'true', customer.id);
      await screenshot(page, `customer-frozen-toast-${header}`);

      await page.getByTestId(`unfreeze-${customer.id}`).click();
      await page.getByTestId('customer-confirm').getByTestId('confirm-action').click();
      await expectToast(page, text(header, 'customer.unfrozenSucceeded', { name: customer.nickname }));
      await page.waitForFunction((id) => document.querySelector(`[data-testid="customer-row-${id}"]`)?.getAttribute('data-frozen') === 'false', customer.id);
      await screenshot(page, `customer-unfrozen-toast-${header}`);
    });
  });

  it('marks the graphic code field invalid when the code is wrong, and the SMS code field on /find', async () => {
    await withPage(browser, { language: code }, async (page) => {
      await page.goto(`${baseUrl()}/login`);
      const answer = await captchaAnswer(page);
      const before = await page.getByTestId('captcha').getAttribute('data-captcha-id');
      await page.locator('#account').fill(DEMO_OWNER.account);
      await page.locator('#password').fill(DEMO_OWNER.password);
      await page.locator('#captchaCode').fill(answer.toLowerCase() === 'zzzz' ? 'yyyy' : 'zzzz');
      const refused = answerOf(page, 'auth.login', false);
      await page.getByTestId('login-submit').click();
      expect((await refused).status()).toBe(400);
      const field = page.locator('#captchaCode');
      await page.waitForFunction(() => document.querySelector('#captchaCode')?.getAttribute('aria-invalid') === 'true');
      expect(await page.locator('#captchaCode-error').textContent()).toBe(text(header, 'errors.CAPTCHA_INVALID'));
      expect((await field.getAttribute('aria-describedby'))?.split(' ')).toContain('captchaCode-error');
      expect(await field.inputValue()).toBe('');
      await page.waitForFunction(() => document.activeElement?.id === 'captchaCode');
      // A new picture for the next try.
      await page.waitForFunction((old) => document.querySelector('[data-testid="captcha"]')?.getAttribute('data-captcha-id') !== old, before);
      expect(await page.locator('[data-sonner-toast]').count()).toBe(0);
      await screenshot(page, `login-wrong-code-${header}`);

      await page.goto(`${baseUrl()}/find`);
      await page.locator('#mobile').fill('13712345678');
      await page.locator('#code').fill('123456');
      await page.locator('#newPassword').fill('new-password-1');
      await page.locator('#confirmPassword').fill('new-password-1');
      const reset = answerOf(page, 'auth.resetPassword', false);
      await page.getByTestId('reset-submit').click();
      expect((await reset).status()).toBe(400);
      await page.waitForFunction(() => document.querySelector('#code')?.getAttribute('aria-invalid') === 'true');
      expect(await page.locator('#code-error').textContent()).toBe(text(header, 'errors.SMS_CODE_INVALID'));
      expect((await page.locator('#code').getAttribute('aria-describedby'))?.split(' ')).toContain('code-error');
      await screenshot(page, `find-wrong-code-${header}`);
    });
  });

  it('keeps currency suffixes, magnifiers and the password eye clear of what is typed; form dialogs ask before discarding; apply-template picks rooms past the first page', async () => {
    await withPage(browser, { language: code }, async (page) => {
      await signIn(page, DEMO_OWNER, `/room/priceTemplate`);
      await page.getByTestId('add-template').click();
      const dialog = page.getByTestId('template-dialog');
      await dialog.waitFor();
      await page.locator('#template-name').fill(`E2E ${header}`);
      for (const amount of ['1234.56', '123456789012.99']) {
        await page.locator('#template-usual').fill(amount);
        const boxes = await fieldAndAdornment(page, '#template-usual', '#template-usual ~ [data-slot="currency"]');
        expect(boxes.adornment.width).toBeGreaterThan(10);
        expect(overlaps(boxes.content, boxes.adornment), JSON.stringify(boxes)).toBe(false);
        expect(overlaps(boxes.value, boxes.adornment), JSON.stringify(boxes)).toBe(false);
        expect(boxes.adornment.left).toBeGreaterThanOrEqual(boxes.field.left);
        expect(boxes.adornment.right).toBeLessThanOrEqual(boxes.field.right);
      }
      await page.locator('#template-usual').fill('300');
      await page.getByTestId('add-date-price').click();
      await page.getByTestId('template-date-0').fill('2030-12-24');
      await page.getByTestId('template-date-price-0').fill('888');
      expect(await page.getByTestId('template-date-0-reading').textContent()).toBe(
        new Intl.DateTimeFormat(header, { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' }).format(Date.UTC(2030, 11, 24)),
      );
      await screenshot(page, `template-dialog-${header}`);
      // Escape asks first; keeping the changes keeps the dialog.
      await page.keyboard.press('Escape');
      await page.getByTestId('discard-changes').waitFor();
      await page.getByTestId('keep-editing').click();
      await page.getByTestId('discard-changes').waitFor({ state: 'detached' });
      expect(await dialog.isVisible()).toBe(true);
      const saved = answerOf(page, 'price.saveTemplate');
      await page.getByTestId('template-submit').click();
      await saved;
      await dialog.waitFor({ state: 'detached' });
      const templateRow = page.locator('[data-testid^="template-row-"]', { hasText: `E2E ${header}` });
      await templateRow.waitFor();
      const templateId = (await templateRow.getAttribute('data-testid'))!.replace('template-row-', '');

      // Apply it to two rooms found with the paged picker (one of them on its second page).
      await page.getByTestId(`apply-template-${templateId}`).click();
      await page.getByTestId('apply-dialog').waitFor();
      await page.getByTestId('apply-to-rooms').click();
      await page.getByTestId('apply-rooms').click();
      const [firstRoom, secondRoom] = fixtures.apply;
      await page.getByTestId('apply-rooms-search').fill(firstRoom);
      const first = await roomByName(page, firstRoom);
      await page.getByTestId(`apply-rooms-option-${first.id}`).click();
      await page.getByTestId('apply-rooms-search').fill('');
      // The first page of all rooms (20 of 30, by name): rooms 301-310 are on the second.
      const [second, firstOfAll] = await Promise.all([roomByName(page, secondRoom), roomByName(page, '101')]);
      await page.getByTestId(`apply-rooms-option-${firstOfAll.id}`).waitFor();
      if ((await page.getByTestId(`apply-rooms-option-${second.id}`).count()) === 0)
        await page.getByRole('button', { name: text(header, 'pagination.next') }).click();
      await page.getByTestId(`apply-rooms-option-${second.id}`).click();
      await page.keyboard.press('Escape');
      await screenshot(page, `apply-template-${header}`);
      const applied = answerOf(page, 'price.applyTemplate');
      await page.getByTestId('apply-submit').click();
      const sent = Object.values(JSON.parse((await applied).request().postData() ?? '{}') as Record<string, { roomIds: number[] }>)[0]!;
      expect([...sent.roomIds].sort()).toEqual([first.id, second.id].sort());
      await page.getByTestId('apply-dialog').waitFor({ state: 'detached' });

      // Add room: Cancel with a name typed asks; discarding closes it with nothing created.
      await page.goto(`${baseUrl()}/room`);
      await page.getByTestId('add-room').click();
      await page.getByTestId('add-room-name').fill('E2E-NOT-SAVED');
      await page.getByTestId('add-room-dialog').getByTestId('form-dialog-cancel').click();
      await page.getByTestId('discard-changes').waitFor();
      await page.getByTestId('discard-confirm').click();
      await page.getByTestId('add-room-dialog').waitFor({ state: 'detached' });

      // The room board's and the customers' magnifiers, the password's eye.
      await page.getByTestId('room-search').fill('30');
      let boxes = await fieldAndAdornment(page, '[data-testid="room-search"]', ':has(> [data-testid="room-search"]) > svg');
      expect(overlaps(boxes.content, boxes.adornment), JSON.stringify(boxes)).toBe(false);
      expect(overlaps(boxes.value, boxes.adornment), JSON.stringify(boxes)).toBe(false);
      await page.goto(`${baseUrl()}/customer/customer`);
      await page.getByTestId('customer-search').fill('Li Wei');
      boxes = await fieldAndAdornment(page, '[data-testid="customer-search"]', ':has(> [data-testid="customer-search"]) > svg');
      expect(overlaps(boxes.content, boxes.adornment), JSON.stringify(boxes)).toBe(false);
      await screenshot(page, `customer-search-${header}`);
      await page.goto(`${baseUrl()}/user/changePsw`);
      await page.locator('#oldPassword').fill('a-long-password-typed-here');
      boxes = await fieldAndAdornment(page, '#oldPassword', '#oldPassword ~ [data-slot="password-toggle"]');
      expect(overlaps(boxes.content, boxes.adornment), JSON.stringify(boxes)).toBe(false);
      expect(overlaps(boxes.value, boxes.adornment), JSON.stringify(boxes)).toBe(false);
      await screenshot(page, `change-password-${header}`);
    });
  });
});

// The phone board in the language after the file's own (decision 034): a run sees the board on a
// desktop and on a phone in two languages.
describe.each(languageRuns(LANGUAGES, import.meta.url, undefined, 1))('the board on a phone in $header', ({ code, header }) => {
  it('fits a 390 px phone: three tiles a row, filters folded away, a drawer that Escape and × close, scrolling tabs', async () => {
    await withPage(browser, { language: code, width: 390, height: 844 }, async (page) => {
      await signIn(page, DEMO_OWNER, `/room`);
      await page.getByTestId('room-tile-101').waitFor();
      const tops = await page
        .locator('[data-testid^="room-tile-"]')
        .evaluateAll((tiles) => tiles.slice(0, 6).map((t) => Math.round(t.getBoundingClientRect().top)));
      expect(tops.filter((top) => top === tops[0]).length).toBeGreaterThanOrEqual(3);
      // The first screen shows rooms, and nothing is wider than the phone.
      const first = (await page.getByTestId('room-tile-101').boundingBox())!;
      expect(first.y + first.height).toBeLessThan(844 * 0.6);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      // The status chips wrap (issue 17 §5): all of them in sight, Dirty and Maintain too, in three lines at most.
      const statusRow = (await page.getByTestId('status-filter').boundingBox())!;
      expect(statusRow.height).toBeLessThan(120);
      expect(statusRow.x + statusRow.width).toBeLessThanOrEqual(390);
      for (const status of ['dirty', 'maintain']) {
        const chip = (await page.getByTestId(`status-filter-${status}`).boundingBox())!;
        expect(chip.x).toBeGreaterThanOrEqual(0);
        expect(chip.x + chip.width).toBeLessThanOrEqual(390);
      }
      // Group and sort wait behind "Filters".
      expect(await page.getByTestId('room-group-filter').isVisible()).toBe(false);
      expect(await page.getByTestId('filters-toggle').textContent()).toContain(text(header, 'common.filters'));
      await screenshot(page, `phone-board-${header}`);
      await page.getByTestId('filters-toggle').click();
      await page.getByTestId('room-group-filter').waitFor();
      expect(await page.getByTestId('filters-toggle').getAttribute('aria-expanded')).toBe('true');
      await screenshot(page, `phone-board-filters-${header}`);
      await page.getByTestId('filters-toggle').click();
      await page.getByTestId('room-group-filter').waitFor({ state: 'hidden' });

      // The drawer: focus moves into it and stays there; Escape closes it and gives the focus back.
      const sidebar = page.getByTestId('sidebar');
      const isClosed = () => page.waitForFunction(() => document.querySelector('[data-testid="sidebar"]')?.getAttribute('data-state') === 'closed');
      expect(await sidebar.getAttribute('data-state')).toBe('closed');
      const off = (await sidebar.boundingBox())!;
      expect(off.x + off.width <= 1 || off.x >= 389).toBe(true);
      await page.getByTestId('sidebar-toggle').click();
      await page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'sidebar-close');
      expect(await page.getByTestId('sidebar-close').getAttribute('aria-label')).toBe(text(header, 'layout.closeMenu'));
      for (let i = 0; i < 12; i++) {
        await page.keyboard.press(i % 4 === 3 ? 'Shift+Tab' : 'Tab');
        expect(await page.evaluate(() => Boolean(document.activeElement?.closest('[data-testid="sidebar"]')))).toBe(true);
      }
      await screenshot(page, `phone-drawer-${header}`);
      await page.keyboard.press('Escape');
      await isClosed();
      await page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'sidebar-toggle');
      // The × button closes it too.
      await page.getByTestId('sidebar-toggle').click();
      await page.getByTestId('sidebar-close').waitFor();
      await page.getByTestId('sidebar-close').click();
      await isClosed();

      // The room page's tabs stay on the phone and scroll sideways.
      const room = await roomByName(page, '101');
      await page.goto(`${baseUrl()}/room/${room.id}`);
      const tabs = page.getByRole('tablist').first();
      await tabs.waitFor();
      const row = await tabs.evaluate((el) => ({
        left: el.getBoundingClientRect().left,
        right: el.getBoundingClientRect().right,
        scroll: el.scrollWidth,
        client: el.clientWidth,
        overflow: getComputedStyle(el).overflowX,
      }));
      expect(row.left).toBeGreaterThanOrEqual(0);
      expect(row.right).toBeLessThanOrEqual(390);
      expect(row.overflow).toBe('auto');
      // A row that scrolls says so: the side hiding more tabs fades out (the end: right, or left in Arabic),
      // then the other once scrolled to the end (issue 39 §12); a row that fits fades nothing.
      const scrolls = row.scroll > row.client + 1;
      await expect.poll(() => tabs.getAttribute('data-fade')).toBe(scrolls ? (header === 'ar' ? 'left' : 'right') : null);
      if (scrolls) expect(await tabs.evaluate((el) => getComputedStyle(el).maskImage)).toContain('linear-gradient');
      const lastTab = page.getByRole('tab').last();
      await lastTab.click();
      const last = (await lastTab.boundingBox())!;
      expect(last.x).toBeGreaterThanOrEqual(0);
      expect(last.x + last.width).toBeLessThanOrEqual(390);
      await expect.poll(() => tabs.getAttribute('data-fade')).toBe(scrolls ? (header === 'ar' ? 'right' : 'left') : null);
      await screenshot(page, `phone-room-${header}`);
    });
  });
});
