// A real SMTP server for the browser tests ("the email arriving at the local SMTP
// server"): it accepts every message on SMTP_PORT and keeps it in memory; HTTP_PORT answers
// GET /messages with them all (raw, as received) and GET /healthz for Playwright's start-up wait.
// It speaks enough of RFC 5321 for lettre: EHLO, MAIL, RCPT, DATA with dot-unstuffing, RSET,
// NOOP, QUIT.
import { createServer as createTcpServer } from 'node:net';
import { createServer as createHttpServer } from 'node:http';

const smtpPort = Number(process.env.SMTP_PORT ?? 18525);
const httpPort = Number(process.env.HTTP_PORT ?? 18526);
const messages = [];

createTcpServer((socket) => {
  let buffer = '';
  let inData = false;
  let data = [];
  let envelope = { from: '', to: [] };
  const reply = (line) => socket.write(`${line}\r\n`);
  reply('220 sink.test ESMTP');
  socket.setEncoding('utf8');
  socket.on('data', (chunk) => {
    buffer += chunk;
    let end;
    while ((end = buffer.indexOf('\r\n')) >= 0) {
      const line = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      if (inData) {
        if (line === '.') {
          inData = false;
          messages.push({ from: envelope.from, to: envelope.to, data: `${data.join('\r\n')}\r\n`, received: new Date().toISOString() });
          data = [];
          reply('250 OK: queued');
        } else {
          data.push(line.startsWith('..') ? line.slice(1) : line);
        }
        continue;
      }
      const upper = line.toUpperCase();
      if (upper.startsWith('EHLO')) reply('250-sink.test\r\n250-8BITMIME\r\n250 SMTPUTF8');
      else if (upper.startsWith('HELO')) reply('250 sink.test');
      else if (upper.startsWith('MAIL FROM:')) {
        envelope = { from: line.slice(10).trim(), to: [] };
        reply('250 OK');
      } else if (upper.startsWith('RCPT TO:')) {
        envelope.to.push(line.slice(8).trim());
        reply('250 OK');
      } else if (upper === 'DATA') {
        inData = true;
        reply('354 End data with <CR><LF>.<CR><LF>');
      } else if (upper === 'RSET' || upper === 'NOOP') reply('250 OK');
      else if (upper === 'QUIT') {
        reply('221 Bye');
        socket.end();
      } else reply('502 Command not implemented');
    }
  });
  socket.on('error', () => {});
}).listen(smtpPort, '127.0.0.1');

createHttpServer((req, res) => {
  if (req.url === '/healthz') {
    res.writeHead(200).end('ok');
  } else if (req.url === '/messages') {
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(messages));
  } else {
    res.writeHead(404).end();
  }
}).listen(httpPort, '127.0.0.1');
