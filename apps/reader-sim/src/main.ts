/**
 * The simulator as a program: `node apps/reader-sim/dist/main.js` (or `pnpm --filter @console/reader-sim start`).
 *
 *   READER_SIM_TYPE1_PORT    reader type 1 (HTTP), default 13570
 *   READER_SIM_TYPE2_PORT    reader type 2 (USB bridge), default 8765
 *   READER_SIM_TYPE3_PORT    reader type 3 (WebSocket), default 39002
 *   READER_SIM_CONTROL_PORT  the control API, default 13580
 *   READER_SIM_HOST          address to listen on (default 127.0.0.1)
 *   READER_SIM_STATE_FILE    JSON file keeping cards and the dispenser across restarts (default ./data/reader-sim.json)
 *   READER_SIM_LATENCY_MS    latency of every reader call, "10" or "5-20" (default 0)
 *   READER_SIM_FREE_PORTS    "1": a taken port is replaced by a free one (said on start) instead of stopping
 *   READER_SIM_LOG           "1" to log HTTP requests
 */
import { READER_PORTS, startReaderSim } from './server';

function latency(value: string | undefined): number | [number, number] | undefined {
  if (!value) return undefined;
  const range = /^(\d+)\s*-\s*(\d+)$/.exec(value);
  if (range) return [Number(range[1]), Number(range[2])];
  if (/^\d+$/.test(value)) return Number(value);
  throw new Error(`READER_SIM_LATENCY_MS: "${value}" is neither a number of ms nor a range such as 5-20`);
}

function port(name: string, fallback: number): number {
  const value = process.env[name];
  if (value === undefined || value === '') return fallback;
  if (!/^\d+$/.test(value) || Number(value) > 65_535) throw new Error(`${name}: "${value}" is not a port`);
  return Number(value);
}

const env = process.env;
const sim = await startReaderSim({
  ports: {
    type1: port('READER_SIM_TYPE1_PORT', READER_PORTS.type1),
    type2: port('READER_SIM_TYPE2_PORT', READER_PORTS.type2),
    type3: port('READER_SIM_TYPE3_PORT', READER_PORTS.type3),
    control: port('READER_SIM_CONTROL_PORT', READER_PORTS.control),
  },
  host: env.READER_SIM_HOST ?? '127.0.0.1',
  stateFile: env.READER_SIM_STATE_FILE ?? 'data/reader-sim.json',
  latencyMs: latency(env.READER_SIM_LATENCY_MS),
  portTaken: env.READER_SIM_FREE_PORTS === '1' ? 'free' : 'fail',
  onPortTaken: (service, taken) => process.stdout.write(`reader simulator: port ${taken} (${service}) is taken, using a free port\n`),
  logger: env.READER_SIM_LOG === '1',
});
process.stdout.write(
  'SIMULATED card readers (no real hardware):\n' +
    `  type 1 HTTP        ${sim.urls.type1}\n` +
    `  type 2 USB bridge  ${sim.urls.type2}\n` +
    `  type 3 WebSocket   ${sim.urls.type3}\n` +
    `  control API        ${sim.controlUrl}\n`,
);

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    sim.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('reader simulator: could not stop cleanly', error);
        process.exit(1);
      },
    );
  });
}
