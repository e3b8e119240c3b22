// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render } from '@testing-library/react';
import { Markdown } from '../../../renderer/src/components/Markdown.js';

afterEach(cleanup);

describe('Markdown', () => {
  it('renders GitHub-flavoured markdown', () => {
    const { container } = render(<Markdown>{'# Plan\n\n**bold** and ~~gone~~\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n- [x] done'}</Markdown>);
    expect(container.querySelector('h1')?.textContent).toBe('Plan');
    expect(container.querySelector('strong')?.textContent).toBe('bold');
    expect(container.querySelector('del')?.textContent).toBe('gone');
    expect(container.querySelectorAll('td')).toHaveLength(2);
    expect(container.querySelector('input[type="checkbox"]')).not.toBeNull();
  });

  it('opens links in a new tab without opener or referrer', () => {
    const { container } = render(<Markdown>{'[docs](https://example.com/x) and https://example.org'}</Markdown>);
    const links = [...container.querySelectorAll('a')];
    expect(links.map((a) => a.getAttribute('href'))).toEqual(['https://example.com/x', 'https://example.org']);
    for (const a of links) {
      expect(a.getAttribute('target')).toBe('_blank');
      expect(a.getAttribute('rel')).toBe('noopener noreferrer');
    }
  });

  it('renders no script, handler or javascript: link an agent could write', () => {
    const hostile = [
      '<script>window.pwned = 1</script>',
      '<img src="x" onerror="window.pwned = 1">',
      '[click](javascript:window.pwned=1)',
      '[data](data:text/html,<script>alert(1)</script>)',
      '<a href="javascript:alert(1)">raw</a>',
      '<iframe src="https://evil.example"></iframe>',
    ].join('\n\n');
    const { container } = render(<Markdown>{hostile}</Markdown>);
    expect(container.querySelector('script, iframe, img[onerror]')).toBeNull();
    for (const a of container.querySelectorAll('a')) expect(a.getAttribute('href') ?? '').not.toMatch(/^(javascript|data):/i);
    expect(container.innerHTML).not.toMatch(/onerror|javascript:/i);
  });
});
