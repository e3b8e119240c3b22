import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { keepTempInMemory, openDatabase, type DatabaseHandle } from './db/connection.js';
import { applyMigrations, type MigrationResult } from './db/migrate.js';
import { systemClock, type Clock } from './kernel/clock.js';
import { sweepStaging } from './export/staging.js';
import { ensureRollups } from './costs/rollups.js';
import { stderrLogger, type Logger } from './kernel/logger.js';
import { commitSettled, groupCommits, stopGroupCommits, homePaths, observeCommits, type CoreContext } from './context.js';
import { startCheckpointer, type Checkpointer } from './db/checkpointer.js';
import { createServices, RUN_TOKEN_GRACE_SEC, type Services } from './services.js';
import type { PluginInstallOptions } from './plugins/service.js';
import { RunTokens } from './heartbeat/run-token.js';
import { verifyRunToken } from './heartbeat/verify-run-token.js';
import { buildServer } from './http/server.js';
import { resolveBoardToken } from './auth/board-token.js';
import { createBuiltinRegistry, type AdapterRegistry } from '../../adapters/registry.js';
import { defaultKeyProvider, type MasterKeyProvider } from './secrets/master-key.js';
import type { ZodApp } from './kernel/route.js';
import { EventBus } from './events/bus.js';
import { Signal } from './kernel/signal.js';
import { trackConnections } from './http/connections.js';
import type { RequestLimits } from './http/request-limits.js';
import { noActiveRuns, type RunLookup } from './heartbeat/run-lookup.js';
import { startRetention } from './retention/service.js';
import { BoardLoginCodes } from './http/board-login.js';
import type { BrandVoiceChecker } from './crm/brand-voice/checker.js';

export interface CoreOptions {
  /** Data home (SERVICE_HOME). Created if missing. */
  home: string;
  /** TCP port on 127.0.0.1; 0 picks a free one. Default 3100. */
  port?: number;
  /** Board token; default SERVICE_BOARD_TOKEN, else the token file in the home. */
  boardToken?: string;
  /** Master key store; default: the OS keychain, else a 0600 key file (with a warning). */
  keyProvider?: MasterKeyProvider;
  clock?: Clock;
  logger?: Logger;
  /** Electron-ABI better-sqlite3 binary when running inside Electron. */
  nativeBinding?: string;
  adapters?: AdapterRegistry;
  extraOrigins?: readonly string[];
  /** Which heartbeat runs are active; supplied by the heartbeat engine. */
  runs?: RunLookup;
  /** Start the heartbeat engine (default true); tests of other areas may leave it off. */
  heartbeats?: boolean;
  /** The heartbeat engine's safety-net tick; wakes start runs at once regardless. */
  heartbeatTickMs?: number;
  /** How long close() lets requests in flight finish before cutting connections. Default 10 s. */
  closeGraceMs?: number;
  /** Adapter plugin installs: npm location, extra npm arguments (e.g. --offline), timeout (default 120 s). */
  plugins?: PluginInstallOptions;
  /** The event bus; the desktop shell passes one it can follow in-process (tray, notifications). */
  events?: EventBus;
  /** Start the CRM sequence scheduler's interval (default true); tests tick it by hand. */
  sequences?: boolean;
  /** Start the routine scheduler (default true); tests with an injected clock tick it by hand. */
  routines?: boolean;
  /** Replaces the per-company chat-completions brand-voice checker (e.g. a local model in the shell). */
  brandVoiceChecker?: BrandVoiceChecker;
  /** Folder of the built board UI served at `/`; default dist/renderer. */
  boardRoot?: string;
  /** Header, request and keep-alive timeouts and the per-address connection cap (http/request-limits.ts). */
  requestLimits?: Partial<RequestLimits>;
}

export interface Core {
  url: string;
  port: number;
  boardToken: string;
  services: Services;
  app: ZodApp;
  database: DatabaseHandle;
  migration: MigrationResult;
  keyProvider: MasterKeyProvider;
  /** A fresh one-time link that signs a browser tab in to the board (`#/login?code=...`). */
  loginLink(): string;
  /** Stops accepting requests, lets those in flight finish, then closes the database. */
  close(): Promise<void>;
}

/** Boots the headless core: database, migrations, services and the loopback HTTP server. */
export async function createCore(options: CoreOptions): Promise<Core> {
  const paths = homePaths(options.home);
  mkdirSync(paths.home, { recursive: true, mode: 0o700 });
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? stderrLogger;

  const database = openDatabase(paths.database, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {});
  // Writes made close together share one commit; answers wait for it (context.ts).
  // Switched on before anything writes: a second core in this process turns it off for both.
  groupCommits(database.db, (what, err) => logger.error(what, { error: err instanceof Error ? (err.stack ?? err.message) : String(err) }));
  let app: ZodApp | undefined;
  let checkpointer: Checkpointer | undefined;
  let unobserveCheckpoints: (() => void) | undefined;
  try {
    const migration = await applyMigrations(database, paths.backups, clock.now());
    if (migration.backupPath) logger.info('database backed up before migrating', { backup: migration.backupPath });
    // A database from before the spend rollups gets them built once from its cost events.
    if (ensureRollups(database.db)) logger.info('spend rollups built from the cost events');
    // After the migrations, which may rewrite whole tables: from here on sub-journals stay in memory.
    keepTempInMemory(database.sqlite);
    // WAL checkpoints on a thread of their own, so a commit never pays for one (db/checkpointer.ts).
    checkpointer = startCheckpointer(paths.database, { logger, serving: database.sqlite, ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}) });
    unobserveCheckpoints = observeCommits(database.db, checkpointer.noteCommit);

    const boardToken = options.boardToken ?? resolveBoardToken(paths.home, process.env.SERVICE_BOARD_TOKEN);
    const ctx: CoreContext = {
      db: database.db,
      clock,
      logger,
      paths,
      adapters: options.adapters ?? createBuiltinRegistry(),
      events: options.events ?? new EventBus(),
      wakes: new Signal(),
      runs: options.runs ?? noActiveRuns,
      keyProvider: options.keyProvider ?? (await defaultKeyProvider(paths.home)),
    };
    let port = options.port ?? 3100;
    const tokens = new RunTokens();
    const services = createServices(ctx, {
      apiUrl: () => `http://127.0.0.1:${port}`,
      tokens,
      ...(options.plugins ? { plugins: options.plugins } : {}),
      ...(options.brandVoiceChecker ? { brandVoiceChecker: options.brandVoiceChecker } : {}),
      ...(options.heartbeatTickMs ? { heartbeatTickMs: options.heartbeatTickMs } : {}),
    });
    // Plugins join the adapter registry before any route or heartbeat can look a type up.
    await services.plugins.loadAll();
    // The engine knows which runs are active (checkout adoption); tests may pass their own view.
    if (!options.runs) ctx.runs = services.engine;
    // Before listening: finishes an interrupted key rotation, or refuses a key that cannot open the secrets.
    await services.secrets.start();
    // CRM sends a crash cut short: failed (possibly sent), quota refunded; approved drafts dispatched.
    services.crm.recover();
    // Post-issue hooks: $SERVICE_HOME/post-issue-hooks.json (missing = none; invalid = none, logged loudly).
    services.crmHooks.start();
    // Old data homes: flat attachment files move into their company's folder before the sweep.
    const moved = services.assets.moveFlatFiles();
    if (moved > 0) logger.info('moved stored files into their company folders', { count: moved });
    const orphans = services.assets.sweepOrphans();
    if (orphans > 0) logger.warn('removed stored files that no record owns (left by an earlier crash)', { count: orphans });
    // An import cut short by a crash left its staging folder; nothing in it was committed.
    sweepStaging(paths.home);
    // Texts written but not yet indexed when the last run stopped, or by an import or a migration:
    // indexed in the background from now on (search/indexer.ts), not before listening.
    services.search.scheduleIndexing();

    const loginCodes = new BoardLoginCodes(clock);
    app = await buildServer({
      loginCodes,
      ...(options.boardRoot ? { boardRoot: options.boardRoot } : {}),
      ...(options.requestLimits ? { requestLimits: options.requestLimits } : {}),
      runTokens: (token) => verifyRunToken(ctx, tokens, token, RUN_TOKEN_GRACE_SEC),
      services,
      boardToken,
      logger,
      port: () => port,
      ...(options.extraOrigins ? { extraOrigins: options.extraOrigins } : {}),
      commitSettled: () => commitSettled(database.db),
    });
    const connections = trackConnections(app.server);
    await app.listen({ host: '127.0.0.1', port });
    port = (app.server.address() as AddressInfo).port;
    const server = app;
    if (options.heartbeats !== false) services.engine.start();
    if (options.sequences !== false) services.crmSequenceScheduler.start();
    if (options.routines !== false) services.routineScheduler.start();
    // Old transcripts and surplus backups: deleted now and daily (settings in instance_settings).
    const retention = startRetention(ctx);
    // Workspaces of finished issues with nothing left to merge: removed now and hourly.
    const workspaceRetention = services.workspaces.startSweeping();

    let closing: Promise<void> | undefined;
    return {
      url: `http://127.0.0.1:${port}`,
      port,
      boardToken,
      services,
      app: server,
      database,
      migration,
      keyProvider: ctx.keyProvider,
      loginLink: () => `http://127.0.0.1:${port}/#/login?code=${loginCodes.issue()}`,
      close() {
        closing ??= (async () => {
          // Runs are cancelled (their process trees killed) and recorded before the API goes away.
          retention.stop();
          workspaceRetention.stop();
          await services.crmSequenceScheduler.stop();
          services.routineScheduler.stop();
          await services.engine.stop();
          const closed = server.close();
          connections.closeIdle();
          // Requests in flight get a grace period to finish; then every socket is cut.
          const force = setTimeout(() => connections.closeAll(), options.closeGraceMs ?? 10_000);
          force.unref();
          await closed;
          clearTimeout(force);
          // Hook runs in flight (a brand-voice model call) get the same grace; one cut short delivered nothing.
          services.crmHooks.stop();
          let hooksTimer: NodeJS.Timeout | undefined;
          await Promise.race([services.crmHooks.idle(), new Promise<void>((r) => (hooksTimer = setTimeout(r, options.closeGraceMs ?? 10_000)))]);
          clearTimeout(hooksTimer);
          services.search.stop();
          unobserveCheckpoints?.();
          await checkpointer?.stop();
          stopGroupCommits(database.db);
          database.close();
        })();
        return closing;
      },
    };
  } catch (err) {
    await app?.close().catch(() => {});
    await checkpointer?.stop();
    stopGroupCommits(database.db);
    database.close();
    throw err;
  }
}

export type { CoreContext } from './context.js';
export type { Actor } from './kernel/actor.js';
