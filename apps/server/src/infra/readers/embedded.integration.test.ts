import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { ReaderSimControl, type ReaderSim } from '@console/reader-sim';
import { loadConfig } from '../../config';
import { WELL_KNOWN_READER_URLS, deskReaderEnvironment, readerConnectSources, startEmbeddedReaderSim, withReaderSim } from '.';

/**
 * The desk reader simulator beside the server (READER_SIM): on by default outside production, off
 * in production; a taken port is replaced by a free one and said in the log; the console is told
 * the simulator's addresses only where they differ from the well-known ones.
 */
const started: ReaderSim[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((sim) => sim.close()));
});

function fakeLog() {
  const lines: string[] = [];
  const log = { info: (m: string) => lines.push(`info ${m}`), warn: (m: string) => lines.push(`warn ${m}`) } as unknown as FastifyBaseLogger;
  return { log, lines };
}

const stateFile = () => path.join(os.tmpdir(), `reader-sim-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}.json`);

describe('READER_SIM', () => {
  it('is on by default outside production, off in production, and READER_SIM says otherwise', () => {
    expect(loadConfig({ NODE_ENV: 'development' }).readers.sim.enabled).toBe(true);
    expect(loadConfig({ NODE_ENV: 'test' }).readers.sim.enabled).toBe(true);
    expect(loadConfig({ NODE_ENV: 'development', READER_SIM: 'false' }).readers.sim.enabled).toBe(false);
    expect(loadConfig({ NODE_ENV: 'development' }).readers.sim.ports).toEqual({ type1: 13570, type2: 8765, type3: 39002, control: 13580 });
    expect(() => loadConfig({ NODE_ENV: 'development', READER_SIM: 'maybe' })).toThrow(/READER_SIM/);
    expect(() => loadConfig({ NODE_ENV: 'development', READER_SIM_TYPE1_PORT: '70000' })).toThrow(/READER_SIM_TYPE1_PORT/);
  });

  it('starts nothing when off, and the console is told the reader is not simulated', async () => {
    const config = loadConfig({ NODE_ENV: 'development', READER_SIM: 'false' });
    const { log } = fakeLog();
    expect(await startEmbeddedReaderSim(config, log)).toBeNull();
    expect(deskReaderEnvironment(withReaderSim(config, null))).toEqual({ simulated: false, urls: {} });
  });

  it('takes a free port for a taken one, says so, and gives the console only the addresses that moved', async () => {
    const blocker = http.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const taken = (blocker.address() as AddressInfo).port;
    try {
      const config = loadConfig({
        NODE_ENV: 'development',
        READER_SIM_TYPE1_PORT: String(taken),
        READER_SIM_TYPE2_PORT: '0',
        READER_SIM_TYPE3_PORT: '0',
        READER_SIM_CONTROL_PORT: '0',
        READER_SIM_STATE_FILE: stateFile(),
      });
      const { log, lines } = fakeLog();
      const sim = (await startEmbeddedReaderSim(config, log))!;
      started.push(sim);
      expect(sim.ports.type1).not.toBe(taken);
      expect(lines).toContain(`warn reader simulator: port ${taken} (type1) is taken, using a free port`);
      expect(lines.some((l) => l.startsWith('info SIMULATED card readers:') && l.includes(sim.urls.type1) && l.includes(sim.controlUrl))).toBe(true);

      const environment = deskReaderEnvironment(withReaderSim(config, sim));
      expect(environment).toEqual({ simulated: true, urls: { type1: sim.urls.type1, type2: sim.urls.type2, type3: sim.urls.type3 } });
      // The page may call them (the CSP's connect-src), and the usual services too.
      expect(readerConnectSources(withReaderSim(config, sim))).toEqual([
        ...Object.values(WELL_KNOWN_READER_URLS),
        sim.urls.type1,
        sim.urls.type2,
        sim.urls.type3,
      ]);
      expect(readerConnectSources(config)).toEqual(Object.values(WELL_KNOWN_READER_URLS));
      // The simulator answers there, and says it is one.
      const res = await fetch(`${sim.urls.type1}/`, { method: 'POST', body: new URLSearchParams({ func: 'device_info', cbdata: '1' }) });
      expect(res.headers.get('x-simulated')).toBe('true');
      expect((await new ReaderSimControl(sim.controlUrl).overview()).device.connected).toBe(true);
    } finally {
      blocker.close();
    }
  });

  it('leaves the well-known addresses out of what the console is told', () => {
    const config = loadConfig({ NODE_ENV: 'development' });
    const urls = { ...WELL_KNOWN_READER_URLS, type3: 'ws://127.0.0.1:40000', control: 'http://127.0.0.1:13580' };
    expect(deskReaderEnvironment(withReaderSim(config, { urls }))).toEqual({ simulated: true, urls: { type3: 'ws://127.0.0.1:40000' } });
  });
});
