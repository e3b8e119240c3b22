import { createContext, useContext, type ReactNode } from 'react';

/** How this window is signed in, and how it signs out (browser only; the desktop window cannot). */
export interface Session {
  /** Null in the desktop window, whose preload token is not a session. */
  signOut: (() => void) | null;
}

const SessionContext = createContext<Session>({ signOut: null });

export function SessionProvider({ session, children }: { session: Session; children: ReactNode }) {
  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}

export const useSession = (): Session => useContext(SessionContext);
