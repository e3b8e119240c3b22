/** The tray's text for a number of running agents (tooltip everywhere, title beside the icon on macOS). */
export interface TrayLabel {
  tooltip: string;
  /** Empty when nothing runs, so the macOS menu bar stays quiet. */
  title: string;
  menuLabel: string;
}

export function trayLabel(runningAgents: number): TrayLabel {
  const n = Number.isInteger(runningAgents) && runningAgents > 0 ? runningAgents : 0;
  const phrase = n === 0 ? 'No agent running' : n === 1 ? '1 agent running' : `${n} agents running`;
  return { tooltip: `Headcount: ${phrase.toLowerCase()}`, title: n === 0 ? '' : String(n), menuLabel: phrase };
}
