import { useId, useRef, useState, type TextareaHTMLAttributes } from 'react';
import { applyMention, matchCandidates, mentionQuery, type MentionCandidate } from '../app/mentions.js';

export interface MentionTextareaProps extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'value' | 'onChange'> {
  label: string;
  value: string;
  onChange: (value: string) => void;
  candidates: readonly MentionCandidate[];
}

/** A textarea with `@` completion of agent names (a combobox: arrows, Enter or Tab, Escape). */
export function MentionTextarea({ label, value, onChange, candidates, ...rest }: MentionTextareaProps) {
  const id = useId();
  const ref = useRef<HTMLTextAreaElement>(null);
  const [state, setState] = useState<{ start: number; query: string } | null>(null);
  const [active, setActive] = useState(0);
  const matches = state ? matchCandidates(candidates, state.query) : [];
  const open = matches.length > 0;

  const refresh = (text: string, caret: number) => {
    setState(mentionQuery(text, caret));
    setActive(0);
  };
  const choose = (c: MentionCandidate) => {
    const el = ref.current;
    if (!el || !state) return;
    const next = applyMention(value, state.start, el.selectionStart, c);
    onChange(next.text);
    setState(null);
    requestAnimationFrame(() => {
      el.focus();
      el.setSelectionRange(next.caret, next.caret);
    });
  };

  return (
    <div className="field" style={{ position: 'relative' }}>
      <label htmlFor={id}>{label}</label>
      <textarea
        {...rest}
        ref={ref}
        id={id}
        className="input textarea"
        value={value}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={`${id}-list`}
        aria-activedescendant={open ? `${id}-opt-${active}` : undefined}
        onChange={(e) => {
          onChange(e.target.value);
          refresh(e.target.value, e.target.selectionStart);
        }}
        onKeyDown={(e) => {
          if (open) {
            if (e.key === 'ArrowDown') return e.preventDefault(), setActive((active + 1) % matches.length);
            if (e.key === 'ArrowUp') return e.preventDefault(), setActive((active - 1 + matches.length) % matches.length);
            if (e.key === 'Enter' || e.key === 'Tab') return e.preventDefault(), choose(matches[active]!);
            if (e.key === 'Escape') return e.preventDefault(), setState(null);
          }
          rest.onKeyDown?.(e);
        }}
        onBlur={() => setTimeout(() => setState(null), 150)}
      />
      {open ? (
        <ul className="mention-menu" id={`${id}-list`} role="listbox" aria-label="Mention an agent" style={{ top: '100%', left: 0 }}>
          {matches.map((c, i) => (
            <li
              key={c.id}
              id={`${id}-opt-${i}`}
              role="option"
              aria-selected={i === active}
              onMouseDown={(e) => {
                e.preventDefault();
                choose(c);
              }}
            >
              <strong>{c.name}</strong> <span className="faint mono">@{c.urlKey}</span>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
