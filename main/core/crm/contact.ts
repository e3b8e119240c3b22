import type { CrmAllowlistEntryRow, CrmAllowlistKind } from './schema.js';

/** How a channel addresses its recipient. `any` (dry-run) accepts each form, recognized by shape. */
export type ContactForm = 'email' | 'phone' | 'handle' | 'any';

export interface Contact {
  form: Exclude<ContactForm, 'any'>;
  /** Normalized: lower-case e-mail or handle (no @), E.164 phone. */
  value: string;
}

const EMAIL = /^[^\s@<>(),;:"]{1,64}@[a-z0-9-]+(\.[a-z0-9-]+)+$/;
const E164 = /^\+[1-9][0-9]{6,14}$/;
const HANDLE = /^[a-z0-9][a-z0-9._:-]{0,99}$/;
const DOMAIN = /^(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)+$/;

function normalize(form: Contact['form'], raw: string): string | null {
  const text = raw.trim();
  if (form === 'email') {
    const v = text.toLowerCase();
    return EMAIL.test(v) && v.length <= 254 ? v : null;
  }
  if (form === 'phone') {
    const v = text.replace(/[\s().-]/g, '');
    return E164.test(v) ? v : null;
  }
  const v = text.replace(/^@/, '').toLowerCase();
  return HANDLE.test(v) ? v : null;
}

/** The recipient in its normalized form, or null with the reason left to the caller. */
export function parseContact(form: ContactForm, raw: string): Contact | null {
  if (form !== 'any') {
    const value = normalize(form, raw);
    return value === null ? null : { form, value };
  }
  const text = raw.trim();
  const guess: Contact['form'] = text.includes('@') && !text.startsWith('@') ? 'email' : text.startsWith('+') ? 'phone' : 'handle';
  const value = normalize(guess, text);
  return value === null ? null : { form: guess, value };
}

export const contactFormHint: Record<ContactForm, string> = {
  email: 'an e-mail address',
  phone: 'a phone number in E.164 form (+15551234567)',
  handle: 'a platform handle (letters, digits, . _ : -)',
  any: 'an e-mail address, an E.164 phone number or a handle',
};

/** Normalizes an allowlist value of `kind`; null when it is not valid for that kind. */
export function normalizeAllowlistValue(kind: CrmAllowlistKind, raw: string): string | null {
  if (kind === 'address') return normalize('email', raw);
  if (kind === 'phone') return normalize('phone', raw);
  if (kind === 'handle') return normalize('handle', raw);
  const v = raw.trim().toLowerCase();
  return DOMAIN.test(v) && v.length <= 253 ? v : null;
}

/**
 * Whether one entry admits the contact. `domain` entries: `example.com` is that domain exactly;
 * `*.example.com` is any subdomain of it (not example.com itself, so both are listed when meant).
 */
export function entryAdmits(entry: Pick<CrmAllowlistEntryRow, 'kind' | 'value'>, contact: Contact): boolean {
  switch (entry.kind) {
    case 'address':
      return contact.form === 'email' && contact.value === entry.value;
    case 'domain': {
      if (contact.form !== 'email') return false;
      const domain = contact.value.slice(contact.value.lastIndexOf('@') + 1);
      return entry.value.startsWith('*.') ? domain.endsWith(entry.value.slice(1)) : domain === entry.value;
    }
    case 'phone':
      return contact.form === 'phone' && contact.value === entry.value;
    case 'handle':
      return contact.form === 'handle' && contact.value === entry.value;
  }
}
