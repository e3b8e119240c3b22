import { z } from 'zod';
import type { RouteRegistrar } from '../../kernel/route.js';
import { errorResponses } from '../../kernel/route.js';
import { CompanyIdParams } from '../../kernel/common-contract.js';
import { brandVoiceSkill } from './skill.js';
import { BrandVoiceCheckBody, BrandVoiceCheckResult, BrandVoiceGuide, BrandVoiceGuideBody, BrandVoiceSettings, BrandVoiceSettingsBody } from './contract.js';

const tags = ['crm'];

export const crmBrandVoiceRoutes: RouteRegistrar = (app, s) => {
  app.post('/api/companies/:companyId/crm/brand-voice/check', {
    schema: {
      tags,
      summary: 'Brand-voice check of a draft: the cache by contentSha256 first (no model call on a hit), else the guide rules plus the model-backed check if one is set',
      params: CompanyIdParams,
      body: BrandVoiceCheckBody,
      response: { 200: BrandVoiceCheckResult, ...errorResponses },
    },
    handler: (req) => s.crmBrandVoice.check(req.actor, req.params.companyId, req.body),
  });

  app.get('/api/companies/:companyId/crm/brand-voice/guide', {
    schema: { tags, summary: 'The brand-voice guide the built-in checker applies (the board and the company’s agents)', params: CompanyIdParams, response: { 200: BrandVoiceGuide, ...errorResponses } },
    handler: (req) => s.crmBrandVoice.getGuide(req.actor, req.params.companyId),
  });

  app.put('/api/companies/:companyId/crm/brand-voice/guide', {
    schema: {
      tags,
      summary: 'Replace the brand-voice guide (board only): tone notes, banned phrases, required claims, length bounds, optional model check through an adapter; a changed guide clears the cache',
      params: CompanyIdParams,
      body: BrandVoiceGuideBody,
      response: { 200: BrandVoiceGuide, ...errorResponses },
    },
    handler: (req) => s.crmBrandVoice.putGuide(req.actor, req.params.companyId, req.body),
  });

  app.get('/api/companies/:companyId/crm/brand-voice/settings', {
    schema: { tags, summary: 'The brand-voice checker of the company (board only)', params: CompanyIdParams, response: { 200: BrandVoiceSettings, ...errorResponses } },
    handler: (req) => s.crmBrandVoice.getSettings(req.actor, req.params.companyId),
  });

  app.put('/api/companies/:companyId/crm/brand-voice/settings', {
    schema: {
      tags,
      summary: 'Set the brand-voice checker (board only): a chat-completions endpoint, model, key secret and guide; a new guide or model clears the cache',
      params: CompanyIdParams,
      body: BrandVoiceSettingsBody,
      response: { 200: BrandVoiceSettings, ...errorResponses },
    },
    handler: (req) => s.crmBrandVoice.putSettings(req.actor, req.params.companyId, req.body),
  });

  app.delete('/api/companies/:companyId/crm/brand-voice/settings', {
    schema: { tags, summary: 'Remove the brand-voice checker (board only); cached verdicts stay', params: CompanyIdParams, response: { 204: z.null(), ...errorResponses } },
    handler: async (req, reply) => {
      s.crmBrandVoice.deleteSettings(req.actor, req.params.companyId);
      return reply.code(204).send(null);
    },
  });

  app.get('/api/skills/brand-voice', {
    schema: {
      tags: ['heartbeats'],
      summary: 'The brand-voice self-check skill (text/markdown): how an agent checks a draft before sending it',
      response: { 200: z.string().describe('Markdown'), ...errorResponses },
    },
    handler: async (_req, reply) => reply.type('text/markdown; charset=utf-8').send(brandVoiceSkill()),
  });
};
