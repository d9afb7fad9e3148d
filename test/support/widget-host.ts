/**
 * A minimal MCP Apps host for the browser tests: the widget's HTML in a sandboxed iframe (as hosts
 * load views), the `ui/initialize` handshake answered, then the tool's input and its real result
 * delivered as `ui/notifications/tool-input` and `ui/notifications/tool-result`. `ui/message`
 * requests are kept in `window.__messages`; `ui/notifications/size-changed` sizes the frame.
 * The host's script is plain browser JavaScript in a string (the tests' TypeScript has no DOM types).
 */
import type { Page } from 'playwright-core';

export interface HostedResult {
  content?: unknown[];
  structuredContent?: unknown;
  _meta?: Record<string, unknown>;
  isError?: boolean;
}

const HOST_SCRIPT = `
const data = JSON.parse(document.getElementById('data').textContent);
const frame = document.getElementById('view');
window.__messages = [];
window.__initialized = false;
const send = (msg) => frame.contentWindow.postMessage(Object.assign({ jsonrpc: '2.0' }, msg), '*');
window.addEventListener('message', (event) => {
  const m = event.data;
  if (event.source !== frame.contentWindow || !m || m.jsonrpc !== '2.0') return;
  if (m.method === 'ui/initialize') {
    send({ id: m.id, result: {
      protocolVersion: m.params.protocolVersion,
      hostInfo: { name: 'widget-test-host', version: '1.0.0' },
      hostCapabilities: {},
      hostContext: { theme: 'light', displayMode: 'inline' },
    } });
  } else if (m.method === 'ui/notifications/initialized') {
    window.__initialized = true;
    send({ method: 'ui/notifications/tool-input', params: { arguments: data.input } });
    send({ method: 'ui/notifications/tool-result', params: data.result });
  } else if (m.method === 'ui/message') {
    window.__messages.push(m.params);
    send({ id: m.id, result: {} });
  } else if (m.method === 'ui/notifications/size-changed' && m.params.height) {
    frame.style.height = m.params.height + 'px';
  }
});
frame.srcdoc = data.html;
`;

/** JSON safe inside a <script> element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

export async function showInHost(page: Page, html: string, input: Record<string, unknown>, result: HostedResult): Promise<void> {
  await page.setContent(
    '<!doctype html><html><body style="margin:0;background:#eef1f5">' +
      '<iframe id="view" sandbox="allow-scripts" style="display:block;border:0;width:100%;height:200px;background:#fff"></iframe>' +
      `<script type="application/json" id="data">${scriptJson({ html, input, result })}</script>` +
      `<script>${HOST_SCRIPT}</script></body></html>`,
  );
}

/** The `ui/message` requests the widget sent, oldest first. */
export async function hostMessages(page: Page): Promise<Array<{ role: string; content: Array<{ type: string; text: string }> }>> {
  return page.evaluate('window.__messages');
}
