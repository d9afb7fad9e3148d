/**
 * The widget's side of its host through the MCP Apps SDK (`@modelcontextprotocol/ext-apps`' `App`,
 * protocol 2026-01-26, docs/decisions.md "The widgets"): the tool's input and result come in, a click
 * goes out as `ui/message`, a link through `ui/open-link` (the sandbox blocks navigation), a widget's
 * own search through `tools/call`; the host's theme, style variables and fonts are applied, the frame
 * is sized from the content (auto-resize) and the host's display mode is followed. ChatGPT's older
 * globals are read as well (./openai-globals.ts).
 */
import { App, applyDocumentTheme, applyHostFonts, applyHostStyleVariables, type McpUiDisplayMode, type McpUiHostContext } from '@modelcontextprotocol/ext-apps';
import { openAiGlobals, watchOpenAi } from './openai-globals';

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

export type ToolArguments = Record<string, unknown>;

export interface HostCallbacks {
  onResult(result: ToolResultPayload): void;
  /** The arguments the tool was called with, when the host says. */
  onInput?(args: ToolArguments): void;
  /** The display mode the host now shows the widget in, and the modes it offers. */
  onDisplayMode?(mode: McpUiDisplayMode, available: readonly McpUiDisplayMode[]): void;
}

export interface WidgetHost {
  /** Asks the host to send `text` as the user's next message (MCP Apps `ui/message`, or ChatGPT's follow-up). */
  sendMessage(text: string): void;
  /** Asks the host to open `url` outside the sandbox (MCP Apps `ui/open-link`, or ChatGPT's openExternal). */
  openLink(url: string): void;
  /** True when the host proxies the widget's calls of the server's tools. */
  canCallTools(): boolean;
  /** One of the server's tools, called through the host with no model turn. */
  callTool(name: string, args: ToolArguments): Promise<ToolResultPayload>;
  /** Asks the host for a display mode; answers the mode it set. */
  requestDisplayMode(mode: McpUiDisplayMode): Promise<McpUiDisplayMode>;
}

const VERSION = '1.0.0';

function applyContext(context: McpUiHostContext, callbacks: HostCallbacks, app: App): void {
  if (context.theme) applyDocumentTheme(context.theme);
  if (context.styles?.variables) applyHostStyleVariables(context.styles.variables);
  if (context.styles?.css?.fonts) applyHostFonts(context.styles.css.fonts);
  const full = app.getHostContext();
  const mode = context.displayMode ?? full?.displayMode;
  if (mode) {
    document.documentElement.dataset.displayMode = mode;
    callbacks.onDisplayMode?.(mode, full?.availableDisplayModes ?? []);
  }
}

export function connectHost(appName: string, callbacks: HostCallbacks, displayModes: McpUiDisplayMode[] = ['inline']): WidgetHost {
  const app = new App({ name: appName, version: VERSION }, { availableDisplayModes: displayModes }, { autoResize: true });
  let connected = false;
  app.ontoolresult = (result) => callbacks.onResult(result);
  app.ontoolinput = ({ arguments: args }) => {
    if (args) callbacks.onInput?.(args);
  };
  app.onhostcontextchanged = (context) => applyContext(context, callbacks, app);
  app.onteardown = async () => ({});
  if (window.parent !== window) {
    app
      .connect()
      .then(() => {
        connected = true;
        applyContext(app.getHostContext() ?? {}, callbacks, app);
      })
      .catch(() => undefined); // no MCP Apps host in the parent: ChatGPT's globals, if any, stand in
  }
  watchOpenAi((globals) => {
    if (globals.theme === 'dark' || globals.theme === 'light') applyDocumentTheme(globals.theme);
    if (globals.toolInput) callbacks.onInput?.(globals.toolInput);
    if (globals.toolOutput != null) callbacks.onResult({ structuredContent: globals.toolOutput, _meta: globals.toolResponseMetadata ?? undefined });
  });

  return {
    sendMessage(text) {
      if (connected) void app.sendMessage({ role: 'user', content: [{ type: 'text', text }] }).catch(() => undefined);
      else void openAiGlobals()?.sendFollowUpMessage?.({ prompt: text });
    },
    openLink(url) {
      const openai = openAiGlobals();
      if (connected) void app.openLink({ url }).catch(() => undefined);
      else if (openai?.openExternal) openai.openExternal({ href: url });
      else window.open(url, '_blank', 'noopener');
    },
    canCallTools: () => connected && app.getHostCapabilities()?.serverTools !== undefined,
    callTool: (name, args) => app.callServerTool({ name, arguments: args }),
    requestDisplayMode: async (mode) => (connected ? (await app.requestDisplayMode({ mode })).mode : 'inline'),
  };
}
