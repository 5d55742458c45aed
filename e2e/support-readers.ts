import type { BrowserContext } from 'playwright-core';
import { ReaderSimControl } from '../apps/reader-sim/src/control-client';
import { server } from './support';

/** The desk reader simulator the console runs beside itself (READER_SIM): its control API (docs/readers.md). */
export function readerSim(): ReaderSimControl {
  const url = server().readerSimControlUrl;
  if (!url) throw new Error('the console started no reader simulator (READER_SIM)');
  return new ReaderSimControl(url);
}

/** The reader type of a browser profile (localStorage `cardSenderType`), as an operator chose it before. */
export async function useReaderType(context: BrowserContext, type: 1 | 2 | 3) {
  await context.addInitScript((value) => {
    if (!window.localStorage.getItem('cardSenderType')) window.localStorage.setItem('cardSenderType', value);
  }, String(type));
}

/** Where the simulator's service of a reader type really listens (`127.0.0.1:port`: a free port in the browser tests, not the usual one). */
export async function readerAddress(type: 1 | 2 | 3): Promise<string> {
  const { ports } = await readerSim().call<{ ports: Record<string, number> }>('GET', '');
  const port = ports[`type${type}`];
  if (!port) throw new Error(`the reader simulator reports no port for type ${type}`);
  return `127.0.0.1:${port}`;
}
