/**
 * Drafts the SQL of a new migration from schema.prisma with Prisma's schema engine:
 *   pnpm --filter @console/server schema:draft              the whole schema, from an empty database
 *   pnpm --filter @console/server schema:draft -- <rev>     the change since schema.prisma at git <rev>
 * Paste the output into prisma/migrations/<timestamp>_<name>/migration.sql and add by hand what
 * Prisma cannot express; `migrations.integration.test.ts` then proves the two agree.
 */
import { execFileSync } from 'node:child_process';
import { draftMigrationSql } from './schema-diff';

const adminUrl = process.env.ADMIN_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const rev = process.argv.slice(2).find((a) => a !== '--');
const fromSchema = rev ? execFileSync('git', ['show', `${rev}:prisma/schema.prisma`], { encoding: 'utf8' }) : undefined;
const sql = await draftMigrationSql(adminUrl, fromSchema);
console.log(sql || '-- schema.prisma has not changed.');
