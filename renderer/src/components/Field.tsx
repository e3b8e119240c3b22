import { useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react';

interface FieldShell {
  label: string;
  hint?: ReactNode;
  error?: string | null;
}

function Shell({ id, label, hint, error, children }: FieldShell & { id: string; children: ReactNode }) {
  return (
    <div className={`field${error ? ' field-invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {children}
      {error ? (
        <div className="field-error" id={`${id}-error`} role="alert">
          {error}
        </div>
      ) : hint ? (
        <div className="field-hint" id={`${id}-hint`}>
          {hint}
        </div>
      ) : null}
    </div>
  );
}

const described = (id: string, f: FieldShell) => (f.error ? `${id}-error` : f.hint ? `${id}-hint` : undefined);

export function Input({ label, hint, error, id, ...rest }: FieldShell & InputHTMLAttributes<HTMLInputElement>) {
  const auto = useId();
  const fid = id ?? auto;
  return (
    <Shell id={fid} label={label} hint={hint} error={error ?? null}>
      <input id={fid} className="input" aria-invalid={error ? true : undefined} aria-describedby={described(fid, { label, hint, error })} {...rest} />
    </Shell>
  );
}

export function Textarea({ label, hint, error, id, ...rest }: FieldShell & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const auto = useId();
  const fid = id ?? auto;
  return (
    <Shell id={fid} label={label} hint={hint} error={error ?? null}>
      <textarea id={fid} className="input textarea" aria-invalid={error ? true : undefined} aria-describedby={described(fid, { label, hint, error })} {...rest} />
    </Shell>
  );
}

export interface Option {
  value: string;
  label: string;
}

export function Select({ label, hint, error, id, options, ...rest }: FieldShell & SelectHTMLAttributes<HTMLSelectElement> & { options: readonly Option[] }) {
  const auto = useId();
  const fid = id ?? auto;
  return (
    <Shell id={fid} label={label} hint={hint} error={error ?? null}>
      <select id={fid} className="input select" aria-invalid={error ? true : undefined} aria-describedby={described(fid, { label, hint, error })} {...rest}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </Shell>
  );
}

export function Checkbox({ label, id, ...rest }: { label: string } & InputHTMLAttributes<HTMLInputElement>) {
  const auto = useId();
  const fid = id ?? auto;
  return (
    <div className="checkbox">
      <input type="checkbox" id={fid} {...rest} />
      <label htmlFor={fid}>{label}</label>
    </div>
  );
}
