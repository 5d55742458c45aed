import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEMO_OWNER,
  DEMO_STAFF,
  baseUrl,
  captchaAnswer,
  closeRedis,
  fillLogin,
  inContext,
  launchBrowser,
  newContext,
  readSmsOutbox,
  screenshot,
  signIn,
} from './support';

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await closeRedis();
});

async function withPage<T>(options: Parameters<typeof newContext>[1], run: (page: Page) => Promise<T>): Promise<T> {
  const context = await newContext(browser, options);
  const page = await context.newPage();
  return inContext(context, () => run(page));
}

/** Waits for a toast with this text (sonner keeps older ones on screen for a while). */
const expectToast = (page: Page, text: string) => page.locator('[data-sonner-toast]', { hasText: text }).first().waitFor();

describe('route guard and sign-in', () => {
  it('sends a signed-out visitor to /login with the wanted path, then back to it after signing in with the graphic code', async () => {
    await withPage({ language: 'chs' }, async (page) => {
      await page.goto(`${baseUrl()}/customer/customer?page=2`);
      await page.waitForURL(/\/login\?redirect=/);
      expect(new URL(page.url()).searchParams.get('redirect')).toBe('/customer/customer?page=2');
      await page.waitForFunction(() => document.title === '登录 - 智能门锁管理系统');
      await screenshot(page, 'login-zh-CN');

      await fillLogin(page, DEMO_OWNER);
      await page.waitForURL(/\/customer\/customer\?page=2/);
      await page.getByTestId('customer-table').waitFor();
      await page.waitForFunction(() => document.title === '用户列表 - 智能门锁管理系统');
      // 50 demo customers, 20 a page: page 2 holds 20 rows.
      await expect(page.locator('[data-testid^="customer-row-"]').count()).resolves.toBe(20);
      await screenshot(page, 'customers-zh-CN');

      // Signed in, /login leaves for /room, and an unknown path goes to /404.
      await page.goto(`${baseUrl()}/login`);
      await page.waitForURL((url) => !url.pathname.startsWith('/login'));
      await page.goto(`${baseUrl()}/no/such/page`);
      await page.waitForURL(/\/404$/);
      await page.getByText('404').first().waitFor();
      await screenshot(page, 'not-found-zh-CN');
    });
  });

  it('shows the wrong-password message in Chinese and in English, and a new code each time', async () => {
    for (const [language, message] of [
      ['chs', '账号或密码错误'],
      ['en', 'Incorrect account or password.'],
    ] as const) {
      await withPage({ language }, async (page) => {
        await page.goto(`${baseUrl()}/login`);
        const before = await captchaAnswer(page);
        await fillLogin(page, { account: DEMO_OWNER.account, password: 'wrong-password' });
        await expectToast(page, message);
        await page.waitForFunction((old) => document.querySelector('[data-testid="captcha"]')?.getAttribute('data-captcha-id') !== old, before);
        await screenshot(page, `login-wrong-password-${language}`);
      });
    }
  });

  it('shows the form rules of spec §5 before sending anything', async () => {
    await withPage({ language: 'en' }, async (page) => {
      await page.goto(`${baseUrl()}/login`);
      await page.locator('#account').fill('12345');
      await page.locator('#password').fill('123');
      await page.getByTestId('login-submit').click();
      await page.getByText('Enter a valid mobile number or e-mail address').waitFor();
      await page.getByText('The password must be longer than 6 characters').waitFor();
      await page.getByText('The verification code cannot be empty').waitFor();
      await page.locator('#account').fill('owner@');
      await page.locator('#account').blur();
      await page.getByText('Incorrect e-mail format').waitFor();
      await screenshot(page, 'login-validation-en');
    });
  });
});

describe('layout', () => {
  it('switches to Arabic, which lays out right to left', async () => {
    await withPage({ language: 'en' }, async (page) => {
      await signIn(page);
      await page.getByTestId('language-select').click();
      await Promise.all([page.waitForEvent('load'), page.locator('[data-language="Arabic"]').click()]);
      await page.getByTestId('sidebar').waitFor();
      expect(await page.evaluate(() => [document.documentElement.dir, document.documentElement.lang, localStorage.getItem('language')])).toEqual([
        'rtl',
        'ar',
        'Arabic',
      ]);
      // The sidebar sits on the right in RTL.
      const box = await page.getByTestId('sidebar').boundingBox();
      expect(box!.x).toBeGreaterThan(600);
      await page.getByTestId('customer-table').waitFor();
      await screenshot(page, 'customers-ar');
    });
  });

  it('keeps the sidebar state in the sidebarStatus cookie, and closes it below 992px', async () => {
    await withPage({ language: 'en', width: 1280 }, async (page) => {
      await signIn(page);
      const sidebar = page.getByTestId('sidebar');
      expect(await sidebar.getAttribute('data-state')).toBe('open');
      expect((await sidebar.boundingBox())!.width).toBe(210);
      await page.getByTestId('sidebar-toggle').click();
      expect(await sidebar.getAttribute('data-state')).toBe('closed');
      await page.reload();
      await sidebar.waitFor();
      expect(await sidebar.getAttribute('data-state')).toBe('closed');
      const cookie = (await page.context().cookies()).find((c) => c.name === 'sidebarStatus');
      expect(cookie?.value).toBe('0');
      await screenshot(page, 'sidebar-collapsed-en');

      await page.getByTestId('sidebar-toggle').click();
      expect(await sidebar.getAttribute('data-state')).toBe('open');
      await page.setViewportSize({ width: 991, height: 800 });
      await page.waitForFunction(() => document.querySelector('[data-testid="sidebar"]')?.getAttribute('data-state') === 'closed');
      await page.reload();
      await sidebar.waitFor();
      expect(await sidebar.getAttribute('data-state')).toBe('closed');
      await screenshot(page, 'sidebar-991px-en');
      await page.getByTestId('sidebar-toggle').click();
      await page.getByTestId('sidebar-overlay').waitFor();
      await screenshot(page, 'sidebar-991px-open-en');
      await page.getByTestId('sidebar-overlay').click();
      expect(await sidebar.getAttribute('data-state')).toBe('closed');
    });
  });
});

describe('customers', () => {
  it('searches, opens the detail drawer, and freezes a customer after confirming', async () => {
    await withPage({ language: 'en' }, async (page) => {
      await signIn(page);
      await page.getByTestId('customer-table').waitFor();
      await page.keyboard.press('/');
      await page.keyboard.type('15000000007');
      const rows = page.locator('[data-testid^="customer-row-"]');
      await page.waitForFunction(() => document.querySelectorAll('[data-testid^="customer-row-"]').length === 1);
      const row = rows.first();
      const id = (await row.getAttribute('data-testid'))!.replace('customer-row-', '');

      await page.getByTestId(`view-${id}`).click();
      await page.getByTestId('customer-drawer').getByText('guest7@example.com').waitFor();
      await screenshot(page, 'customer-drawer-en');
      await page.keyboard.press('Escape');

      await page.getByTestId(`freeze-${id}`).click();
      const dialog = page.getByTestId('customer-confirm');
      await dialog.waitFor();
      await screenshot(page, 'customer-freeze-confirm-en');
      await dialog.getByTestId('confirm-action').click();
      // The toast says which way the state went, and whose (the 7th demo customer).
      await expectToast(page, 'Customer "Zhao Jing 1" is now frozen');
      await page.waitForFunction((rowId) => document.querySelector(`[data-testid="customer-row-${rowId}"]`)?.getAttribute('data-frozen') === 'true', id);
      await page.getByText('Frozen', { exact: true }).first().waitFor();
      await screenshot(page, 'customer-frozen-en');

      // Cancelling the confirm changes nothing: no call goes out, and the server, asked again
      // once the dialog has gone, still says frozen (the row is read from that answer).
      const sent: string[] = [];
      page.on('request', (request) => {
        if (request.url().includes('customer.setFrozen')) sent.push(request.url());
      });
      await page.getByTestId(`unfreeze-${id}`).click();
      await page.getByTestId('customer-confirm').getByRole('button', { name: 'Cancel' }).click();
      await page.getByTestId('customer-confirm').waitFor({ state: 'detached' });
      const reloaded = page.waitForResponse((r) => r.url().includes('customer.list') && r.status() === 200);
      await page.getByRole('button', { name: 'Refresh' }).click();
      const answer = (await (await reloaded).json()) as { result: { data: { items: { id: number; frozen: boolean }[] } } }[];
      expect(answer[0]!.result.data.items.find((c) => c.id === Number(id))?.frozen).toBe(true);
      expect(await row.getAttribute('data-frozen')).toBe('true');
      expect(sent).toEqual([]);
    });
  });

  it('shows an empty state when nothing matches', async () => {
    await withPage({ language: 'chs' }, async (page) => {
      await signIn(page, DEMO_OWNER, '/login?redirect=%2Fcustomer%2Fcustomer%3Fsearch%3Dnobody-here');
      await page.getByText('没有符合条件的用户').waitFor();
      await screenshot(page, 'customers-empty-zh-CN');
    });
  });
});

describe('account', () => {
  it('signs out to /login with the redirect parameter', async () => {
    await withPage({ language: 'en' }, async (page) => {
      await signIn(page);
      await page.getByTestId('user-menu').click();
      await screenshot(page, 'user-menu-en');
      // Not modal (nothing else hidden), yet used as a menu: Escape closes it and gives the focus back
      // to its button; the keyboard opens it on its first item and the arrows move along; a click
      // outside closes it.
      const menuOpen = () => page.locator('[role="menu"]').count();
      const focusedTestId = () => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.getAttribute('role'));
      await page.keyboard.press('Escape');
      await page.waitForFunction(() => !document.querySelector('[role="menu"]'));
      // Radix gives the focus back (and to the first item) a moment after the menu's change: waited for, not read at once.
      await expect.poll(focusedTestId).toBe('user-menu');
      await page.keyboard.press('Enter');
      await page.locator('[role="menu"]').waitFor();
      await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('menuitem');
      const first = await page.evaluate(() => document.activeElement?.textContent);
      await page.keyboard.press('ArrowDown');
      await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).not.toBe(first);
      // Outside the menu, on the page's own empty space (a non-modal menu lets a click reach what is under it).
      const main = (await page.locator('main').boundingBox())!;
      await page.mouse.click(main.x + main.width - 10, main.y + main.height - 10);
      await page.waitForFunction(() => !document.querySelector('[role="menu"]'));
      expect(await menuOpen()).toBe(0);
      await page.getByTestId('user-menu').click();
      await page.getByTestId('sign-out').click();
      await page.waitForURL(/\/login\?redirect=/);
      expect(new URL(page.url()).searchParams.get('redirect')).toMatch(/^\/customer\/customer/);
      // The session is gone: the console is out of reach again.
      await page.goto(`${baseUrl()}/customer/customer`);
      await page.waitForURL(/\/login\?redirect=/);
    });
  });

  it('changes the password, which forces a new sign-in everywhere', async () => {
    await withPage({ language: 'en' }, async (page) => {
      await signIn(page, DEMO_STAFF);
      const otherDevice = await newContext(browser, { language: 'en' });
      const other = await otherDevice.newPage();
      await signIn(other, DEMO_STAFF);

      await page.goto(`${baseUrl()}/user/changePsw`);
      await page.locator('#oldPassword').fill(DEMO_STAFF.password);
      await page.locator('#newPassword').fill('short');
      await page.locator('#confirmPassword').fill('different');
      await page.getByTestId('change-password-submit').click();
      await page.getByText('The new password must be longer than 6 characters').waitFor();
      await screenshot(page, 'change-password-validation-en');
      await page.locator('#newPassword').fill('staff-new-pass');
      await page.locator('#confirmPassword').fill('staff-new-pass');
      await page.getByTestId('change-password-submit').click();
      await expectToast(page, 'Password changed. Please sign in again.');
      await page.waitForURL(/\/login/);

      // The other device learns at its next call that its sign-in expired (errno 100003).
      await other.reload();
      await other.getByTestId('session-expired').waitFor();
      await screenshot(other, 'session-expired-en');
      await Promise.all([other.waitForURL(/\/login/), other.getByRole('button', { name: 'Sign in again' }).click()]);
      await otherDevice.close();

      await fillLogin(page, { account: DEMO_STAFF.account, password: 'staff-new-pass' });
      await page.getByTestId('sidebar').waitFor();
    });
  });

  it('recovers a password with the SMS code and returns to /login', async () => {
    await withPage({ language: 'en' }, async (page) => {
      await page.goto(`${baseUrl()}/find`);
      await page.locator('#mobile').fill(DEMO_STAFF.account);
      const sentAt = Date.now();
      await page.getByTestId('send-code').click();
      await page.getByText(/Resend in \d+ s/).waitFor();
      let code: string | undefined;
      for (let i = 0; i < 100 && !code; i++) {
        code = (await readSmsOutbox()).find((m) => m.to === DEMO_STAFF.account && Date.parse(m.at) >= sentAt - 1000)?.text.match(/\d{6}/)?.[0];
        if (!code) await page.waitForTimeout(100);
      }
      await page.locator('#code').fill(code!);
      await page.locator('#newPassword').fill(DEMO_STAFF.password);
      await page.locator('#confirmPassword').fill(DEMO_STAFF.password);
      await screenshot(page, 'find-password-en');
      await page.getByTestId('reset-submit').click();
      await page.waitForURL(/\/login/);
      await expectToast(page, 'Password reset. Sign in with your new password.');
      await fillLogin(page, DEMO_STAFF);
      await page.getByTestId('sidebar').waitFor();
    });
  });
});
