// Test helper: a real node:http server on 127.0.0.1, port 0. Not used by the client itself.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';

export interface ReceivedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: Buffer;
}

export type TestHandler = (request: ReceivedRequest, res: ServerResponse) => void | Promise<void>;

export interface TestServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  /** Every request received, in order. */
  readonly requests: ReceivedRequest[];
  /** TCP connections accepted so far. */
  connections(): number;
  /** Destroys open sockets and stops listening. */
  close(): Promise<void>;
}

/** Starts a server whose handler sees each request with its whole body already read. */
export async function startTestServer(handler: TestHandler): Promise<TestServer> {
  const requests: ReceivedRequest[] = [];
  const sockets = new Set<Socket>();
  let connections = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const received: ReceivedRequest = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) };
      requests.push(received);
      Promise.resolve()
        .then(() => handler(received, res))
        .catch((error: unknown) => {
          res.destroy(error instanceof Error ? error : new Error(String(error)));
        });
    });
  });
  server.on('connection', (socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    connections: () => connections,
    // Closing twice is closing once (a test may stop the server mid-test: a node gone).
    close: () =>
      new Promise<void>((resolve, reject) => {
        for (const socket of sockets) socket.destroy();
        if (!server.listening) return resolve();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** Answers with a JSON body (text given as is, so tests control every byte). */
export function sendJson(res: ServerResponse, text: string, status = 200): void {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** A port that was just bound and released: nothing listens there. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface RawTestServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  /** TCP connections accepted so far. */
  connections(): number;
  /** Destroys open sockets and stops listening. */
  close(): Promise<void>;
}

/**
 * A node:net server on 127.0.0.1, port 0, that hands each connection to `onConnection` as a bare
 * socket: the test writes and reads raw bytes, so it can answer early, reset, or send non-HTTP.
 */
export async function startRawTestServer(onConnection: (socket: Socket) => void): Promise<RawTestServer> {
  const sockets = new Set<Socket>();
  let connections = 0;
  const server = createTcpServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    // Resets the client causes (it drops the socket once it has its answer) are expected.
    socket.on('error', () => undefined);
    onConnection(socket);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    connections: () => connections,
    // Closing twice is closing once (a test may stop the server mid-test: a node gone).
    close: () =>
      new Promise<void>((resolve, reject) => {
        for (const socket of sockets) socket.destroy();
        if (!server.listening) return resolve();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/**
 * Reads from `socket` until the end of a request head (CRLF CRLF), at most 64 KiB, then stops
 * reading. Resolves with the head as latin1 text and the bytes read past it.
 */
export function readRequestHead(socket: Socket): Promise<{ readonly head: string; readonly rest: Buffer }> {
  return new Promise((resolve, reject) => {
    let buffered = Buffer.alloc(0);
    const onData = (chunk: Buffer): void => {
      buffered = Buffer.concat([buffered, chunk]);
      const end = buffered.indexOf('\r\n\r\n');
      if (end === -1 && buffered.length < 64 * 1024) return;
      socket.off('data', onData);
      socket.off('end', onEnd);
      socket.pause();
      if (end === -1) reject(new Error('no request head within 64 KiB'));
      else resolve({ head: buffered.toString('latin1', 0, end + 4), rest: buffered.subarray(end + 4) });
    };
    const onEnd = (): void => reject(new Error(`connection ended before a request head: ${JSON.stringify(buffered.toString('latin1'))}`));
    socket.on('data', onData);
    socket.once('end', onEnd);
  });
}
