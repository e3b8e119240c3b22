/** One Server-Sent Event as the company stream sends it. */
export interface SseEvent {
  id: string | null;
  type: string;
  data: string;
}

/**
 * Incremental text/event-stream parser (the WHATWG rules the core's stream needs): feed it decoded
 * text in any chunking, get whole events back. Comment lines (keepalives) and `retry:` are skipped.
 */
export class SseParser {
  private buffer = '';
  private id: string | null = null;
  private type = '';
  private data: string[] = [];

  push(text: string): SseEvent[] {
    this.buffer += text;
    const events: SseEvent[] = [];
    for (;;) {
      const nl = this.buffer.search(/\r\n|\r|\n/);
      if (nl < 0) break;
      const width = this.buffer.startsWith('\r\n', nl) ? 2 : 1;
      // A lone \r at the very end may be the first half of \r\n: wait for more text.
      if (this.buffer[nl] === '\r' && width === 1 && nl === this.buffer.length - 1) break;
      const line = this.buffer.slice(0, nl);
      this.buffer = this.buffer.slice(nl + width);
      const event = this.line(line);
      if (event) events.push(event);
    }
    return events;
  }

  private line(line: string): SseEvent | null {
    if (line === '') {
      if (this.data.length === 0 && !this.type) return null;
      const event = { id: this.id, type: this.type || 'message', data: this.data.join('\n') };
      this.type = '';
      this.data = [];
      return event;
    }
    if (line.startsWith(':')) return null;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.type = value;
    else if (field === 'id' && !value.includes('\0')) this.id = value;
    return null;
  }
}
