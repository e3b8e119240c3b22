/**
 * Why `sourcePath` is refused, or null when it is a clean relative path. Pure, so the same rule
 * guards the API and the post-issue hook that later joins the path under a content root.
 *
 * Refused: empty, absolute (`/x`, `\x`), drive letters (`C:`), UNC, backslashes (a Windows
 * separator would slip past a `/` split), any `.` or `..` segment, empty segments (`a//b`), NUL and
 * control characters, and percent-encoded forms of any of these (`%2e%2e%2f`, double-encoded too).
 */
export function sourcePathProblem(path: string): string | null {
  if (path.length === 0) return 'must not be empty';
  for (let i = 0; i < path.length; i++) {
    const code = path.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return 'must not contain control characters';
  }
  if (path.includes('\\')) return 'must use / as separator (no backslashes)';
  if (path.includes('%')) {
    // Decode repeatedly: a double-encoded `%252e%252e` must not survive a later decode.
    let decoded = path;
    for (let i = 0; i < 5 && decoded.includes('%'); i++) {
      let next: string;
      try {
        next = decodeURIComponent(decoded);
      } catch {
        return 'must not contain malformed percent-encoding';
      }
      if (next === decoded) break;
      decoded = next;
    }
    if (decoded !== path) {
      const inner = sourcePathProblem(decoded);
      if (inner) return `percent-encoded form ${inner}`;
    }
  }
  if (path.startsWith('/')) return 'must be relative (no leading /)';
  if (/^[A-Za-z]:/.test(path)) return 'must be relative (no drive letter)';
  for (const segment of path.split('/')) {
    if (segment === '') return 'must not contain empty segments (// or a trailing /)';
    if (segment === '..') return 'must not contain parent-directory traversal (..)';
    if (segment === '.') return 'must not contain . segments';
  }
  return null;
}
