import type { BrandVoiceFinding } from './schema.js';
import type { CheckerAnswer } from './contract.js';

/** The part of the guide the rules read (tone notes are for people and the model). */
export interface GuideRules {
  bannedPhrases: readonly string[];
  requiredClaims: readonly string[];
  minLength: number | null;
  maxLength: number | null;
}

/** The model name recorded on verdicts given by the rules alone. */
export const RULES_MODEL = 'headcount-rules';

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A phrase as a pattern: case-insensitive, any run of whitespace between its words, and whole words
 * only (a letter or digit may not touch either end), so banning "free" does not flag "freedom".
 */
function phrasePattern(phrase: string): RegExp {
  const words = phrase.normalize('NFC').trim().split(/\s+/).map(escapeRegExp);
  return new RegExp(`(?<![\\p{L}\\p{N}])${words.join('\\s+')}(?![\\p{L}\\p{N}])`, 'iu');
}

/** Each rule broken is a major finding: the guide is the board's, and none of it is a matter of taste. */
const PENALTY = 30;

/**
 * The built-in brand-voice check: the guide's banned phrases, required claims and length bounds,
 * applied to the draft. Deterministic: the same guide and draft always give the same answer.
 */
export function applyGuide(guide: GuideRules, draft: string): CheckerAnswer {
  const text = draft.normalize('NFC');
  const findings: BrandVoiceFinding[] = [];
  for (const phrase of guide.bannedPhrases) {
    const m = phrasePattern(phrase).exec(text);
    if (m) findings.push({ severity: 'major', message: `Uses the banned phrase "${phrase}"; remove or reword it`, excerpt: m[0] });
  }
  for (const claim of guide.requiredClaims) {
    if (!phrasePattern(claim).test(text)) findings.push({ severity: 'major', message: `Does not state the required claim "${claim}"` });
  }
  const length = [...text.trim()].length;
  if (guide.minLength !== null && length < guide.minLength) {
    findings.push({ severity: 'major', message: `Is ${length} characters; the guide asks for at least ${guide.minLength}` });
  }
  if (guide.maxLength !== null && length > guide.maxLength) {
    findings.push({ severity: 'major', message: `Is ${length} characters; the guide allows at most ${guide.maxLength}` });
  }
  const score = Math.max(0, 100 - PENALTY * findings.length);
  // Edits fix one or two broken rules; three or more means the draft was not written to the guide.
  const verdict = findings.length === 0 ? 'pass' : findings.length >= 3 ? 'fail' : 'needs_revision';
  const summary =
    findings.length === 0 ? 'Follows the brand-voice guide rules.' : `Breaks ${findings.length} brand-voice guide rule${findings.length === 1 ? '' : 's'}.`;
  return { verdict, score, summary, findings };
}

const RANK = { pass: 0, needs_revision: 1, fail: 2 } as const;

/** Rules and model together: the worse verdict, the lower score, every finding (the rules' first). */
export function mergeAnswers(rules: CheckerAnswer, model: CheckerAnswer): CheckerAnswer {
  if (rules.findings.length === 0) return model;
  return {
    verdict: RANK[rules.verdict] >= RANK[model.verdict] ? rules.verdict : model.verdict,
    score: Math.min(rules.score, model.score),
    summary: `${rules.summary} ${model.summary}`.slice(0, 4000),
    findings: [...rules.findings, ...model.findings].slice(0, 50),
  };
}
