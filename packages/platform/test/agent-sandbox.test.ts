/**
 * Issue 13 item 3, re-probed: under bubblewrap a CLI agent started by a root runner kept every
 * capability (`CapEff: 000001fffeffffff`), so it could `umount` the tmpfs that hides the store and
 * read every gold answer. The sandbox now drops every capability: the unmount is refused, the store
 * stays hidden, and the agent's effective capability set is empty. SQLite only: a PostgreSQL store
 * is no local file to hide.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { bubblewrapAvailable } from "../src/agent-process.js";
import { runBenchmark } from "../src/runner.js";
import { cities, cleanup, manualClock, openTemp, tempDir, TEST_ENGINE, CITIES_PUBLISH } from "./helpers.js";

afterEach(cleanup);

describe.skipIf(!bubblewrapAvailable() || TEST_ENGINE !== "sqlite")(
  "a sandboxed CLI agent cannot unhide the store",
  () => {
    it("has no capabilities, cannot umount the store's tmpfs, and never reads a gold", async () => {
      const clock = manualClock();
      const h = await openTemp({ clock: clock.now });
      const ds = await h.createDataset(cities(2));
      const { slug } = await h.publish(ds.dataset_id, {
        ...CITIES_PUBLISH,
      });
      const storeDir = h.ctx.store.dir;
      const spy = join(tempDir(), "escape.sh");
      // what the probe's agent did: umount the tmpfs over the store, then read the store file
      writeFileSync(
        spy,
        `#!/bin/sh
cat > /dev/null
cap=$(grep CapEff /proc/self/status | tr -s '\\t ' ' ' | cut -d' ' -f2)
umount ${JSON.stringify(storeDir)} 2>/dev/null && um=unmounted || um=refused
files=$(ls -A ${JSON.stringify(storeDir)} | wc -l)
printf '{"answers":[{"ordinal":0,"answer_text":"cap=%s umount=%s files=%s"}]}' "$cap" "$um" "$files"
`,
        { mode: 0o755 },
      );
      const r = await runBenchmark(await h.backend("escaper"), slug, "escaper", {
        kind: "command",
        command: `sh ${spy}`,
      });
      const answers = await h.runAnswers(r.run_id);
      const report = [...answers.values()][0]!;
      expect(report).toBe("cap=0000000000000000 umount=refused files=0");
    }, 60_000);
  },
);
