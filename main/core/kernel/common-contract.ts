import { z } from 'zod';
import { collapseSpaces, hasBidiControl, hasLoneSurrogate, invisibleCharacter } from './text-rules.js';

/** Shared request/response pieces. The renderer imports contract files only. */
export const Id = z.uuid({ message: 'must be a UUID' });
export const Timestamp = z.string().describe('ISO-8601 UTC timestamp');
export const Cents = z.int().min(0).max(1_000_000_000_000);
export const LongText = z.string().max(100_000);

const LONE_SURROGATE_MESSAGE = 'contains half of a UTF-16 surrogate pair (not valid Unicode text)';

/**
 * A title a person reads (issue, document, interaction): valid Unicode, stored in NFC, without the
 * bidi controls that make it display as something else. Marks (LRM, RLM) stay allowed.
 */
export const TitleText = (max: number) =>
  z
    .string()
    .refine((s) => !hasLoneSurrogate(s), LONE_SURROGATE_MESSAGE)
    .refine((s) => !hasBidiControl(s), 'must not contain bidi embedding, override or isolate controls (U+202A-U+202E, U+2066-U+2069)')
    .normalize('NFC')
    .trim()
    .min(1, 'must not be empty')
    .max(max);

/**
 * A name that identifies something on the board (agent, company, project, goal, label, key...):
 * the title rules, plus no invisible or control character at all and one plain space for any run
 * of spaces, so two names that look the same are the same text (and collide where names are unique).
 */
export const NameText = (max: number) =>
  z
    .string()
    .refine((s) => !hasLoneSurrogate(s), LONE_SURROGATE_MESSAGE)
    .superRefine((s, ctx) => {
      const found = invisibleCharacter(s);
      if (found) ctx.addIssue({ code: 'custom', message: `must not contain invisible, control or bidi characters (found ${found})` });
    })
    .normalize('NFC')
    .overwrite(collapseSpaces)
    .trim()
    .min(1, 'must not be empty')
    .max(max);

export const Name = NameText(200);

export const CompanyIdParams = z.strictObject({ companyId: Id });

/** Query strings: pagination shared by every paged list. */
export const PageQuery = {
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(200).optional(),
};

/** Empty JSON object, for action routes that take no body. */
export const EmptyBody = z.strictObject({}).nullish();
