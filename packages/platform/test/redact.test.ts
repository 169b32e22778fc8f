/** What of a secret-bearing URL may be printed (issue 13 re-probe: the serve banner printed --rpc-url whole). */
import { describe, expect, it } from "vitest";
import { describePostgres, publicRpcOrigin, redactRpc, redactUrl } from "../src/index.js";

describe("redaction", () => {
  it("an RPC URL is shown by its origin only, in every form a message may hold it", () => {
    const url = "https://base-mainnet.example.com/v2/PROVIDER_SECRET?x=1";
    expect(publicRpcOrigin(url)).toBe("https://base-mainnet.example.com");
    expect(publicRpcOrigin("not a url PROVIDER_SECRET")).toBe("(not a URL)");
    expect(publicRpcOrigin("data:PROVIDER_SECRET")).toBe("(not a URL)");
    const upper = "HTTPS://Base-Mainnet.example.com/v2/PROVIDER_SECRET";
    const text = `failed: ${url} ${JSON.stringify({ url })}`;
    expect(redactRpc(text, url)).not.toContain("PROVIDER_SECRET");
    expect(redactRpc(`fetch ${new URL(upper).href} failed`, upper)).not.toContain("PROVIDER_SECRET");
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
    // a string `new URL` refuses is masked too
    const bad = "postgresql://bb:Leak1@[bad/bench?sslpassword=Leak7c&sslmode=require";
    expect(redactUrl(bad)).not.toMatch(/Leak/);
    expect(redactUrl(bad)).toContain("sslmode=require");
  });
});
