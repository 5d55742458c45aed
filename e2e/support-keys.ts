import type { Page } from 'playwright-core';

/**
 * "What the guest holds", shown once after a check-in that asked for a code, a face or cards, a
 * room change and a renewal (features/stay-keys): the dialog, once it is there.
 */
export async function guestKeysDialog(page: Page, after?: 'check_in' | 'room_change' | 'renewal') {
  const dialog = page.locator(after ? `[data-testid="guest-keys-dialog"][data-after="${after}"]` : '[data-testid="guest-keys-dialog"]');
  await dialog.waitFor({ timeout: 20_000 });
  return dialog;
}

/** Closes it ("Done"), as the clerk does once the guest has what they hold. */
export async function closeGuestKeys(page: Page) {
  const dialog = await guestKeysDialog(page);
  await page.getByTestId('guest-keys-close').click();
  await dialog.waitFor({ state: 'detached' });
}
