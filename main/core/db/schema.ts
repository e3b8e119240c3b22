// Every table of every area, for drizzle-kit and for the typed database handle.
export * from '../companies/schema.js';
export * from '../assets/schema.js';
export * from '../agents/schema.js';
export * from '../projects/schema.js';
export * from '../goals/schema.js';
export * from '../activity/schema.js';
export * from '../costs/schema.js';
export * from '../issues/schema.js';
export * from '../secrets/schema.js';
export * from '../approvals/schema.js';
export * from '../heartbeat/schema.js';
export * from '../crm/schema.js';
export * from '../crm/brand-voice/schema.js';
export * from '../crm/hooks/schema.js';
export * from '../crm/sequences/schema.js';
export * from '../workspaces/schema.js';
