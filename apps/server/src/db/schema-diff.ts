/**
 * Development tool around Prisma's WebAssembly schema engine: drafts migration SQL from
 * schema.prisma, and gives the test that compares migrations and schema the SQL Prisma itself
 * would run. The native engine that `prisma migrate` downloads is not needed. Never imported
 * by the running server.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { PrismaPg } from '@prisma/adapter-pg';
import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils';
import { SCHEMA_PATH } from './paths';
import { createScratchDatabase } from './scratch-database';

interface WasmDiffResult {
  exitCode: number;
  stdout: string | null;
}
interface WasmEngine {
  diff(params: unknown): Promise<WasmDiffResult>;
  free(): void;
}
interface WasmBindings {
  __wbg_set_wasm(exports: Record<string, unknown>): void;
  SchemaEngine: { new: (options: unknown, log: (line: string) => void, adapter: object) => Promise<WasmEngine> };
  [name: string]: unknown;
}

/** The few WebAssembly calls used here (the Node 20 type definitions do not declare them). */
interface WasmApi {
  compile(bytes: Uint8Array): Promise<object>;
  instantiate(module: object, imports: Record<string, Record<string, unknown>>): Promise<{ exports: Record<string, unknown> }>;
  Module: { imports(module: object): { module: string; name: string }[] };
}
const Wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

let bindings: Promise<WasmBindings> | undefined;

/** The package targets bundlers; in Node the .wasm is instantiated here with its JS glue. */
async function loadBindings(): Promise<WasmBindings> {
  const require = createRequire(import.meta.url);
  const gluePath = require.resolve('@prisma/schema-engine-wasm/schema_engine_bg');
  const glue = (await import('@prisma/schema-engine-wasm/schema_engine_bg')) as unknown as WasmBindings;
  const module = await Wasm.compile(fs.readFileSync(path.join(path.dirname(gluePath), 'schema_engine_bg.wasm')));
  const imports: Record<string, Record<string, unknown>> = {};
  for (const entry of Wasm.Module.imports(module)) {
    (imports[entry.module] ??= {})[entry.name] = glue[entry.name];
  }
  const instance = await Wasm.instantiate(module, imports);
  glue.__wbg_set_wasm(instance.exports);
  (instance.exports.__wbindgen_start as (() => void) | undefined)?.();
  return glue;
}

function schemaFiles() {
  return [{ path: SCHEMA_PATH, content: fs.readFileSync(SCHEMA_PATH, 'utf8') }];
}

type PgAdapter = Awaited<ReturnType<PrismaPg['connect']>>;

/**
 * The pg adapter runs a script by splitting it on ";", which breaks a migration containing a
 * PL/pgSQL body. Our migrations are sent whole instead, as the migration runner does.
 */
function wholeScriptFactory(factory: PrismaPg): PrismaPg {
  const patch = (adapter: PgAdapter): PgAdapter => {
    const client = adapter.underlyingDriver();
    adapter.executeScript = async (script: string) => {
      await client.query(script);
    };
    return adapter;
  };
  const connect = factory.connect.bind(factory);
  const connectToShadowDb = factory.connectToShadowDb.bind(factory);
  factory.connect = async () => patch(await connect());
  factory.connectToShadowDb = async () => patch(await connectToShadowDb());
  return factory;
}

/**
 * SQL that turns a database described by `fromSchema` (a schema.prisma text; none: an empty
 * database) into the one the current `prisma/schema.prisma` describes. Computed by Prisma's
 * schema engine from the two schema texts, with no database involved beyond a scratch
 * connection the engine insists on having. An empty string means nothing differs.
 */
export async function draftMigrationSql(adminUrl: string, fromSchema?: string): Promise<string> {
  bindings ??= loadBindings();
  const glue = await bindings;
  const scratch = await createScratchDatabase(adminUrl, 'draft');
  const adapter = bindMigrationAwareSqlAdapterFactory(wholeScriptFactory(new PrismaPg({ connectionString: scratch.url })));
  const files = schemaFiles();
  const engine = await glue.SchemaEngine.new({ datamodels: files.map((f) => [f.path, f.content]) }, () => {}, adapter);
  try {
    const result = await engine.diff({
      from: fromSchema === undefined ? { tag: 'empty' } : { tag: 'schemaDatamodel', files: [{ path: SCHEMA_PATH, content: fromSchema }] },
      to: { tag: 'schemaDatamodel', files },
      script: true,
      exitCode: null,
      filters: { externalTables: [], externalEnums: [] },
    });
    const sql = result.stdout ?? '';
    return sql.includes('This is an empty migration.') ? '' : sql.trim();
  } finally {
    engine.free();
    await scratch.drop();
  }
}
