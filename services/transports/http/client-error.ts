/**
 * What a client gets when Node cannot read its request at all, before the app sees it: the error
 * object of every other GET error (docs/contract.md, "Errors"), not Node's empty status line. A
 * request line and headers over Node's limit (a long polygon in the URL) is a 431; a request that
 * is not HTTP, a 400; one that took too long to arrive, Node's 408; a connection the client reset,
 * nothing (no one is there to read it).
 */
import { maxHeaderSize } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ErrorCode } from '../../kernel/errors';

const answer = (status: number, reason: string, code: ErrorCode, message: string): string => {
  const body = JSON.stringify({ error: { code, message } });
  return (
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
  );
};

export function answerClientError(err: Error & { code?: string }, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') return void socket.end('HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n');
  if (err.code === 'HPE_HEADER_OVERFLOW') {
    const limit = `${Math.round(maxHeaderSize / 1024)} KiB`;
    return void socket.end(
      answer(
        431,
        'Request Header Fields Too Large',
        'headers_too_large',
        `The request line and headers are over ${limit}: send a shorter URL (a polygon of fewer vertices) or fewer headers.`,
      ),
    );
  }
  socket.end(answer(400, 'Bad Request', 'invalid_parameters', 'The request could not be read as HTTP/1.1.'));
}
