/** The `serve` command: the evidence door and the read-only benchmark API (behaviour unchanged). */
import { Command } from "commander";
import { action, int, openPlatform, storeOptions, type StoreOpts } from "./common.js";
import { serveDoor } from "../server.js";

/** Registers the `serve` command: the evidence door and the read-only benchmark API (behaviour unchanged). */
export function registerServeCommand(program: Command): void {
  storeOptions(
    program.command("serve").description("serve the evidence door and the read-only benchmark API (Hono)"),
  )
    .option("--port <port>", "TCP port (0..65535)", int("port", 0, 65535), 8787)
    .option("--host <host>", "bind address", "127.0.0.1")
    .action(
      action(async (o: StoreOpts & { port: number; host: string }) => {
        const platform = await openPlatform(o);
        let door: Awaited<ReturnType<typeof serveDoor>>;
        try {
          door = await serveDoor(platform, { port: o.port, host: o.host });
        } catch (e) {
          platform.close();
          throw e;
        }
        process.stderr.write(`evidence door at ${door.url}/api/v1/benchmarks\n`);
        await new Promise<void>((resolve) => {
          const stop = () => resolve();
          process.once("SIGINT", stop);
          process.once("SIGTERM", stop);
        });
        await door.close();
        platform.close();
      }),
    );
}
