/**
 * The widget's side of its host, without a library (docs/decisions.md, "The widgets"):
 * - MCP Apps (extension `io.modelcontextprotocol/ui`, protocol 2026-01-26): JSON-RPC 2.0 over
 *   postMessage with the parent window. The view asks `ui/initialize`, answers with
 *   `ui/notifications/initialized`, then receives `ui/notifications/tool-result` (the CallToolResult:
 *   structuredContent, content, _meta). A click is sent back as a `ui/message` request.
 * - ChatGPT's older globals: `window.openai.toolOutput` (the structuredContent),
 *   `toolResponseMetadata` (the result's _meta), the `openai:set_globals` event when they change,
 *   and `sendFollowUpMessage`.
 */

export const PROTOCOL_VERSION = '2026-01-26';

export interface ContentBlock {
  type: string;
  text?: string;
  data?: string;
  mimeType?: string;
  _meta?: Record<string, unknown>;
}

/** What a widget renders: a tool result as a host hands it over. */
export interface ToolResultPayload {
  structuredContent?: unknown;
  content?: ContentBlock[];
  _meta?: Record<string, unknown>;
  isError?: boolean;
}

interface OpenAiGlobals {
  toolOutput?: unknown;
  toolResponseMetadata?: Record<string, unknown> | null;
  theme?: string;
  sendFollowUpMessage?: (args: { prompt: string }) => Promise<void>;
}

declare global {
  interface Window {
    openai?: OpenAiGlobals;
  }
}

interface JsonRpcMessage {
  jsonrpc: '2.0';
  id?: number | string;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

export interface HostBridge {
  /** Asks the host to send `text` as the user's next message (MCP Apps `ui/message`, or ChatGPT's follow-up). */
  sendMessage(text: string): void;
}

function isRpc(data: unknown): data is JsonRpcMessage {
  return typeof data === 'object' && data !== null && (data as { jsonrpc?: unknown }).jsonrpc === '2.0';
}

function applyTheme(theme: unknown): void {
  if (theme === 'dark' || theme === 'light') document.documentElement.dataset.theme = theme;
}

export function connectHost(appName: string, onResult: (result: ToolResultPayload) => void): HostBridge {
  let nextId = 1;
  let initialized = false;
  const pending = new Map<number | string, (msg: JsonRpcMessage) => void>();
  const parent = window.parent !== window ? window.parent : null;
  const post = (msg: JsonRpcMessage): void => parent?.postMessage(msg, '*');
  const request = (method: string, params: Record<string, unknown>, then?: (msg: JsonRpcMessage) => void): void => {
    const id = nextId++;
    if (then) pending.set(id, then);
    post({ jsonrpc: '2.0', id, method, params });
  };

  window.addEventListener('message', (event: MessageEvent<unknown>) => {
    if (!parent || event.source !== parent || !isRpc(event.data)) return;
    const msg = event.data;
    if (msg.method === undefined && msg.id !== undefined) {
      pending.get(msg.id)?.(msg);
      pending.delete(msg.id);
      return;
    }
    if (msg.method === 'ui/notifications/tool-result' && msg.params) onResult(msg.params as ToolResultPayload);
    if (msg.method === 'ui/notifications/host-context-changed') applyTheme(msg.params?.theme);
    if (msg.id !== undefined && msg.method) {
      // Requests from the host: teardown and ping need only an empty answer; nothing else is offered.
      const known = msg.method === 'ui/resource-teardown' || msg.method === 'ping';
      post(known ? { jsonrpc: '2.0', id: msg.id, result: {} } : { jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: `Method not found: ${msg.method}` } });
    }
  });

  if (parent) {
    request('ui/initialize', { appInfo: { name: appName, version: '1.0.0' }, appCapabilities: {}, protocolVersion: PROTOCOL_VERSION }, (answer) => {
      if (answer.error) return;
      initialized = true;
      const context = answer.result?.hostContext as { theme?: unknown } | undefined;
      applyTheme(context?.theme);
      post({ jsonrpc: '2.0', method: 'ui/notifications/initialized', params: {} });
      reportSize();
    });
  }

  // The host sizes the frame from the content.
  let lastHeight = 0;
  const reportSize = (): void => {
    const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (!initialized || height === lastHeight) return;
    lastHeight = height;
    post({ jsonrpc: '2.0', method: 'ui/notifications/size-changed', params: { height } });
  };
  new ResizeObserver(reportSize).observe(document.documentElement);

  const fromOpenAi = (): void => {
    const openai = window.openai;
    if (!openai) return;
    applyTheme(openai.theme);
    if (openai.toolOutput != null) onResult({ structuredContent: openai.toolOutput, _meta: openai.toolResponseMetadata ?? undefined });
  };
  window.addEventListener('openai:set_globals', fromOpenAi);
  fromOpenAi();

  return {
    sendMessage(text) {
      if (initialized) request('ui/message', { role: 'user', content: [{ type: 'text', text }] }, () => undefined);
      else void window.openai?.sendFollowUpMessage?.({ prompt: text });
    },
  };
}
