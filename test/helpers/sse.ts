export interface SseEvent {
  id: string;
  event: string;
  data: any;
  raw: string;
}

/**
 * Reads a Server-Sent Events stream with fetch, as the renderer does (EventSource cannot send a
 * bearer token). Events accumulate in `events`; `waitFor(n)` resolves once n have arrived.
 */
export async function openSse(url: string, headers: Record<string, string>) {
  const controller = new AbortController();
  const res = await fetch(url, { headers, signal: controller.signal });
  const events: SseEvent[] = [];
  const waiters: (() => void)[] = [];
  let rawText = '';
  let buffer = '';
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  void (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        const chunk = decoder.decode(value, { stream: true });
        rawText += chunk;
        buffer += chunk;
        let idx;
        while ((idx = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, idx);
          buffer = buffer.slice(idx + 2);
          const fields: Record<string, string> = Object.fromEntries(
            block
              .split('\n')
              .filter((l) => l && !l.startsWith(':'))
              .map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 2)]),
          );
          if (fields.event) events.push({ id: fields.id ?? '', event: fields.event, data: JSON.parse(fields.data ?? 'null'), raw: block });
          waiters.splice(0).forEach((w) => w());
        }
      }
    } catch {
      // aborted by close()
    }
  })();
  const waitFor = async (n: number, timeoutMs = 5000) => {
    const deadline = Date.now() + timeoutMs;
    while (events.length < n) {
      if (Date.now() > deadline) throw new Error(`only ${events.length} events`);
      await new Promise<void>((r) => {
        waiters.push(r);
        setTimeout(r, 100);
      });
    }
    return events;
  };
  return { res, events, raw: () => rawText, waitFor, close: () => controller.abort() };
}
