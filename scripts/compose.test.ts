import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

/**
 * docker-compose.yml cannot be run here (no Docker engine), so it is at least read as compose
 * reads it: valid YAML, the services a hotel runs, and every secret production refuses to start
 * without passed to the app (a missing one would stop `docker compose up`).
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const compose = parse(fs.readFileSync(path.join(root, 'docker-compose.yml'), 'utf8')) as { services: Record<string, { environment?: Record<string, string>; profiles?: string[] }> };

describe('docker-compose.yml', () => {
  it('is valid YAML with the app, its database and Redis, and the simulators only in the demo profile', () => {
    expect(Object.keys(compose.services)).toEqual(expect.arrayContaining(['app', 'postgres', 'redis', 'lock-sim', 'reader-sim']));
    expect(compose.services['lock-sim']!.profiles).toEqual(['demo']);
    expect(compose.services['reader-sim']!.profiles).toEqual(['demo']);
    expect(compose.services.app!.profiles).toBeUndefined();
  });

  it("passes every secret production refuses to start without, and says what to set when it is missing", () => {
    const env = compose.services.app!.environment!;
    for (const name of ['COMPAT_DES_KEY', 'COMPAT_DES_IV', 'FACE_PHOTO_SECRET', 'CARD_KEY_SECRET']) {
      expect(env[name], name).toMatch(new RegExp(`^\\$\\{${name}:\\?set ${name} in \\.env`));
    }
    expect(env.LOCK_CALLBACK_SECRET).toBeDefined();
  });
});
