/**
 * The simulator as a program: `node apps/lock-sim/dist/main.js` (or `pnpm --filter @console/lock-sim start`).
 *
 *   LOCK_SIM_PORT            port (default 4010)
 *   LOCK_SIM_HOST            address to listen on (default 127.0.0.1)
 *   LOCK_SIM_STATE_FILE      JSON file keeping the state across restarts (default ./data/lock-sim.json)
 *   LOCK_SIM_CALLBACK_URL    where lock records are pushed, as TTLock's callback does
 *   LOCK_SIM_CLIENT_ID, LOCK_SIM_CLIENT_SECRET, LOCK_SIM_USERNAME, LOCK_SIM_PASSWORD
 *                            the client and the default account (defaults: SIM_DEFAULTS)
 *   LOCK_SIM_REGION          the site it simulates, eu (default) or cn: accounts of the other answer 30008
 *   LOCK_SIM_LATENCY_MS      latency of gateway writes, "30" or "20-50" (default 20-50)
 *   LOCK_SIM_SEED_LOCKS      locks created with one gateway when the state is empty (default 4)
 *   LOCK_SIM_LOG             "1" to log requests
 */
import { SIM_DEFAULTS, startLockSim } from './server';

function latency(value: string | undefined): number | [number, number] | undefined {
  if (!value) return undefined;
  const range = /^(\d+)\s*-\s*(\d+)$/.exec(value);
  if (range) return [Number(range[1]), Number(range[2])];
  if (/^\d+$/.test(value)) return Number(value);
  throw new Error(`LOCK_SIM_LATENCY_MS: "${value}" is neither a number of ms nor a range such as 20-50`);
}

const env = process.env;
const region = env.LOCK_SIM_REGION ?? 'eu';
if (region !== 'eu' && region !== 'cn') throw new Error(`LOCK_SIM_REGION: "${region}" is neither eu nor cn`);
const sim = await startLockSim({
  port: Number(env.LOCK_SIM_PORT ?? 4010),
  host: env.LOCK_SIM_HOST ?? '127.0.0.1',
  stateFile: env.LOCK_SIM_STATE_FILE ?? 'data/lock-sim.json',
  callbackUrl: env.LOCK_SIM_CALLBACK_URL,
  clientId: env.LOCK_SIM_CLIENT_ID ?? SIM_DEFAULTS.clientId,
  clientSecret: env.LOCK_SIM_CLIENT_SECRET ?? SIM_DEFAULTS.clientSecret,
  username: env.LOCK_SIM_USERNAME ?? SIM_DEFAULTS.username,
  password: env.LOCK_SIM_PASSWORD ?? SIM_DEFAULTS.password,
  region,
  latencyMs: latency(env.LOCK_SIM_LATENCY_MS),
  seedLocks: Number(env.LOCK_SIM_SEED_LOCKS ?? 4),
  logger: env.LOCK_SIM_LOG === '1',
});
process.stdout.write(`SIMULATED TTLock cloud (no real locks) listening on ${sim.url}; control API at ${sim.url}/sim\n`);

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    sim.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('lock simulator: could not stop cleanly', error);
        process.exit(1);
      },
    );
  });
}
