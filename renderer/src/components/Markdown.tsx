import ReactMarkdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import rehypeSanitize from 'rehype-sanitize';
import './markdown.css';

/**
 * Links leave the board in a new tab with no opener and no referrer; in the desktop window the main
 * process's allow-listed window-open policy decides what opens (main/electron).
 */
const components: Components = {
  a: ({ node: _node, ...props }) => <a {...props} target="_blank" rel="noopener noreferrer" />,
};

/**
 * Text written by the founder or an agent (issue descriptions, comments, documents, approvals) as
 * GitHub-flavoured markdown. react-markdown builds React elements (never innerHTML) and raw HTML
 * in the text is not rendered; rehype-sanitize (GitHub's schema) still strips what an agent could
 * smuggle through markdown itself, such as `javascript:` links.
 */
export function Markdown({ children, className }: { children: string; className?: string }) {
  return (
    <div className={className ? `md ${className}` : 'md'}>
      <ReactMarkdown remarkPlugins={[remarkGfm]} rehypePlugins={[rehypeSanitize]} components={components}>
        {children}
      </ReactMarkdown>
    </div>
  );
}
