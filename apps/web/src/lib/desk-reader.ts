import { useCallback, useMemo } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { readerErrorText } from '../readers/errors';
import type * as Drivers from '../readers';
import type { CardReader, ReaderType } from '../readers/types';
import { deskReaderState, noteReaderInfo, storeReaderType, useDeskReaderAddresses, useDeskReaderState, useIsDeskReaderSimulated } from './desk-reader-env';
import { sharedQueries } from './queries';

/**
 * The desk card reader of this computer, for every screen that reads or writes a card, captures a
 * fingerprint or drives a dispenser (issue 8 §3): `useDeskReader()`. Screens never know which
 * reader type is attached: the type chosen on this computer (localStorage `cardSenderType`), at
 * the addresses the server gives when it runs the reader simulator on other ports than the usual
 * ones. The drivers (`@/readers`, about 6 kB gzipped) are downloaded on the first `getReader()`.
 *
 *   const desk = useDeskReader();
 *   const reader = await desk.getReader();          // a CardReader (apps/web/src/readers/types.ts)
 *   const uid = await reader.requestCard();
 *   const { writeAndVerify, ReadLockout } = await desk.drivers();
 *   catch (error) { const { text, hint } = desk.errorText(error); }   // spec §8 texts
 *
 * One reader object is shared by every screen of the page (the device stays open between them);
 * choosing another type closes it.
 */

export type ReaderDrivers = typeof Drivers;

let driversLoad: Promise<ReaderDrivers> | null = null;

/** The drivers module, downloaded once. */
export function loadReaderDrivers(): Promise<ReaderDrivers> {
  if (!driversLoad) {
    driversLoad = import('../readers');
    // A failed download (a network hiccup) is tried again next time.
    driversLoad.catch(() => {
      driversLoad = null;
    });
  }
  return driversLoad;
}

/** The CardReader, reporting what it says about itself (simulated: the navbar says so; its device id). */
function observed(inner: CardReader): CardReader {
  const after = <T>(work: Promise<T>): Promise<T> => work.finally(() => noteReaderInfo(inner.readerInfo));
  return {
    get type() {
      return inner.type;
    },
    get readerInfo() {
      return inner.readerInfo;
    },
    open: () => after(inner.open()),
    requestCard: () => after(inner.requestCard()),
    readBlock: (block, key, keyType) => after(inner.readBlock(block, key, keyType)),
    writeBlock: (block, data, key, keyType) => after(inner.writeBlock(block, data, key, keyType)),
    beep: (ms) => after(inner.beep(ms)),
    captureFingerprint: () => after(inner.captureFingerprint()),
    dispenserStatus: () => after(inner.dispenserStatus()),
    dispenseCard: () => after(inner.dispenseCard()),
    captureCard: () => after(inner.captureCard()),
    close: () => inner.close(),
  };
}

let current: { key: string; reader: Promise<CardReader> } | null = null;

function readerAt(type: ReaderType, baseUrl: string | undefined): Promise<CardReader> {
  const key = `${type} ${baseUrl ?? ''}`;
  if (current?.key === key) return current.reader;
  const previous = current;
  const reader = loadReaderDrivers().then((drivers) => observed(drivers.createReader(type, baseUrl ? { baseUrl } : {})));
  current = { key, reader };
  // A failed download is not kept: the next call tries again.
  reader.catch(() => {
    if (current?.reader === reader) current = null;
  });
  if (previous) void previous.reader.then((r) => r.close()).catch(() => undefined);
  return reader;
}

/** Lets the device go (the page's reader is made again on the next `getReader()`). */
export async function closeDeskReader(): Promise<void> {
  const previous = current;
  current = null;
  if (previous) await previous.reader.then((r) => r.close()).catch(() => undefined);
}

/** The reader of the chosen type, at the simulator's address when the server gives one. */
export async function getDeskReader(queryClient: QueryClient): Promise<CardReader> {
  let urls: Partial<Record<'type1' | 'type2' | 'type3', string>> = {};
  try {
    urls = (await queryClient.fetchQuery(sharedQueries.deskReaderEnvironment())).urls;
  } catch {
    // The server did not answer: the reader services are at their usual addresses.
  }
  const { type } = deskReaderState();
  return readerAt(type, urls[`type${type}`]);
}

export interface DeskReader {
  /** The reader type chosen on this computer (1, 2 or 3). */
  type: ReaderType;
  /** Chooses another type (kept in localStorage `cardSenderType`); the open reader is let go. */
  setType(type: ReaderType): void;
  /** The reader is the simulator (the server runs it, or the reader said so). */
  simulated: boolean;
  /** Where the console calls the service of each reader type (`127.0.0.1:13570`, or the port the server gives). */
  addresses: Record<ReaderType, string>;
  /** The reader's name with the address it is called at, in the console's language ("Type 1 (reader service, 127.0.0.1:49152)"). */
  typeLabel(type?: ReaderType): string;
  /** This computer's reader, ready to use: every method opens the device first when needed. */
  getReader(): Promise<CardReader>;
  /** The drivers module: writeAndVerify, ReadLockout, isReaderError, ... */
  drivers(): Promise<ReaderDrivers>;
  /** The text of a reader failure in the console's language (spec §8), and its hint. */
  errorText(error: unknown): { text: string; hint?: string };
}

export function useDeskReader(): DeskReader {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { type } = useDeskReaderState();
  const simulated = useIsDeskReaderSimulated();
  const addresses = useDeskReaderAddresses();
  const getReader = useCallback(() => getDeskReader(queryClient), [queryClient]);
  const setType = useCallback((next: ReaderType) => {
    if (next === deskReaderState().type) return;
    storeReaderType(next);
    void closeDeskReader();
  }, []);
  const errorText = useCallback((error: unknown) => readerErrorText(error, t), [t]);
  const typeLabel = useCallback((of: ReaderType = type) => t(`readers.type${of}`, { address: addresses[of] }), [t, type, addresses]);
  return useMemo(
    () => ({ type, setType, simulated, addresses, typeLabel, getReader, drivers: loadReaderDrivers, errorText }),
    [type, setType, simulated, addresses, typeLabel, getReader, errorText],
  );
}
