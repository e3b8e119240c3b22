import { z } from 'zod';
import type { RouteRegistrar } from '../kernel/route.js';
import { errorResponses } from '../kernel/route.js';
import { AdapterListEntry, AdapterTypeParams, InstallAdapterBody, InstalledAdapter, UiParserResponse, UninstalledAdapter } from './contract.js';

const tags = ['adapters'];

/** Spec 4.3. Installing and uninstalling is for the instance administrator (the board token). */
export const pluginsRoutes: RouteRegistrar = (app, s) => {
  app.get('/api/adapters', {
    schema: {
      tags,
      summary: 'Every adapter type: built-ins and plugins, with plugins that failed to load and why',
      response: { 200: z.array(AdapterListEntry), ...errorResponses },
    },
    handler: async () => s.plugins.list(),
  });

  app.post('/api/adapters', {
    schema: {
      tags,
      summary: 'Install an adapter plugin from the package registry or a tarball (packageName) or a local directory (localPath); board only',
      body: InstallAdapterBody,
      response: { 201: InstalledAdapter, ...errorResponses },
    },
    handler: async (req, reply) => reply.code(201).send(await s.plugins.install(req.actor, req.body)),
  });

  app.delete('/api/adapters/:type', {
    schema: {
      tags,
      summary: 'Uninstall an adapter plugin (board only); its agents stay, their runs fail with adapter_missing',
      params: AdapterTypeParams,
      response: { 200: UninstalledAdapter, ...errorResponses },
    },
    handler: async (req) => s.plugins.uninstall(req.actor, req.params.type),
  });

  app.get('/api/adapters/:type/ui-parser', {
    schema: {
      tags,
      summary: 'The UI transcript parser of an adapter with its contract version; compatible:false means use the generic shell parser',
      params: AdapterTypeParams,
      response: { 200: UiParserResponse, ...errorResponses },
    },
    handler: async (req) => s.plugins.uiParser(req.params.type),
  });
};
