import { useSyncExternalStore } from 'react';
import { useQuery } from '@tanstack/react-query';
import { DEFAULT_READER_URLS, READER_TYPE_STORAGE_KEY } from '../readers/constants';
import type { ReaderType } from '../readers/types';
import { sharedQueries } from './queries';

/**
 * The small, always-loaded part of the desk reader (the navbar's "simulated reader" badge needs
 * it): which reader type this computer uses (localStorage `cardSenderType`, spec §9), whether a
 * reader said it is simulated, and what the server says about the reader simulator. The drivers
 * themselves (`@/readers`) are loaded only by the screens that use a reader (lib/desk-reader.ts).
 */

export interface DeskReaderState {
  /** The reader type chosen on this computer (1, 2 or 3; default 1). */
  type: ReaderType;
  /** A reader opened on this page said it is simulated (apps/reader-sim). */
  readerSaysSimulated: boolean;
  /** The device id of the reader last opened on this computer (kept across reloads): the desk's dispenser when the reader does not answer. */
  lastDeviceId: string | null;
}

/** Where the device id of the reader last opened here is kept. */
const LAST_DEVICE_KEY = 'deskReaderDeviceId';

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

/** The chosen type, as the drivers' getReaderType() reads it (1 when unset or not 1, 2, 3). */
export function storedReaderType(): ReaderType {
  const value = Number(storage()?.getItem(READER_TYPE_STORAGE_KEY));
  return value === 2 || value === 3 ? value : 1;
}

let state: DeskReaderState = { type: storedReaderType(), readerSaysSimulated: false, lastDeviceId: storage()?.getItem(LAST_DEVICE_KEY) ?? null };
const listeners = new Set<() => void>();

function update(patch: Partial<DeskReaderState>) {
  const next = { ...state, ...patch };
  if (next.type === state.type && next.readerSaysSimulated === state.readerSaysSimulated && next.lastDeviceId === state.lastDeviceId) return;
  state = next;
  listeners.forEach((listener) => listener());
}

/** Chooses this computer's reader type (kept in localStorage `cardSenderType`). */
export function storeReaderType(type: ReaderType): void {
  storage()?.setItem(READER_TYPE_STORAGE_KEY, String(type));
  update({ type });
}

/** What an opened reader reported: `simulated` (the navbar says so from then on) and its device id. */
export function noteReaderInfo(info: { simulated: boolean; deviceId: string } | null): void {
  if (!info) return;
  if (info.deviceId && info.deviceId !== state.lastDeviceId) storage()?.setItem(LAST_DEVICE_KEY, info.deviceId);
  update({ readerSaysSimulated: state.readerSaysSimulated || info.simulated, lastDeviceId: info.deviceId || state.lastDeviceId });
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  // Another tab of the console changed the type.
  const onStorage = (event: StorageEvent) => {
    if (event.key === READER_TYPE_STORAGE_KEY || event.key === null) update({ type: storedReaderType() });
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export function deskReaderState(): DeskReaderState {
  return state;
}

export function useDeskReaderState(): DeskReaderState {
  return useSyncExternalStore(subscribe, deskReaderState, deskReaderState);
}

/** True when the reader is simulated: the server runs the simulator, or the reader said so itself. */
export function useIsDeskReaderSimulated(): boolean {
  const environment = useQuery(sharedQueries.deskReaderEnvironment());
  const { readerSaysSimulated } = useDeskReaderState();
  return Boolean(environment.data?.simulated) || readerSaysSimulated;
}

/** The host and port of a reader service URL (`127.0.0.1:13570`); the URL itself when it is not one. */
export function readerAddressOf(url: string): string {
  try {
    return new URL(url).host || url;
  } catch {
    return url;
  }
}

/**
 * Where this console calls each reader type's service: the usual address, or the one the server
 * gives (the simulator on another port when the usual one was taken). Screens name the reader with
 * it ("Type 1 (reader service, 127.0.0.1:49152)"), never a port written in a text.
 */
export function deskReaderAddresses(urls: Partial<Record<'type1' | 'type2' | 'type3', string>> | undefined): Record<ReaderType, string> {
  return {
    1: readerAddressOf(urls?.type1 ?? DEFAULT_READER_URLS[1]),
    2: readerAddressOf(urls?.type2 ?? DEFAULT_READER_URLS[2]),
    3: readerAddressOf(urls?.type3 ?? DEFAULT_READER_URLS[3]),
  };
}

export function useDeskReaderAddresses(): Record<ReaderType, string> {
  const environment = useQuery(sharedQueries.deskReaderEnvironment());
  return deskReaderAddresses(environment.data?.urls);
}
