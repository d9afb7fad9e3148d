/**
 * ChatGPT's older widget globals, read where its host sets them: `window.openai.toolInput` and
 * `toolOutput` (the arguments and the structuredContent), `toolResponseMetadata` (the result's _meta),
 * `theme`, the `openai:set_globals` event when they change, `sendFollowUpMessage` and `openExternal`.
 */

export interface OpenAiGlobals {
  toolInput?: Record<string, unknown>;
  toolOutput?: unknown;
  toolResponseMetadata?: Record<string, unknown> | null;
  theme?: string;
  sendFollowUpMessage?: (args: { prompt: string }) => Promise<void>;
  openExternal?: (args: { href: string }) => void;
}

declare global {
  interface Window {
    openai?: OpenAiGlobals;
  }
}

export const openAiGlobals = (): OpenAiGlobals | undefined => window.openai;

/**
 * Calls `read` with the globals (when set) once the caller's module has run (the globals may be
 * there before the widget's script: its own constants must exist first), and each time ChatGPT says they changed.
 */
export function watchOpenAi(read: (globals: OpenAiGlobals) => void): void {
  const fire = (): void => {
    if (window.openai) read(window.openai);
  };
  window.addEventListener('openai:set_globals', fire);
  queueMicrotask(fire);
}
