// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StrictMode } from 'react';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { TranscriptWriter, readTranscript } from '../../../main/core/heartbeat/transcript.js';
import { TranscriptPanel } from '../../../renderer/src/transcript/TranscriptPanel.js';
import { ApiProvider } from '../../../renderer/src/app/api-context.js';
import { createApiClient } from '../../../renderer/src/api/client.js';
import { runLogBus } from '../../../renderer/src/api/run-log-bus.js';

/**
 * The transcript panel under React.StrictMode, which mounts, unmounts and remounts every effect in
 * development: the log must still be read and each live chunk shown once (one bus subscription,
 * a window that is not left disposed by the simulated unmount). The log route is served from the
 * core's own transcript writer and reader; only `fetch` is replaced, at the machine's edge.
 */
let dir: string;
let file: string;
let writer: TranscriptWriter;
let logFetches: number;

// jsdom lays nothing out: give the scroller a size so the virtualizer renders rows.
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'tx-strict-'));
  file = path.join(dir, 'run.jsonl');
  writer = new TranscriptWriter(file);
  logFetches = 0;
  Object.defineProperty(Element.prototype, 'clientHeight', { configurable: true, get: () => 600 });
  Object.defineProperty(Element.prototype, 'clientWidth', { configurable: true, get: () => 800 });
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
});
afterEach(() => {
  cleanup();
  writer.close();
  rmSync(dir, { recursive: true, force: true });
});

function write(data: string) {
  const { offset, nextOffset } = writer.append({ stream: 'stdout', at: Date.now(), data })!;
  writer.flush();
  return { runId: 'run-1', agentId: 'a', stream: 'stdout' as const, offset, nextOffset, data };
}

const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });

const fakeFetch: typeof fetch = async (input) => {
  const url = new URL(String(input));
  if (url.pathname.endsWith('/ui-parser')) {
    return json({ type: 'process', contractVersion: null, serverContractVersion: '1.0.0', compatible: false, source: null, reason: 'no_ui_parser' });
  }
  if (url.pathname === '/api/heartbeat-runs/run-1/log') {
    logFetches++;
    return json({ ...readTranscript(file, Number(url.searchParams.get('offset') ?? 0)), done: false });
  }
  return new Response('{}', { status: 404 });
};

function Harness() {
  const client = createApiClient({ apiBaseUrl: 'http://core.test', token: 't' }, fakeFetch);
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return (
    <QueryClientProvider client={queryClient}>
      <ApiProvider client={client}>
        <TranscriptPanel runId="run-1" adapterType="process" active purged={false} />
      </ApiProvider>
    </QueryClientProvider>
  );
}

const lines = (text: string) => screen.queryAllByText(text, { selector: '.tx-entry, .tx-entry *' });

describe('TranscriptPanel under StrictMode', () => {
  it('reads the log and shows each live line once', async () => {
    write('from the log\n');
    render(
      <StrictMode>
        <Harness />
      </StrictMode>,
    );
    await waitFor(() => expect(lines('from the log')).toHaveLength(1));
    const chunk = write('live line\n');
    act(() => runLogBus.publish({ ...chunk }));
    await waitFor(() => expect(lines('live line')).toHaveLength(1));
    // A second delivery of the same bytes (a replay after a reconnect) is not shown twice either.
    act(() => runLogBus.publish({ ...chunk }));
    await act(() => new Promise((r) => setTimeout(r, 20)));
    expect(lines('live line')).toHaveLength(1);
    expect(lines('from the log')).toHaveLength(1);
    expect(logFetches).toBeGreaterThan(0);
  });

  it('leaves no run-log subscription behind once unmounted', async () => {
    const { unmount } = render(
      <StrictMode>
        <Harness />
      </StrictMode>,
    );
    await waitFor(() => expect(screen.getByRole('log', { name: 'Run transcript' })).toBeTruthy());
    expect(runLogBus.listenerCount('run-1')).toBe(1);
    unmount();
    expect(runLogBus.listenerCount('run-1')).toBe(0);
  });
});
