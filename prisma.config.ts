import { defineConfig } from 'prisma/config';

// Used by the Prisma CLI (generate, validate, and `migrate deploy` where its schema engine is
// available). The server applies `prisma/migrations` itself on start; see docs/decisions/002.
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/smartlock' },
});
