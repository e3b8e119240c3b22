/**
 * The tray's text for a number of running agents and of inbox items waiting on the founder
 * (tooltip everywhere, title beside the icon on macOS).
 */
export interface TrayLabel {
  tooltip: string;
  /** Empty when nothing runs, so the macOS menu bar stays quiet. */
  title: string;
  menuLabel: string;
  /** "3 items in your inbox", or null when it is empty. */
  inboxLabel: string | null;
}

const count = (n: number) => (Number.isInteger(n) && n > 0 ? n : 0);

export function trayLabel(runningAgents: number, inboxItems = 0): TrayLabel {
  const n = count(runningAgents);
  const waiting = count(inboxItems);
  const phrase = n === 0 ? 'No agent running' : n === 1 ? '1 agent running' : `${n} agents running`;
  const inboxLabel = waiting === 0 ? null : waiting === 1 ? '1 item in your inbox' : `${waiting} items in your inbox`;
  return { tooltip: `Headcount: ${phrase.toLowerCase()}${inboxLabel ? `, ${inboxLabel}` : ''}`, title: n === 0 ? '' : String(n), menuLabel: phrase, inboxLabel };
}
