import { z } from 'zod';

export const SearchQuery = z.strictObject({
  q: z.string().trim().min(1, 'q must not be empty').max(200),
  limit: z.coerce.number().int().min(1).max(50).default(20),
});
export type SearchQuery = z.infer<typeof SearchQuery>;

const SnippetPart = z.object({ text: z.string(), match: z.boolean() });

export const IssueHit = z.object({
  id: z.string(),
  identifier: z.string(),
  title: z.string(),
  status: z.string(),
  /** Where the best match is: the title, the description or a comment. */
  matchedIn: z.enum(['title', 'description', 'comment']),
  commentId: z.string().nullable(),
  snippet: z.array(SnippetPart),
});

export const SearchResults = z.object({
  issues: z.array(IssueHit),
  agents: z.array(z.object({ id: z.string(), name: z.string(), role: z.string(), status: z.string() })),
  projects: z.array(z.object({ id: z.string(), name: z.string(), status: z.string() })),
});
export type SearchResults = z.infer<typeof SearchResults>;
