import { defineConfig } from 'drizzle-kit';

// Migrations are generated from the area schemas and committed; the core applies them at start.
export default defineConfig({
  dialect: 'sqlite',
  schema: './main/core/db/schema.ts',
  out: './main/core/db/migrations',
});
