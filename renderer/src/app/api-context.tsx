import { createContext, useContext, useEffect, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { ApiClient } from '../api/client.js';
import { EventStream } from '../api/event-stream.js';
import { Invalidator, invalidationsFor } from '../api/live.js';
import { runLogBus } from '../api/run-log-bus.js';
import { useUi } from '../stores/ui.js';

const ApiContext = createContext<ApiClient | null>(null);

export function ApiProvider({ client, children }: { client: ApiClient; children: ReactNode }) {
  return <ApiContext.Provider value={client}>{children}</ApiContext.Provider>;
}

/** The API client of this window. Every page reads and writes through it. */
export function useApi(): ApiClient {
  const client = useContext(ApiContext);
  if (!client) throw new Error('useApi outside ApiProvider');
  return client;
}

/**
 * Follows the selected company's event stream for as long as it is selected: run output goes to
 * the run-log bus, everything else invalidates the matching queries.
 */
export function LiveUpdates({ companyId }: { companyId: string }) {
  const client = useApi();
  const queryClient = useQueryClient();
  const setLive = useUi((s) => s.setLive);
  useEffect(() => {
    const invalidator = new Invalidator(queryClient);
    const stream = new EventStream({
      client,
      companyId,
      onEvent: (e) => {
        if (e.type === 'run.log') runLogBus.publish(e.data);
        else invalidator.add(invalidationsFor(companyId, e));
      },
      onReset: () => invalidator.all(),
      onStatus: (status) => {
        setLive(status);
        // After a drop, what was missed may not all be replayable: refetch what is on screen.
        if (status === 'live') invalidator.add([{ queryKey: ['company', companyId] }]);
      },
    });
    stream.start();
    return () => {
      stream.stop();
      invalidator.dispose();
    };
  }, [client, companyId, queryClient, setLive]);
  return null;
}
