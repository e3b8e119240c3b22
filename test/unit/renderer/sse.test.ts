import { describe, expect, it } from 'vitest';
import { SseParser } from '../../../renderer/src/api/sse.js';

describe('SseParser', () => {
  it('parses events split at any byte boundary, like the core writes them', () => {
    const wire = 'retry: 2000\n\nid: b.1\nevent: issue.created\ndata: {"entityId":"x"}\n\n: keepalive\n\nid: b.2\nevent: run.log\ndata: {"data":"line"}\n\n';
    for (let cut = 0; cut <= wire.length; cut++) {
      const p = new SseParser();
      const events = [...p.push(wire.slice(0, cut)), ...p.push(wire.slice(cut))];
      expect(events).toEqual([
        { id: 'b.1', type: 'issue.created', data: '{"entityId":"x"}' },
        { id: 'b.2', type: 'run.log', data: '{"data":"line"}' },
      ]);
    }
  });

  it('joins multi-line data, accepts CRLF and keeps the last id for events without one', () => {
    const p = new SseParser();
    const events = p.push('id: a.7\r\ndata: one\r\ndata: two\r\n\r\ndata:three\n\n');
    expect(events).toEqual([
      { id: 'a.7', type: 'message', data: 'one\ntwo' },
      { id: 'a.7', type: 'message', data: 'three' },
    ]);
  });

  it('waits for the blank line before emitting, and treats a trailing CR as possibly half of CRLF', () => {
    const p = new SseParser();
    expect(p.push('event: x\ndata: 1\r')).toEqual([]);
    expect(p.push('\n\r\n')).toEqual([{ id: null, type: 'x', data: '1' }]);
  });
});
