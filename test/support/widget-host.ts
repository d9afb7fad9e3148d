/**
 * A minimal MCP Apps host for the browser tests: the widget's HTML in a sandboxed iframe (as hosts
 * load views), the `ui/initialize` handshake answered (with the test's host context), then the tool's
 * input and its real result delivered as `ui/notifications/tool-input` and `ui/notifications/tool-result`.
 * Every message the widget sends is kept in `window.__sent`; `ui/message` requests in `window.__messages`,
 * `ui/open-link` URLs in `window.__links`, display-mode requests in `window.__modes` (answered with the
 * mode, then a `host-context-changed`); `tools/call` goes to the test's `__callTool` when it exposes one;
 * `ui/notifications/size-changed` sizes the frame. The host's script is plain browser JavaScript in a
 * string (the tests' TypeScript has no DOM types).
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
window.__sent = [];
window.__links = [];
window.__modes = [];
window.__initialized = false;
const send = (msg) => frame.contentWindow.postMessage(Object.assign({ jsonrpc: '2.0' }, msg), '*');
window.addEventListener('message', async (event) => {
  const m = event.data;
  if (event.source !== frame.contentWindow || !m || m.jsonrpc !== '2.0') return;
  window.__sent.push(m);
  if (m.method === 'ui/initialize') {
    send({ id: m.id, result: {
      protocolVersion: m.params.protocolVersion,
      hostInfo: { name: 'widget-test-host', version: '1.0.0' },
      hostCapabilities: data.host.capabilities,
      hostContext: data.host.context,
    } });
  } else if (m.method === 'ui/open-link') {
    window.__links.push(m.params.url);
    send({ id: m.id, result: {} });
  } else if (m.method === 'ui/request-display-mode') {
    window.__modes.push(m.params.mode);
    // Full screen, as hosts show it: the frame over the whole page, whatever size the widget reports.
    window.__fullscreen = m.params.mode === 'fullscreen';
    frame.style.cssText += window.__fullscreen ? ';position:fixed;inset:0;height:100vh' : ';position:static';
    send({ id: m.id, result: { mode: m.params.mode } });
    send({ method: 'ui/notifications/host-context-changed', params: { displayMode: m.params.mode } });
  } else if (m.method === 'tools/call' && window.__callTool) {
    try {
      send({ id: m.id, result: await window.__callTool(m.params) });
    } catch (err) {
      send({ id: m.id, error: { code: -32603, message: String(err) } });
    }
  } else if (m.method === 'ui/notifications/initialized') {
    window.__initialized = true;
    send({ method: 'ui/notifications/tool-input', params: { arguments: data.input } });
    send({ method: 'ui/notifications/tool-result', params: data.result });
  } else if (m.method === 'ui/message') {
    window.__messages.push(m.params);
    send({ id: m.id, result: {} });
  } else if (m.method === 'ui/notifications/size-changed' && m.params.height && !window.__fullscreen) {
    frame.style.height = m.params.height + 'px';
  }
});
frame.srcdoc = data.html;
`;

/** JSON safe inside a <script> element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

/** What the test host offers the widget in its `ui/initialize` answer. */
export interface HostOffer {
  capabilities: Record<string, unknown>;
  context: Record<string, unknown>;
}

/** A host that offers nothing beyond the handshake, in the light theme, inline. */
export const PLAIN_HOST: HostOffer = { capabilities: {}, context: { theme: 'light', displayMode: 'inline' } };

/** A host that opens links, proxies tool calls and can show the widget full screen. */
export const FULL_HOST: HostOffer = {
  capabilities: { openLinks: {}, serverTools: {}, message: { text: {} } },
  context: { theme: 'light', displayMode: 'inline', availableDisplayModes: ['inline', 'fullscreen'] },
};

export async function showInHost(page: Page, html: string, input: Record<string, unknown>, result: HostedResult, host: HostOffer = PLAIN_HOST): Promise<void> {
  await page.setContent(
    '<!doctype html><html><body style="margin:0;background:#eef1f5">' +
      '<iframe id="view" sandbox="allow-scripts" style="display:block;border:0;width:100%;height:200px;background:#fff"></iframe>' +
      `<script type="application/json" id="data">${scriptJson({ html, input, result, host })}</script>` +
      `<script>${HOST_SCRIPT}</script></body></html>`,
  );
}

/** The `ui/message` requests the widget sent, oldest first. */
export async function hostMessages(page: Page): Promise<Array<{ role: string; content: Array<{ type: string; text: string }> }>> {
  return page.evaluate('window.__messages');
}

/** Every JSON-RPC message the widget sent its host, oldest first. */
export async function sentToHost(page: Page): Promise<Array<{ method?: string; id?: number | string; params?: Record<string, unknown> }>> {
  return page.evaluate('window.__sent');
}

/** The URLs the widget asked the host to open. */
export async function openedLinks(page: Page): Promise<string[]> {
  return page.evaluate('window.__links');
}

/**
 * A full-page screenshot of the host page. Chromium's capture beyond the viewport narrows a cross-origin
 * frame for a moment, which the widget's auto-resize answers (a blank shot): the page is first made as
 * tall as the frame (`height`).
 */
export async function fullPageShot(page: Page, height: number, file: string): Promise<void> {
  const size = page.viewportSize();
  if (size && height > size.height) await page.setViewportSize({ width: size.width, height });
  await page.screenshot({ path: file, fullPage: true });
}
