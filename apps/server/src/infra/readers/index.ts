import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { READER_PORTS, startReaderSim, type ReaderSim } from '@console/reader-sim';
import type { TConfig } from '../../config';

/**
 * The desk card readers are on the user's machine, never on the server: the browser calls the
 * local reader services (spec §7; docs/readers.md). For development and the demo, the server can
 * run the reader simulator (apps/reader-sim) beside itself, on the well-known ports of the three
 * services, so that a browser on the same machine finds "a reader". Nothing behind it is real.
 */

/** Where each reader type's service listens when nothing says otherwise (apps/web/src/readers/constants.ts). */
export const WELL_KNOWN_READER_URLS = {
  type1: `http://127.0.0.1:${READER_PORTS.type1}`,
  type2: `http://127.0.0.1:${READER_PORTS.type2}`,
  type3: `ws://127.0.0.1:${READER_PORTS.type3}`,
} as const;

export interface DeskReaderEnvironment {
  /** The server runs the reader simulator: the console says "simulated reader". */
  simulated: boolean;
  /** Base URLs of the reader services, only those that differ from the well-known ones (a taken port). */
  urls: { type1?: string; type2?: string; type3?: string };
}

/**
 * What the console's drivers need to know about the desk readers (tRPC `reader.environment`): the
 * simulator's addresses while it runs, else the hotel's reader software where READER_TYPEn_URL
 * says it listens; only those that differ from the usual ones.
 */
export function deskReaderEnvironment(config: TConfig): DeskReaderEnvironment {
  const running = config.readers.simUrls;
  const configured = config.readers.urls;
  const urls: DeskReaderEnvironment['urls'] = {};
  for (const type of ['type1', 'type2', 'type3'] as const) {
    const url = running ? running[type] : configured[type];
    if (url && url !== WELL_KNOWN_READER_URLS[type]) urls[type] = url;
  }
  return { simulated: running !== null, urls };
}

/** The configuration with the running simulator's addresses, for the services (deskReaderEnvironment). */
export function withReaderSim(config: TConfig, sim: Pick<ReaderSim, 'urls'> | null): TConfig {
  if (!sim) return config;
  return { ...config, readers: { ...config.readers, simUrls: { ...sim.urls } } };
}

/**
 * READER_SIM (default: on outside production): the reader simulator runs inside this process on
 * READER_SIM_*_PORT, a taken port replaced by a free one (and said in the log), its cards and
 * dispenser kept in READER_SIM_STATE_FILE. It listens on 127.0.0.1 only: the browser must run on
 * this machine to reach it.
 */
export async function startEmbeddedReaderSim(config: TConfig, log: FastifyBaseLogger): Promise<ReaderSim | null> {
  const options = config.readers.sim;
  if (!options.enabled) return null;
  const sim = await startReaderSim({
    host: '127.0.0.1',
    ports: options.ports,
    stateFile: path.resolve(options.stateFile),
    portTaken: 'free',
    onPortTaken: (service, port) => log.warn(`reader simulator: port ${port} (${service}) is taken, using a free port`),
  });
  log.info(
    `SIMULATED card readers: the reader simulator runs inside the server (type 1 ${sim.urls.type1}, type 2 ${sim.urls.type2}, type 3 ${sim.urls.type3}, control API ${sim.controlUrl})`,
  );
  return sim;
}

/**
 * The origins the console's page may call for the desk readers (the CSP's connect-src): the three
 * well-known services, and the simulator's or the configured ones when they are elsewhere.
 */
export function readerConnectSources(config: TConfig): string[] {
  return [...new Set([...Object.values(WELL_KNOWN_READER_URLS), ...Object.values(deskReaderEnvironment(config).urls)])];
}
