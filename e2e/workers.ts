/**
 * How many browser test files run side by side, each against a console of its own
 * (e2e/global-setup.ts): `E2E_WORKERS`, by default 2 (CI's machine has 2 cores; a browser test
 * mostly waits for the server and the browser, so two share them well).
 */
export const e2eWorkers = Math.max(1, Math.floor(Number(process.env.E2E_WORKERS)) || 2);
