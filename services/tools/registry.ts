/**
 * The one tool registry. Both transports and the three documents (tools.json, the tools
 * markdown, openapi.json) are derived from this list; nothing else names a tool.
 */
import { getApartmentTool } from './get-apartment';
import { getFlexOptionsTool } from './get-flex-options';
import { getQuoteTool } from './get-quote';
import { listMarketsTool } from './list-markets';
import { policiesFaqTool } from './policies-faq';
import type { AnyTool } from './tool';

export const TOOLS: readonly AnyTool[] = [
  listMarketsTool,
  getApartmentTool,
  getFlexOptionsTool,
  getQuoteTool,
  policiesFaqTool,
];
