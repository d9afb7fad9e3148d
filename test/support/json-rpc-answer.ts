/**
 * The JSON-RPC message of a tool-server answer, however it came: a JSON body (2026-07-28, and every
 * refusal), or the one `message` event of the event stream a 2025 request is answered with.
 */
export function jsonRpcMessage<T = any>(text: string): T {
  if (!/^(event|data|id|retry):|^:/.test(text.trimStart())) return JSON.parse(text) as T;
  const events = text.split(/\r?\n\r?\n/).map((event) =>
    event
      .split(/\r?\n/)
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).replace(/^ /, ''))
      .join('\n'),
  );
  const data = events.filter((d) => d.length > 0);
  if (data.length !== 1) throw new Error(`expected one message in the event stream, got ${data.length}`);
  return JSON.parse(data[0]) as T;
}

/** The JSON-RPC message of a fetch() answer (see jsonRpcMessage). */
export async function jsonRpcOf<T = any>(res: Response): Promise<T> {
  return jsonRpcMessage<T>(await res.text());
}
