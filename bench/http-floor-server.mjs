// One POST route, the shape of a checkout (a path parameter, a JSON body, a JSON answer), served by
// Fastify or by node:http alone: bench/http-floor.mjs measures what the framework costs a request.
// Usage: node bench/http-floor-server.mjs fastify|node   (prints "listening on <url>")
import Fastify from 'fastify';
import http from 'node:http';

const answer = (id, body) => `{"id":"${id}","expected":${body.expectedStatuses.length}}`;
if (process.argv[2] === 'fastify') {
  const app = Fastify({ logger: false });
  app.post('/rules/issues/:id/checkout', (req, reply) => reply.header('content-type', 'application/json; charset=utf-8').send(answer(req.params.id, req.body)));
  process.stdout.write(`listening on ${await app.listen({ host: '127.0.0.1', port: 0 })}\n`);
} else {
  const route = /^\/rules\/issues\/([^/]+)\/checkout$/;
  const server = http.createServer((req, res) => {
    const m = route.exec(req.url);
    if (req.method !== 'POST' || !m) {
      res.writeHead(404).end();
      return;
    }
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const out = answer(m[1], JSON.parse(body));
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(out) }).end(out);
    });
  });
  // Fastify's default, so autocannon's connections live as long on both.
  server.keepAliveTimeout = 72_000;
  server.listen(0, '127.0.0.1', () => process.stdout.write(`listening on http://127.0.0.1:${server.address().port}\n`));
}
