/** What every routed page receives. `companyId` is the selected company (pages under the shell always have one). */
export interface PageProps {
  companyId: string;
  params: Record<string, string>;
  query: URLSearchParams;
}
