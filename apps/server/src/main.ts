import { startBanner } from './banner';
import { ConfigError, loadConfig } from './config';
import { EmbeddedPostgresError } from './db/embedded';
import { MigrationError } from './db/migrate';
import { DEMO } from './db/seed';
import { DesUnavailableError } from './infra/des';
import { FileStoreUnavailableError } from './infra/file-store';
import { EmbeddedLockSimTakenError } from './infra/locks/embedded-claim';
import { RedisUnavailableError } from './infra/redis';
import { createLogger, startServer } from './server';

/** Errors whose message is the whole story: printed as a paragraph, without a stack trace. */
const EXPLAINED = [
  ConfigError,
  RedisUnavailableError,
  DesUnavailableError,
  MigrationError,
  FileStoreUnavailableError,
  EmbeddedLockSimTakenError,
  EmbeddedPostgresError,
];

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
  const log = createLogger(config);
  // Signals are handled from the first moment: one arriving while the server starts waits for the
  // start to finish, then closes everything in order (no request is cut off, nothing left running).
  const starting = startServer(config, log);
  let isStopping = false;
  const stop = (signal: string) => {
    if (isStopping) return;
    isStopping = true;
    log.info(`${signal} received: finishing requests and jobs, then stopping`);
    const timer = setTimeout(() => {
      log.error(`still stopping after ${config.shutdownTimeoutMs} ms: exiting now`);
      process.exit(1);
    }, config.shutdownTimeoutMs);
    timer.unref();
    starting
      .then((server) => server.close())
      .then(() => {
        log.info('stopped');
        process.exit(0);
      })
      .catch((error: unknown) => {
        log.error({ err: error }, 'error while stopping');
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));

  let server;
  try {
    server = await starting;
  } catch (error) {
    if (EXPLAINED.some((E) => error instanceof E)) {
      console.error(`\n${(error as Error).message}\n`);
    } else {
      log.fatal({ err: error }, 'the console could not start');
    }
    process.exit(1);
  }
  if (isStopping) return;
  const hasDemo = (await server.deps.prisma.account.count({ where: { mobile: DEMO.owner.mobile } })) > 0;
  process.stdout.write(
    startBanner({ url: server.url, hasDemo, lockSimUrl: server.lockSimUrl, readerSim: server.readerSim, publicUrl: config.locks.publicUrl }),
  );
}

void main();
