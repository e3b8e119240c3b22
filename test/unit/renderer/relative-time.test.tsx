// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { RelativeTime } from '../../../renderer/src/components/RelativeTime.js';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('RelativeTime', () => {
  it('says how long ago, shows the exact local time on hover, and moves on every minute', () => {
    vi.useFakeTimers({ now: new Date('2026-03-01T12:00:00.000Z') });
    const iso = '2026-03-01T11:55:00.000Z';
    render(<RelativeTime iso={iso} />);
    const time = screen.getByText('5 min ago');
    expect(time.tagName).toBe('TIME');
    expect(time.getAttribute('datetime')).toBe(iso);
    expect(time.getAttribute('title')).toBe(new Date(iso).toLocaleString());
    act(() => {
      vi.advanceTimersByTime(60_000);
    });
    expect(screen.getByText('6 min ago')).toBeTruthy();
  });

  it('shows a dash for a time that is not there', () => {
    render(<RelativeTime iso={null} />);
    expect(screen.getByText('—')).toBeTruthy();
  });
});
