/**
 * The house's layers (docs/architecture.md), checked by `npm run lint`:
 *
 *   main/core/kernel      ground floor: actor and access, errors and the error contract, ids, clock,
 *                         logger, common zod types, route registrar type, the event catalogue
 *   main/core/<domain>    the middle: imports the kernel, db/ and lower domains' services
 *   main/core/services.ts builds the one typed Services object from the domains
 *   main/core/<d>/routes  each domain's routes: validate, call a service, shape the response
 *   main/core/http        top floor: the Fastify server, auth hooks, host guard, static board
 *   main/core/index.ts    starts it all
 *
 * Plus: no cycles anywhere; `electron` only in main/electron and preload; adapters import only
 * adapters/utils and their own folder; the renderer imports only contract files of the core.
 */
const ROUTES = '/(routes|[a-z-]+-routes)\\.ts$';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'A cycle makes two modules one: neither can be read, tested or moved without the other.',
      from: { path: '^(main|adapters|renderer|preload)/' },
      to: { circular: true },
    },
    {
      name: 'kernel-is-the-ground-floor',
      severity: 'error',
      comment: 'The kernel imports nothing of the domains, the composition or the server.',
      from: { path: '^main/core/kernel/' },
      to: { path: '^main/core/', pathNot: '^main/core/kernel/' },
    },
    {
      name: 'nothing-below-imports-the-server',
      severity: 'error',
      comment: 'Only the entry point (main/core/index.ts) stands above http/; domains and routes never import it.',
      from: { path: '^main/core/', pathNot: '^main/core/(http/|index\\.ts$)' },
      to: { path: '^main/core/http/' },
    },
    {
      name: 'domains-do-not-import-routes',
      severity: 'error',
      comment: 'Routes stand above the services; a service that needs something of a route file wants it moved down.',
      from: { path: '^main/core/', pathNot: ['^main/core/(http/|index\\.ts$)', ROUTES] },
      to: { path: `^main/core/.*${ROUTES}` },
    },
    {
      name: 'domains-do-not-import-the-composition',
      severity: 'error',
      comment: 'services.ts builds the Services object from the domains; a domain importing it would stand on itself.',
      from: { path: '^main/core/', pathNot: ['^main/core/(http/|index\\.ts$|services\\.ts$)', ROUTES] },
      to: { path: '^main/core/services\\.ts$' },
    },
    {
      name: 'core-never-imports-the-shell',
      severity: 'error',
      comment: 'The core runs under plain Node (CLI, tests); the desktop shell and the CLI stand on it.',
      from: { path: '^main/core/' },
      to: { path: '^main/(electron|cli)/' },
    },
    {
      name: 'electron-only-in-the-shell',
      severity: 'error',
      comment: 'Electron exists only in the desktop window; everything else runs and is tested under plain Node.',
      from: { pathNot: '^(main/electron|preload)/' },
      to: { path: '(^|/)node_modules/electron/' },
    },
    {
      name: 'adapters-stand-on-adapter-utils-only',
      severity: 'error',
      comment: 'An adapter is a plugin-shaped package: its own folder plus the shared harness, nothing of the core or of another adapter.',
      from: { path: '^adapters/(vendor-[^/]+|process|http)/' },
      to: { path: '^(adapters|main|renderer|preload)/', pathNot: ['^adapters/utils/', '^adapters/$1/'] },
    },
    {
      name: 'adapter-utils-stand-alone',
      severity: 'error',
      comment: 'The shared harness knows no adapter and nothing of the core.',
      from: { path: '^adapters/utils/' },
      to: { path: '^(adapters|main|renderer|preload)/', pathNot: '^adapters/utils/' },
    },
    {
      name: 'renderer-imports-only-contracts',
      severity: 'error',
      comment:
        'The board talks to the core over HTTP; it may share the zod contract files and the transcript entry contract its adapter UI parsers produce, nothing else.',
      from: { path: '^renderer/' },
      to: {
        path: '^(main|adapters|preload)/',
        pathNot: ['^main/core/[a-z/-]+/contract\\.ts$', '^main/core/kernel/(common-contract|text-rules|error-contract|errors|events)\\.ts$', '^adapters/utils/src/transcript\\.ts$'],
      },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|node_modules)/|\\.d\\.ts$' },
    // Type-only imports count: a cycle through types is still two modules that cannot stand alone.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['source', 'import', 'require', 'node', 'default'], extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs'] },
    moduleSystems: ['es6', 'cjs'],
    reporterOptions: {
      archi: { collapsePattern: '^(main/core/[^/]+|main/[^/]+|adapters/[^/]+|renderer/src/[^/]+|preload)' },
      dot: { collapsePattern: '^(main/core/[^/]+|main/[^/]+|adapters/[^/]+|renderer/src/[^/]+|preload)' },
    },
  },
};
