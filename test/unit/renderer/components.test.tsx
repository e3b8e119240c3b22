// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { MentionTextarea } from '../../../renderer/src/components/MentionTextarea.js';
import { Toasts } from '../../../renderer/src/components/Toasts.js';
import { Table } from '../../../renderer/src/components/Table.js';
import { useUi, toastError, toastSuccess, MAX_TOASTS } from '../../../renderer/src/stores/ui.js';
import { ApiError } from '../../../renderer/src/api/client.js';

afterEach(() => {
  cleanup();
  useUi.setState({ toasts: [] });
});

const agents = [
  { id: '1', name: 'Ada', urlKey: 'ada' },
  { id: '2', name: 'Ben', urlKey: 'ben' },
];

function Harness() {
  const [value, setValue] = useState('');
  return (
    <>
      <MentionTextarea label="Comment" value={value} onChange={setValue} candidates={agents} />
      <output data-testid="value">{value}</output>
    </>
  );
}

describe('MentionTextarea', () => {
  it('offers agents after @ and completes the chosen one with the keyboard', () => {
    render(<Harness />);
    const box = screen.getByRole('combobox', { name: 'Comment' });
    fireEvent.change(box, { target: { value: 'ask @', selectionStart: 5 } });
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Ada @ada', 'Ben @ben']);
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    expect(screen.getByRole('option', { selected: true }).textContent).toBe('Ben @ben');
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(screen.getByTestId('value').textContent).toBe('ask @ben ');
    expect(screen.queryByRole('listbox')).toBeNull();
  });

  it('closes on Escape and narrows as the name is typed', () => {
    render(<Harness />);
    const box = screen.getByRole('combobox', { name: 'Comment' });
    fireEvent.change(box, { target: { value: '@a', selectionStart: 2 } });
    expect(screen.getAllByRole('option')).toHaveLength(1);
    fireEvent.keyDown(box, { key: 'Escape' });
    expect(screen.queryByRole('listbox')).toBeNull();
  });
});

describe('toasts', () => {
  it("show the API's own message for errors, keep them until dismissed, and cap how many stay", () => {
    render(<Toasts />);
    act(() => void toastError(new ApiError(409, 'stale_revision', 'baseRevisionId is not the current revision'), 'Could not save'));
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('Could not save');
    expect(alert.textContent).toContain('baseRevisionId is not the current revision');
    act(() => {
      for (let i = 0; i < MAX_TOASTS + 2; i++) toastSuccess(`done ${i}`);
    });
    expect(useUi.getState().toasts).toHaveLength(MAX_TOASTS);
    act(() => void toastSuccess('done 5'));
    expect(useUi.getState().toasts.filter((t) => t.message === 'done 5')).toHaveLength(1);
    fireEvent.click(screen.getAllByRole('button', { name: 'Dismiss notification' })[0]!);
    expect(useUi.getState().toasts).toHaveLength(MAX_TOASTS - 1);
  });
});

describe('Table', () => {
  it('makes clickable rows reachable and activatable from the keyboard', () => {
    const opened: string[] = [];
    render(<Table label="Things" rows={[{ id: 'a' }, { id: 'b' }]} rowKey={(r) => r.id} onRowClick={(r) => opened.push(r.id)} columns={[{ key: 'id', header: 'Id', render: (r) => r.id }]} />);
    const rows = screen.getAllByRole('row').slice(1);
    expect(rows.map((r) => r.getAttribute('tabindex'))).toEqual(['0', '0']);
    fireEvent.keyDown(rows[1]!, { key: 'Enter' });
    fireEvent.click(rows[0]!);
    expect(opened).toEqual(['b', 'a']);
  });
});
