import { useState, type ReactNode } from 'react';
import { Dialog } from './Dialog.js';
import { Button } from './Button.js';
import { Input } from './Field.js';

/**
 * A confirmation for what is hard or impossible to undo: the action button wakes only once the
 * founder has typed `phrase` (a company's name) exactly, so a stray click or Enter cannot do it.
 */
export function TypedConfirmDialog({ open, title, phrase, action, busy, onConfirm, onClose, children }: {
  open: boolean;
  title: string;
  phrase: string;
  action: string;
  busy?: boolean;
  onConfirm: () => void;
  onClose: () => void;
  children: ReactNode;
}) {
  const [typed, setTyped] = useState('');
  const matches = typed.trim() === phrase;
  const close = () => {
    setTyped('');
    onClose();
  };
  return (
    <Dialog
      open={open}
      onClose={close}
      title={title}
      footer={
        <>
          <Button variant="ghost" onClick={close}>Cancel</Button>
          <Button variant="danger" busy={busy} disabled={!matches} onClick={onConfirm}>{action}</Button>
        </>
      }
    >
      <form
        className="stack"
        onSubmit={(e) => {
          e.preventDefault();
          if (matches) onConfirm();
        }}
      >
        <div>{children}</div>
        <Input label={`Type ${phrase} to confirm`} value={typed} onChange={(e) => setTyped(e.target.value)} autoComplete="off" spellCheck={false} autoFocus />
      </form>
    </Dialog>
  );
}
