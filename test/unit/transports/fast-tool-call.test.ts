import { fastToolCall } from '../../../services/transports/mcp/fast-tool-call';
import type { ToolServerContext } from '../../../services/transports/mcp/tool-call';
import { TOOLS } from '../../../services/tools/registry';

const context = { tools: TOOLS } as unknown as ToolServerContext;
const MODERN = '2026-07-28';
const legacyHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const modernHeaders = { ...legacyHeaders, 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'get_quote_tool' };
const envelope = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {} };
const args = { home_slug: 'a', start_date: '2027-01-01', end_date: '2027-02-01' };
const call = (params: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ jsonrpc: '2.0', id: 3, method: 'tools/call', params, ...extra });

describe('which tool calls skip the SDK server', () => {
  it('takes a plain 2025 call, with or without its protocol-version header', () => {
    expect(fastToolCall(call({ name: 'get_quote_tool', arguments: args }), legacyHeaders, context)).toEqual({
      era: 'legacy',
      id: 3,
      args,
      tool: expect.objectContaining({ name: 'get_quote_tool' }),
      rendersWidgets: false,
    });
    expect(fastToolCall(call({ name: 'get_quote_tool', arguments: args }), { ...legacyHeaders, 'mcp-protocol-version': '2025-06-18' }, context)?.era).toBe(
      'legacy',
    );
    expect(fastToolCall(call({ name: 'list_markets_tool' }), legacyHeaders, context)?.args).toEqual({});
  });

  it('takes a plain 2026-07-28 call whose headers name what its body names (spaces tolerated)', () => {
    expect(fastToolCall(call({ name: 'get_quote_tool', arguments: args, _meta: envelope }), modernHeaders, context)?.era).toBe('modern');
    expect(
      fastToolCall(call({ name: 'get_quote_tool', arguments: args, _meta: envelope }), { ...modernHeaders, 'mcp-name': '  get_quote_tool ' }, context)?.era,
    ).toBe('modern');
    const withClientInfo = { ...envelope, 'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' } };
    expect(fastToolCall(call({ name: 'get_quote_tool', arguments: args, _meta: withClientInfo }), modernHeaders, context)?.era).toBe('modern');
  });

  it('carries whether a 2026-07-28 client renders the widgets (it declared MCP Apps with their MIME type)', () => {
    const ui = (mimeTypes: string[]) => ({
      ...envelope,
      'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes } } },
    });
    const renders = (meta: Record<string, unknown>) =>
      fastToolCall(call({ name: 'get_quote_tool', arguments: args, _meta: meta }), modernHeaders, context)?.rendersWidgets;
    expect(renders(ui(['text/html;profile=mcp-app']))).toBe(true);
    expect(renders(ui(['text/html;profile=other']))).toBe(false);
    expect(renders(envelope)).toBe(false);
    expect(fastToolCall(call({ name: 'get_quote_tool', arguments: args }), legacyHeaders, context)?.rendersWidgets).toBe(false);
  });

  it.each([
    ['a batch', [call({ name: 'get_quote_tool', arguments: args })], legacyHeaders],
    ['a notification', { jsonrpc: '2.0', method: 'tools/call', params: { name: 'get_quote_tool' } }, legacyHeaders],
    ['another method', { jsonrpc: '2.0', id: 1, method: 'tools/list' }, legacyHeaders],
    ['a null id', call({ name: 'get_quote_tool' }, { id: null }), legacyHeaders],
    ['a fractional id', call({ name: 'get_quote_tool' }, { id: 1.5 }), legacyHeaders],
    ['an unknown tool', call({ name: 'no_such_tool' }), legacyHeaders],
    ['a prototype name as the tool', call({ name: 'constructor' }), legacyHeaders],
    ['the write that asks for confirmation', call({ name: 'booking_intent_tool', arguments: { email: 'a@b.c', guest_consent: true } }), legacyHeaders],
    ['arguments that are not an object', call({ name: 'get_quote_tool', arguments: [1] }), legacyHeaders],
    ['an unknown params key', call({ name: 'get_quote_tool', arguments: args, task: {} }), legacyHeaders],
    ['a 2025 _meta (progress token)', call({ name: 'get_quote_tool', arguments: args, _meta: { progressToken: 1 } }), legacyHeaders],
    ['a 2025 call that does not accept event streams', call({ name: 'get_quote_tool', arguments: args }), { ...legacyHeaders, accept: 'application/json' }],
    [
      'a 2025 call with an unknown protocol version',
      call({ name: 'get_quote_tool', arguments: args }),
      { ...legacyHeaders, 'mcp-protocol-version': '1999-01-01' },
    ],
    ['a 2025 call with a session id', call({ name: 'get_quote_tool', arguments: args }), { ...legacyHeaders, 'mcp-session-id': 'abc' }],
    ['a body that is not JSON', call({ name: 'get_quote_tool', arguments: args }), { ...legacyHeaders, 'content-type': 'text/plain' }],
    [
      'a 2026 call whose Mcp-Name differs',
      call({ name: 'get_quote_tool', arguments: args, _meta: envelope }),
      { ...modernHeaders, 'mcp-name': 'get_apartment_tool' },
    ],
    ['a 2026 call without Mcp-Method', call({ name: 'get_quote_tool', arguments: args, _meta: envelope }), { ...modernHeaders, 'mcp-method': undefined }],
    [
      'a 2026 call without its version header',
      call({ name: 'get_quote_tool', arguments: args, _meta: envelope }),
      { ...modernHeaders, 'mcp-protocol-version': undefined },
    ],
    [
      'a 2026 envelope without capabilities',
      call({ name: 'get_quote_tool', arguments: args, _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN } }),
      modernHeaders,
    ],
    [
      'a 2026 envelope with a log level',
      call({ name: 'get_quote_tool', arguments: args, _meta: { ...envelope, 'io.modelcontextprotocol/logLevel': 'info' } }),
      modernHeaders,
    ],
    ['a 2026 retry with input responses', call({ name: 'get_quote_tool', arguments: args, _meta: envelope, inputResponses: {} }), modernHeaders],
    [
      'an envelope naming another version',
      call({ name: 'get_quote_tool', arguments: args, _meta: { ...envelope, 'io.modelcontextprotocol/protocolVersion': 'v999' } }),
      modernHeaders,
    ],
  ])('leaves %s to the SDK', (_what, body, headers) => {
    expect(fastToolCall(body, headers as Record<string, string>, context)).toBeNull();
  });
});
