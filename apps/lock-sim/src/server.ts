import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { LockCloud, type Params } from './cloud';
import { registerControlRoutes } from './control';
import { errorBody, OK_BODY, TT, TtlockError, ttError } from './errors';
import { parseMultipart, type SimUpload } from './faces';
import { loadState, type SimAccount, type SimRegion } from './state';

export interface LockSimOptions {
  /** 0 (the default): any free port. */
  port?: number;
  host?: string;
  /** Where the state is kept across restarts; none: in memory only. */
  stateFile?: string;
  /** Where lock records are pushed as TTLock's callback does; kept in the state when given. */
  callbackUrl?: string | null;
  clientId?: string;
  clientSecret?: string;
  /** The default account: locks and gateways made without `account` are its own. */
  username?: string;
  /** The default account's password in clear; callers send its MD5. */
  password?: string;
  /**
   * The site this simulated cloud is, 'eu' (euapi.ttlock.com, the default) or 'cn': accounts of
   * the other site answer 30008. The default account is of this region.
   */
  region?: SimRegion;
  /** Latency of a gateway write in ms, fixed or a [min, max] range (default [20, 50]). */
  latencyMs?: number | [number, number];
  /** Lifetime of access tokens (default 90 days, as TTLock's). */
  tokenTtlSeconds?: number;
  /** Calls a minute per client id before 30006 (default 0: no limit). */
  rateLimitPerMinute?: number;
  /** Delays between attempts to deliver a callback (default 1 s, 5 s, 15 s, 60 s). */
  callbackRetryDelaysMs?: number[];
  /** Quiet time before the state is written (default 200 ms). */
  stateDebounceMs?: number;
  /**
   * Lock ids of a new state start after this number (default 100000). Tests that run several
   * simulators against one database give each its own range, as separate TTLock accounts would.
   */
  lockIdBase?: number;
  /** When the state is empty: create one gateway and this many locks paired with it. */
  seedLocks?: number;
  /** Log requests (pino, through Fastify). */
  logger?: boolean;
}

export interface LockSim {
  /** `http://host:port`, the TTLock base URL (`/oauth2/token`, `/v3/...`) and the control API (`/sim/...`). */
  url: string;
  port: number;
  cloud: LockCloud;
  app: FastifyInstance;
  /** Stops retrying callbacks, writes the state and closes the server. */
  close(): Promise<void>;
}

export const SIM_DEFAULTS = {
  clientId: 'sim-client-id',
  clientSecret: 'sim-client-secret',
  username: 'sim-hotel-admin',
  password: 'sim-password',
} as const;

/**
 * The TTLock calls the simulator answers, by path under `/v3/`: each runs as the account of its
 * token (`a`); `files` of a multipart call (MULTIPART_OPS).
 */
type Handler = (cloud: LockCloud, params: Params, op: string, account: SimAccount, files: Record<string, SimUpload>) => unknown;

const V3: Record<string, Handler> = {
  'lock/list': (c, p, _op, a) => c.listLocks(p, a),
  'lock/listByHotel': (c, p, _op, a) => c.listLocksByHotel(p, a),
  'lock/detail': (c, p, op, a) => c.lockDetail(c.requireLock(op, p, a)),
  'gateway/listByLock': (c, p, op, a) => c.gatewaysOfLock(c.requireLock(op, p, a)),
  'gateway/list': (c, p, _op, a) => c.listGateways(p, a),
  'gateway/listLock': (c, p, _op, a) => c.locksOfGatewayList(c.requireGateway(p, a)),
  'keyboardPwd/get': (c, p, op, a) => c.getRandomPasscode(c.requireLock(op, p, a), p),
  'keyboardPwd/add': (c, p, op, a) => c.addCustomPasscode(c.requireLock(op, p, a), p),
  'keyboardPwd/delete': async (c, p, op, a) => {
    await c.deletePasscode(c.requireLock(op, p, a), p);
    return OK_BODY;
  },
  'keyboardPwd/change': async (c, p, op, a) => {
    await c.changePasscode(c.requireLock(op, p, a), p);
    return OK_BODY;
  },
  'lock/listKeyboardPwd': (c, p, op, a) => c.listPasscodes(c.requireLock(op, p, a), p),
  'identityCard/add': (c, p, op, a) => c.addCard(c.requireLock(op, p, a), p),
  'identityCard/addForReversedCardNumber': (c, p, op, a) => c.addCardReversed(c.requireLock(op, p, a), p),
  'identityCard/delete': async (c, p, op, a) => {
    await c.deleteCard(c.requireLock(op, p, a), p);
    return OK_BODY;
  },
  'identityCard/list': (c, p, op, a) => c.listCards(c.requireLock(op, p, a), p),
  'face/getFeatureDataByPhoto': (c, p, op, a, files) => c.faceFeatureData(c.requireLock(op, p, a), files),
  'face/add': (c, p, op, a) => c.addFace(c.requireLock(op, p, a), p),
  'face/delete': async (c, p, op, a) => {
    await c.deleteFace(c.requireLock(op, p, a), p);
    return OK_BODY;
  },
  'face/list': (c, p, op, a) => c.listFaces(c.requireLock(op, p, a), p),
  'lock/unlock': async (c, p, op, a) => {
    await c.unlock(c.requireLock(op, p, a));
    return OK_BODY;
  },
  'lockRecord/list': (c, p, op, a) => c.listRecords(c.requireLock(op, p, a), p),
  'doorSensor/query': (c, p, op, a) => c.doorSensorQuery(c.requireLock(op, p, a)),
  // Room cards (docs/card-format.md): the simulator's own extension, not part of TTLock's API.
  'lock/setHotelCardKeys': async (c, p, op, a) => {
    await c.setHotelCardKeys(c.requireLock(op, p, a), p);
    return OK_BODY;
  },
  'lock/getHotelCardSettings': (c, p, op, a) => c.hotelCardSettings(c.requireLock(op, p, a)),
  'lock/addHotelCardDenylist': async (c, p, op, a) => {
    await c.addHotelCardDenylist(c.requireLock(op, p, a), p);
    return OK_BODY;
  },
  'lock/deleteHotelCardDenylist': async (c, p, op, a) => {
    await c.deleteHotelCardDenylist(c.requireLock(op, p, a), p);
    return OK_BODY;
  },
};

/**
 * The calls TTLock documents as POSTs (every write, keyboardPwd/get, face/getFeatureDataByPhoto and
 * doorSensor/query, a read documented as a form POST), and the simulator's own writes. Sent as a GET
 * they are refused (methodRefused); the calls TTLock documents as GETs with a query take either.
 */
const POST_ONLY_OPS: ReadonlySet<string> = new Set([
  'keyboardPwd/get',
  'keyboardPwd/add',
  'keyboardPwd/delete',
  'keyboardPwd/change',
  'identityCard/add',
  'identityCard/addForReversedCardNumber',
  'identityCard/delete',
  'face/getFeatureDataByPhoto',
  'face/add',
  'face/delete',
  'lock/unlock',
  'doorSensor/query',
  'lock/setHotelCardKeys',
  'lock/addHotelCardDenylist',
  'lock/deleteHotelCardDenylist',
]);

const FORM = 'application/x-www-form-urlencoded';
const MULTIPART = 'multipart/form-data';
/** The calls TTLock documents as multipart POSTs (a file, the other parameters in the query). */
const MULTIPART_OPS = new Set(['face/getFeatureDataByPhoto']);
/** A multipart body the simulator reads at most (a 2 MB photo and room to spare); more is HTTP 413. */
const MULTIPART_BODY_LIMIT = 8 * 1024 * 1024;

interface MultipartBody {
  multipart: ReturnType<typeof parseMultipart>;
}

/**
 * Query string and body of a TTLock call (TTLock documents GET with a query for reads, form POSTs
 * for writes, and multipart for a photo), and the files of a multipart one.
 */
function paramsOf(request: FastifyRequest, op?: string): { params: Params; files: Record<string, SimUpload> } {
  const params: Params = { ...(request.query as Params) };
  let files: Record<string, SimUpload> = {};
  if (request.method === 'POST') {
    const type = request.headers['content-type'] ?? '';
    if (op && MULTIPART_OPS.has(op) && type.startsWith(MULTIPART)) {
      const parsed = (request.body as MultipartBody).multipart;
      if (!parsed) throw ttError(TT.INVALID_PARAMETER, 'Invalid Parameter: the multipart body could not be read');
      Object.assign(params, parsed.fields);
      files = parsed.files;
    } else {
      if (!type.startsWith(FORM))
        throw ttError(TT.INVALID_PARAMETER, `Invalid Parameter: the body must be ${FORM}${op && MULTIPART_OPS.has(op) ? ` or ${MULTIPART}` : ''}`);
      Object.assign(params, request.body as Params);
    }
  }
  return { params, files };
}

/** What the log keeps of a call: its HTTP method, and its parameters and account once they are known. */
type CallNote = { method?: string; params?: Params; account?: string | null };

/**
 * A call sent with a method TTLock does not document for it (a GET of a POST call): refused before
 * anything else is checked, as a web server refuses a method its route does not take: HTTP 405,
 * `Allow: POST`, and TTLock's refusal body (-3, Invalid Parameter) so that a TTLock client reads
 * why. It is logged; it does not count towards the account's month (nothing of it ran).
 */
function methodRefused(cloud: LockCloud, op: string, request: FastifyRequest, reply: FastifyReply) {
  const params = request.query as Params;
  cloud.logCall(op, TT.INVALID_PARAMETER, { method: request.method, params, account: cloud.accountOfCall(op, params) });
  return reply
    .code(405)
    .header('allow', 'POST')
    .send(
      errorBody(ttError(TT.INVALID_PARAMETER, `Invalid Parameter: ${op} is a POST (${MULTIPART_OPS.has(op) ? MULTIPART : FORM}), not a ${request.method}`)),
    );
}

/** Runs a call and logs it with its errcode, account and lock (`call.params` once they are read). */
async function answer(cloud: LockCloud, path: string, reply: FastifyReply, call: CallNote, run: () => unknown) {
  try {
    const result = await run();
    cloud.logCall(path, 0, call);
    return reply.send(result);
  } catch (error) {
    if (error instanceof TtlockError) {
      cloud.logCall(path, error.errcode, call);
      return reply.send(errorBody(error));
    }
    cloud.logCall(path, TT.INTERNAL, call);
    reply.log.error(error);
    return reply.send(errorBody(ttError(TT.INTERNAL)));
  }
}

/** Starts the simulator (in this process) and resolves once it listens. */
export async function startLockSim(options: LockSimOptions = {}): Promise<LockSim> {
  const state = loadState(options.stateFile);
  if (options.callbackUrl !== undefined) state.callbackUrl = options.callbackUrl;
  if (options.lockIdBase !== undefined && Object.keys(state.locks).length === 0) state.counters.lockId = options.lockIdBase;
  const cloud = new LockCloud({
    clientId: options.clientId ?? SIM_DEFAULTS.clientId,
    clientSecret: options.clientSecret ?? SIM_DEFAULTS.clientSecret,
    username: options.username ?? SIM_DEFAULTS.username,
    password: options.password ?? SIM_DEFAULTS.password,
    region: options.region ?? 'eu',
    latencyMs: options.latencyMs ?? [20, 50],
    tokenTtlSeconds: options.tokenTtlSeconds ?? 7_776_000,
    rateLimitPerMinute: options.rateLimitPerMinute ?? 0,
    callbackRetryDelaysMs: options.callbackRetryDelaysMs ?? [1_000, 5_000, 15_000, 60_000],
    stateFile: options.stateFile,
    stateDebounceMs: options.stateDebounceMs ?? 200,
    initialState: state,
  });
  if (options.seedLocks && Object.keys(state.locks).length === 0) {
    const gateway = cloud.createGateway({ name: 'Gateway 1' });
    for (let i = 1; i <= options.seedLocks; i += 1) cloud.createLock({ name: `Room ${100 + i}`, gatewayIds: [gateway.gatewayId] });
  }
  cloud.changed();

  const app = Fastify({ logger: options.logger ?? false });
  app.addContentTypeParser(FORM, { parseAs: 'string' }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
  // Everything the simulator answers says so.
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('x-simulated', 'true');
    return payload;
  });

  app.addContentTypeParser(MULTIPART, { parseAs: 'buffer', bodyLimit: MULTIPART_BODY_LIMIT }, (request, body, done) => {
    done(null, { multipart: parseMultipart(body as Buffer, request.headers['content-type'] ?? '') } satisfies MultipartBody);
  });
  app.post('/oauth2/token', (request, reply) => {
    const call: CallNote = { method: request.method };
    return answer(cloud, 'oauth2/token', reply, call, () => {
      call.params = paramsOf(request).params;
      call.account = cloud.accountOfCall('oauth2/token', call.params);
      return cloud.oauthToken(call.params);
    });
  });
  for (const [op, handler] of Object.entries(V3)) {
    const route = (request: FastifyRequest, reply: FastifyReply) => {
      if (request.method !== 'POST' && POST_ONLY_OPS.has(op)) return methodRefused(cloud, op, request, reply);
      const call: CallNote = { method: request.method };
      return answer(cloud, op, reply, call, () => {
        const { params, files } = paramsOf(request, op);
        call.params = params;
        call.account = cloud.accountOfCall(op, params);
        const account = cloud.authenticate(op, params);
        return handler(cloud, params, op, account, files);
      });
    };
    app.get(`/v3/${op}`, route);
    app.post(`/v3/${op}`, route);
  }
  registerControlRoutes(app, cloud);

  const address = await app.listen({ port: options.port ?? 0, host: options.host ?? '127.0.0.1' });
  const port = Number(new URL(address).port);
  let closing: Promise<void> | null = null;
  return {
    url: address,
    port,
    cloud,
    app,
    close() {
      closing ??= (async () => {
        cloud.callbacks.close();
        await app.close();
        await cloud.flush();
      })();
      return closing;
    },
  };
}
