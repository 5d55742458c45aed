import type { FastifyInstance } from 'fastify';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { registerControlRoutes, type ServiceSwitches } from './control';
import { ReaderDevice } from './device';
import { createHttpApp } from './http';
import { StateWriter, emptyState, loadState } from './state';
import { createType1App } from './type1';
import { createType2App } from './type2';
import { createType3Service, type Type3Service } from './type3';

export type ServiceName = 'type1' | 'type2' | 'type3' | 'control';
export type ReaderSimPorts = Record<ServiceName, number>;

/** The ports the real reader services use (spec §7), and the simulator's control API. */
export const READER_PORTS: Readonly<ReaderSimPorts> = { type1: 13570, type2: 8765, type3: 39002, control: 13580 };
/** Every service on any free port (tests). */
export const FREE_PORTS: Readonly<ReaderSimPorts> = { type1: 0, type2: 0, type3: 0, control: 0 };

export interface ReaderSimOptions {
  /** Ports of each service; missing ones: READER_PORTS. 0: any free port. */
  ports?: Partial<ReaderSimPorts>;
  /** Address to listen on (default 127.0.0.1: the control API has no authentication). */
  host?: string;
  /** Where the wallet of cards, the card on the reader and the dispenser are kept; none: in memory. */
  stateFile?: string;
  /** Latency of every reader call in ms, fixed or a [min, max] range (default 0). */
  latencyMs?: number | [number, number];
  /**
   * A port already taken: `fail` (the default) rejects; `free` takes any free port for that
   * service instead and calls `onPortTaken` (the answer's `ports` says where each one listens).
   */
  portTaken?: 'fail' | 'free';
  onPortTaken?: (service: ServiceName, port: number) => void;
  /** Quiet time before the state is written (default 200 ms). */
  stateDebounceMs?: number;
  /** The device's serial number for a new state (default: random, "SIM" and 8 digits). */
  deviceSerial?: string;
  /** Log requests of the HTTP services (pino, through Fastify). */
  logger?: boolean;
}

export interface ReaderSim {
  /** Where each service listens. */
  ports: ReaderSimPorts;
  /** Base URLs: `http://host:port` for types 1 and 2 and the control API, `ws://host:port` for type 3. */
  urls: Record<ServiceName, string>;
  /** `http://host:port/control`, the control API. */
  controlUrl: string;
  device: ReaderDevice;
  /** Writes the state and closes every service. */
  close(): Promise<void>;
}

function isAddressInUse(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'EADDRINUSE';
}

async function listenFastify(app: FastifyInstance, port: number, host: string): Promise<number> {
  await app.listen({ port, host });
  return (app.server.address() as AddressInfo).port;
}

function listenHttp(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => {
      server.off('listening', onListening);
      reject(error);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve((server.address() as AddressInfo).port);
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

/** Starts the simulator in this process and resolves once every service listens. */
export async function startReaderSim(options: ReaderSimOptions = {}): Promise<ReaderSim> {
  const host = options.host ?? '127.0.0.1';
  const wanted: ReaderSimPorts = { ...READER_PORTS, ...options.ports };
  const state = loadState(options.stateFile);
  if (options.deviceSerial && Object.keys(state.wallet).length === 0) state.deviceSerial = options.deviceSerial;
  let writer: StateWriter | null = null;
  const device = new ReaderDevice(state, () => writer?.markDirty(), options.latencyMs ?? 0);
  writer = new StateWriter(options.stateFile, () => device.snapshot(), options.stateDebounceMs ?? 200);
  writer.markDirty();

  const running: ServiceSwitches = { type1: true, type2: true, type3: true };
  const type1 = createType1App(device, { logger: options.logger, isRunning: () => running.type1 });
  const type2 = createType2App(device, { logger: options.logger, isRunning: () => running.type2 });
  const type3: Type3Service = createType3Service(device, { isRunning: () => running.type3 });
  const control = createHttpApp({ logger: options.logger, isRunning: () => true });
  const ports: ReaderSimPorts = { ...FREE_PORTS };

  registerControlRoutes(control, {
    device,
    running,
    ports: () => ({ ...ports }),
    applyRunning() {
      if (!running.type1) (type1.server as Server).closeAllConnections();
      if (!running.type2) (type2.server as Server).closeAllConnections();
      if (!running.type3) {
        type3.dropClients();
        type3.server.closeAllConnections();
      }
    },
    reset() {
      device.reset(emptyState(device.deviceSerial));
      running.type1 = running.type2 = running.type3 = true;
    },
  });

  const listeners: Record<ServiceName, (port: number) => Promise<number>> = {
    type1: (port) => listenFastify(type1, port, host),
    type2: (port) => listenFastify(type2, port, host),
    type3: (port) => listenHttp(type3.server, port, host),
    control: (port) => listenFastify(control, port, host),
  };
  const closeAll = async () => {
    await Promise.allSettled([type1.close(), type2.close(), type3.close(), control.close()]);
  };
  try {
    for (const service of ['type1', 'type2', 'type3', 'control'] as const) {
      try {
        ports[service] = await listeners[service](wanted[service]);
      } catch (error) {
        if (!isAddressInUse(error) || options.portTaken !== 'free' || wanted[service] === 0) throw error;
        options.onPortTaken?.(service, wanted[service]);
        ports[service] = await listeners[service](0);
      }
    }
  } catch (error) {
    await closeAll();
    throw error;
  }

  const url = (service: ServiceName, scheme = 'http') => `${scheme}://${host.includes(':') ? `[${host}]` : host}:${ports[service]}`;
  const urls = { type1: url('type1'), type2: url('type2'), type3: url('type3', 'ws'), control: url('control') };
  let closing: Promise<void> | null = null;
  return {
    ports,
    urls,
    controlUrl: `${urls.control}/control`,
    device,
    close() {
      closing ??= (async () => {
        await closeAll();
        await writer.flush();
      })();
      return closing;
    },
  };
}
