import { randomBytes } from 'node:crypto';
import zlib from 'node:zlib';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_OWNER, baseUrl, closeRedis, launchBrowser, newContext, screenshot, signIn } from './support';
import { languageRuns } from './support-board';
import { pairedRoom, sim } from './support-locks';
import { closeGuestKeys, guestKeysDialog } from './support-keys';
import { answerCheckOut, closeSql, sql, text, waitForRoomStatus } from './support-stays';

/**
 * Faces, in Chinese, English and Arabic, against the console's lock simulator: a face added to
 * the face database with a photo (the spec's required-field messages first), authorised on a room
 * from its Credentials tab (sending, then on the lock, with no reload), shown at the simulated
 * lock, its opening on the records-by-person page under the face's note; the face cannot be
 * deleted while on a lock (the rooms named); the authorisation deleted after a confirmation.
 * Each run has a room of its own, made for it and paired with a new simulated lock.
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

/**
 * A colour PNG made here: `side` x `side` random pixels, stored without compression, so that its
 * size is about 3 bytes a pixel (a face photo must be 300 KB to 2 MB: 330 x 330 is about 320 KB).
 */
function png(side = 330): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(8 + data.length + 4);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), 8 + data.length);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(side, 0);
  ihdr.writeUInt32BE(side, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const rowBytes = 1 + side * 3;
  const raw = randomBytes(rowBytes * side);
  for (let y = 0; y < side; y++) raw[y * rowBytes] = 0;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(raw, { level: 0 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Whether an image of the page has loaded (decoded, not broken). */
const imageLoaded = (page: Page, selector: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0);

const RUNS = [
  { code: 'chs', header: 'zh-CN', room: 'FACE-zh', faceId: 'F-ZH-01', note: '陈思远', mobile: '13712340001' },
  { code: 'en', header: 'en', room: 'FACE-en', faceId: 'F-EN-01', note: 'Nora Lindqvist', mobile: '13712340002' },
  { code: 'Arabic', header: 'ar', room: 'FACE-ar', faceId: 'F-AR-01', note: 'سلمى النجار', mobile: '13712340003' },
] as const;

describe.each(languageRuns(RUNS, import.meta.url))('faces in $header', ({ code, header, room, faceId, note, mobile }) => {
  let context: BrowserContext;
  let page: Page;
  let paired: { roomId: number; lockId: string };
  beforeAll(async () => {
    paired = await pairedRoom(room);
    context = await newContext(browser, { language: code });
    page = await context.newPage();
    await signIn(page, DEMO_OWNER);
  });
  afterAll(async () => {
    await context?.close();
  });

  it('adds a face with a photo to the face database', async () => {
    await page.goto(`${baseUrl()}/faces`);
    await page.getByTestId('add-face').first().click();
    await page.getByTestId('add-face-dialog').waitFor();
    if (header === 'ar') expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    // Nothing filled: the spec's messages, each next to its field.
    await page.getByTestId('add-face-submit').click();
    await expect.poll(() => page.locator('#face-id-error').innerText()).toBe(text(header, 'validation.faceIdRequired'));
    expect(await page.locator('#face-note-error').innerText()).toBe(text(header, 'validation.faceNoteRequired'));
    expect(await page.locator('#face-photo-error').innerText()).toBe(text(header, 'validation.faceImageRequired'));

    await page.getByTestId('face-id').fill(faceId);
    await page.getByTestId('face-note').fill(note);
    // A photo smaller than a face module takes: refused, in words.
    await page.getByTestId('face-photo-input').setInputFiles({ name: 'small.png', mimeType: 'image/png', buffer: png(64) });
    await expect.poll(() => page.locator('#face-photo-error').innerText()).toBe(text(header, 'validation.faceImageTooSmall'));
    await page.getByTestId('face-photo-input').setInputFiles({ name: 'face.png', mimeType: 'image/png', buffer: png() });
    await page.getByTestId('face-photo-preview').locator('img').waitFor();
    await expect.poll(() => page.locator('#face-photo-error').innerText()).toBe('');
    // The preview is a signed, short-lived URL; the photo's own path is never served.
    const preview = (await page.getByTestId('face-photo-preview').locator('img').getAttribute('src'))!;
    expect(preview).toMatch(/^\/api\/faces\/upload\//);
    await expect.poll(() => imageLoaded(page, '[data-testid="face-photo-preview"] img')).toBe(true);
    if (header !== 'zh-CN') await screenshot(page, `face-add-${header}`);
    await page.getByTestId('add-face-submit').click();
    await page.getByTestId('add-face-dialog').waitFor({ state: 'detached' });
    await page.getByTestId(`face-row-${faceId}`).waitFor();
    expect(await page.getByTestId(`face-row-${faceId}`).innerText()).toContain(note);
    // The list shows the photo by a signed URL; the stored path answers 404 to anyone.
    const listed = (await page.getByTestId(`face-row-${faceId}`).locator('img').getAttribute('src'))!;
    expect(listed).toMatch(/^\/api\/faces\/photo\//);
    await expect.poll(() => imageLoaded(page, `[data-testid="face-row-${faceId}"] img`)).toBe(true);
    const [stored] = await sql<{ imageUrl: string }>(`SELECT "imageUrl" FROM "Face" WHERE "faceId" = $1`, [faceId]);
    expect(stored!.imageUrl).toMatch(/^\/uploads\//);
    expect((await page.request.get(`${baseUrl()}${stored!.imageUrl}`)).status()).toBe(404);
    expect((await page.request.get(`${baseUrl()}${listed}`)).status()).toBe(200);
  });

  it(`authorises it on ${room}, sees it reach the lock, opens the door with it and finds the record`, async () => {
    await page.goto(`${baseUrl()}/room/${paired.roomId}?tab=credentials`);
    await page.getByTestId('room-faces').waitFor();
    await page.getByTestId('room-faces-empty').waitFor();
    await page.getByTestId('authorize-face').click();
    await page.getByTestId('authorize-face-dialog').waitFor();
    // No stay in this room: a period, from now for a day.
    expect(await page.getByTestId('authorize-mode-period').isChecked()).toBe(true);
    await page.getByTestId('authorize-face-search').fill(faceId);
    await page.getByTestId(`authorize-face-${faceId}`).check();
    // The lock's answer held until the page has shown the face being sent, then let go.
    await sim('PATCH', `/locks/${paired.lockId}`, { latencyMs: 600_000 });
    const row = page.getByTestId(`face-authorization-${faceId}`);
    try {
      await page.getByTestId('authorize-face-submit').click();
      await page.getByTestId('authorize-face-dialog').waitFor({ state: 'detached', timeout: 20_000 });
      await page.locator(`[data-testid="face-authorization-${faceId}"][data-state="pending"]`).waitFor({ timeout: 20_000 });
      expect(await row.getByTestId('delivery-state').innerText()).toBe(text(header, 'credentials.states.pending'));
      await sim('PATCH', `/locks/${paired.lockId}`, { latencyMs: null });
      await page.locator(`[data-testid="face-authorization-${faceId}"][data-state="on_lock"]`).waitFor({ timeout: 20_000 });
      expect(await row.getByTestId('delivery-state').innerText()).toBe(text(header, 'credentials.states.on_lock'));
    } finally {
      await sim('PATCH', `/locks/${paired.lockId}`, { latencyMs: null });
    }
    await page.getByTestId('room-faces').scrollIntoViewIfNeeded();
    if (header !== 'zh-CN') await screenshot(page, `room-faces-${header}`);

    // The face shown at the lock opens it; the record comes by the lock cloud's callback.
    const [auth] = await sql<{ id: number; providerRef: string }>(
      `SELECT a.id, a."providerRef" FROM "FaceAuthorization" a JOIN "Face" f ON f.id = a."faceId" WHERE f."faceId" = $1 AND a."roomId" = $2`,
      [faceId, paired.roomId],
    );
    expect(await sim<{ opened: boolean }>('POST', `/locks/${paired.lockId}/use`, { faceId: Number(auth!.providerRef) })).toMatchObject({ opened: true });

    // "Records of this face" leads to the records-by-person page for this authorisation.
    await page.getByTestId(`face-${faceId}-records`).click();
    await page.getByTestId('records-credential').waitFor();
    expect(new URL(page.url()).searchParams.get('credential')).toBe(`face:${auth!.id}`);
    // Searched by the face's note: the opening, in this room, by face.
    await page.goto(`${baseUrl()}/unlock-records?person=${encodeURIComponent(note)}`);
    const record = page.locator('[data-testid^="record-"]').filter({ hasText: note });
    await expect
      .poll(
        async () => {
          if ((await record.count()) === 0)
            await page
              .getByRole('button', { name: text(header, 'common.refresh') })
              .click()
              .catch(() => undefined);
          return record.count();
        },
        { timeout: 30_000, interval: 2_000 },
      )
      .toBeGreaterThan(0);
    const line = await record.first().innerText();
    expect(line).toContain(room);
    expect(line).toContain(text(header, 'frontDesk.detail.unlockStyles.face'));
    expect(line).toContain(text(header, 'unlockRecords.succeeded'));
    if (header !== 'zh-CN') {
      await screenshot(page, `unlock-records-${header}`);
      await page.setViewportSize({ width: 390, height: 844 });
      await screenshot(page, `unlock-records-phone-${header}`);
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });

  it('refuses to delete the face while it is on a lock, naming the room, then deletes the authorisation after a confirmation', async () => {
    await page.goto(`${baseUrl()}/faces?search=${encodeURIComponent(faceId)}`);
    await page.getByTestId(`face-delete-${faceId}`).click();
    await page.getByTestId('face-delete-dialog').waitFor();
    await page.getByTestId('face-delete-confirm').click();
    const dialog = page.getByTestId('face-delete-dialog');
    await expect.poll(() => dialog.innerText()).toContain(room);
    if (header !== 'zh-CN') await screenshot(page, `face-delete-refused-${header}`);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    if (header !== 'zh-CN') {
      await page.setViewportSize({ width: 390, height: 844 });
      await screenshot(page, `faces-phone-${header}`);
      await page.setViewportSize({ width: 1280, height: 800 });
    }

    await page.goto(`${baseUrl()}/room/${paired.roomId}?tab=credentials`);
    // The authorisation's own note (the face database's stays as it is).
    await page.getByTestId(`face-${faceId}-note`).click();
    await page.getByTestId('authorization-note-dialog').waitFor();
    await page.getByTestId('face-authorization-note').fill(`${note} · 2F`);
    await page.getByTestId('authorization-note-submit').click();
    await page.getByTestId('authorization-note-dialog').waitFor({ state: 'detached' });
    await expect.poll(() => page.getByTestId(`face-authorization-${faceId}`).innerText()).toContain(`${note} · 2F`);

    await page.getByTestId(`face-${faceId}-revoke`).click();
    await page.getByTestId('revoke-face-dialog').waitFor();
    await page.getByTestId('revoke-face-confirm').click();
    await page.getByTestId('revoke-face-dialog').waitFor({ state: 'detached' });
    // Off the lock: gone from the active list, and the lock refuses the face.
    await page.getByTestId('room-faces-empty').waitFor({ timeout: 20_000 });
    const [auth] = await sql<{ providerRef: string }>(
      `SELECT a."providerRef" FROM "FaceAuthorization" a JOIN "Face" f ON f.id = a."faceId" WHERE f."faceId" = $1`,
      [faceId],
    );
    expect(await sim<{ opened: boolean }>('POST', `/locks/${paired.lockId}/use`, { faceId: Number(auth!.providerRef) })).toMatchObject({ opened: false });
    // Under History: taken off, by staff.
    await page.getByTestId('faces-scope-history').click();
    const past = page.locator(`[data-testid="face-authorization-${faceId}"][data-state="removed"]`);
    await past.waitFor();
    expect(await past.innerText()).toContain(text(header, 'credentials.revokeReasons.manual'));
    if (header !== 'zh-CN') await screenshot(page, `room-faces-history-${header}`);
  });

  it("offers a returning guest's face at check-in; it reaches the lock with the stay, shows on the stay card, and comes off at check-out", async () => {
    // The face belongs to a customer of the hotel with this mobile.
    const [face] = await sql<{ id: number; hotelId: number }>(`SELECT id, "hotelId" FROM "Face" WHERE "faceId" = $1`, [faceId]);
    const [customer] = await sql<{ id: number }>(
      `INSERT INTO "Customer" ("hotelId", nickname, mobile, "updatedAt") VALUES ($1, $2, $3, now()) ON CONFLICT ("hotelId", mobile) DO UPDATE SET nickname = EXCLUDED.nickname RETURNING id`,
      [face!.hotelId, note, mobile],
    );
    await sql(`UPDATE "Face" SET "customerId" = $1 WHERE id = $2`, [customer!.id, face!.id]);

    await page.goto(`${baseUrl()}/room/${paired.roomId}`);
    await page.getByTestId('room-detail').waitFor();
    await page.getByTestId('action-check-in').click();
    const dialog = page.getByTestId('check-in-dialog');
    await dialog.waitFor();
    await page.locator('#guest-0-name').fill(note);
    // Not offered before the guest is known.
    expect(await page.getByTestId('check-in-face').count()).toBe(0);
    await page.locator('#guest-0-mobile').fill(mobile);
    await page.getByTestId('check-in-face').waitFor();
    expect(await page.getByTestId('check-in-face').innerText()).toContain(faceId);
    await page.getByTestId(`authorize-face-${face!.id}`).click();
    await page.getByTestId('check-in-face').scrollIntoViewIfNeeded();
    if (header !== 'zh-CN') await screenshot(page, `check-in-face-${header}`);
    await page.getByTestId('check-in-submit').click();
    await dialog.waitFor({ state: 'detached', timeout: 20_000 });
    await waitForRoomStatus(page, 'checked_in');

    // On the stay card: the face, sending then on the lock, with no reload.
    const item = page.getByTestId('stay-credentials').locator('[data-testid^="stay-face-"]');
    await item.first().waitFor();
    expect(await item.first().innerText()).toContain(faceId);
    await item.and(page.locator('[data-state="on_lock"]')).waitFor({ timeout: 20_000 });
    expect(await item.first().getByTestId('delivery-state').innerText()).toBe(text(header, 'credentials.states.on_lock'));
    if (header !== 'zh-CN') await screenshot(page, `stay-card-face-${header}`);
    const [auth] = await sql<{ providerRef: string; validUntil: Date; stayId: number }>(
      `SELECT a."providerRef", a."validUntil", a."stayId" FROM "FaceAuthorization" a WHERE a."faceId" = $1 AND a."roomId" = $2 AND a."stayId" IS NOT NULL`,
      [face!.id, paired.roomId],
    );
    expect(auth!.stayId).toBeGreaterThan(0);
    expect(await sim<{ opened: boolean }>('POST', `/locks/${paired.lockId}/use`, { faceId: Number(auth!.providerRef) })).toMatchObject({ opened: true });
    // What the guest holds, shown once after the check-in: the face, on the lock.
    const keys = await guestKeysDialog(page, 'check_in');
    await keys.locator('[data-testid^="guest-keys-face-"][data-state="on_lock"]').waitFor({ timeout: 20_000 });
    await closeGuestKeys(page);

    // Check-out (confirmed): the face comes off the lock with the stay.
    await page.getByTestId('action-check-out').click();
    await page.getByTestId('check-out-confirm').waitFor();
    await answerCheckOut(page);
    await page.getByTestId('check-out-submit').click();
    await page.getByTestId('check-out-confirm').waitFor({ state: 'detached' });
    await expect
      .poll(async () => (await sim<{ opened: boolean }>('POST', `/locks/${paired.lockId}/use`, { faceId: Number(auth!.providerRef) })).opened, {
        timeout: 20_000,
        interval: 500,
      })
      .toBe(false);
  });
});
