/**
 * Product names of the adapter types. The type keys (`vendor_a_local`…) are the API's words; the
 * board shows the product a founder knows. A plugin's type not listed here shows the label it was
 * installed with, else its key.
 */
const PRODUCT_NAMES: Readonly<Record<string, string>> = {
  process: 'Process',
  http: 'HTTP',
  vendor_a_local: 'Claude Code',
  vendor_b_local: 'Codex',
  vendor_c_local: 'Gemini CLI',
  vendor_d_local: 'OpenCode',
  vendor_e: 'Cursor',
  vendor_f_local: 'Pi',
  vendor_g_local: 'Qwen Code',
  vendor_h_gateway: 'OpenClaw gateway',
};

export function adapterLabel(type: string, installedLabel?: string): string {
  return PRODUCT_NAMES[type] ?? installedLabel ?? type;
}

/** Types that start no coding agent on this computer: a plain command, a webhook, a remote gateway. */
const NOT_CODING_CLIS = new Set(['process', 'http', 'vendor_h_gateway']);

/** A coding-agent CLI on this computer (built-in or plugin), the kind onboarding proposes first. */
export const isCodingCli = (type: string): boolean => !NOT_CODING_CLIS.has(type);
