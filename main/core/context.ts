import path from 'node:path';
import type { Clock } from './clock.js';
import type { Db } from './db/connection.js';
import type { Logger } from './logger.js';
import type { AdapterRegistry } from '../../adapters/registry.js';

/** A transaction handle, usable wherever the database handle is. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type Queryable = Db | Tx;

export interface HomePaths {
  home: string;
  database: string;
  attachments: string;
  runs: string;
  backups: string;
}

export function homePaths(home: string): HomePaths {
  return {
    home,
    database: path.join(home, 'service.db'),
    attachments: path.join(home, 'attachments'),
    runs: path.join(home, 'runs'),
    backups: path.join(home, 'backups'),
  };
}

/** What every area service is built from. */
export interface CoreContext {
  db: Db;
  clock: Clock;
  logger: Logger;
  paths: HomePaths;
  adapters: AdapterRegistry;
}

/** Runs `fn` in one IMMEDIATE transaction: the write lock is taken up front, so no upgrade deadlocks. */
export function inTransaction<T>(ctx: Pick<CoreContext, 'db'>, fn: (tx: Tx) => T): T {
  return ctx.db.transaction(fn, { behavior: 'immediate' });
}

export const isoNow = (ctx: Pick<CoreContext, 'clock'>): string => ctx.clock.now().toISOString();
