import { useEffect, useRef } from 'react';
import { Button } from './Button.js';

/**
 * The end of a list with more pages: loads the next one when it scrolls into view, and is a
 * button too (keyboard users, or a viewport the observer never reports).
 */
export function LoadMore({ loading, onVisible, label = 'Load more' }: { loading: boolean; onVisible?: (() => void) | undefined; label?: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el || !onVisible || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) onVisible();
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [onVisible]);
  return (
    <div ref={ref} className="load-more" role="status">
      <Button size="sm" variant="ghost" busy={loading} onClick={onVisible}>{loading ? 'Loading…' : label}</Button>
    </div>
  );
}
