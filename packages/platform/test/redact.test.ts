/** What of a secret-bearing URL may be printed (issue 13 re-probe: the serve banner printed --rpc-url whole). */
import { describe, expect, it } from "vitest";
import {
  bareOrigin,
  describePostgres,
  publicOrigin,
  publicUrl,
  publicUrlRemoved,
  redactRpc,
  redactSecretUrl,
  redactUrl,
} from "../src/index.js";

describe("redaction", () => {
  it("an RPC URL is shown by its origin only, in every form a message may hold it", () => {
    const url = "https://base-mainnet.example.com/v2/PROVIDER_SECRET?x=1";
    expect(publicOrigin(url)).toBe("https://base-mainnet.example.com");
    expect(publicOrigin("not a url PROVIDER_SECRET")).toBe("(not a URL)");
    expect(publicOrigin("data:PROVIDER_SECRET")).toBe("(not a URL)");
    const upper = "HTTPS://Base-Mainnet.example.com/v2/PROVIDER_SECRET";
    const text = `failed: ${url} ${JSON.stringify({ url })}`;
    expect(redactRpc(text, url)).not.toContain("PROVIDER_SECRET");
    expect(redactRpc(`fetch ${new URL(upper).href} failed`, upper)).not.toContain("PROVIDER_SECRET");
  });

  it("the rest of the text is left as it was: a URL's `/` after the host stays (review: `http://h:1bounties/7`)", () => {
    for (const url of ["http://127.0.0.1:9", "http://127.0.0.1:9/", "https://idx.example.com"]) {
      const text = `GET ${url.replace(/\/$/, "")}/bounties/7: unreachable; see ${url}`;
      expect(redactRpc(text, url), url).toBe(text);
    }
    const keyed = "http://u:P@127.0.0.1:9/v1/IDXKEY/";
    expect(redactRpc("GET http://u:P@127.0.0.1:9/v1/IDXKEY/bounties/7 failed", keyed)).toBe(
      "GET http://127.0.0.1:9/bounties/7 failed",
    );
    expect(redactRpc("GET http://127.0.0.1:9/v1/IDXKEY/bounties/7", "http://127.0.0.1:9/v1/IDXKEY")).toBe(
      "GET http://127.0.0.1:9/bounties/7",
    );
  });

  it("an unparseable database URL masks a secret parameter's whole value, spaces included (review)", () => {
    const url = "postgresql://u:p@h1:5432,h2:5433/db?options=-c password=hunter2&sslmode=require";
    expect(redactUrl(url)).toBe("postgresql://u:***@h1:5432,h2:5433/db?options=***&sslmode=require");
  });

  it("a database URL never shows its password, also when it is given in the query", () => {
    const url = "postgresql://bb:DB_PASSWORD@db.example:5432/bench?password=DB_PASSWORD&sslmode=require";
    expect(redactUrl(url)).not.toContain("DB_PASSWORD");
    expect(redactUrl(url)).toContain("sslmode=require");
    expect(describePostgres(url)).toBe("postgresql db.example:5432/bench");
  });

  it("every query parameter naming a password, secret, token or key is masked, in any case", () => {
    const url =
      "postgresql://bb:Leak1@db.example:5432/bench?sslpassword=Leak7c&SSLKEY=Leak2&client_secret=Leak3" +
      "&access_Token=Leak4&api_key=Leak5&options=-c%20password%3DLeak6&sslmode=require&application_name=bb";
    const out = redactUrl(url);
    expect(out).not.toMatch(/Leak/);
    expect(out).toContain("sslmode=require");
    expect(out).toContain("application_name=bb");
    expect(out).toContain("sslpassword=***");
    // probe9 Q1: names that say auth, signature, JWT, pw, credential or session
    const more = redactUrl(
      "http://idx.example/v1?auth=L1&sig=L2&jwt=L3&pw=L4&credential=L5&sessionid=L6&limit=5",
    );
    expect(more).not.toMatch(/L\d/);
    expect(more).toContain("limit=5");
    // a string `new URL` refuses is masked too
    const bad = "postgresql://bb:Leak1@[bad/bench?sslpassword=Leak7c&sslmode=require";
    expect(redactUrl(bad)).not.toMatch(/Leak/);
    expect(redactUrl(bad)).toContain("sslmode=require");
  });

  it("a URL new URL refuses masks the whole password, up to the last @ (probe8 P3)", () => {
    // libpq's multi-host form and a port over 65535, with an unencoded @ in the password
    const multi =
      "postgresql://postgres:p8@LeakTail9@127.0.0.1:5432,127.0.0.1:5433/nodb_p8?sslpassword=Leak2&sslmode=require";
    expect(redactUrl(multi)).toBe(
      "postgresql://postgres:***@127.0.0.1:5432,127.0.0.1:5433/nodb_p8?sslpassword=***&sslmode=require",
    );
    expect(describePostgres(multi)).not.toMatch(/Leak|p8@/);
    const port = "postgresql://postgres:Le@k8cTAIL@127.0.0.1:99999/nodb_p8";
    expect(redactUrl(port)).toBe("postgresql://postgres:***@127.0.0.1:99999/nodb_p8");
    expect(describePostgres(port)).not.toMatch(/k8cTAIL/);
    // a / in the password of an unparseable URL: still masked
    expect(redactUrl("postgresql://u:a/Leak@b@h:99999/db")).toBe("postgresql://u:***@h:99999/db");
  });

  it("an operator's URL with anything past its origin is not served as it stands (probe9 Q1)", () => {
    expect(bareOrigin("http://idxuser:IDXPASS@127.0.0.1:42069/")).toBe("http://127.0.0.1:42069");
    expect(bareOrigin("https://idx.example")).toBe("https://idx.example");
    expect(bareOrigin("http://127.0.0.1:42069/?")).toBe("http://127.0.0.1:42069"); // an empty query
    for (const url of [
      "http://127.0.0.1:42069/v1/IDXPATHKEY9",
      "http://127.0.0.1:42069/v1/IDXPATHKEY9/",
      "http://127.0.0.1:42069/?chain=1",
      "http://127.0.0.1:42069/#IDXFRAG",
      "http://127.0.0.1:42069/%2e%2e/KEY",
      "not a url SECRET",
      "data:SECRET",
    ])
      expect(bareOrigin(url), url).toBeUndefined();
    expect(publicOrigin("http://u:P@idx.example:8080/v1/IDXPATHKEY9?sig=S#F")).toBe(
      "http://idx.example:8080",
    );
  });

  it("what a public URL leaves out is named, never its value (probe10 R11: the banner says it)", () => {
    const url = "http://u:PUBRPCPW10@127.0.0.1:39671/v3/PUBRPCPATH10?key=PUBRPCK10&token=PUBRPCT10&x=1#F";
    expect(publicUrl(url)).toBe("http://127.0.0.1:39671/v3/PUBRPCPATH10?x=1");
    expect(publicUrlRemoved(url)).toEqual(["userinfo", "parameters key, token", "the fragment"]);
    expect(publicUrlRemoved("https://idx.example/api?api_key=K")).toEqual(["parameter api_key"]);
    expect(publicUrlRemoved("https://mainnet.base.org")).toEqual([]);
    expect(publicUrlRemoved("not a url")).toEqual([]);
  });

  it("a public URL is its origin and path, without userinfo, secret parameters or fragment (probe8 P4)", () => {
    expect(publicUrl("http://idxuser:IDXPASS8@127.0.0.1:34517/?token=IDXTOK8")).toBe(
      "http://127.0.0.1:34517",
    );
    expect(publicUrl("https://u:P@idx.example/ponder/?api_key=K&chain=8453#frag")).toBe(
      "https://idx.example/ponder?chain=8453",
    );
    expect(publicUrl("http://127.0.0.1:42069")).toBe("http://127.0.0.1:42069");
    expect(publicUrl("not a url SECRET")).toBe("(not a URL)");
    const secret = "http://u:IDXPASS@127.0.0.1:1/?token=IDXTOK";
    const text = `indexer ${secret} and ${JSON.stringify({ secret })} and ${new URL(secret).href}`;
    const out = redactSecretUrl(text, secret, publicUrl(secret));
    expect(out).not.toMatch(/IDXPASS|IDXTOK/);
    expect(out).toContain("http://127.0.0.1:1");
  });
});
