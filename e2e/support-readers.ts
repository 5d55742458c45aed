import type { BrowserContext } from 'playwright-core';
import { inject } from 'vitest';
import { ReaderSimControl } from '../apps/reader-sim/src/control-client';

/** The desk reader simulator the console runs beside itself (READER_SIM): its control API (docs/readers.md). */
export function readerSim(): ReaderSimControl {
  const url = inject('readerSimControlUrl');
  if (!url) throw new Error('the console started no reader simulator (READER_SIM)');
  return new ReaderSimControl(url);
}

/** The reader type of a browser profile (localStorage `cardSenderType`), as an operator chose it before. */
export async function useReaderType(context: BrowserContext, type: 1 | 2 | 3) {
  await context.addInitScript((value) => {
    if (!window.localStorage.getItem('cardSenderType')) window.localStorage.setItem('cardSenderType', value);
  }, String(type));
}
