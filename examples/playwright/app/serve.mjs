// Serves app/index.html on 127.0.0.1:$PORT: a stand-in for your app's dev server.
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';

const page = await readFile(new URL('index.html', import.meta.url));
createServer((req, res) => {
  res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(page);
}).listen(Number(process.env.PORT), '127.0.0.1');
