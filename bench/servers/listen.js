/** How the reference servers of bench/servers listen: on 127.0.0.1, --port N or 0, printing `PORT <n>`. */
import console from 'node:console';
import process from 'node:process';

function portArgument(argv) {
  const index = argv.indexOf('--port');
  return index >= 0 ? Number(argv[index + 1]) : 0;
}

/** Listens on the port the command line asks for (0 unless given) and prints the one it got. */
export function listenAndPrintPort(server) {
  server.listen(portArgument(process.argv), '127.0.0.1', () => {
    const address = server.address();
    console.log(`PORT ${typeof address === 'object' && address !== null ? address.port : ''}`);
  });
}
