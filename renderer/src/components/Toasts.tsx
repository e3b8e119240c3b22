import { useUi } from '../stores/ui.js';

/** Toasts live in a polite region; errors use role=alert so they are announced at once. */
export function Toasts() {
  const toasts = useUi((s) => s.toasts);
  const dismiss = useUi((s) => s.dismissToast);
  return (
    <div className="toasts" aria-live="polite">
      {toasts.map((t) => (
        <div key={t.id} className={`toast toast-${t.kind}`} role={t.kind === 'error' ? 'alert' : 'status'}>
          <div className="toast-text">
            {t.title ? <div className="toast-title">{t.title}</div> : null}
            <div>{t.message}</div>
          </div>
          <button type="button" className="icon-btn" aria-label="Dismiss notification" onClick={() => dismiss(t.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
